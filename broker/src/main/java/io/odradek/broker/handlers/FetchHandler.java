package io.odradek.broker.handlers;

import io.netty.buffer.Unpooled;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.fetch.CancelOnClose;
import io.odradek.broker.fetch.CurrentLeader;
import io.odradek.broker.fetch.DownConvertedRecords;
import io.odradek.broker.fetch.FileSliceRecords;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.broker.fetch.RequestedPartitions;
import io.odradek.broker.metrics.BrokerMetrics;
import io.odradek.broker.metrics.BrokerTopicMetrics;
import io.odradek.broker.metrics.TopicMeters;
import io.odradek.broker.quota.ConsumerFetchQuota;
import io.odradek.broker.fetch.session.FetchContext;
import io.odradek.broker.fetch.session.FetchMetadata;
import io.odradek.broker.fetch.session.FetchSessionCache;
import io.odradek.broker.fetch.session.PartitionRead;
import io.odradek.broker.fetch.session.SessionPartition;
import io.odradek.broker.topics.TopicService;
import io.odradek.log.EpochEndOffset;
import io.odradek.log.FileSlice;
import io.odradek.log.LogConfig;
import io.odradek.log.LogException;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.replication.partition.DelayedOperation;
import io.odradek.replication.partition.FetchIsolation;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.FetchApi.Request;
import io.odradek.wire.api.FetchApi.Request.FetchTopic;
import io.odradek.wire.api.FetchApi.Request.FetchTopic.FetchPartition;
import io.odradek.wire.api.FetchApi.Request.ForgottenTopic;
import io.odradek.wire.api.FetchApi.Response;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Fetch (key 1), versions 0-18.
 *
 * <p>Behaviour / version notes:
 * <ul>
 * <li>v0-3 (Kafka 3.9's; read_uncommitted only, no log start or LSO; v3 adds max_bytes) get the response's
 *     v2 batches converted to magic 0 (v0-1) or magic 1 (v2-3) message sets ({@code DownConvertedRecords}):
 *     control batches dropped, heap-built per response (converted once even when the quota check sizes the
 *     response first), and UNSUPPORTED_COMPRESSION_TYPE for a first zstd batch, as Kafka 3.9 did. A consumer
 *     fetching a topic whose compression.type is zstd at any version before v10 gets
 *     UNSUPPORTED_COMPRESSION_TYPE (Kafka 3.9's maybeConvertFetchedData; replica fetches exempt). v0-2 have no
 *     KIP-74: a partition's read is cut at its limit, so a first batch larger than it converts to nothing (as
 *     in Kafka 3.9). Decompression is bounded: one response converts keys and values of at most its max bytes
 *     (each partition at most its limit, or the bytes it read if more), except the first record of the first
 *     partition converting data, which goes whole up to the response's max bytes (larger: an empty set, no
 *     error, as Kafka 3.9 answered an old consumer whose message did not fit).
 *     A slice that cannot be read is KAFKA_STORAGE_ERROR. Remaining cost, not yet moved: the slice read
 *     (bounded by those limits) is a blocking positional read and the conversion runs on the connection's
 *     event loop, as Kafka's ran on its network threads; its heap is the bytes read, one record's key and
 *     value, and the converted set (copied once more into the response buffer). message.downconversion.enable
 *     is not a topic config: Kafka 4.4 refuses it as unknown, so conversion is always on. v4+ are
 *     untouched: the records stay a file region. v0-5 get NOT_LEADER_OR_FOLLOWER for KAFKA_STORAGE_ERROR,
 *     which they do not know (as Kafka).</li>
 * <li>Fetch sessions (KIP-227, v7+), as Kafka's FetchManager / FetchContext (io.odradek.broker.fetch.session):
 *     a full request (epoch 0) is answered in full and, if the session cache has room (Kafka's
 *     {@code max.incremental.fetch.session.cache.slots}, 8 shards, eviction as Kafka's FetchSessionCache),
 *     creates a session holding its partitions whose id the response carries (0: no room, the fetcher keeps
 *     sending full requests); our own followers open one too (privileged), as Kafka's do. Epoch -1 (every
 *     request before v7, and fetchers that want no session) is served without a session, its partitions
 *     read straight from the request (no session object per partition). A full request naming a session
 *     closes it. A request naming a partition twice gets it once, at its first place
 *     with its last parameters (Kafka's FetchRequest.fetchData is a LinkedHashMap). An incremental request
 *     (the session's id and the epoch it expects) names only partitions that are new or whose fetch
 *     parameters changed, and forgotten_topics_data the ones to drop; every partition of the session is read
 *     (in the session's order,
 *     where those that last returned records come last), and the response carries only partitions with
 *     something to say: records, a high watermark or log start offset different from what the session last
 *     sent, an error, a diverging epoch (Kafka's rule; a last stable offset change alone is not sent). The
 *     cached high watermarks and log starts move when the response is made, so a parked fetch records what it
 *     finally sends; the cached fetch offsets move only when the fetcher names a partition again (Kafka's
 *     clients do whenever their position moves). Errors, at the top level with no partitions:
 *     FETCH_SESSION_ID_NOT_FOUND (unknown or evicted session), INVALID_FETCH_SESSION_EPOCH (not the expected
 *     epoch; also when another request of the session came in while this one was parked: then with the
 *     session's id), FETCH_SESSION_TOPIC_ID_ERROR (a session made by name used from v13, or the reverse). A
 *     session made by id keeps a partition whose id is unknown (UNKNOWN_TOPIC_ID) and resolves it once the id
 *     is known; when its topic is re-created under the same name, the partition answers INCONSISTENT_TOPIC_ID
 *     until the fetcher replaces it. Sessions outlive connections, as in Kafka. Memory (Kafka bounds only the
 *     slots): a session holds at most {@code odradek.max.partitions} partitions, and all sessions together at
 *     most {@code odradek.fetch.session.cache.max.partitions} (200000 by default, about 24 MB; each of the 8
 *     shards holds an eighth), so made-up partitions cannot fill the heap. A full request that does not fit,
 *     even after evicting what Kafka's eviction rule allows, gets no session (id 0, as when every slot is
 *     taken) and is still answered; an incremental one growing past either bound closes its session and is
 *     served without one (id 0), as Kafka serves a session emptied.</li>
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
 *     once. Any partition error answers at once (but an unknown topic id, as in Kafka). A parked fetch of an
 *     incremental session reads every partition of the session and records in the session what it finally
 *     sends; if another request of the session came in meanwhile, it answers INVALID_FETCH_SESSION_EPOCH.</li>
 * <li>Authorization (issue 10), as Kafka 4.4's KafkaApis.handleFetchRequest: a replica fetch needs CLUSTER_ACTION
 *     on the cluster, else every partition is TOPIC_AUTHORIZATION_FAILED; a consumer needs READ on each topic
 *     (asked once per topic), else its partitions are TOPIC_AUTHORIZATION_FAILED (an unknown topic id stays
 *     UNKNOWN_TOPIC_ID; existence is not looked at). These answers do not cut a long poll short. Without an
 *     authorizer nothing is asked and nothing allocated: one check per request.</li>
 * <li>Hooks: a partition's records for the response are made in one place ({@code records}); a throttled
 *     response is {@code responseOf(session.throttled())} (Kafka's getThrottledResponse: no partitions, and
 *     nothing recorded in the session as sent); it is what a consumer over its {@code consumer_byte_rate} or
 *     {@code request_percentage} gets, decided just before the session's answer by the
 *     {@link ConsumerFetchQuota} (client quotas), which sizes the response it would send (each partition's
 *     records made once, down-converted at most once). While no quota is configured nothing is built for it.</li>
 * <li>Metrics (issue 11), once per answer (not per re-read of a parked fetch): each partition of ours read is one
 *     TotalFetchRequestsPerSec; the record bytes sent (the slice's size, or the down-converted set's) are
 *     BytesOutPerSec for a consumer, ReplicationBytesOutPerSec (broker-wide only) for a follower, as Kafka's
 *     updateBytesOut; a throttled answer sends none. Read errors other than the routine ones (not the leader,
 *     unknown partition, fenced or unknown epoch, storage, offset out of range, an old client's unsupported
 *     compression) are FailedFetchRequestsPerSec.</li>
 * </ul>
 */
public final class FetchHandler implements ApiHandler {
    private static final MemoryRecords NO_RECORDS = new MemoryRecords(Unpooled.EMPTY_BUFFER);
    /** Kafka's default {@code max.incremental.fetch.session.cache.slots}. */
    public static final int DEFAULT_SESSION_SLOTS = 1000;

    private final PartitionLogs topics;
    private final Partitions partitions;
    private final ClusterView cluster;
    private final int fetchMaxBytes;
    private final FetchSessionCache sessions;
    /** A topic id's name, or null (resolves session partitions added while their id was unknown). */
    private final Function<UUID, String> topicNames;
    /** Client quotas (issue 9, quotas): the consumer byte-rate check, made before the session records a response. */
    private ConsumerFetchQuota fetchQuota = ConsumerFetchQuota.NONE;
    /** issue 11 (metrics): the BrokerTopicMetrics meters counted into (a throwaway set until the broker's are given). */
    private BrokerTopicMetrics topicMetrics = BrokerMetrics.manual(System::nanoTime).topics();

    /** With Kafka's default session cache (1000 slots). */
    public FetchHandler(PartitionLogs topics, Partitions partitions, ClusterView cluster, int fetchMaxBytes) {
        this(topics, partitions, cluster, fetchMaxBytes,
                FetchSessionCache.of(DEFAULT_SESSION_SLOTS, TopicService.DEFAULT_MAX_PARTITIONS));
    }

    /**
     * @param cluster       the metadata image: who leads a partition this broker does not (KIP-951)
     * @param fetchMaxBytes Kafka's {@code fetch.max.bytes}: the most record bytes one response carries
     *                      (the first batch excepted, KIP-74)
     * @param sessions      the broker's incremental fetch sessions
     */
    public FetchHandler(PartitionLogs topics, Partitions partitions, ClusterView cluster, int fetchMaxBytes,
            FetchSessionCache sessions) {
        this.topics = topics;
        this.partitions = partitions;
        this.cluster = cluster;
        this.fetchMaxBytes = fetchMaxBytes;
        this.sessions = sessions;
        this.topicNames = topics::topicNameOrNull; // no Optional per topic
    }

    /** Client quotas (issue 9, quotas): consumers over their byte rate get the session's throttled answer. */
    public FetchHandler withConsumerQuota(ConsumerFetchQuota quota) {
        this.fetchQuota = quota;
        return this;
    }

    /** issue 11 (metrics): counts into the broker's BrokerTopicMetrics meters. */
    public FetchHandler withMetrics(BrokerTopicMetrics metrics) {
        this.topicMetrics = metrics;
        return this;
    }

    @Override
    public ApiSpec api() {
        return FetchApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        short version = context.version();
        boolean byId = version >= 13;
        // Before v7 session_id reads 0 and the epoch -1: sessionless.
        int sessionId = request.get(Request.SESSION_ID);
        int epoch = request.get(Request.SESSION_EPOCH);
        FetchContext session;
        List<PartitionFetch> fetches;
        if (epoch == FetchMetadata.FINAL_EPOCH) {
            // No session (every client before v7, fetchers wanting none): read straight from the request.
            session = sessions.sessionless(sessionId);
            fetches = requestedFetches(request, byId);
        } else {
            session = sessions.newContext(byId, sessionId, epoch, fromReplica(version, request),
                    requestedPartitions(request, byId), forgottenPartitions(request, byId), topicNames);
            // Copied under the session's lock (a later request of the session may change its partitions).
            List<PartitionFetch> copied = new ArrayList<>();
            session.forEachPartition(p -> copied.add(new PartitionFetch(p)));
            fetches = copied;
        }
        PendingFetch fetch = new PendingFetch(context, request, session, fetches);
        if (session instanceof FetchContext.SessionError) {
            return CompletableFuture.completedFuture(fetch.response());
        }
        long available = fetch.readAll();
        if (fetch.timeoutMs() <= 0 || fetch.watched.isEmpty() || available >= fetch.minBytes || fetch.answerNow) {
            return CompletableFuture.completedFuture(fetch.response());
        }
        return fetch.park(context);
    }

    /**
     * The request's partitions for a session, in order, each once ({@link RequestedPartitions}); topic ids are
     * resolved to names once per topic.
     */
    private List<SessionPartition> requestedPartitions(Struct request, boolean byId) {
        List<Struct> requested = request.get(Request.TOPICS);
        if (requested == null || requested.isEmpty()) {
            return List.of(); // an incremental request with nothing new
        }
        List<SessionPartition> out = new ArrayList<>(partitionCount(requested));
        RequestedPartitions.forEach(requested, byId, topicNames, (id, name, part) -> out.add(new SessionPartition(
                id, name, part.get(FetchPartition.PARTITION), part.get(FetchPartition.FETCH_OFFSET),
                part.get(FetchPartition.PARTITION_MAX_BYTES), part.get(FetchPartition.CURRENT_LEADER_EPOCH),
                part.get(FetchPartition.LAST_FETCHED_EPOCH), part.get(FetchPartition.LOG_START_OFFSET))));
        return out;
    }

    /** A sessionless request's partitions, in order, each once, read straight from the request. */
    private List<PartitionFetch> requestedFetches(Struct request, boolean byId) {
        List<Struct> requested = request.get(Request.TOPICS);
        if (requested == null || requested.isEmpty()) {
            return new ArrayList<>(0);
        }
        List<PartitionFetch> out = new ArrayList<>(partitionCount(requested));
        RequestedPartitions.forEach(requested, byId, topicNames,
                (id, name, part) -> out.add(new PartitionFetch(id, name, part)));
        return out;
    }

    private static int partitionCount(List<Struct> topics) {
        int count = 0;
        for (Struct topic : topics) {
            count += topic.get(FetchTopic.PARTITIONS).size();
        }
        return count;
    }

    /** forgotten_topics_data (v7+), as keys of the session's partitions. */
    private static List<SessionPartition> forgottenPartitions(Struct request, boolean byId) {
        List<Struct> forgotten = request.get(Request.FORGOTTEN_TOPICS_DATA);
        if (forgotten == null || forgotten.isEmpty()) {
            return List.of();
        }
        List<SessionPartition> out = new ArrayList<>();
        for (Struct topic : forgotten) {
            UUID id = byId ? topic.get(ForgottenTopic.TOPIC_ID) : null;
            String name = byId ? null : topic.get(ForgottenTopic.TOPIC);
            for (int partition : topic.get(ForgottenTopic.PARTITIONS)) {
                out.add(SessionPartition.key(id, name, partition));
            }
        }
        return out;
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

    /**
     * One partition being read: its request parameters as they were when the request came (read from the
     * request when sessionless, else copied, since a session's cached partition may change under a later
     * request), resolved once, re-read on every check.
     */
    private static final class PartitionFetch implements PartitionRead {
        /** The session's partition (null when sessionless: no session object is made for it). */
        final SessionPartition requested;
        final UUID topicId;
        final String topic;
        final int index;
        final long fetchOffset;
        final int maxBytes;
        final int currentLeaderEpoch;
        final int lastFetchedEpoch;
        final long fetcherLogStartOffset;
        Partition partition;
        ErrorCode lookupError;
        ErrorCode error;
        /** Where the fetcher's log diverged from ours (then no records are read), else null. */
        EpochEndOffset diverging;
        /** The divergence check's own failure, else null. */
        ErrorCode checkError;
        FileSlice slice;
        long highWatermark;
        long lastStableOffset;
        long logStartOffset;
        /** read_committed: the aborted transactions of the data returned (made with the response). */
        List<Struct> aborted;
        /** quotafix: the records as made for this read, so a response sized first is not converted twice. */
        Records records;

        /** A partition of a session (or of a full request that may make one). */
        PartitionFetch(SessionPartition requested) {
            this.requested = requested;
            this.topicId = requested.topicId();
            this.topic = requested.topic();
            this.index = requested.partition();
            this.fetchOffset = requested.fetchOffset();
            this.maxBytes = requested.maxBytes();
            this.currentLeaderEpoch = requested.currentLeaderEpoch();
            this.lastFetchedEpoch = requested.lastFetchedEpoch();
            this.fetcherLogStartOffset = requested.fetcherLogStartOffset();
        }

        /** A partition of a sessionless request, as the request names it. */
        PartitionFetch(UUID topicId, String topic, Struct part) {
            this.requested = null;
            this.topicId = topicId;
            this.topic = topic;
            this.index = part.get(FetchPartition.PARTITION);
            this.fetchOffset = part.get(FetchPartition.FETCH_OFFSET);
            this.maxBytes = part.get(FetchPartition.PARTITION_MAX_BYTES);
            this.currentLeaderEpoch = part.get(FetchPartition.CURRENT_LEADER_EPOCH);
            this.lastFetchedEpoch = part.get(FetchPartition.LAST_FETCHED_EPOCH);
            this.fetcherLogStartOffset = part.get(FetchPartition.LOG_START_OFFSET);
        }

        @Override
        public SessionPartition sessionPartition() {
            return requested;
        }

        @Override
        public boolean hasRecords() {
            return error == ErrorCode.NONE && diverging == null && slice != null;
        }

        @Override
        public boolean hasError() {
            return error != ErrorCode.NONE;
        }

        @Override
        public boolean hasDivergingEpoch() {
            return error == ErrorCode.NONE && diverging != null;
        }

        @Override
        public long highWatermark() {
            return highWatermark;
        }

        @Override
        public long logStartOffset() {
            return logStartOffset;
        }
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
        final FetchContext session;
        final List<PartitionFetch> fetches;
        final List<Partition> watched = new ArrayList<>();
        final short version;
        /** A follower's fetch (its bytes are ReplicationBytesOutPerSec, not BytesOutPerSec). */
        final boolean fromFollower;
        /** A partition error or divergence: the fetch is answered without waiting for min_bytes. */
        boolean answerNow;
        final CompletableFuture<Struct> future = new CompletableFuture<>();
        /** Client quotas (issue 9, quotas): what the consumer byte-rate check is given. */
        final RequestContext context;
        final Struct request;

        PendingFetch(RequestContext context, Struct request, FetchContext session, List<PartitionFetch> fetches) {
            super(request.get(Request.MAX_WAIT_MS), context.executor());
            this.context = context;
            this.request = request;
            this.version = context.version();
            this.session = session;
            this.fetches = fetches;
            // Kafka's KafkaApis: the response is capped by fetch.max.bytes, and min_bytes by that cap.
            this.maxBytes = Math.min(request.get(Request.MAX_BYTES), fetchMaxBytes);
            this.minBytes = Math.min(request.get(Request.MIN_BYTES), maxBytes);
            int replicaId = replicaId(version, request);
            this.fromFollower = replicaId >= 0;
            this.isolation = FetchIsolation.of(replicaId >= 0, request.get(Request.ISOLATION_LEVEL));
            // Kafka lists aborted transactions only for reads bounded by the LSO (never for replicas).
            this.readCommitted = isolation == FetchIsolation.TXN_COMMITTED;
            long replicaEpoch = replicaEpoch(version, request);
            // Authorization (issue 10), as Kafka: a follower needs CLUSTER_ACTION on the cluster, a consumer READ
            // on each topic. Without an authorizer: nothing asked, nothing allocated.
            TopicAccess readable = TopicAccess.of(context, AclOperation.READ);
            boolean replicaRefused = replicaId >= 0 && !readable.allowsEverything()
                    && !context.session().authorizedOnCluster(AclOperation.CLUSTER_ACTION);
            for (PartitionFetch fetch : fetches) {
                if (!readable.allowsEverything() && refused(fetch, replicaId >= 0, replicaRefused, readable)) {
                    continue;
                }
                resolve(fetch);
                if (fetch.partition != null) {
                    watched.add(fetch.partition);
                    beforeFirstRead(fetch, replicaId, replicaEpoch);
                }
            }
        }

        /**
         * Kafka's order: a follower without CLUSTER_ACTION gets TOPIC_AUTHORIZATION_FAILED on every partition;
         * a consumer's unknown topic id stays UNKNOWN_TOPIC_ID, then a topic it may not READ is
         * TOPIC_AUTHORIZATION_FAILED before its existence is looked at. Like an unknown topic id, the refusal
         * does not cut a long poll short (Kafka answers it beside the read).
         */
        private boolean refused(PartitionFetch p, boolean fromReplica, boolean replicaRefused, TopicAccess readable) {
            boolean refused = fromReplica ? replicaRefused : p.topic != null && !readable.allowed(p.topic);
            if (refused) {
                p.partition = null;
                p.lookupError = ErrorCode.TOPIC_AUTHORIZATION_FAILED;
                p.error = p.lookupError;
            }
            return refused;
        }

        private void resolve(PartitionFetch p) {
            Partition partition = p.topic == null ? null : partitions.partition(p.topic, p.index).orElse(null);
            if (p.topic == null) {
                p.lookupError = ErrorCode.UNKNOWN_TOPIC_ID;
            } else if (partition == null) {
                // Kafka: a partition the metadata knows but this broker holds no replica of.
                p.lookupError = cluster.image().partition(p.topic, p.index).isPresent()
                        ? ErrorCode.NOT_LEADER_OR_FOLLOWER : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
            } else if (p.topicId != null && partition.log().topicId() != null && !p.topicId.equals(partition.log().topicId())) {
                // A session's partition cached by the id of a topic since re-created under the same name (Kafka).
                p.lookupError = ErrorCode.INCONSISTENT_TOPIC_ID;
                partition = null;
            } else {
                p.lookupError = ErrorCode.NONE;
            }
            p.partition = partition;
            p.error = p.lookupError;
        }

        /**
         * Once per request, for a partition led here (Kafka's Partition.fetchRecords before its read): the
         * divergence check when the fetcher names the epoch of its last fetched batch, then, for a follower whose
         * log does not diverge, its fetch state. A leadership error is left to {@link #readAll}.
         */
        private void beforeFirstRead(PartitionFetch p, int replicaId, long replicaEpoch) {
            if (p.partition.checkLeader(p.currentLeaderEpoch) != ErrorCode.NONE) {
                return;
            }
            try {
                if (p.lastFetchedEpoch >= 0) {
                    Optional<EpochEndOffset> diverging = p.partition.divergingEpoch(p.lastFetchedEpoch, p.fetchOffset);
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
                    // records: the follower's LogStartOffset, which DeleteRecords waits for (the low watermark).
                    p.partition.updateFollowerFetchState(replicaId, replicaEpoch, p.fetchOffset,
                            p.fetcherLogStartOffset, System.currentTimeMillis());
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
            decompressedForResponse = 0; // formats: the v0-3 conversion budget is per read

            for (PartitionFetch p : fetches) {
                p.slice = null;
                p.records = null;
                if (p.lookupError != ErrorCode.NONE) {
                    // Kafka answers an unknown topic id beside the read: it does not cut a long poll short.
                    answerNow |= p.lookupError != ErrorCode.UNKNOWN_TOPIC_ID
                            && p.lookupError != ErrorCode.TOPIC_AUTHORIZATION_FAILED;
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
            return total;
        }

        /**
         * The response: the session decides which partitions it carries (all but for an incremental session)
         * and records what it sends, so this runs once, when the fetch is answered.
         */
        Struct response() {
            if (readCommitted) {
                for (PartitionFetch p : fetches) {
                    if (p.error == ErrorCode.NONE && p.diverging == null) {
                        try {
                            p.aborted = abortedTransactions(p);
                        } catch (LogException e) {
                            // Without its aborted list the data would read as committed: answer the error instead.
                            p.error = e.errorCode();
                        }
                    }
                }
            }
            // Client quotas (issue 9, quotas): sized as it would be sent (an incremental session sends only the
            // partitions with records or errors); over the consumer's byte rate or request quota, Kafka's
            // throttled answer instead. quotafix: nothing is built for it while no quota is configured.
            if (fetchQuota.applies(context, request)) {
                List<PartitionFetch> sent = !(session instanceof FetchContext.Incremental) ? fetches
                        : fetches.stream().filter(p -> p.hasRecords() || p.error != ErrorCode.NONE).toList();
                int throttleMs = fetchQuota.throttleMs(context, request,
                        responseOf(new FetchContext.Answer<>(ErrorCode.NONE, FetchMetadata.INVALID_SESSION_ID, sent)));
                if (throttleMs > 0) {
                    count(false);
                    return responseOf(session.throttled()).set(Response.THROTTLE_TIME_MS, throttleMs);
                }
            }
            Struct response = responseOf(session.answer(fetches));
            count(true);
            return response;
        }

        /**
         * issue 11 (metrics), once per answer, as Kafka's ReplicaManager.readFromLog and KafkaApis count: each
         * partition read (TotalFetchRequestsPerSec), its records sent ({@code sent}: not for a throttled answer;
         * BytesOutPerSec for consumers, ReplicationBytesOutPerSec for followers) and the unexpected read failures
         * (FailedFetchRequestsPerSec; Kafka does not count not-leader, unknown partition, fenced epochs, storage
         * errors or an offset out of range). The topic's meters are looked up once per run of its partitions.
         * A parked fetch may answer after its topic was deleted: its partitions then count broker-wide only, so the
         * deleted topic's meters (and MBeans) are not made again.
         */
        private void count(boolean sent) {
            TopicMeters meters = null;
            String topic = null;
            for (PartitionFetch p : fetches) {
                if (p.partition == null) {
                    continue; // not a partition of ours: no meters for made-up names
                }
                if (meters == null || !p.topic.equals(topic)) {
                    topic = p.topic;
                    meters = partitions.partition(topic, p.index).isPresent() ? topicMetrics.topic(topic)
                            : topicMetrics.allTopics();
                }
                meters.fetchRequest();
                if (p.error == ErrorCode.NONE) {
                    if (sent && p.diverging == null && p.records != null && p.records.sizeInBytes() > 0) {
                        meters.sent(p.records.sizeInBytes(), fromFollower);
                    }
                } else if (unexpected(p.error)) {
                    meters.fetchFailed();
                }
            }
        }

        /**
         * The response for what the session answered ({@link FetchContext#answer}, or
         * {@link FetchContext#throttled} for a throttled client: no partitions, nothing recorded as sent).
         */
        Struct responseOf(FetchContext.Answer<PartitionFetch> answer) {
            Struct response = Response.SCHEMA.newStruct()
                    .set(Response.THROTTLE_TIME_MS, 0)
                    .set(Response.ERROR_CODE, answer.error().code())
                    .set(Response.SESSION_ID, answer.sessionId())
                    .set(Response.RESPONSES, List.of());
            Map<Integer, CurrentLeader> nodeEndpoints = null;
            Struct t = null;
            PartitionFetch previous = null;
            for (PartitionFetch p : answer.partitions()) {
                // Consecutive partitions of one topic share its entry, as in Kafka's FetchResponse.
                if (previous == null || !sameTopic(previous, p)) {
                    t = response.add(Response.RESPONSES);
                    if (p.topicId != null) {
                        t.set(FetchableTopicResponse.TOPIC_ID, p.topicId);
                    } else {
                        t.set(FetchableTopicResponse.TOPIC, p.topic);
                    }
                }
                previous = p;
                Struct out = t.add(FetchableTopicResponse.PARTITIONS).set(PartitionData.PARTITION_INDEX, p.index);
                Records records = records(p);
                if (p.error == ErrorCode.KAFKA_STORAGE_ERROR && version <= 5) {
                    // Clients before Fetch v6 do not know KAFKA_STORAGE_ERROR: Kafka answers them this instead.
                    p.error = ErrorCode.NOT_LEADER_OR_FOLLOWER;
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
                        CurrentLeader leader = CurrentLeader.of(cluster, p.topic, p.index, p.partition,
                                context.session().listenerName());
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
                            .set(PartitionData.ABORTED_TRANSACTIONS, p.aborted)
                            .set(PartitionData.RECORDS, records);
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

        /** formats (issue 9): Fetch v0-3, key and value bytes decompressed for this response so far. */
        private long decompressedForResponse;

        /**
         * The one place a partition's records are produced for the response, once per read: the segment slice,
         * sent as a file region (zero-copy), or nothing; Fetch v0-3 a magic 0/1 copy. May set the partition's
         * error (zstd for old versions, a conversion failure).
         */
        private Records records(PartitionFetch p) {
            if (p.records == null) {
                p.records = makeRecords(p); // quotafix: once per read
            }
            return p.records;
        }

        private Records makeRecords(PartitionFetch p) {
            if (p.error != ErrorCode.NONE || p.diverging != null) {
                return p.slice != null ? new FileSliceRecords(p.slice) : NO_RECORDS;
            }
            // formats (issue 9): Kafka 3.9's maybeConvertFetchedData answered a consumer's Fetch before v10 (the
            // version that brought zstd) UNSUPPORTED_COMPRESSION_TYPE on a zstd topic, with no records; replica
            // fetches are exempt.
            if (version < DownConvertedRecords.FIRST_ZSTD_FETCH_VERSION && !fromReplica(version, request)
                    && "zstd".equals(p.partition.log().config().get(LogConfig.COMPRESSION_TYPE))) {
                p.error = ErrorCode.UNSUPPORTED_COMPRESSION_TYPE;
                return NO_RECORDS;
            }
            if (version < DownConvertedRecords.FIRST_V2_FETCH_VERSION) {
                // formats (issue 9): v0-3 get this response's v2 batches as a magic 0/1 message set, converted
                // once per read (records(p) keeps it: the quota's sizing builds the response twice). One
                // decompression budget for the whole response, its max bytes; only the first partition converting
                // data may go past it, for its first record, up to max bytes again (as KIP-74's first batch).
                int partitionLimit = Math.min(p.maxBytes, maxBytes);
                int left = (int) Math.max(0, maxBytes - decompressedForResponse);
                DownConvertedRecords.Result converted = DownConvertedRecords.forFetch(version,
                        p.partition.log().config().get(LogConfig.COMPRESSION_TYPE), p.slice, p.fetchOffset,
                        partitionLimit, Math.min(partitionLimit, left), decompressedForResponse == 0 ? maxBytes : left);
                decompressedForResponse += converted.decompressed();
                if (converted.error() != ErrorCode.NONE) {
                    p.error = converted.error();
                    return NO_RECORDS;
                }
                return converted.records() != null ? converted.records() : NO_RECORDS;
            }
            return p.slice != null ? new FileSliceRecords(p.slice) : NO_RECORDS;
        }

        private static boolean unexpected(ErrorCode error) {
            return switch (error) {
                case NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_LEADER_EPOCH, FENCED_LEADER_EPOCH,
                        REPLICA_NOT_AVAILABLE, KAFKA_STORAGE_ERROR, INCONSISTENT_TOPIC_ID, OFFSET_OUT_OF_RANGE,
                        UNSUPPORTED_COMPRESSION_TYPE -> false;
                default -> true;
            };
        }

        private static boolean sameTopic(PartitionFetch a, PartitionFetch b) {
            return a.topicId != null ? a.topicId.equals(b.topicId) : Objects.equals(a.topic, b.topic);
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
                case SATISFIED -> {
                    try {
                        future.complete(response());
                    } catch (RuntimeException e) {
                        // As EXPIRED: a failure building the answer must still answer, or the fetch hangs.
                        future.completeExceptionally(e);
                    }
                }
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
