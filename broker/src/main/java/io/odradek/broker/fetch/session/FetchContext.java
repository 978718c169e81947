package io.odradek.broker.fetch.session;

import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What a fetch request means for sessions (Kafka's FetchContext), made by {@link FetchSessionCache#newContext}:
 * which partitions to read, and, once read, what the response carries and with which session id. The session
 * changes Kafka makes when the response is made happen in {@link #answer}: a full request's new session is
 * created then, and an incremental session's cached high watermarks and log starts move to what is sent.
 */
public sealed interface FetchContext {
    /**
     * The partitions to read, in order: the request's (a full request) or every partition of the session (an
     * incremental one, walked under the session's lock: keep the action short).
     */
    void forEachPartition(Consumer<SessionPartition> action);

    /**
     * Called once, when the response is made from the partitions as read (in {@link #forEachPartition}'s
     * order): the response's error, session id and the partitions it carries.
     */
    <P extends PartitionRead> Answer<P> answer(List<P> read);

    /**
     * The answer for a response sent empty because its client is throttled (Kafka's getThrottledResponse): no
     * partitions and nothing recorded in the session, so the next request still gets what this one did not.
     */
    <P extends PartitionRead> Answer<P> throttled();

    /** The session id of the response and its partitions; a session error carries none. */
    record Answer<P>(ErrorCode error, int sessionId, List<P> partitions) {
    }

    /** A request the session cache refused: the response is the error alone (Kafka's SessionErrorContext). */
    record SessionError(ErrorCode error) implements FetchContext {
        @Override
        public void forEachPartition(Consumer<SessionPartition> action) {
        }

        @Override
        public <P extends PartitionRead> Answer<P> answer(List<P> read) {
            return new Answer<>(error, FetchMetadata.INVALID_SESSION_ID, List.of());
        }

        @Override
        public <P extends PartitionRead> Answer<P> throttled() {
            return answer(List.of());
        }
    }

    /**
     * A full request with epoch -1, or an incremental one whose session just closed: answered in full, no
     * session. {@link #FROM_REQUEST} holds no partitions: its caller reads the request's own.
     */
    record Sessionless(List<SessionPartition> requested) implements FetchContext {
        public static final Sessionless FROM_REQUEST = new Sessionless(List.of());

        @Override
        public void forEachPartition(Consumer<SessionPartition> action) {
            requested.forEach(action);
        }

        @Override
        public <P extends PartitionRead> Answer<P> answer(List<P> read) {
            return new Answer<>(ErrorCode.NONE, FetchMetadata.INVALID_SESSION_ID, read);
        }

        @Override
        public <P extends PartitionRead> Answer<P> throttled() {
            return answer(List.of());
        }
    }

    /**
     * A full request with epoch 0: answered in full, and a new session holding its partitions is created when
     * the response is made, if the cache has room (else session id 0: the fetcher keeps sending full requests).
     */
    final class Full implements FetchContext {
        private final FetchSessionCache cache;
        /** The request's partitions, once each; the new session's map, if one is made. */
        private final LinkedHashMap<SessionPartition, SessionPartition> requested;
        private final boolean usesTopicIds;
        private final boolean privileged;
        private final LongSupplier clock;

        Full(FetchSessionCache cache, LinkedHashMap<SessionPartition, SessionPartition> requested, boolean usesTopicIds, boolean privileged,
                LongSupplier clock) {
            this.cache = cache;
            this.requested = requested;
            this.usesTopicIds = usesTopicIds;
            this.privileged = privileged;
            this.clock = clock;
        }

        @Override
        public void forEachPartition(Consumer<SessionPartition> action) {
            requested.values().forEach(action);
        }

        @Override
        public <P extends PartitionRead> Answer<P> answer(List<P> read) {
            int sessionId = FetchMetadata.INVALID_SESSION_ID;
            if (requested.size() <= cache.maxSessionPartitions()) {
                sessionId = cache.nextShard().maybeCreate(clock.getAsLong(), privileged, requested.size(),
                        usesTopicIds, () -> cachedPartitions(read));
            }
            return new Answer<>(ErrorCode.NONE, sessionId, read);
        }

        @Override
        public <P extends PartitionRead> Answer<P> throttled() {
            return new Answer<>(ErrorCode.NONE, FetchMetadata.INVALID_SESSION_ID, List.of());
        }

        /** The request's own map becomes the session's, each partition knowing what its first response said. */
        private LinkedHashMap<SessionPartition, SessionPartition> cachedPartitions(List<? extends PartitionRead> read) {
            for (PartitionRead r : read) {
                r.sessionPartition().recordResponse(r);
            }
            return requested;
        }
    }

    /**
     * An incremental request of a known session at the expected epoch (the session already took the request's
     * changes and moved to its next epoch): every partition of the session is read, and the response carries
     * only those with something to say.
     */
    final class Incremental implements FetchContext {
        private final FetchSession session;
        private final int requestEpoch;
        private final Function<UUID, String> topicNames;

        Incremental(FetchSession session, int requestEpoch, Function<UUID, String> topicNames) {
            this.session = session;
            this.requestEpoch = requestEpoch;
            this.topicNames = topicNames;
        }

        @Override
        public void forEachPartition(Consumer<SessionPartition> action) {
            synchronized (session) {
                session.forEach(p -> {
                    if (session.usesTopicIds()) {
                        p.resolveName(topicNames);
                    }
                    action.accept(p);
                });
            }
        }

        @Override
        public <P extends PartitionRead> Answer<P> answer(List<P> read) {
            synchronized (session) {
                // Another request of this session came in meanwhile (a retry after a timeout): this one is stale.
                if (session.epoch() != FetchMetadata.nextEpoch(requestEpoch)) {
                    return new Answer<>(ErrorCode.INVALID_FETCH_SESSION_EPOCH, session.id(), List.of());
                }
                List<P> carried = new ArrayList<>();
                for (P r : read) {
                    SessionPartition p = r.sessionPartition();
                    if (session.contains(p) && p.mustRespond(r, true)) {
                        carried.add(r);
                        if (r.hasRecords()) {
                            session.moveToEnd(p);
                        }
                    }
                }
                return new Answer<>(ErrorCode.NONE, session.id(), carried);
            }
        }

        @Override
        public <P extends PartitionRead> Answer<P> throttled() {
            synchronized (session) {
                ErrorCode error = session.epoch() != FetchMetadata.nextEpoch(requestEpoch)
                        ? ErrorCode.INVALID_FETCH_SESSION_EPOCH : ErrorCode.NONE;
                return new Answer<>(error, session.id(), List.of());
            }
        }
    }
}
