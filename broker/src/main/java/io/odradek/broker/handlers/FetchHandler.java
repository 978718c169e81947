package io.odradek.broker.handlers;

import io.netty.buffer.Unpooled;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.fetch.CancelOnClose;
import io.odradek.broker.fetch.CurrentLeader;
import io.odradek.broker.fetch.FileSliceRecords;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.log.EpochEndOffset;
import io.odradek.log.FileSlice;
import io.odradek.log.LogException;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.replication.partition.DelayedOperation;
import io.odradek.replication.partition.FetchIsolation;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.FetchApi.Request;
import io.odradek.wire.api.FetchApi.Request.FetchTopic;
import io.odradek.wire.api.FetchApi.Request.FetchTopic.FetchPartition;
import io.odradek.wire.api.FetchApi.Response;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Fetch (key 1), versions 4-18.
 *
 * <p>Behaviour / version notes:
 * <ul>
 * <li>No fetch sessions (KIP-227): every request is served in full and answered with session_id 0, which
 *     tells Kafka's {@code FetchSessionHandler} that no session was created, so it keeps sending full
 *     requests (session_id 0, epoch 0). An incremental request (epoch other than 0 / -1) names a session
 *     we cannot have: FETCH_SESSION_ID_NOT_FOUND at the top level, as Kafka answers for an unknown session;
 *     the client then starts over with a full request. forgotten_topics_data only matters in a session.</li>
 * <li>v13+ name topics by id (unknown: UNKNOWN_TOPIC_ID); older versions by name (unknown topic or
 *     partition: UNKNOWN_TOPIC_OR_PARTITION). Errored partitions carry -1 offsets and empty records.</li>
 * <li>Records are a slice of a segment file, written to the socket as a file region (sendfile with epoll):
 *     never read into the heap. Sizes as in Kafka's ReplicaManager (KIP-74): the response's max_bytes is
 *     capped at {@code fetch.max.bytes} (min_bytes at that cap), as Kafka does for consumers and replicas
 *     alike; each partition gets min(partition_max_bytes, what is left); the first non-empty partition
 *     always gets its whole first batch, later ones get nothing rather than more than their limit.</li>
 * <li>Reads go through the {@link Partition}: consumers see up to the high watermark (read_uncommitted) or
 *     the last stable offset (read_committed: nothing at or past the first offset of the oldest open
 *     transaction); requests from replicas (replica_id >= 0 before v15, replica_state from v15) read up to
 *     the log end, as Kafka's followers do. last_stable_offset is the partition's real LSO whatever the
 *     isolation, as in Kafka. aborted_transactions (producer_id, first_offset) is, for read_committed, the
 *     partition's aborted transactions overlapping the range from the fetch offset to an upper bound the
 *     log finds without reading the file, as Kafka's fetchUpperBoundOffset does: the offset just past the
 *     data when it ends at whole batches, the read's end (last stable offset, next segment, log end), or,
 *     when the data ends mid-batch, the next sparse offset-index entry. So a list may name a transaction
 *     starting after the data returned, as Kafka's may; consumers ignore those. An empty list when no data
 *     is returned, null for read_uncommitted, as Kafka sends it. preferred_read_replica is -1.</li>
 * <li>Leadership (Kafka's Partition.fetchRecords): every fetch, consumer's or replica's, is served by the
 *     partition's leader only. The check against the partition's current_leader_epoch (v9+, -1: none) gives
 *     NOT_LEADER_OR_FOLLOWER (not the leader here; also a partition the metadata knows that this broker holds
 *     no replica of), FENCED_LEADER_EPOCH (the request's epoch is older) or UNKNOWN_LEADER_EPOCH (newer: our
 *     metadata lags); it is made again on every re-read of a parked fetch, so a fetch parked on a leader that
 *     loses its leadership answers at once. On NOT_LEADER_OR_FOLLOWER / FENCED_LEADER_EPOCH, v16+ carries
 *     KIP-951's current_leader (leader id and epoch from the newest metadata image) and the leader's client
 *     endpoint in node_endpoints, as Kafka 4 does (only from v16, though the schema has current_leader
 *     from v12). The check is one volatile read, no allocation.</li>
 * <li>Replica fetches (followers): read to the log end. Before reading, the leader checks the follower's
 *     last_fetched_epoch (v12+) against its own epoch history: when the follower's log diverged, the
 *     partition is answered at once with diverging_epoch {epoch, end_offset} (the point the follower
 *     truncates to), no records and no fetch state recorded (OFFSET_OUT_OF_RANGE when our history has no
 *     epoch at or below the follower's, as Kafka's readRecords); otherwise the follower's fetch offset is
 *     recorded with its replica_epoch (v15+, the follower's broker epoch; -1 before) and the fetch time, so
 *     the high watermark and the ISR may move. This happens once per request, not on the re-reads of a
 *     parked fetch (as Kafka's delayed fetch). The response carries the leader's high watermark, log start
 *     and last stable offset, which the follower adopts. A parked replica fetch is woken by appends like a
 *     consumer's; its sizes are bounded like a consumer's (the request's max_bytes, which a follower takes
 *     from replica.fetch.response.max.bytes, capped at fetch.max.bytes). Consumers (v12+) sending
 *     last_fetched_epoch get the same divergence check, as in Kafka.</li>
 * <li>Fewer than min_bytes available and max_wait_ms > 0: the fetch parks in the broker's waiting-operations
 *     set, watching its partitions. Whenever one of them moves (an append by a producer or a coordinator, a
 *     transaction marker moving the last stable offset) the fetch re-reads on its connection's event loop and
 *     answers once min_bytes are there (read_committed counts only bytes below the LSO, as its reads stop
 *     there); after max_wait_ms it answers with whatever is there; if its connection closes it is dropped at
 *     once. Any partition error answers at once.</li>
 * </ul>
 */
public final class FetchHandler implements ApiHandler {
    private static final MemoryRecords NO_RECORDS = new MemoryRecords(Unpooled.EMPTY_BUFFER);
    private static final int INITIAL_EPOCH = 0;
    private static final int FINAL_EPOCH = -1;

    private final PartitionLogs topics;
    private final Partitions partitions;
    private final ClusterView cluster;
    private final int fetchMaxBytes;

    /**
     * @param cluster       the metadata image: who leads a partition this broker does not (KIP-951)
     * @param fetchMaxBytes Kafka's {@code fetch.max.bytes}: the most record bytes one response carries
     *                      (the first batch excepted, KIP-74)
     */
    public FetchHandler(PartitionLogs topics, Partitions partitions, ClusterView cluster, int fetchMaxBytes) {
        this.topics = topics;
        this.partitions = partitions;
        this.cluster = cluster;
        this.fetchMaxBytes = fetchMaxBytes;
    }

    @Override
    public ApiSpec api() {
        return FetchApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        int epoch = request.get(Request.SESSION_EPOCH); // -1 (no session) before v7
        if (epoch != INITIAL_EPOCH && epoch != FINAL_EPOCH) {
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.THROTTLE_TIME_MS, 0)
                    .set(Response.ERROR_CODE, ErrorCode.FETCH_SESSION_ID_NOT_FOUND.code())
                    .set(Response.SESSION_ID, 0)
                    .set(Response.RESPONSES, List.of()));
        }
        PendingFetch fetch = new PendingFetch(context, request);
        long available = fetch.readAll();
        if (fetch.timeoutMs() <= 0 || fetch.watched.isEmpty() || available >= fetch.minBytes || fetch.answerNow) {
            return CompletableFuture.completedFuture(fetch.response());
        }
        return fetch.park(context);
    }

    /** Replica fetches name their broker: replica_id before v15, replica_state from v15. */
    static boolean fromReplica(short version, Struct request) {
        return replicaId(version, request) >= 0;
    }

    /** The fetching replica's broker id, or -1 for a consumer. */
    static int replicaId(short version, Struct request) {
        if (version >= 15) {
            Struct state = request.get(Request.REPLICA_STATE);
            return state == null ? -1 : state.get(Request.ReplicaState.REPLICA_ID);
        }
        return request.get(Request.REPLICA_ID);
    }

    /** The fetching replica's broker epoch (v15+), or -1. */
    static long replicaEpoch(short version, Struct request) {
        Struct state = version >= 15 ? request.get(Request.REPLICA_STATE) : null;
        return state == null ? -1L : state.get(Request.ReplicaState.REPLICA_EPOCH);
    }

    /** One requested partition: resolved once, re-read on every check. */
    private static final class PartitionFetch {
        final int index;
        final long fetchOffset;
        final int maxBytes;
        final int currentLeaderEpoch;
        final Partition partition;
        final ErrorCode lookupError;
        ErrorCode error;
        /** Where the fetcher's log diverged from ours (then no records are read), else null. */
        EpochEndOffset diverging;
        /** The divergence check's own failure, else null. */
        ErrorCode checkError;
        FileSlice slice;
        long highWatermark;
        long lastStableOffset;
        long logStartOffset;
        /** records: the fetching replica's log start (LogStartOffset, v5+), which DeleteRecords waits for. */
        long replicaLogStartOffset = -1;

        PartitionFetch(int index, long fetchOffset, int maxBytes, int currentLeaderEpoch, Partition partition,
                ErrorCode lookupError) {
            this.index = index;
            this.fetchOffset = fetchOffset;
            this.maxBytes = maxBytes;
            this.currentLeaderEpoch = currentLeaderEpoch;
            this.partition = partition;
            this.lookupError = lookupError;
            this.error = lookupError;
        }
    }

    private record TopicFetch(String name, UUID id, PartitionFetch[] partitions) {
    }

    /**
     * A fetch being answered, now or once parked. Its checks and completion run on its connection's event
     * loop (the operation's executor), so its fields need no lock.
     */
    private final class PendingFetch extends DelayedOperation {
        final int minBytes;
        final int maxBytes;
        final boolean readCommitted;
        final FetchIsolation isolation;
        final TopicFetch[] topics;
        final List<Partition> watched = new ArrayList<>();
        final short version;
        /** A partition error or divergence: the fetch is answered without waiting for min_bytes. */
        boolean answerNow;
        final CompletableFuture<Struct> future = new CompletableFuture<>();

        PendingFetch(RequestContext context, Struct request) {
            super(request.get(Request.MAX_WAIT_MS), context.executor());
            this.version = context.version();
            // Kafka's KafkaApis: the response is capped by fetch.max.bytes, and min_bytes by that cap.
            this.maxBytes = Math.min(request.get(Request.MAX_BYTES), fetchMaxBytes);
            this.minBytes = Math.min(request.get(Request.MIN_BYTES), maxBytes);
            int replicaId = replicaId(version, request);
            this.isolation = FetchIsolation.of(replicaId >= 0, request.get(Request.ISOLATION_LEVEL));
            // Kafka lists aborted transactions only for reads bounded by the LSO (never for replicas).
            this.readCommitted = isolation == FetchIsolation.TXN_COMMITTED;
            boolean byId = context.version() >= 13;
            List<Struct> requested = request.get(Request.TOPICS);
            this.topics = new TopicFetch[requested.size()];
            for (int t = 0; t < this.topics.length; t++) {
                Struct topic = requested.get(t);
                UUID id = byId ? topic.get(FetchTopic.TOPIC_ID) : null;
                String name = byId ? FetchHandler.this.topics.topicName(id).orElse(null) : topic.get(FetchTopic.TOPIC);
                List<Struct> parts = topic.get(FetchTopic.PARTITIONS);
                PartitionFetch[] fetches = new PartitionFetch[parts.size()];
                for (int p = 0; p < fetches.length; p++) {
                    Struct part = parts.get(p);
                    int index = part.get(FetchPartition.PARTITION);
                    Partition partition = name == null ? null : partitions.partition(name, index).orElse(null);
                    ErrorCode lookupError = name == null ? ErrorCode.UNKNOWN_TOPIC_ID
                            : partition != null ? ErrorCode.NONE
                            // Kafka: a partition the metadata knows but this broker holds no replica of.
                            : cluster.image().partition(name, index).isPresent() ? ErrorCode.NOT_LEADER_OR_FOLLOWER
                            : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
                    PartitionFetch fetch = new PartitionFetch(index, part.get(FetchPartition.FETCH_OFFSET),
                            part.get(FetchPartition.PARTITION_MAX_BYTES), part.get(FetchPartition.CURRENT_LEADER_EPOCH),
                            partition, lookupError);
                    fetches[p] = fetch;
                    if (partition != null) {
                        watched.add(partition);
                        fetch.replicaLogStartOffset = part.get(FetchPartition.LOG_START_OFFSET); // records: DeleteRecords
                        beforeFirstRead(fetch, part.get(FetchPartition.LAST_FETCHED_EPOCH), replicaId,
                                replicaEpoch(version, request));
                    }
                }
                this.topics[t] = new TopicFetch(name, id, fetches);
            }
        }

        /**
         * Once per request, for a partition led here (Kafka's Partition.fetchRecords before its read): the
         * divergence check when the fetcher names the epoch of its last fetched batch, then, for a follower whose
         * log does not diverge, its fetch state. A leadership error is left to {@link #readAll}.
         */
        private void beforeFirstRead(PartitionFetch p, int lastFetchedEpoch, int replicaId, long replicaEpoch) {
            if (p.partition.checkLeader(p.currentLeaderEpoch) != ErrorCode.NONE) {
                return;
            }
            try {
                if (lastFetchedEpoch >= 0) {
                    Optional<EpochEndOffset> diverging = p.partition.divergingEpoch(lastFetchedEpoch, p.fetchOffset);
                    if (diverging.isPresent()) {
                        EpochEndOffset end = diverging.get();
                        if (end.leaderEpoch() < 0 || end.endOffset() < 0) {
                            // Kafka: no epoch of ours at or below the fetcher's: it must find its place another way.
                            p.checkError = ErrorCode.OFFSET_OUT_OF_RANGE;
                        } else {
                            p.diverging = end;
                        }
                        return;
                    }
                }
                if (replicaId >= 0) {
                    p.partition.updateFollowerFetchState(replicaId, replicaEpoch, p.fetchOffset, p.replicaLogStartOffset,
                            System.currentTimeMillis());
                }
            } catch (LogException e) {
                p.checkError = e.errorCode(); // e.g. OFFSET_OUT_OF_RANGE: no epoch history to compare with
            }
        }

        /** Reads every partition afresh (slices only: no record bytes); returns the record bytes available. */
        long readAll() {
            long total = 0;
            int remaining = maxBytes;
            boolean firstBatchWhole = true; // KIP-74, until a partition returns data
            answerNow = false;
            for (TopicFetch topic : topics) {
                for (PartitionFetch p : topic.partitions()) {
                    p.slice = null;
                    if (p.lookupError != ErrorCode.NONE) {
                        answerNow = true;
                        continue;
                    }
                    ErrorCode leadership = p.partition.checkLeader(p.currentLeaderEpoch);
                    if (leadership != ErrorCode.NONE) {
                        p.error = leadership;
                        answerNow = true;
                        continue;
                    }
                    if (p.checkError != null) {
                        p.error = p.checkError;
                        answerNow = true;
                        continue;
                    }
                    if (p.diverging != null) {
                        // Answered now without records: the follower truncates first.
                        p.error = ErrorCode.NONE;
                        p.highWatermark = p.partition.highWatermark();
                        p.lastStableOffset = p.partition.lastStableOffset();
                        p.logStartOffset = p.partition.logStartOffset();
                        answerNow = true;
                        continue;
                    }
                    int limit = Math.max(0, Math.min(p.maxBytes, remaining));
                    try {
                        FileSlice slice = p.partition.read(p.fetchOffset, limit, isolation);
                        // Offsets after the read: they only grow, so a consumer never gets records past the reported ones.
                        p.highWatermark = p.partition.highWatermark();
                        p.lastStableOffset = p.partition.lastStableOffset();
                        p.logStartOffset = p.partition.logStartOffset();
                        p.error = ErrorCode.NONE;
                        if (slice.size() > limit && !firstBatchWhole) {
                            continue; // over this partition's share; a later fetch gets it
                        }
                        if (slice.size() > 0) {
                            p.slice = slice;
                            firstBatchWhole = false;
                            remaining = Math.max(0, remaining - slice.size());
                            total += slice.size();
                        }
                    } catch (LogException e) {
                        p.error = e.errorCode();
                        answerNow = true;
                    }
                }
            }
            return total;
        }

        Struct response() {
            Struct response = Response.SCHEMA.newStruct()
                    .set(Response.THROTTLE_TIME_MS, 0)
                    .set(Response.ERROR_CODE, ErrorCode.NONE.code())
                    .set(Response.SESSION_ID, 0);
            Map<Integer, CurrentLeader> nodeEndpoints = null;
            for (TopicFetch topic : topics) {
                Struct t = response.add(Response.RESPONSES);
                if (topic.id() != null) {
                    t.set(FetchableTopicResponse.TOPIC_ID, topic.id());
                } else {
                    t.set(FetchableTopicResponse.TOPIC, topic.name());
                }
                for (PartitionFetch p : topic.partitions()) {
                    Struct out = t.add(FetchableTopicResponse.PARTITIONS).set(PartitionData.PARTITION_INDEX, p.index);
                    List<Struct> aborted = null;
                    if (readCommitted && p.error == ErrorCode.NONE) {
                        try {
                            aborted = abortedTransactions(p);
                        } catch (LogException e) {
                            // Without its aborted list the data would read as committed: answer the error instead.
                            p.error = e.errorCode();
                        }
                    }
                    if (p.error != ErrorCode.NONE) {
                        out.set(PartitionData.ERROR_CODE, p.error.code())
                                .set(PartitionData.HIGH_WATERMARK, -1L)
                                .set(PartitionData.LAST_STABLE_OFFSET, -1L)
                                .set(PartitionData.LOG_START_OFFSET, -1L)
                                .set(PartitionData.ABORTED_TRANSACTIONS, null)
                                .set(PartitionData.RECORDS, NO_RECORDS);
                        if (version >= 16 && (p.error == ErrorCode.NOT_LEADER_OR_FOLLOWER
                                || p.error == ErrorCode.FENCED_LEADER_EPOCH)) {
                            CurrentLeader leader = CurrentLeader.of(cluster, topic.name(), p.index, p.partition);
                            out.set(PartitionData.CURRENT_LEADER, PartitionData.LeaderIdAndEpoch.SCHEMA.newStruct()
                                    .set(PartitionData.LeaderIdAndEpoch.LEADER_ID, leader.leaderId())
                                    .set(PartitionData.LeaderIdAndEpoch.LEADER_EPOCH, leader.leaderEpoch()));
                            if (nodeEndpoints == null) {
                                nodeEndpoints = CurrentLeader.newNodeEndpoints();
                            }
                            leader.addTo(nodeEndpoints);
                        }
                    } else if (p.diverging != null) {
                        out.set(PartitionData.ERROR_CODE, ErrorCode.NONE.code())
                                .set(PartitionData.HIGH_WATERMARK, p.highWatermark)
                                .set(PartitionData.LAST_STABLE_OFFSET, p.lastStableOffset)
                                .set(PartitionData.LOG_START_OFFSET, p.logStartOffset)
                                .set(PartitionData.DIVERGING_EPOCH, PartitionData.EpochEndOffset.SCHEMA.newStruct()
                                        .set(PartitionData.EpochEndOffset.EPOCH, p.diverging.leaderEpoch())
                                        .set(PartitionData.EpochEndOffset.END_OFFSET, p.diverging.endOffset()))
                                .set(PartitionData.ABORTED_TRANSACTIONS, readCommitted ? List.of() : null)
                                .set(PartitionData.RECORDS, NO_RECORDS);
                    } else {
                        out.set(PartitionData.ERROR_CODE, ErrorCode.NONE.code())
                                .set(PartitionData.HIGH_WATERMARK, p.highWatermark)
                                .set(PartitionData.LAST_STABLE_OFFSET, p.lastStableOffset)
                                .set(PartitionData.LOG_START_OFFSET, p.logStartOffset)
                                .set(PartitionData.ABORTED_TRANSACTIONS, aborted)
                                .set(PartitionData.RECORDS, p.slice != null ? new FileSliceRecords(p.slice) : NO_RECORDS);
                    }
                }
            }
            if (nodeEndpoints != null) {
                for (CurrentLeader leader : nodeEndpoints.values()) {
                    response.add(Response.NODE_ENDPOINTS)
                            .set(Response.NodeEndpoint.NODE_ID, leader.leaderId())
                            .set(Response.NodeEndpoint.HOST, leader.endpoint().host())
                            .set(Response.NodeEndpoint.PORT, leader.endpoint().port())
                            .set(Response.NodeEndpoint.RACK, leader.node().rack());
                }
            }
            return response;
        }

        /**
         * Kafka's read_committed aborted_transactions: the partition's aborted transactions overlapping the
         * range from the fetch offset to the slice's upper bound, which the log found without reading the
         * file (none when nothing is returned).
         */
        private List<Struct> abortedTransactions(PartitionFetch p) {
            if (p.slice == null) {
                return List.of();
            }
            long upperBound = p.slice.upperBoundOffset();
            List<AbortedTxn> aborted = p.partition.abortedTransactions(p.fetchOffset, upperBound);
            if (aborted.isEmpty()) {
                return List.of();
            }
            List<Struct> out = new ArrayList<>(aborted.size());
            for (AbortedTxn txn : aborted) {
                out.add(PartitionData.AbortedTransaction.SCHEMA.newStruct()
                        .set(PartitionData.AbortedTransaction.PRODUCER_ID, txn.producerId())
                        .set(PartitionData.AbortedTransaction.FIRST_OFFSET, txn.firstOffset()));
            }
            return out;
        }

        CompletableFuture<Struct> park(RequestContext context) {
            partitions.waiting().watch(this, watched);
            CancelOnClose.bind(this, context);
            return future;
        }

        @Override
        protected boolean canComplete() {
            return readAll() >= minBytes || answerNow;
        }

        @Override
        protected void onComplete(Outcome outcome) {
            switch (outcome) {
                case SATISFIED -> future.complete(response());
                case EXPIRED -> {
                    try {
                        readAll();
                        future.complete(response());
                    } catch (RuntimeException e) {
                        future.completeExceptionally(e);
                    }
                }
                // Its connection is gone: no response (null, as for acks=0), so nothing is logged or written.
                case CANCELLED -> future.complete(null);
                case FAILED -> future.completeExceptionally(failure());
            }
        }
    }
}
