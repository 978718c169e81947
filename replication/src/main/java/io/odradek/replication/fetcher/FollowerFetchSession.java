package io.odradek.replication.fetcher;

import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A follower's side of a KIP-227 incremental fetch session with its leader (Kafka's FetchSessionHandler, as its
 * replica fetcher uses it): the first request is full (epoch 0, asking for a session); once the leader answers
 * with a session id, each request names only the partitions that are new or whose fetch parameters changed,
 * and forgets those no longer fetched (removed, or paused after an error), so an idle follower of many
 * partitions sends and receives almost nothing. A session error (FETCH_SESSION_ID_NOT_FOUND,
 * INVALID_FETCH_SESSION_EPOCH, FETCH_SESSION_TOPIC_ID_ERROR), a leader that answers with session id 0, or a
 * lost connection starts over with a full request; as in Kafka, that request names the old session (but after
 * FETCH_SESSION_ID_NOT_FOUND), so the leader closes it rather than keep it until it is evicted. Used by one
 * fetcher thread only.
 */
final class FollowerFetchSession {
    /** What a request says about a partition; a change in any of it is sent again. */
    record Params(long fetchOffset, int currentLeaderEpoch, int lastFetchedEpoch, long logStartOffset, int maxBytes) {
    }

    /** One request to send: its session id and epoch, the partitions to name and those to forget. */
    record Next(int sessionId, int epoch, Map<ReplicaFetcher.Key, Params> toSend, List<ReplicaFetcher.Key> toForget) {
        boolean full() {
            return epoch == 0;
        }
    }

    /** The leader's session, or 0; while the next request is full, the session that request closes. */
    private int sessionId;
    /** The epoch of the next request: 0 (full, asking for a session) until the leader made one. */
    private int epoch;
    /** The partitions the leader's session holds, with what it was last told about them. */
    private final Map<ReplicaFetcher.Key, Params> session = new LinkedHashMap<>();
    /** What the session holds once the request in flight is answered. */
    private Map<ReplicaFetcher.Key, Params> pending;

    /** The request for fetching {@code wanted} (in order) now. */
    Next next(Map<ReplicaFetcher.Key, Params> wanted) {
        pending = new LinkedHashMap<>(wanted);
        if (epoch == 0) {
            return new Next(sessionId, 0, pending, List.of());
        }
        Map<ReplicaFetcher.Key, Params> toSend = new LinkedHashMap<>();
        wanted.forEach((key, params) -> {
            if (!Objects.equals(session.get(key), params)) {
                toSend.put(key, params);
            }
        });
        List<ReplicaFetcher.Key> toForget = new ArrayList<>();
        for (ReplicaFetcher.Key key : session.keySet()) {
            if (!wanted.containsKey(key)) {
                toForget.add(key);
            }
        }
        return new Next(sessionId, epoch, toSend, toForget);
    }

    /**
     * The leader answered the request {@link #next} made with this top-level error and session id: whether the
     * partitions it carries may be used (false after a session error: start over with a full request at once).
     */
    boolean handleResponse(ErrorCode error, int responseSessionId) {
        if (error != ErrorCode.NONE) {
            reset();
            if (error == ErrorCode.FETCH_SESSION_ID_NOT_FOUND) {
                sessionId = 0; // nothing to close
            }
            return false;
        }
        if (responseSessionId == 0) {
            // No room at the leader (full) or the session was closed there (incremental): full requests again.
            reset();
            sessionId = 0;
        } else {
            sessionId = responseSessionId;
            epoch = epoch == 0 || epoch == Integer.MAX_VALUE ? 1 : epoch + 1;
            session.clear();
            session.putAll(pending);
        }
        pending = null;
        return true;
    }

    /** The request failed (connection lost, no answer): the next one is full and closes the session. */
    void reset() {
        epoch = 0;
        session.clear();
        pending = null;
    }

    int sessionId() {
        return sessionId;
    }

    int epoch() {
        return epoch;
    }

    /** Whether an error is about the session rather than the fetch (the request is retried at once, full). */
    static boolean isSessionError(ErrorCode error) {
        return error == ErrorCode.FETCH_SESSION_ID_NOT_FOUND || error == ErrorCode.INVALID_FETCH_SESSION_EPOCH
                || error == ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR;
    }
}
