package io.odradek.broker.handlers;

import io.netty.buffer.ByteBuf;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.CloseConnectionException;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.fetch.CancelOnClose;
import io.odradek.broker.fetch.CurrentLeader;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.broker.metrics.BrokerMetrics;
import io.odradek.broker.metrics.BrokerTopicMetrics;
import io.odradek.broker.metrics.TopicMeters;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionVerifier;
import io.odradek.log.LogAppendException;
import io.odradek.log.AppendResult;
import io.odradek.log.LogConfig;
import io.odradek.log.LogException;
import io.odradek.log.legacy.LegacyUpConverter;
import io.odradek.log.producer.VerificationGuard;
import io.odradek.replication.partition.DelayedOperation;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.api.ProduceApi.Request;
import io.odradek.wire.api.ProduceApi.Request.TopicProduceData;
import io.odradek.wire.api.ProduceApi.Request.TopicProduceData.PartitionProduceData;
import io.odradek.wire.api.ProduceApi.Response;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Produce (key 0), versions 0-13.
 *
 * <p>Behaviour / version notes:
 * <ul>
 * <li>v0-2 (Kafka 3.9's; no transactional_id, throttle_time_ms from v1, log_append_time_ms from v2) carry
 *     magic 0/1 message sets: they skip the request-level batch checks (as Kafka below v3) and are validated
 *     and converted to one v2 batch on the partition's writer ({@code LegacyUpConverter}), then appended as
 *     any batch. v3+ require one magic 2 batch (INVALID_RECORD otherwise, as Kafka). A v0-2 request carrying
 *     a v2 batch is handled as v3.</li>
 * <li>Each partition's records field is a slice of the request frame, retained and handed to the
 *     partition's writer thread ({@link Partition#appendAsLeader}, one task per partition per request), so
 *     the append and its disk work (segment roll, index mapping) never run on the event loop. The bytes are
 *     never decoded or copied: the log stamps offsets into the headers in place and writes them with one
 *     positional write. The slice is released when the append ends, whichever way.</li>
 * <li>Request checks as Kafka's {@code ProduceRequest.validateRecords}: exactly one v2 batch per partition,
 *     else INVALID_RECORD; ZSTD below v7 is UNSUPPORTED_COMPRESSION_TYPE. Null or empty records are
 *     INVALID_RECORD too (Kafka's check lets null through to fail later as an unknown server error).
 *     Everything else (CRC, lengths, max.message.bytes, producer epoch and sequence) is the log's, whose
 *     {@code LogAppendException} carries the error code; its message goes in error_message (v8+), and
 *     the records it names (a compacted topic's keyless records, out-of-range timestamps) go in
 *     record_errors (v8+) with their index in the batch, as Kafka's RecordValidationException. The log
 *     walks every record before appending (see {@code BatchValidator}) unless
 *     {@code odradek.produce.validation=header}.</li>
 * <li>acks must be -1, 0 or 1, else every partition gets INVALID_REQUIRED_ACKS (after the transactional id and
 *     topic authorization checks, as Kafka). acks=1 answers once every
 *     partition's append is in the log. acks=all then waits, in the waiting-operations set, until each
 *     appended partition's high watermark passes its last offset: at once on one node; after timeout_ms
 *     the partitions still short get REQUEST_TIMED_OUT (base offset kept), as Kafka's DelayedProduce; a
 *     closed connection drops the wait. acks=0 sends no response; if a partition failed, the connection is
 *     closed instead, as Kafka does, so the client refreshes its metadata.</li>
 * <li>Replication (Kafka's Partition.appendRecordsToLeader and checkEnoughReplicasReachOffset): a partition
 *     this broker does not lead (a follower here, or only known from the cluster metadata) is
 *     NOT_LEADER_OR_FOLLOWER, with KIP-951's current_leader (leader id and epoch from the metadata image,
 *     or from the local replica when it knows a newer epoch) and the leader's endpoint (request's listener) in
 *     node_endpoints on v10+ (whoever refused: this check, the writer, or a wait), as Kafka 4 answers it, so the
 *     client goes there without a metadata round trip. acks=all with fewer in-sync replicas than the
 *     topic's min.insync.replicas is NOT_ENOUGH_REPLICAS before anything is appended; an acks=all append
 *     whose high watermark passed it while the ISR was below min.insync.replicas is
 *     NOT_ENOUGH_REPLICAS_AFTER_APPEND (the records are in the log, offsets kept); one whose partition
 *     stopped being led here (at the leader epoch it was appended at) while it waited is
 *     NOT_LEADER_OR_FOLLOWER: a demoted leader's high watermark comes from the new leader and says nothing of
 *     these records. The leader check on this path is
 *     one volatile read; on one node it always passes and the ISR is this broker alone (so a topic with
 *     min.insync.replicas above 1 refuses acks=all, as a one-broker Kafka does).</li>
 * <li>Unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION (Kafka 4 does not auto-create on produce);
 *     v13 names topics by id, an unknown id is UNKNOWN_TOPIC_ID. Internal topics (__consumer_offsets,
 *     __transaction_state) take no client writes: INVALID_TOPIC_EXCEPTION, as in Kafka.</li>
 * <li>Transactions (Kafka's ReplicaManager.handleProduceAppend): transactional batches without a
 *     transactional_id fail the whole request with TRANSACTIONAL_ID_AUTHORIZATION_FAILED. With one, the
 *     partitions holding transactional batches are checked with the transaction coordinator
 *     ({@link TransactionVerifier}) in one question per request before they are appended, except where the
 *     producer's transaction is already open at the batch's epoch (Kafka's hasOngoingTransaction, read
 *     lock-free from the log's producer state): only a transaction's first batch on a partition is asked
 *     about. v12+ (only sent by
 *     clients using transaction version 2) asks it to add missing partitions to the ongoing transaction;
 *     older versions only verify, unless {@code transaction.partition.verification.enable} is false (then
 *     they are appended unchecked, as Kafka does). The coordinator's errors are translated as Kafka does for
 *     producers: INVALID_TXN_STATE ("Partition was not added to the transaction"); PRODUCER_FENCED becomes
 *     INVALID_PRODUCER_EPOCH; TRANSACTION_ABORTABLE becomes INVALID_TXN_STATE before v11; NOT_COORDINATOR,
 *     COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS and NETWORK_EXCEPTION (and
 *     CONCURRENT_TRANSACTIONS before v12) become NOT_ENOUGH_REPLICAS, retriable; at v12+ a
 *     CONCURRENT_TRANSACTIONS answer is asked again every 20 ms for up to 100 ms (Kafka's
 *     add.partitions.to.txn.retry.backoff defaults) before it is returned. A coordinator that fails instead
 *     of answering counts as COORDINATOR_NOT_AVAILABLE. Batches of two producer ids in one request:
 *     INVALID_PRODUCER_ID_MAPPING on the transactional partitions (Kafka fails the whole request; no client
 *     mixes them). As Kafka's VerificationGuard: each partition asked about hands out a guard, and the
 *     batch is appended with it; if meanwhile a marker ended the transaction (dropping the guard) the log
 *     refuses the batch with INVALID_TXN_STATE, so a late batch cannot open a transaction nothing will end
 *     (a batch appended without asking is refused the same way if its transaction is no longer open). The
 *     wait for the coordinator is bounded by timeout_ms (30 s, Kafka's request.timeout.ms, if not
 *     positive): then NOT_ENOUGH_REPLICAS ("Underlying error: NETWORK_EXCEPTION", what Kafka answers when
 *     its request to the coordinator times out; Kafka bounds it by request.timeout.ms, not timeout_ms) and
 *     the held records are released; a later answer is ignored. Non-transactional batches take the same
 *     path as before and are appended whether or not a transactional_id is set, as in Kafka.</li>
 * <li>Order: a connection's produce requests reach each partition in the order they were sent, as Kafka
 *     guarantees by handling one request per connection at a time. Odradek reads several requests of a
 *     connection ahead, so while one of them waits for the transaction coordinator, the produce requests
 *     after it on the same connection wait too (their records retained) and are handled once its batches
 *     are in the log; otherwise a producer's later batch (already in an open transaction)
 *     would overtake an earlier one and fail with OUT_OF_ORDER_SEQUENCE_NUMBER. Nothing waits when no
 *     request of the connection is waiting.</li>
 * <li>Authorization (issue 10), as Kafka 4.4's KafkaApis.handleProduceRequest: a request with transactional
 *     batches needs WRITE on its transactional_id, else every partition is TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
 *     each topic needs WRITE, else its partitions are TOPIC_AUTHORIZATION_FAILED (checked after an unknown topic
 *     id, before existence, so an unauthorized client cannot learn which topics exist). Idempotent producers
 *     need nothing more here (KIP-679: InitProducerId checks them). Without an authorizer nothing is asked.</li>
 * <li>A retried batch already in the log is answered with its original base offset and no error.</li>
 * <li>A successful append wakes the fetches parked on that partition (the Partition does it).</li>
 * <li>Metrics (issue 11), as Kafka's ReplicaManager.appendToLocalLog counts them: each partition handed to the log
 *     is one TotalProduceRequestsPerSec (partitions refused before, e.g. an unknown topic, are not counted: no
 *     meters for names that are not topics); an appended batch adds its record count (read from its header, never
 *     by walking records; a v0-2 message set: the offsets it took) to MessagesInPerSec and its size to
 *     BytesInPerSec; a batch too large adds its size to BytesRejectedPerSec; an append failing with other than
 *     the routine errors (not the leader, unknown partition, too large, corrupt, storage) is a
 *     FailedProduceRequestsPerSec. Per topic and broker-wide; the topic's meters are looked up once per topic per
 *     request.</li>
 * </ul>
 */
public final class ProduceHandler implements ApiHandler {
    private static final int ZSTD = 4;
    /** Produce v0-2 may carry magic 0/1 message sets (formats, issue 9); v3+ only v2 batches. */
    private static final short MAX_LEGACY_VERSION = 2;
    private static final long UNKNOWN = -1L;
    private static final short ACKS_ALL = -1;
    /** Written only by the broker itself; Kafka lets its own admin client id through, and so do we. */
    private static final Set<String> INTERNAL_TOPICS = Set.of("__consumer_offsets", "__transaction_state");
    private static final String ADMIN_CLIENT_ID = "__admin_client";

    /** Produce v12+ is sent only by clients using transaction version 2: the leader adds the partition itself. */
    private static final short FIRST_ADD_PARTITION_VERSION = 12;
    /** Kafka's add.partitions.to.txn.retry.backoff.ms and .max.ms defaults. */
    private static final long CONCURRENT_RETRY_BACKOFF_MS = 20;
    private static final long CONCURRENT_RETRY_MAX_MS = 100;
    /** Kafka's request.timeout.ms default, bounding the wait on the coordinator when timeout_ms is not positive. */
    private static final int DEFAULT_VERIFY_TIMEOUT_MS = 30_000;

    private final PartitionLogs topics;
    private final Partitions partitions;
    private final ClusterView cluster;
    private final TransactionVerifier verifier;
    private final boolean partitionVerification;
    /**
     * Per connection (keyed by its close future), the last produce request whose batches waited for the
     * transaction coordinator and are not all in their logs yet: a later request of that connection is
     * handled after it. Entries go as soon as that request's appends are done.
     */
    private final Map<Object, CompletableFuture<Void>> heldBack = new ConcurrentHashMap<>();
    /** issue 11 (metrics): the BrokerTopicMetrics meters counted into (a throwaway set until the broker's are given). */
    private BrokerTopicMetrics topicMetrics = BrokerMetrics.manual(System::nanoTime).topics();

    /** Without a transaction coordinator: transactional batches are appended unchecked. */
    public ProduceHandler(PartitionLogs topics, Partitions partitions, ClusterView cluster) {
        this(topics, partitions, cluster, null, true);
    }

    /**
     * @param cluster               the metadata image: who leads a partition this broker does not (KIP-951)
     * @param verifier              the transaction coordinator, asked before a transactional batch is appended;
     *                              null appends them unchecked
     * @param partitionVerification Kafka's {@code transaction.partition.verification.enable}: whether batches
     *                              of transaction version 1 clients (Produce before v12) are verified
     */
    public ProduceHandler(PartitionLogs topics, Partitions partitions, ClusterView cluster,
            TransactionVerifier verifier, boolean partitionVerification) {
        this.topics = topics;
        this.partitions = partitions;
        this.cluster = cluster;
        this.verifier = verifier;
        this.partitionVerification = partitionVerification;
    }

    /** issue 11 (metrics): counts into the broker's BrokerTopicMetrics meters. */
    public ProduceHandler withMetrics(BrokerTopicMetrics metrics) {
        this.topicMetrics = metrics;
        return this;
    }

    @Override
    public ApiSpec api() {
        return ProduceApi.SPEC;
    }

    /** A partition whose append succeeded, for the acks=all wait. */
    private record Appended(Partition partition, long lastOffset, int leaderEpoch, Struct out) {
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        Object connection = context.connectionClosed();
        CompletableFuture<Void> previous = heldBack.get(connection);
        if (previous == null) {
            Handled handled = handleNow(context, request);
            if (handled.submitted() != null) {
                holdBack(connection, handled.submitted());
            }
            return handled.response();
        }
        // An earlier request of this connection still waits for the transaction coordinator: this one goes
        // after it. The frame is released when handle returns, so the records are retained until then.
        CompletableFuture<Void> mine = new CompletableFuture<>();
        holdBack(connection, mine);
        List<ByteBuf> held = retainRecords(request);
        return previous.thenComposeAsync(v -> {
            Handled handled;
            try {
                handled = handleNow(context, request);
            } catch (RuntimeException e) {
                mine.complete(null);
                throw e;
            } finally {
                held.forEach(ByteBuf::release);
            }
            if (handled.submitted() == null) {
                mine.complete(null);
            } else {
                handled.submitted().whenComplete((x, e) -> mine.complete(null));
            }
            return handled.response();
        }, context.executor());
    }

    private void holdBack(Object connection, CompletableFuture<Void> submitted) {
        heldBack.put(connection, submitted);
        submitted.whenComplete((v, e) -> heldBack.remove(connection, submitted));
    }

    private static List<ByteBuf> retainRecords(Struct request) {
        List<ByteBuf> held = new ArrayList<>();
        for (Struct topic : request.get(Request.TOPIC_DATA)) {
            for (Struct partition : topic.get(TopicProduceData.PARTITION_DATA)) {
                if (partition.get(PartitionProduceData.RECORDS) instanceof MemoryRecords records) {
                    held.add(records.buffer().retain());
                }
            }
        }
        return held;
    }

    /**
     * A request's response, and (when some of its batches wait for the transaction coordinator) a future
     * completed once those batches are appended or refused; null when nothing waits.
     */
    private record Handled(CompletableFuture<Struct> response, CompletableFuture<Void> submitted) {
    }

    private Handled handleNow(RequestContext context, Struct request) {
        short version = context.version();
        short acks = request.get(Request.ACKS);
        String transactionalId = request.get(Request.TRANSACTIONAL_ID);
        List<Struct> topicData = request.get(Request.TOPIC_DATA);

        // As Kafka's KafkaApis, before anything else: transactional batches without a transactional_id, or
        // (issue 10) with one the client may not WRITE, fail the whole request. Then, per partition, WRITE on
        // the topic (issue 10), and only then the acks (Kafka's ReplicaManager checks them after authorization).
        // No authorizer: one check here, none per partition.
        TopicAccess writable = TopicAccess.of(context, AclOperation.WRITE);
        ErrorCode requestError = null;
        if (transactionalId == null ? hasTransactionalRecords(topicData)
                : !writable.allowsEverything() && hasTransactionalRecords(topicData)
                        && !context.session().authorized(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID,
                                transactionalId)) {
            requestError = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
        }
        boolean invalidAcks = acks != -1 && acks != 0 && acks != 1;

        // Kafka checks transactional batches with the coordinator only when there is one to ask and either the
        // client adds partitions this way (v12+, transaction version 2) or verification is on.
        boolean verify = transactionalId != null && verifier != null && (version >= FIRST_ADD_PARTITION_VERSION
                || partitionVerification);
        List<TxnBatch> unverified = null;
        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        AtomicBoolean failed = new AtomicBoolean();
        List<CompletableFuture<Void>> appends = new ArrayList<>();
        Queue<Appended> appended = new ConcurrentLinkedQueue<>();
        for (Struct topic : topicData) {
            Struct topicResponse = response.add(Response.RESPONSES);
            String name;
            if (version >= 13) {
                UUID id = topic.get(TopicProduceData.TOPIC_ID);
                topicResponse.set(TopicProduceResponse.TOPIC_ID, id);
                name = topics.topicName(id).orElse(null);
            } else {
                name = topic.get(TopicProduceData.NAME);
                topicResponse.set(TopicProduceResponse.NAME, name);
            }
            TopicMeters meters = null; // issue 11 (metrics): looked up once per topic, for its first partition appended
            for (Struct partition : topic.get(TopicProduceData.PARTITION_DATA)) {
                Struct out = topicResponse.add(TopicProduceResponse.PARTITION_RESPONSES);
                int index = partition.get(PartitionProduceData.INDEX);
                out.set(PartitionProduceResponse.INDEX, index);
                if (requestError != null) {
                    fail(out, requestError, null);
                    failed.set(true);
                    continue;
                }
                if (name != null && !writable.allowed(name)) {
                    fail(out, ErrorCode.TOPIC_AUTHORIZATION_FAILED, null);
                    failed.set(true);
                    continue;
                }
                if (invalidAcks) {
                    fail(out, ErrorCode.INVALID_REQUIRED_ACKS, null);
                    failed.set(true);
                    continue;
                }
                Records records = partition.get(PartitionProduceData.RECORDS);
                Partition target = check(version, acks, context.clientId(), name, index, records, out);
                if (target == null) {
                    failed.set(true);
                    continue;
                }
                ByteBuf batch = ((MemoryRecords) records).buffer();
                if (meters == null) {
                    meters = topicMetrics.topic(name);
                }
                if (verify && isTransactional(batch)) {
                    // Held back until the transaction coordinator has answered for every such partition.
                    if (unverified == null) {
                        unverified = new ArrayList<>();
                    }
                    unverified.add(new TxnBatch(new TopicPartition(name, index), target, batch.retainedSlice(), out,
                            meters));
                    continue;
                }
                appends.add(append(version, acks, target, batch, null, out, failed, appended, meters));
            }
        }
        CompletableFuture<Void> submitted = null;
        if (unverified != null) {
            int timeoutMs = request.get(Request.TIMEOUT_MS);
            List<CompletableFuture<Void>> submissions = new ArrayList<>(1);
            appends.add(verifyThenAppend(context, transactionalId, acks, timeoutMs, unverified, failed, appended,
                    submissions));
            submitted = submissions.isEmpty() ? null : submissions.get(0);
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new));
        if (acks == 0) {
            return new Handled(all.thenApply(v -> {
                if (failed.get()) {
                    throw new ProduceWithoutAcksFailed(describeErrors(response));
                }
                return null;
            }), submitted);
        }
        if (acks == ACKS_ALL) {
            int timeoutMs = Math.max(0, request.get(Request.TIMEOUT_MS));
            return new Handled(all.thenCompose(v -> awaitHighWatermark(context, List.copyOf(appended), timeoutMs,
                    response, version, failed)), submitted);
        }
        return new Handled(all.thenApply(v -> {
            if (failed.get()) {
                addCurrentLeaders(version, response, context.session().listenerName());
            }
            return response;
        }), submitted);
    }

    /**
     * Kafka's per-partition checks before an append. Returns the partition to append to, or null when the
     * partition was refused here (its response filled in).
     */
    private Partition check(short version, short acks, String clientId, String topic, int index, Records records,
            Struct out) {
        ErrorCode refused = null;
        String why = null;
        Optional<Partition> found = topic == null ? Optional.empty() : partitions.partition(topic, index);
        if (topic == null) {
            refused = ErrorCode.UNKNOWN_TOPIC_ID;
        } else if (found.isEmpty()) {
            // Kafka: a partition the metadata knows but this broker holds no replica of is NOT_LEADER_OR_FOLLOWER.
            refused = cluster.image().partition(topic, index).isPresent() ? ErrorCode.NOT_LEADER_OR_FOLLOWER
                    : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
        } else if (INTERNAL_TOPICS.contains(topic) && !ADMIN_CLIENT_ID.equals(clientId)) {
            refused = ErrorCode.INVALID_TOPIC_EXCEPTION;
            why = "Cannot append to internal topic " + topic;
        } else if (!(records instanceof MemoryRecords memory) || memory.sizeInBytes() == 0) {
            refused = ErrorCode.INVALID_RECORD;
            why = "Produce requests with version " + version + " must have at least one record batch per partition";
        } else if ((refused = validateRecords(version, memory.buffer())) != null) {
            why = invalidMessage(version, refused);
        } else if ((refused = found.get().checkLeader(-1)) != ErrorCode.NONE) {
            why = "This server is not the leader for partition " + found.get();
        } else if ((refused = found.get().checkEnoughReplicas(acks)) != ErrorCode.NONE) {
            why = notEnoughReplicas(found.get());
        } else {
            refused = null;
        }
        if (refused != null) {
            fail(out, refused, why);
            return null;
        }
        return found.get();
    }

    /** Kafka's NotEnoughReplicasException message. */
    private String notEnoughReplicas(Partition partition) {
        List<Integer> isr = partition.inSyncReplicas();
        if (isr.isEmpty()) {
            isr = List.of(cluster.localBrokerId()); // a single node's partition: this broker alone is in sync
        }
        return "The size of the current ISR : " + isr.size() + " is insufficient to satisfy the min.isr requirement of "
                + partition.log().config().get(LogConfig.MIN_INSYNC_REPLICAS) + " for partition " + partition
                + ", live replica(s) broker.id are : " + isr;
    }

    /**
     * KIP-951 on v10+, once every partition is answered (one thread): each partition answered
     * NOT_LEADER_OR_FOLLOWER (refused here, by the writer, or while waiting for acks=all) gets its current
     * leader, and the response's node_endpoints the leaders' endpoints of the request's listener, each node once, as Kafka's
     * KafkaApis does for producers.
     */
    private void addCurrentLeaders(short version, Struct response, String listener) {
        if (version < 10) {
            return;
        }
        for (Struct topic : response.get(Response.RESPONSES)) {
            String name = null;
            for (Struct out : topic.get(TopicProduceResponse.PARTITION_RESPONSES)) {
                if (out.get(PartitionProduceResponse.ERROR_CODE) != ErrorCode.NOT_LEADER_OR_FOLLOWER.code()) {
                    continue;
                }
                if (name == null) {
                    name = version >= 13 ? topics.topicName(topic.get(TopicProduceResponse.TOPIC_ID)).orElse(null)
                            : topic.get(TopicProduceResponse.NAME);
                }
                int index = out.get(PartitionProduceResponse.INDEX);
                Partition local = name == null ? null : partitions.partition(name, index).orElse(null);
                CurrentLeader leader = CurrentLeader.of(cluster, name, index, local, listener);
                out.set(PartitionProduceResponse.CURRENT_LEADER, PartitionProduceResponse.LeaderIdAndEpoch.SCHEMA.newStruct()
                        .set(PartitionProduceResponse.LeaderIdAndEpoch.LEADER_ID, leader.leaderId())
                        .set(PartitionProduceResponse.LeaderIdAndEpoch.LEADER_EPOCH, leader.leaderEpoch()));
                if (leader.endpoint() != null && !hasNode(response, leader.leaderId())) {
                    response.add(Response.NODE_ENDPOINTS)
                            .set(Response.NodeEndpoint.NODE_ID, leader.leaderId())
                            .set(Response.NodeEndpoint.HOST, leader.endpoint().host())
                            .set(Response.NodeEndpoint.PORT, leader.endpoint().port())
                            .set(Response.NodeEndpoint.RACK, leader.node().rack());
                }
            }
        }
    }

    private static boolean hasNode(Struct response, int nodeId) {
        List<Struct> known = response.get(Response.NODE_ENDPOINTS);
        if (known != null) {
            for (Struct node : known) {
                if (node.get(Response.NodeEndpoint.NODE_ID) == nodeId) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Hands one partition's batch to its writer; fills in its response when the append ends. {@code guard}
     * is the transaction verification's (null for batches that were not verified).
     */
    private static CompletableFuture<Void> append(short version, short acks, Partition partition, ByteBuf records,
            VerificationGuard guard, Struct out, AtomicBoolean failed, Queue<Appended> appended, TopicMeters meters) {
        // The frame is released when handle() returns: keep its bytes alive until the writer is done with
        // them. A view, not a copy: the log stamps offsets into it and writes it out.
        ByteBuf frameBytes = records.retainedSlice();
        ByteBuffer view = frameBytes.nioBuffer();
        // issue 11 (metrics): the batch's size and record count (its header's), read before the writer has it.
        int bytes = view.remaining();
        boolean legacy = version <= MAX_LEGACY_VERSION && LegacyUpConverter.isLegacy(view);
        int messages = !legacy && bytes >= RecordBatchHeader.HEADER_SIZE
                ? view.getInt(view.position() + RecordBatchHeader.RECORDS_COUNT_OFFSET) : 0;
        meters.produceRequest();
        CompletableFuture<AppendResult> appending;
        if (legacy) {
            // formats (issue 9): a magic 0/1 message set is validated and converted to one v2 batch on the writer.
            appending = partition.appendConvertedAsLeader(config -> LegacyUpConverter.toBatch(view, config,
                    partition.topic(), partition.partition(), System.currentTimeMillis()), acks);
        } else {
            appending = guard == null ? partition.appendAsLeader(view, acks) : partition.appendAsLeader(view, acks, guard);
        }
        return appending.handle((result, error) -> {
            frameBytes.release();
            if (error != null) {
                Throwable cause = unwrap(error);
                appendFailed(version, out, cause);
                failed.set(true);
                countFailure(meters, cause, bytes);
            } else {
                meters.appended(legacy ? result.lastOffset() - result.baseOffset() + 1 : messages, bytes);
                out.set(PartitionProduceResponse.ERROR_CODE, ErrorCode.NONE.code())
                        .set(PartitionProduceResponse.BASE_OFFSET, result.baseOffset())
                        .set(PartitionProduceResponse.LOG_APPEND_TIME_MS, result.logAppendTime())
                        .set(PartitionProduceResponse.LOG_START_OFFSET, result.logStartOffset());
                if (acks == ACKS_ALL) {
                    appended.add(new Appended(partition, result.lastOffset(), result.leaderEpoch(), out));
                }
            }
            return null;
        });
    }

    /**
     * issue 11 (metrics), as Kafka's ReplicaManager.appendToLocalLog: a batch too large counts its bytes as rejected
     * (BytesRejectedPerSec); the routine refusals (not the leader, unknown partition, too large, corrupt, storage)
     * count nothing more; any other failure (a record refused, a producer-state error) is a failed produce request.
     */
    private static void countFailure(TopicMeters meters, Throwable cause, int bytes) {
        ErrorCode code = cause instanceof LogException e ? e.errorCode() : ErrorCode.UNKNOWN_SERVER_ERROR;
        switch (code) {
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE -> meters.rejected(bytes);
            case NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_OR_PARTITION, CORRUPT_MESSAGE, KAFKA_STORAGE_ERROR -> {
            }
            default -> meters.produceFailed();
        }
    }

    // ---------------------------------------------------------------- transactional batches

    /** A transactional batch held (its bytes retained) until the coordinator has verified its partition. */
    private record TxnBatch(TopicPartition tp, Partition partition, ByteBuf records, Struct out, TopicMeters meters) {
    }

    /**
     * Kafka's ReplicaManager.handleProduceAppend for transactional batches. A partition where the producer's
     * transaction is already open at this epoch is appended at once (Kafka's hasOngoingTransaction: only a
     * transaction's first batch on a partition is verified). For the others a verification guard is taken
     * and one question goes to the transaction coordinator (verify only, or add when the client uses
     * transaction version 2: Produce v12+); the partitions it accepted are appended with their guard, which
     * the log refuses with INVALID_TXN_STATE if a marker ended the transaction meanwhile, and the others are
     * answered with its error, translated as Kafka translates it for producers. A coordinator that has not
     * answered within timeout_ms counts as unreachable (NETWORK_EXCEPTION, so NOT_ENOUGH_REPLICAS).
     */
    private CompletableFuture<Void> verifyThenAppend(RequestContext context, String transactionalId, short acks,
            int timeoutMs, List<TxnBatch> batches, AtomicBoolean failed, Queue<Appended> appended,
            List<CompletableFuture<Void>> submitted) {
        short version = context.version();
        ByteBuf first = batches.get(0).records();
        long producerId = producerId(first);
        short producerEpoch = producerEpoch(first);
        for (TxnBatch b : batches) {
            if (producerId(b.records()) != producerId) {
                // Kafka refuses the request (InvalidPidMappingException); no real producer sends this.
                return refuseAll(batches, failed, ErrorCode.INVALID_PRODUCER_ID_MAPPING,
                        "Transactional records contained more than one producer ID");
            }
        }
        boolean add = version >= FIRST_ADD_PARTITION_VERSION;
        List<CompletableFuture<Void>> appends = new ArrayList<>(batches.size());
        List<TxnBatch> asking = new ArrayList<>(batches.size());
        List<VerificationGuard> guards = new ArrayList<>(batches.size());
        for (TxnBatch b : batches) {
            // Batches of different epochs would be refused by the log (older) or need asking (newer): their own.
            short epoch = producerEpoch(b.records());
            VerificationGuard guard = b.partition().startTransactionVerification(producerId, epoch, add);
            if (guard == VerificationGuard.NONE) {
                appends.add(append(version, acks, b.partition(), b.records(), guard, b.out(), failed, appended,
                        b.meters()));
                b.records().release(); // append() took its own reference
            } else {
                asking.add(b);
                guards.add(guard);
            }
        }
        if (!asking.isEmpty()) {
            appends.add(askThenAppend(context, transactionalId, producerId, producerEpoch, add, acks, timeoutMs,
                    asking, guards, failed, appended, submitted));
        }
        return CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new));
    }

    /** The coordinator's part of {@link #verifyThenAppend}: {@code guards} are the batches' own, in order. */
    private CompletableFuture<Void> askThenAppend(RequestContext context, String transactionalId, long producerId,
            short producerEpoch, boolean add, short acks, int timeoutMs, List<TxnBatch> batches,
            List<VerificationGuard> guards, AtomicBoolean failed, Queue<Appended> appended,
            List<CompletableFuture<Void>> submitted) {
        short version = context.version();
        List<TopicPartition> tps = new ArrayList<>(batches.size());
        List<Partition> keys = new ArrayList<>(batches.size());
        for (TxnBatch b : batches) {
            tps.add(b.tp());
            keys.add(b.partition());
        }
        CompletableFuture<Map<TopicPartition, ErrorCode>> verified = new CompletableFuture<>();
        boundWait(verified, tps, keys, timeoutMs);
        askCoordinator(new Question(transactionalId, producerId, producerEpoch, tps, add, keys, System.nanoTime()), verified);
        CompletableFuture<CompletableFuture<Void>> handedOver = verified.thenApplyAsync(errors -> {
            List<CompletableFuture<Void>> appends = new ArrayList<>(batches.size());
            for (int i = 0; i < batches.size(); i++) {
                TxnBatch b = batches.get(i);
                ErrorCode error = errors.getOrDefault(b.tp(), ErrorCode.NONE);
                if (error == ErrorCode.NONE) {
                    appends.add(append(version, acks, b.partition(), b.records(), guards.get(i), b.out(), failed,
                            appended, b.meters()));
                } else {
                    refuseUnverified(version, b.out(), error);
                    failed.set(true);
                }
                b.records().release(); // append() took its own reference
            }
            return CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new));
        }, context.executor());
        // Once the batches are in their partitions' logs, this connection's next produce request may go: it then
        // finds the transaction open and need not ask the coordinator again.
        CompletableFuture<Void> inLog = handedOver.thenCompose(appends -> appends);
        submitted.add(inLog.handle((v, e) -> null));
        return inLog;
    }

    /**
     * Ends the wait for the coordinator after the produce request's timeout_ms ({@value #DEFAULT_VERIFY_TIMEOUT_MS}
     * ms, Kafka's request.timeout.ms, if it is not positive), or when the broker closes: every partition then
     * gets NETWORK_EXCEPTION, as Kafka's AddPartitionsToTxnManager gives when its request to the coordinator
     * times out, which producers see as NOT_ENOUGH_REPLICAS (retriable). A later answer is ignored.
     */
    private void boundWait(CompletableFuture<Map<TopicPartition, ErrorCode>> verified, List<TopicPartition> tps,
            List<Partition> keys, int timeoutMs) {
        DelayedOperation deadline = new DelayedOperation(timeoutMs > 0 ? timeoutMs : DEFAULT_VERIFY_TIMEOUT_MS,
                DelayedOperation.INLINE) {
            @Override
            protected boolean canComplete() {
                return false; // only its timeout (or the answer, which cancels it) ends it
            }

            @Override
            protected void onComplete(Outcome how) {
                verified.complete(allFailed(tps, ErrorCode.NETWORK_EXCEPTION)); // a no-op once answered
            }
        };
        partitions.waiting().watch(deadline, keys);
        verified.whenComplete((errors, error) -> deadline.cancel());
    }

    private static Map<TopicPartition, ErrorCode> allFailed(List<TopicPartition> tps, ErrorCode error) {
        Map<TopicPartition, ErrorCode> outcome = new HashMap<>();
        for (TopicPartition tp : tps) {
            outcome.put(tp, error);
        }
        return outcome;
    }

    /** One verification: what is asked, and the partitions whose batches wait on it. */
    private record Question(String transactionalId, long producerId, short producerEpoch, List<TopicPartition> partitions,
            boolean add, List<Partition> keys, long startedNanos) {
    }

    /**
     * Asks the coordinator and completes {@code result} with its per-partition errors. A v12+ (add) request
     * answered CONCURRENT_TRANSACTIONS (the previous transaction is still being completed, common right after
     * a commit) is asked again every {@value #CONCURRENT_RETRY_BACKOFF_MS} ms for up to
     * {@value #CONCURRENT_RETRY_MAX_MS} ms, as Kafka's broker does, instead of sending the producer into its
     * own slower retry.
     */
    private void askCoordinator(Question q, CompletableFuture<Map<TopicPartition, ErrorCode>> result) {
        if (result.isDone()) {
            return; // timed out while backing off
        }
        CompletableFuture<Map<TopicPartition, ErrorCode>> answer;
        try {
            answer = verifier.verify(q.transactionalId(), q.producerId(), q.producerEpoch(), q.partitions(), q.add());
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((errors, error) -> {
            Map<TopicPartition, ErrorCode> outcome = errors;
            if (error != null || errors == null) {
                // The coordinator could not answer: a retriable error, as when Kafka cannot reach it.
                outcome = allFailed(q.partitions(), ErrorCode.COORDINATOR_NOT_AVAILABLE);
            }
            boolean retry = !result.isDone() && q.add() && outcome.containsValue(ErrorCode.CONCURRENT_TRANSACTIONS)
                    && System.nanoTime() - q.startedNanos() < TimeUnit.MILLISECONDS.toNanos(CONCURRENT_RETRY_MAX_MS);
            if (!retry) {
                result.complete(outcome);
                return;
            }
            Map<TopicPartition, ErrorCode> last = outcome;
            partitions.waiting().watch(new DelayedOperation(CONCURRENT_RETRY_BACKOFF_MS, DelayedOperation.INLINE) {
                @Override
                protected boolean canComplete() {
                    return false; // only its timeout ends it
                }

                @Override
                protected void onComplete(Outcome how) {
                    if (how == Outcome.EXPIRED) {
                        askCoordinator(q, result);
                    } else {
                        result.complete(last); // the broker is closing
                    }
                }
            }, q.keys()); // watched only so that closing the broker ends the wait
        });
    }

    /**
     * Kafka's translation of the coordinator's answer for producers (AddPartitionsToTxnManager and
     * ReplicaManager): PRODUCER_FENCED becomes INVALID_PRODUCER_EPOCH, which producers expect here;
     * TRANSACTION_ABORTABLE is INVALID_TXN_STATE for clients before v11, which do not know it; errors that
     * only mean "could not verify yet" become NOT_ENOUGH_REPLICAS, retriable without a metadata refresh
     * (CONCURRENT_TRANSACTIONS too, except for v12+ clients, which handle it).
     */
    static ErrorCode producerError(short version, ErrorCode coordinatorError) {
        return switch (coordinatorError) {
            case PRODUCER_FENCED -> ErrorCode.INVALID_PRODUCER_EPOCH;
            case CLUSTER_AUTHORIZATION_FAILED -> ErrorCode.INVALID_TXN_STATE;
            case TRANSACTION_ABORTABLE -> version < 11 ? ErrorCode.INVALID_TXN_STATE : coordinatorError;
            case NETWORK_EXCEPTION, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR ->
                    ErrorCode.NOT_ENOUGH_REPLICAS;
            case CONCURRENT_TRANSACTIONS -> version >= FIRST_ADD_PARTITION_VERSION ? coordinatorError
                    : ErrorCode.NOT_ENOUGH_REPLICAS;
            default -> coordinatorError;
        };
    }

    private static void refuseUnverified(short version, Struct out, ErrorCode coordinatorError) {
        ErrorCode error = producerError(version, coordinatorError);
        String why;
        if (error == ErrorCode.INVALID_TXN_STATE) {
            why = "Partition was not added to the transaction";
        } else if (error == ErrorCode.NOT_ENOUGH_REPLICAS) {
            why = "Unable to verify the partition has been added to the transaction. Underlying error: " + coordinatorError;
        } else {
            why = null;
        }
        fail(out, error, why);
    }

    private static CompletableFuture<Void> refuseAll(List<TxnBatch> batches, AtomicBoolean failed, ErrorCode error,
            String why) {
        for (TxnBatch b : batches) {
            fail(b.out(), error, why);
            b.records().release();
        }
        failed.set(true);
        return CompletableFuture.completedFuture(null);
    }

    /**
     * A refused append's partition response. The log's {@link LogException} carries the error code and
     * message; record-level errors (v8+ record_errors) from a {@code LogAppendException} go in here too.
     */
    private static void appendFailed(short version, Struct out, Throwable error) {
        if (error instanceof LogException e) {
            fail(out, e.errorCode(), e.getMessage());
            addRecordErrors(version, out, e);
        } else {
            fail(out, ErrorCode.UNKNOWN_SERVER_ERROR, "append failed: " + error);
        }
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /**
     * acks=all: answers once every appended partition is decided, as Kafka's DelayedProduce: its high watermark
     * passed its last offset (at once on one node; NOT_ENOUGH_REPLICAS_AFTER_APPEND if the ISR was then below
     * min.insync.replicas) or this broker stopped leading it (NOT_LEADER_OR_FOLLOWER); after timeout_ms the
     * partitions still short get REQUEST_TIMED_OUT. Waits in the waiting-operations set, and is dropped if the
     * connection closes.
     */
    private CompletableFuture<Struct> awaitHighWatermark(RequestContext context, List<Appended> appended,
            int timeoutMs, Struct response, short version, AtomicBoolean failed) {
        DelayedProduce produce = new DelayedProduce(appended, timeoutMs, response, version, failed,
                context.session().listenerName());
        if (produce.canComplete()) {
            produce.settle(false);
            return CompletableFuture.completedFuture(response);
        }
        List<Partition> keys = new ArrayList<>();
        for (Appended a : appended) {
            keys.add(a.partition());
        }
        partitions.waiting().watch(produce, keys);
        CancelOnClose.bind(produce, context);
        return produce.future;
    }

    /** An acks=all produce waiting for its partitions' high watermarks; its checks only read volatile state. */
    private final class DelayedProduce extends DelayedOperation {
        final List<Appended> appended;
        final Struct response;
        final short version;
        /** Whether any partition of the request failed (then KIP-951 fields may be due). */
        final AtomicBoolean failed;
        final CompletableFuture<Struct> future = new CompletableFuture<>();
        /** The listener the request came on (current leaders are given at their endpoints of it). */
        final String listener;

        DelayedProduce(List<Appended> appended, int timeoutMs, Struct response, short version, AtomicBoolean failed,
                String listener) {
            super(timeoutMs, DelayedOperation.INLINE);
            this.listener = listener;
            this.appended = appended;
            this.response = response;
            this.version = version;
            this.failed = failed;
        }

        @Override
        protected boolean canComplete() {
            for (Appended a : appended) {
                if (!decided(a)) {
                    return false;
                }
            }
            return true;
        }

        /** Replicated far enough, or no longer ours to replicate (Kafka's checkEnoughReplicasReachOffset). */
        private boolean decided(Appended a) {
            return check(a).isPresent();
        }

        /**
         * Empty while the high watermark is short of the append; NOT_LEADER_OR_FOLLOWER once this broker no
         * longer leads at the epoch the records were appended at (a demoted leader's high watermark comes from
         * the new leader, over other records); NOT_ENOUGH_REPLICAS_AFTER_APPEND or NONE once it passed.
         */
        private static Optional<ErrorCode> check(Appended a) {
            return a.partition().checkEnoughReplicasReachOffset(a.lastOffset() + 1, a.leaderEpoch());
        }

        /**
         * Fills in each partition's outcome: NOT_LEADER_OR_FOLLOWER if leadership moved away,
         * NOT_ENOUGH_REPLICAS_AFTER_APPEND if the high watermark passed while the ISR was below min.insync.replicas,
         * and, when {@code expired}, REQUEST_TIMED_OUT where the high watermark has not passed yet. Kafka keeps the
         * assigned base offset on every one of them.
         */
        void settle(boolean expired) {
            for (Appended a : appended) {
                Partition partition = a.partition();
                Optional<ErrorCode> outcome = check(a);
                if (outcome.isPresent() && outcome.get() == ErrorCode.NOT_LEADER_OR_FOLLOWER) {
                    a.out().set(PartitionProduceResponse.ERROR_CODE, ErrorCode.NOT_LEADER_OR_FOLLOWER.code())
                            .set(PartitionProduceResponse.ERROR_MESSAGE, "Leader changed while waiting for the "
                                    + "in-sync replicas of " + partition + " to reach offset " + a.lastOffset());
                    failed.set(true);
                } else if (outcome.isPresent()) {
                    if (outcome.get() != ErrorCode.NONE) {
                        a.out().set(PartitionProduceResponse.ERROR_CODE,
                                ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND.code());
                    }
                } else if (expired) {
                    a.out().set(PartitionProduceResponse.ERROR_CODE, ErrorCode.REQUEST_TIMED_OUT.code())
                            .set(PartitionProduceResponse.ERROR_MESSAGE, "the high watermark did not reach offset "
                                    + a.lastOffset() + " within timeout_ms");
                }
            }
            if (failed.get()) {
                addCurrentLeaders(version, response, listener);
            }
        }

        @Override
        protected void onComplete(Outcome outcome) {
            switch (outcome) {
                case SATISFIED -> {
                    settle(false);
                    future.complete(response);
                }
                case EXPIRED -> {
                    settle(true);
                    future.complete(response);
                }
                // Its connection is gone: no response (null, as for acks=0), so nothing is logged or written.
                case CANCELLED -> future.complete(null);
                case FAILED -> future.completeExceptionally(failure());
            }
        }
    }

    /** Kafka's record_errors (v8+): index and reason of each record that made the log refuse the batch. */
    private static void addRecordErrors(short version, Struct out, LogException e) {
        if (version >= 8 && e instanceof LogAppendException refused) {
            for (LogAppendException.RecordError r : refused.recordErrors()) {
                out.add(PartitionProduceResponse.RECORD_ERRORS)
                        .set(PartitionProduceResponse.BatchIndexAndErrorMessage.BATCH_INDEX, r.batchIndex())
                        .set(PartitionProduceResponse.BatchIndexAndErrorMessage.BATCH_INDEX_ERROR_MESSAGE, r.message());
            }
        }
    }

    private static boolean fail(Struct out, ErrorCode error, String message) {
        out.set(PartitionProduceResponse.ERROR_CODE, error.code())
                .set(PartitionProduceResponse.BASE_OFFSET, UNKNOWN)
                .set(PartitionProduceResponse.LOG_APPEND_TIME_MS, UNKNOWN)
                .set(PartitionProduceResponse.LOG_START_OFFSET, UNKNOWN)
                .set(PartitionProduceResponse.ERROR_MESSAGE, message);
        return false;
    }

    /**
     * Kafka's request-level checks: exactly one batch, magic 2, no ZSTD before v7. A header too short to
     * read is left to the log, which reports it as CORRUPT_MESSAGE.
     */
    private static ErrorCode validateRecords(short version, ByteBuf records) {
        int pos = records.readerIndex();
        int size = records.readableBytes();
        if (version <= MAX_LEGACY_VERSION && size > RecordBatchHeader.MAGIC_OFFSET
                && records.getByte(pos + RecordBatchHeader.MAGIC_OFFSET) < RecordBatchHeader.MAGIC_V2) {
            return null; // formats (issue 9): Kafka checks nothing here below v3; the up-conversion checks the set
        }
        if (size > RecordBatchHeader.MAGIC_OFFSET && records.getByte(pos + RecordBatchHeader.MAGIC_OFFSET) != RecordBatchHeader.MAGIC_V2) {
            return ErrorCode.INVALID_RECORD;
        }
        if (size >= RecordBatchHeader.LOG_OVERHEAD) {
            long first = (long) RecordBatchHeader.LOG_OVERHEAD + records.getInt(pos + RecordBatchHeader.BATCH_LENGTH_OFFSET);
            if (first >= RecordBatchHeader.HEADER_SIZE && first < size) {
                return ErrorCode.INVALID_RECORD; // a second batch follows
            }
        }
        if (version < 7 && size >= RecordBatchHeader.ATTRIBUTES_OFFSET + 2
                && (records.getShort(pos + RecordBatchHeader.ATTRIBUTES_OFFSET) & 0x7) == ZSTD) {
            return ErrorCode.UNSUPPORTED_COMPRESSION_TYPE;
        }
        return null;
    }

    private static String invalidMessage(short version, ErrorCode error) {
        return error == ErrorCode.UNSUPPORTED_COMPRESSION_TYPE
                ? "Produce requests with version " + version + " are not allowed to use ZStandard compression"
                : "Produce requests with version " + version
                        + " are only allowed to contain exactly one record batch with magic version 2 per partition";
    }

    /** The first batch's transactional attribute bit, read in place. */
    private static boolean isTransactional(ByteBuf records) {
        return records.readableBytes() >= RecordBatchHeader.ATTRIBUTES_OFFSET + 2
                && records.getByte(records.readerIndex() + RecordBatchHeader.MAGIC_OFFSET) == RecordBatchHeader.MAGIC_V2
                && (records.getShort(records.readerIndex() + RecordBatchHeader.ATTRIBUTES_OFFSET) & 0x10) != 0;
    }

    /** The batch's producer id, read in place (a transactional batch passed the header checks: it is long enough). */
    private static long producerId(ByteBuf batch) {
        return batch.getLong(batch.readerIndex() + RecordBatchHeader.PRODUCER_ID_OFFSET);
    }

    private static short producerEpoch(ByteBuf batch) {
        return batch.getShort(batch.readerIndex() + RecordBatchHeader.PRODUCER_EPOCH_OFFSET);
    }

    /** Kafka's {@code RequestUtils.hasTransactionalRecords}: the first batch of any partition. */
    private static boolean hasTransactionalRecords(List<Struct> topics) {
        for (Struct topic : topics) {
            for (Struct partition : topic.get(TopicProduceData.PARTITION_DATA)) {
                if (partition.get(PartitionProduceData.RECORDS) instanceof MemoryRecords memory
                        && isTransactional(memory.buffer())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String describeErrors(Struct response) {
        StringBuilder sb = new StringBuilder("produce with acks=0 failed, closing the connection as Kafka does:");
        for (Struct topic : response.get(Response.RESPONSES)) {
            for (Struct p : topic.get(TopicProduceResponse.PARTITION_RESPONSES)) {
                short code = p.get(PartitionProduceResponse.ERROR_CODE);
                if (code != ErrorCode.NONE.code()) {
                    String name = topic.get(TopicProduceResponse.NAME);
                    sb.append(' ').append(name != null ? name : topic.get(TopicProduceResponse.TOPIC_ID))
                            .append('-').append(p.get(PartitionProduceResponse.INDEX))
                            .append('=').append(ErrorCode.forCode(code));
                }
            }
        }
        return sb.toString();
    }

    /** Completes an acks=0 produce that failed: the connection is closed, the client's only signal. */
    static final class ProduceWithoutAcksFailed extends CloseConnectionException {
        private static final long serialVersionUID = 1L;

        ProduceWithoutAcksFailed(String message) {
            super(message);
        }
    }
}
