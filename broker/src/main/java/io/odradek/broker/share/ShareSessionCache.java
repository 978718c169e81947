package io.odradek.broker.share;

import io.odradek.wire.ErrorCode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The broker's share sessions (Kafka's ShareSessionCache with SharePartitionManager.newContext and
 * acknowledgeSessionUpdate). Epoch 0 opens a session (replacing the member's previous one), -1 closes it,
 * any other epoch must be the one the session expects and moves it on. At most {@code maxSessions}
 * (group.share.max.share.sessions) sessions; there is no eviction, as in Kafka: a member refused
 * SHARE_SESSION_LIMIT_REACHED retries. All methods are synchronized; nothing slow runs under the lock.
 *
 * <p>When the last session of a group on this broker leaves, the group-empty listener (Kafka's
 * ShareGroupListener.onGroupEmpty) runs, outside the lock: the share partitions close so that the next fetch
 * reads the persisted state afresh (an AlterShareGroupOffsets or DeleteGroups done meanwhile is seen).
 */
public final class ShareSessionCache {
    /** Kafka's ShareRequestMetadata epochs. */
    public static final int INITIAL_EPOCH = 0;
    public static final int FINAL_EPOCH = -1;

    /** What a ShareFetch works on once its session is settled. */
    public enum Kind { INITIAL, SUBSEQUENT, FINAL }

    /**
     * A ShareFetch's session context: the session (null for FINAL), the partitions to read now (the session's,
     * in its order; none for FINAL) and the epoch the session must still be at when the answer is made.
     */
    public record Context(Kind kind, ShareSession session, List<TopicIdPartition> partitions, int answerEpoch) {
    }

    private final int maxSessions;
    private final Map<ShareSession.Key, ShareSession> sessions = new HashMap<>();
    /** Sessions per group, to tell when a group's last one leaves. */
    private final Map<String, Integer> perGroup = new HashMap<>();
    private final Consumer<String> onGroupEmpty;

    public ShareSessionCache(int maxSessions) {
        this(maxSessions, groupId -> { });
    }

    /** @param onGroupEmpty runs with the group id when the group's last session here leaves */
    public ShareSessionCache(int maxSessions, Consumer<String> onGroupEmpty) {
        this.maxSessions = maxSessions;
        this.onGroupEmpty = onGroupEmpty;
    }

    /** Kafka's ShareRequestMetadata.nextEpoch. */
    public static int nextEpoch(int epoch) {
        if (epoch < 0) {
            return FINAL_EPOCH;
        }
        return epoch == Integer.MAX_VALUE ? 1 : epoch + 1;
    }

    /**
     * The context of a ShareFetch (Kafka's newContext): opens, continues or closes (FINAL: nothing is read; the
     * caller removes the session once the acknowledgements are applied) the member's session.
     *
     * @throws ShareSessionException SHARE_SESSION_NOT_FOUND, INVALID_SHARE_SESSION_EPOCH,
     *                               SHARE_SESSION_LIMIT_REACHED, or INVALID_REQUEST for acknowledgements in an
     *                               opening request
     */
    public Context newContext(String groupId, String memberId, int epoch, List<TopicIdPartition> toFetch,
            List<TopicIdPartition> toForget, boolean hasAcknowledgements) {
        try {
            return settleContext(groupId, memberId, epoch, toFetch, toForget, hasAcknowledgements);
        } catch (ShareSessionException e) {
            if (e.error() == ErrorCode.SHARE_SESSION_LIMIT_REACHED) {
                notifyIfEmpty(groupId); // the member's old session went, and the full cache refused the new one
            }
            throw e;
        }
    }

    private synchronized Context settleContext(String groupId, String memberId, int epoch,
            List<TopicIdPartition> toFetch, List<TopicIdPartition> toForget, boolean hasAcknowledgements) {
        ShareSession.Key key = new ShareSession.Key(groupId, memberId);
        if (epoch == FINAL_EPOCH) {
            if (!sessions.containsKey(key)) {
                throw new ShareSessionException(ErrorCode.SHARE_SESSION_NOT_FOUND, null);
            }
            return new Context(Kind.FINAL, null, List.of(), FINAL_EPOCH);
        }
        if (epoch == INITIAL_EPOCH) {
            if (hasAcknowledgements) {
                throw new ShareSessionException(ErrorCode.INVALID_REQUEST,
                        "Acknowledge data present in initial share fetch request");
            }
            removed(take(key));
            if (sessions.size() >= maxSessions) {
                throw new ShareSessionException(ErrorCode.SHARE_SESSION_LIMIT_REACHED, null);
            }
            ShareSession session = new ShareSession(key, toFetch.stream().distinct().toList(), nextEpoch(INITIAL_EPOCH));
            sessions.put(key, session);
            perGroup.merge(groupId, 1, Integer::sum);
            return new Context(Kind.INITIAL, session, session.partitions(), session.epoch());
        }
        ShareSession session = sessions.get(key);
        if (session == null) {
            throw new ShareSessionException(ErrorCode.SHARE_SESSION_NOT_FOUND, null);
        }
        if (session.epoch() != epoch) {
            throw new ShareSessionException(ErrorCode.INVALID_SHARE_SESSION_EPOCH, null);
        }
        session.update(toFetch, toForget);
        session.epoch(nextEpoch(epoch));
        return new Context(Kind.SUBSEQUENT, session, session.partitions(), session.epoch());
    }

    /**
     * Kafka's acknowledgeSessionUpdate for a ShareAcknowledge: epoch 0 is INVALID_SHARE_SESSION_EPOCH, -1 needs a
     * session and leaves it (the caller closes it after the acknowledgements), any other moves it on.
     */
    public synchronized void acknowledgeSessionUpdate(String groupId, String memberId, int epoch) {
        if (epoch == INITIAL_EPOCH) {
            throw new ShareSessionException(ErrorCode.INVALID_SHARE_SESSION_EPOCH, null);
        }
        ShareSession session = sessions.get(new ShareSession.Key(groupId, memberId));
        if (session == null) {
            throw new ShareSessionException(ErrorCode.SHARE_SESSION_NOT_FOUND, null);
        }
        if (epoch == FINAL_EPOCH) {
            return;
        }
        if (session.epoch() != epoch) {
            throw new ShareSessionException(ErrorCode.INVALID_SHARE_SESSION_EPOCH, null);
        }
        session.epoch(nextEpoch(epoch));
    }

    /**
     * Whether the answer of a request made at {@code context} may still be sent as a session answer: another
     * request of the session since (a retry while this one waited) makes it INVALID_SHARE_SESSION_EPOCH.
     */
    public synchronized boolean stillCurrent(Context context) {
        return context.session() == null || context.session().epoch() == context.answerEpoch();
    }

    /** Kafka's incremental answer rule for one partition (see {@link ShareSession#mustRespond}). */
    public synchronized boolean mustRespond(ShareSession session, TopicIdPartition p, boolean hasRecords, boolean hasError) {
        return session.mustRespond(p, hasRecords, hasError);
    }

    /** After a full answer: partitions that returned records go to the end of the session's order. */
    public synchronized void rotate(ShareSession session, List<TopicIdPartition> withRecords) {
        session.rotate(withRecords);
    }

    public synchronized ShareSession get(String groupId, String memberId) {
        return sessions.get(new ShareSession.Key(groupId, memberId));
    }

    /** The session's partitions now. */
    public synchronized List<TopicIdPartition> partitions(ShareSession session) {
        return session.partitions();
    }

    /** Removes the member's session; returns it, or null when there was none. */
    public ShareSession remove(String groupId, String memberId) {
        ShareSession session;
        synchronized (this) {
            session = removed(take(new ShareSession.Key(groupId, memberId)));
        }
        notifyIfEmpty(groupId);
        return session;
    }

    /** Removes exactly this session (a connection closing ends the session it opened, not a later one). */
    public boolean remove(ShareSession session) {
        boolean removed;
        synchronized (this) {
            removed = sessions.get(session.key()) == session;
            if (removed) {
                take(session.key());
                session.removed();
            }
        }
        if (removed) {
            notifyIfEmpty(session.key().groupId());
        }
        return removed;
    }

    /** Whether this session is still the one the cache holds for its member. */
    public synchronized boolean holds(ShareSession session) {
        return sessions.get(session.key()) == session;
    }

    /** Whether the group has a session here. */
    public synchronized boolean hasSessions(String groupId) {
        return perGroup.containsKey(groupId);
    }

    private ShareSession take(ShareSession.Key key) {
        ShareSession session = sessions.remove(key);
        if (session != null) {
            perGroup.computeIfPresent(key.groupId(), (g, n) -> n == 1 ? null : n - 1);
        }
        return session;
    }

    /** Runs the group-empty listener, outside the lock, if the group has no session left. */
    private void notifyIfEmpty(String groupId) {
        if (!hasSessions(groupId)) {
            onGroupEmpty.accept(groupId);
        }
    }

    /** Runs {@code action} once when the session leaves the cache, however it leaves (at once if it has). */
    public synchronized void onRemoved(ShareSession session, Runnable action) {
        if (sessions.get(session.key()) == session) {
            session.onRemoved(action);
        } else {
            action.run();
        }
    }

    private static ShareSession removed(ShareSession session) {
        if (session != null) {
            session.removed();
        }
        return session;
    }

    public synchronized int size() {
        return sessions.size();
    }
}
