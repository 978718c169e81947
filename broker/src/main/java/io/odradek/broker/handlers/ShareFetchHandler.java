package io.odradek.broker.handlers;

import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GenericFutureListener;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.fetch.CancelOnClose;
import io.odradek.broker.fetch.CurrentLeader;
import io.odradek.broker.fetch.FileSliceRecords;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.broker.share.AcknowledgementBatches;
import io.odradek.broker.share.SharePartitionManager;
import io.odradek.broker.share.ShareSession;
import io.odradek.broker.share.ShareSessionCache;
import io.odradek.broker.share.ShareSessionException;
import io.odradek.broker.share.SliceBatches;
import io.odradek.broker.share.TopicIdPartition;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.partition.Acknowledgement;
import io.odradek.coordinator.share.partition.AcquiredRecords;
import io.odradek.coordinator.share.partition.SharePartition;
import io.odradek.log.FileSlice;
import io.odradek.log.LogException;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.replication.partition.DelayedOperation;
import io.odradek.replication.partition.FetchIsolation;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ShareFetchApi;
import io.odradek.wire.api.ShareFetchApi.Request;
import io.odradek.wire.api.ShareFetchApi.Request.FetchTopic;
import io.odradek.wire.api.ShareFetchApi.Request.FetchTopic.FetchPartition;
import io.odradek.wire.api.ShareFetchApi.Request.ForgottenTopic;
import io.odradek.wire.api.ShareFetchApi.Response;
import io.odradek.wire.api.ShareFetchApi.Response.ShareFetchableTopicResponse;
import io.odradek.wire.api.ShareFetchApi.Response.ShareFetchableTopicResponse.PartitionData;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * ShareFetch (key 78), versions 1-2 (KIP-932 share consumers; v0 was Kafka's early-access version, not served).
 *
 * <p>Behaviour / version notes (Kafka 4.4's KafkaApis.handleShareFetchRequest, SharePartitionManager,
 * DelayedShareFetch and ShareFetchUtils):
 * <ul>
 * <li>Checks, in Kafka's order, each answered at the top level with no partitions: a missing or empty GroupId is
 *     INVALID_REQUEST ("Invalid group id in the request."); READ on the group, else GROUP_AUTHORIZATION_FAILED; a
 *     MemberId missing, empty or longer than 36 characters is INVALID_REQUEST; v2 with IsRenewAck must have
 *     MaxBytes, MinBytes, MaxRecords and MaxWaitMs 0 (INVALID_REQUEST naming them) and fetches nothing. Whether
 *     the member belongs to the share group is not checked (Kafka does not either).</li>
 * <li>Share sessions ({@link ShareSessionCache}, Kafka's): ShareSessionEpoch 0 opens the member's session with
 *     the request's partitions (replacing an older one; acknowledgements in it are INVALID_REQUEST), n continues
 *     it (the session's partitions plus those named, minus ForgottenTopicsData; SHARE_SESSION_NOT_FOUND,
 *     INVALID_SHARE_SESSION_EPOCH), -1 closes it: its acknowledgements are applied, nothing is fetched, and
 *     the session it closed (not one the member opened since) ends once they persist, releasing what the
 *     member still holds. When a group's last session here ends, its share partitions close (Kafka's
 *     onGroupEmpty): the next fetch reads the persisted state again. A full cache (group.share.max.share.sessions)
 *     answers SHARE_SESSION_LIMIT_REACHED after MaxWaitMs, as Kafka does. A session ends too when the
 *     connection that opened it closes (its acquired records are released). A response built after another
 *     request of the session came in is INVALID_SHARE_SESSION_EPOCH.</li>
 * <li>Piggybacked acknowledgements are validated per partition (see {@link AcknowledgementBatches}), then
 *     applied before anything is read, so records released here can be acquired by this same fetch. Their
 *     outcome is each partition's AcknowledgeErrorCode: UNKNOWN_TOPIC_ID, TOPIC_AUTHORIZATION_FAILED,
 *     UNKNOWN_TOPIC_OR_PARTITION (not a partition of ours, or no share partition open here),
 *     INVALID_REQUEST, INVALID_RECORD_STATE, ... The response waits until they are persisted.</li>
 * <li>Fetching, for each partition of the session: READ on the topic (TOPIC_AUTHORIZATION_FAILED), an
 *     unknown topic id (UNKNOWN_TOPIC_ID; neither cuts a long poll short), not led here
 *     (NOT_LEADER_OR_FOLLOWER with CurrentLeader and NodeEndpoints, KIP-951), unknown partition. The
 *     group's share partition is made and initialized (its persisted state read; until then the fetch waits);
 *     then, when it can acquire, the log is read from its next fetch offset bounded by the high watermark (the
 *     LSO when the group's share.isolation.level is read_committed) through the same Partition.read as Fetch,
 *     only the batch headers of the slice are read ({@link SliceBatches}; only until they cover MaxRecords from
 *     the next fetch offset), the share partition acquires up to
 *     MaxRecords offsets for the member, and the slice is cut to the batches holding the acquired offsets and
 *     sent as a file region (zero-copy) with AcquiredRecords beside it. Records of those batches outside the
 *     acquired ranges go too; consumers keep only acquired ones (as Kafka sends its whole fetched slice).</li>
 * <li>Sizes: MaxBytes capped at fetch.max.bytes, shared uniformly by the partitions fetched (Kafka's
 *     PartitionMaxBytesStrategy UNIFORM), each partition's first batch whole (KIP-74). MaxRecords bounds what
 *     is acquired over all partitions: in ShareAcquireMode 0 (batch-optimized, and before v2) whole batches,
 *     which may pass it; in mode 1 (record_limit, v2) never more. BatchSize is handed to the share partition,
 *     which cuts the acquired ranges by it.</li>
 * <li>Nothing acquired (fewer bytes than MinBytes) and MaxWaitMs > 0: the fetch parks in the waiting-operations
 *     set on its partitions and tries again whenever one moves (an append, the high watermark) or its share
 *     partition says records became acquirable (released, lock timed out, initialized, acknowledged); at
 *     MaxWaitMs it answers with what it has; when its connection closes it is dropped (records it acquired
 *     meanwhile go back when the session ends). A partition already answered with records is not read again
 *     by the same fetch. Partition errors answer at once (but UNKNOWN_TOPIC_ID and authorization).</li>
 * <li>A read past the log start (OFFSET_OUT_OF_RANGE: retention moved it) moves the share partition's start
 *     offset to the log start and the partition answers without error, as Kafka's ShareFetchUtils does.
 *     AcquisitionLockTimeoutMs is the group's share.record.lock.duration.ms (else the broker's
 *     group.share.record.lock.duration.ms); the share partitions read the group's settings (lock duration,
 *     delivery count limit, isolation, offset reset) on each use, so a change applies at once. A read_committed group reads up to the LSO, and the partition's
 *     aborted transactions over the range read go to the share partition, which archives their batches instead of
 *     handing them out (as Kafka); when a read held only such batches, the same fetch reads on past them, so the
 *     committed records after an aborted transaction come in that answer. Not done: client quotas, throttling and share-fetch metrics.</li>
 * </ul>
 */
public final class ShareFetchHandler implements ApiHandler {
    private static final MemoryRecords NO_RECORDS = new MemoryRecords(Unpooled.EMPTY_BUFFER);
    /** Kafka's isMemberIdValid: non-empty, at most 36 characters (a UUID's string). */
    private static final int MAX_MEMBER_ID_LENGTH = 36;

    private final SharePartitionManager shares;
    private final PartitionLogs topics;
    private final Partitions partitions;
    private final ClusterView cluster;
    private final int fetchMaxBytes;

    public ShareFetchHandler(SharePartitionManager shares, PartitionLogs topics, Partitions partitions,
            ClusterView cluster, int fetchMaxBytes) {
        this.shares = shares;
        this.topics = topics;
        this.partitions = partitions;
        this.cluster = cluster;
        this.fetchMaxBytes = fetchMaxBytes;
    }

    @Override
    public ApiSpec api() {
        return ShareFetchApi.SPEC;
    }

    static boolean validMemberId(String memberId) {
        return memberId != null && !memberId.isEmpty() && memberId.length() <= MAX_MEMBER_ID_LENGTH;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        String groupId = request.get(Request.GROUP_ID);
        if (groupId == null || groupId.isEmpty()) {
            return done(error(ErrorCode.INVALID_REQUEST, "Invalid group id in the request."));
        }
        if (!CoordinatorAccess.allowed(context, AclOperation.READ, ResourceType.GROUP, groupId)) {
            return done(error(ErrorCode.GROUP_AUTHORIZATION_FAILED, null));
        }
        String memberId = request.get(Request.MEMBER_ID);
        if (!validMemberId(memberId)) {
            return done(error(ErrorCode.INVALID_REQUEST, "Invalid member id in the request."));
        }
        int epoch = request.get(Request.SHARE_SESSION_EPOCH);
        boolean renewAck = context.version() >= 2 && request.get(Request.IS_RENEW_ACK);
        if (renewAck) {
            String refused = renewAckRefusal(request);
            if (refused != null) {
                return done(error(ErrorCode.INVALID_REQUEST, refused));
            }
        }

        // The request's partitions, in order, and their acknowledgements.
        List<TopicIdPartition> named = new ArrayList<>();
        Map<TopicIdPartition, AcknowledgementBatches> acks = new LinkedHashMap<>();
        List<Struct> requestTopics = request.get(Request.TOPICS);
        if (requestTopics != null) {
            for (Struct topic : requestTopics) {
                UUID topicId = topic.get(FetchTopic.TOPIC_ID);
                for (Struct part : topic.get(FetchTopic.PARTITIONS)) {
                    TopicIdPartition p = new TopicIdPartition(topicId, part.get(FetchPartition.PARTITION_INDEX));
                    named.add(p);
                    List<Struct> batches = part.get(FetchPartition.ACKNOWLEDGEMENT_BATCHES);
                    if (batches != null && !batches.isEmpty()) {
                        AcknowledgementBatches parsed = acks.computeIfAbsent(p, k -> new AcknowledgementBatches(renewAck));
                        for (Struct b : batches) {
                            parsed.add(b.get(FetchPartition.AcknowledgementBatch.FIRST_OFFSET),
                                    b.get(FetchPartition.AcknowledgementBatch.LAST_OFFSET),
                                    b.get(FetchPartition.AcknowledgementBatch.ACKNOWLEDGE_TYPES));
                        }
                    }
                }
            }
        }
        List<TopicIdPartition> forgotten = new ArrayList<>();
        List<Struct> forgottenTopics = request.get(Request.FORGOTTEN_TOPICS_DATA);
        if (forgottenTopics != null) {
            for (Struct topic : forgottenTopics) {
                for (int index : topic.get(ForgottenTopic.PARTITIONS)) {
                    forgotten.add(new TopicIdPartition(topic.get(ForgottenTopic.TOPIC_ID), index));
                }
            }
        }

        ShareSessionCache.Context session;
        try {
            session = shares.sessions().newContext(groupId, memberId, epoch, named, forgotten, !acks.isEmpty());
        } catch (ShareSessionException e) {
            if (e.error() == ErrorCode.SHARE_SESSION_LIMIT_REACHED) {
                // Kafka answers a member the full cache refused only after MaxWaitMs, so it does not spin.
                return new IdleWait(context, request.get(Request.MAX_WAIT_MS),
                        error(ErrorCode.SHARE_SESSION_LIMIT_REACHED, null)).park(context);
            }
            return done(error(e.error(), e.getMessage()));
        }
        if (session.kind() == ShareSessionCache.Kind.INITIAL) {
            endWithConnection(session.session(), context.connectionClosed());
        }
        // The session this closing request ends, taken now: a session the member opens while the acknowledgements
        // persist is a newer one and must stay.
        ShareSession closing = session.kind() == ShareSessionCache.Kind.FINAL ? shares.sessions().get(groupId, memberId) : null;

        Resolver resolver = new Resolver(context);
        CompletableFuture<Map<TopicIdPartition, ErrorCode>> acknowledged = acknowledge(groupId, memberId, acks, resolver);
        CompletableFuture<List<PartitionShareFetch>> fetched;
        if (session.kind() == ShareSessionCache.Kind.FINAL || renewAck) {
            fetched = CompletableFuture.completedFuture(List.of());
        } else {
            PendingShareFetch fetch = new PendingShareFetch(context, request, groupId, memberId, session, resolver);
            fetched = fetch.start(context);
        }
        int lockMs = shares.recordLockDurationMs(groupId);
        return fetched.thenCombine(acknowledged, (fetches, ackErrors) -> {
            if (fetches == null) {
                return null; // the connection closed while the fetch waited: no answer
            }
            if (closing != null) {
                shares.endSession(closing);
            }
            return response(context, session, fetches, ackErrors, lockMs);
        });
    }

    /**
     * Kafka's connection-disconnect listener: the session ends with the connection that opened it (releasing
     * what the member holds); the listener goes when the session ends first, so a long-lived connection does not
     * collect one per session it opened.
     */
    private <T> void endWithConnection(ShareSession session, Future<T> closed) {
        GenericFutureListener<Future<T>> end = f -> shares.endSession(session);
        closed.addListener(end);
        shares.sessions().onRemoved(session, () -> closed.removeListener(end));
    }

    /** Kafka 4.4: with IsRenewAck the request only acknowledges, so its fetch limits must all be 0. */
    private static String renewAckRefusal(Struct request) {
        StringBuilder refused = new StringBuilder();
        if (request.get(Request.MAX_BYTES) != 0) {
            refused.append("maxBytes must be set to 0, ");
        }
        if (request.get(Request.MIN_BYTES) != 0) {
            refused.append("minBytes must be set to 0, ");
        }
        if (request.get(Request.MAX_RECORDS) != 0) {
            refused.append("maxRecords must be set to 0, ");
        }
        if (request.get(Request.MAX_WAIT_MS) != 0) {
            refused.append("maxWaitMs must be set to 0, ");
        }
        return refused.isEmpty() ? null : refused.append("if isRenewAck is true.").toString();
    }

    /**
     * Applies the piggybacked acknowledgements (valid, authorized, of partitions we know) through the share
     * partitions; the others get their error at once.
     */
    private CompletableFuture<Map<TopicIdPartition, ErrorCode>> acknowledge(String groupId, String memberId,
            Map<TopicIdPartition, AcknowledgementBatches> acks, Resolver resolver) {
        if (acks.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        Map<TopicIdPartition, ErrorCode> refused = new LinkedHashMap<>();
        Map<TopicIdPartition, List<Acknowledgement>> applied = new LinkedHashMap<>();
        acks.forEach((p, batches) -> {
            ErrorCode error = batches.invalid() ? ErrorCode.INVALID_REQUEST : resolver.ackError(p);
            if (error != ErrorCode.NONE) {
                refused.put(p, error);
            } else {
                applied.put(p, batches.batches());
            }
        });
        if (applied.isEmpty()) {
            return CompletableFuture.completedFuture(refused);
        }
        return shares.acknowledge(groupId, memberId, applied).thenApply(result -> {
            Map<TopicIdPartition, ErrorCode> all = new LinkedHashMap<>(result);
            all.putAll(refused);
            return all;
        });
    }

    private static CompletableFuture<Struct> done(Struct response) {
        return CompletableFuture.completedFuture(response);
    }

    /** A whole-request error: no partitions (Kafka's getErrorResponse). */
    static Struct error(ErrorCode error, String message) {
        return Response.SCHEMA.newStruct()
                .set(Response.THROTTLE_TIME_MS, 0)
                .set(Response.ERROR_CODE, error.code())
                .set(Response.ERROR_MESSAGE, message)
                .set(Response.ACQUISITION_LOCK_TIMEOUT_MS, 0)
                .set(Response.RESPONSES, List.of())
                .set(Response.NODE_ENDPOINTS, List.of());
    }

    /**
     * The answer: every partition of an opening (or closing) request; for a continued session only those with
     * records, an error, a pending update or an acknowledgement outcome (Kafka's CachedSharePartition rule).
     * Partitions are grouped by topic id in the session's order.
     */
    private Struct response(RequestContext context, ShareSessionCache.Context session, List<PartitionShareFetch> fetches,
            Map<TopicIdPartition, ErrorCode> ackErrors, int lockMs) {
        ShareSessionCache cache = shares.sessions();
        if (!cache.stillCurrent(session)) {
            return error(ErrorCode.INVALID_SHARE_SESSION_EPOCH, null);
        }
        Struct response = error(ErrorCode.NONE, null).set(Response.ACQUISITION_LOCK_TIMEOUT_MS, lockMs);
        Map<UUID, Struct> topicEntries = new LinkedHashMap<>();
        Map<Integer, CurrentLeader> nodeEndpoints = null;
        Map<TopicIdPartition, ErrorCode> acksLeft = new LinkedHashMap<>(ackErrors);
        List<TopicIdPartition> withRecords = new ArrayList<>();
        for (PartitionShareFetch p : fetches) {
            ErrorCode ackError = acksLeft.remove(p.id);
            boolean hasRecords = p.records != null && p.records.size() > 0;
            if (hasRecords) {
                withRecords.add(p.id);
            }
            if (session.kind() == ShareSessionCache.Kind.SUBSEQUENT
                    && !cache.mustRespond(session.session(), p.id, hasRecords, p.error != ErrorCode.NONE)
                    && ackError == null) {
                continue;
            }
            Struct out = partitionEntry(topicEntries, response, p.id, p.error,
                    ackError == null ? ErrorCode.NONE : ackError);
            if (hasRecords) {
                out.set(PartitionData.RECORDS, new FileSliceRecords(p.records));
                for (AcquiredRecords a : p.acquired) {
                    out.add(PartitionData.ACQUIRED_RECORDS)
                            .set(PartitionData.AcquiredRecords.FIRST_OFFSET, a.firstOffset())
                            .set(PartitionData.AcquiredRecords.LAST_OFFSET, a.lastOffset())
                            .set(PartitionData.AcquiredRecords.DELIVERY_COUNT, a.deliveryCount());
                }
            }
            if (p.error == ErrorCode.NOT_LEADER_OR_FOLLOWER || p.error == ErrorCode.FENCED_LEADER_EPOCH) {
                CurrentLeader leader = CurrentLeader.of(cluster, p.topic, p.id.partition(), p.partition,
                        context.session().listenerName());
                out.get(PartitionData.CURRENT_LEADER)
                        .set(PartitionData.LeaderIdAndEpoch.LEADER_ID, leader.leaderId())
                        .set(PartitionData.LeaderIdAndEpoch.LEADER_EPOCH, leader.leaderEpoch());
                if (nodeEndpoints == null) {
                    nodeEndpoints = CurrentLeader.newNodeEndpoints();
                }
                leader.addTo(nodeEndpoints);
            }
        }
        // Acknowledgements of partitions not fetched (a closing request, or ones outside the session).
        acksLeft.forEach((p, ackError) -> partitionEntry(topicEntries, response, p, ErrorCode.NONE, ackError));
        if (session.kind() == ShareSessionCache.Kind.INITIAL && !withRecords.isEmpty()) {
            cache.rotate(session.session(), withRecords);
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

    private static Struct partitionEntry(Map<UUID, Struct> topicEntries, Struct response, TopicIdPartition p,
            ErrorCode error, ErrorCode ackError) {
        Struct topic = topicEntries.computeIfAbsent(p.topicId(),
                id -> response.add(Response.RESPONSES).set(ShareFetchableTopicResponse.TOPIC_ID, id));
        Struct out = topic.add(ShareFetchableTopicResponse.PARTITIONS)
                .set(PartitionData.PARTITION_INDEX, p.partition())
                .set(PartitionData.ERROR_CODE, error.code())
                .set(PartitionData.ERROR_MESSAGE, null)
                .set(PartitionData.ACKNOWLEDGE_ERROR_CODE, ackError.code())
                .set(PartitionData.ACKNOWLEDGE_ERROR_MESSAGE, null)
                .set(PartitionData.CURRENT_LEADER, PartitionData.LeaderIdAndEpoch.SCHEMA.newStruct()
                        .set(PartitionData.LeaderIdAndEpoch.LEADER_ID, 0)
                        .set(PartitionData.LeaderIdAndEpoch.LEADER_EPOCH, 0))
                .set(PartitionData.RECORDS, NO_RECORDS)
                .set(PartitionData.ACQUIRED_RECORDS, List.of());
        return out;
    }

    /**
     * One request's topic names and READ answers, each topic asked once; and where acknowledgements may go.
     * Used on the request's thread only.
     */
    private final class Resolver {
        private final TopicAccess readable;
        private final Map<UUID, String> names = new HashMap<>();

        Resolver(RequestContext context) {
            this.readable = TopicAccess.of(context, AclOperation.READ);
        }

        String name(UUID topicId) {
            return names.computeIfAbsent(topicId, topics::topicNameOrNull);
        }

        boolean readable(String topic) {
            return readable.allowsEverything() || readable.allowed(topic);
        }

        /** Kafka's order for an acknowledged partition: unknown id, READ, known partition. */
        ErrorCode ackError(TopicIdPartition p) {
            String topic = name(p.topicId());
            if (topic == null) {
                return ErrorCode.UNKNOWN_TOPIC_ID;
            }
            if (!readable(topic)) {
                return ErrorCode.TOPIC_AUTHORIZATION_FAILED;
            }
            return cluster.image().partition(topic, p.partition()).isPresent()
                    || partitions.partition(topic, p.partition()).isPresent()
                    ? ErrorCode.NONE : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
        }
    }

    /** One partition of a share fetch: what it resolved to, and what it acquired. */
    private static final class PartitionShareFetch {
        final TopicIdPartition id;
        final String topic;
        Partition partition;
        ErrorCode error = ErrorCode.NONE;
        /** An error found when the request came (not re-checked): unknown topic, authorization, no replica. */
        boolean lookupFailed;
        /** Answered with acquired records: not read again by this fetch. */
        FileSlice records;
        List<AcquiredRecords> acquired = List.of();
        /** Whether a wake-up on initialization is already registered. */
        boolean awaitingInitialization;

        PartitionShareFetch(TopicIdPartition id, String topic) {
            this.id = id;
            this.topic = topic;
        }
    }

    /**
     * A share fetch being answered, now or once parked (Kafka's DelayedShareFetch). Its checks and completion run
     * on its connection's event loop, so its fields need no lock.
     */
    private final class PendingShareFetch extends DelayedOperation {
        final String groupId;
        final String memberId;
        final int minBytes;
        final int maxBytes;
        final int maxRecords;
        /** BatchSize: acquired ranges are cut at multiples of it (Kafka's batch-optimized acquisition). */
        final int batchSize;
        /** ShareAcquireMode 1 (v2, record_limit): never more than MaxRecords, even inside a batch. */
        final boolean recordLimit;
        final FetchIsolation isolation;
        final List<PartitionShareFetch> fetches = new ArrayList<>();
        final List<Partition> watched = new ArrayList<>();
        final CompletableFuture<List<PartitionShareFetch>> future = new CompletableFuture<>();
        boolean answerNow;
        int acquiredRecords;
        long acquiredBytes;
        int remainingBytes;

        PendingShareFetch(RequestContext context, Struct request, String groupId, String memberId,
                ShareSessionCache.Context session, Resolver resolver) {
            super(request.get(Request.MAX_WAIT_MS), context.executor());
            this.groupId = groupId;
            this.memberId = memberId;
            this.maxBytes = Math.min(request.get(Request.MAX_BYTES), fetchMaxBytes);
            this.minBytes = Math.min(request.get(Request.MIN_BYTES), maxBytes);
            this.maxRecords = request.get(Request.MAX_RECORDS);
            int requestedBatchSize = request.get(Request.BATCH_SIZE);
            this.batchSize = requestedBatchSize > 0 ? requestedBatchSize : Integer.MAX_VALUE;
            this.recordLimit = context.version() >= 2 && request.get(Request.SHARE_ACQUIRE_MODE) == 1;
            this.remainingBytes = maxBytes;
            this.isolation = shares.isolation(groupId);
            for (TopicIdPartition id : session.partitions()) {
                String topic = resolver.name(id.topicId());
                PartitionShareFetch p = new PartitionShareFetch(id, topic);
                fetches.add(p);
                if (topic == null) {
                    fail(p, ErrorCode.UNKNOWN_TOPIC_ID);
                } else if (!resolver.readable(topic)) {
                    fail(p, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
                } else {
                    Partition partition = partitions.partition(topic, id.partition()).orElse(null);
                    if (partition == null) {
                        // Kafka: a partition the metadata knows but this broker holds no replica of.
                        fail(p, cluster.image().partition(topic, id.partition()).isPresent()
                                ? ErrorCode.NOT_LEADER_OR_FOLLOWER : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
                    } else if (partition.log().topicId() != null && !partition.log().topicId().equals(id.topicId())) {
                        fail(p, ErrorCode.UNKNOWN_TOPIC_ID); // the name now belongs to a re-created topic
                    } else {
                        p.partition = partition;
                        watched.add(partition);
                    }
                }
            }
        }

        private void fail(PartitionShareFetch p, ErrorCode error) {
            p.error = error;
            p.lookupFailed = true;
        }

        /** Answers now when it can, else parks (Kafka also parks a fetch whose share partitions are still loading). */
        CompletableFuture<List<PartitionShareFetch>> start(RequestContext context) {
            if (watched.isEmpty() || maxRecords <= 0 || maxBytes <= 0) {
                return CompletableFuture.completedFuture(fetches);
            }
            if (tryAcquire() || timeoutMs() <= 0) {
                return CompletableFuture.completedFuture(fetches);
            }
            partitions.waiting().watch(this, watched);
            CancelOnClose.bind(this, context);
            return future;
        }

        /** One pass over the partitions not yet answered; true when the fetch can answer. */
        boolean tryAcquire() {
            int open = 0;
            for (PartitionShareFetch p : fetches) {
                if (p.partition != null && p.records == null && p.error == ErrorCode.NONE) {
                    open++;
                }
            }
            // Kafka's uniform share of the response's bytes among the partitions still being read.
            int perPartition = open == 0 ? 0 : Math.max(1, remainingBytes / open);
            for (PartitionShareFetch p : fetches) {
                if (p.partition == null || p.records != null || p.error != ErrorCode.NONE) {
                    continue;
                }
                if (acquiredRecords >= maxRecords) {
                    break;
                }
                readAndAcquire(p, perPartition);
            }
            return answerNow || (acquiredRecords > 0 && acquiredBytes >= minBytes) || acquiredRecords >= maxRecords;
        }

        private void readAndAcquire(PartitionShareFetch p, int limit) {
            // Each pass reads from the share partition's next fetch offset, which only moves forward when a
            // pass asks for another, so this ends.
            while (readAndAcquireOnce(p, limit)) {
                // read again from where the share partition starts now
            }
        }

        /**
         * One read from the share partition's next fetch offset and one acquisition; true when nothing was
         * acquired but the next fetch offset moved past what was read (retention moved the start, or read_committed
         * archived every batch read, those of an aborted transaction), so reading again may find records.
         */
        private boolean readAndAcquireOnce(PartitionShareFetch p, int limit) {
            Partition partition = p.partition;
            ErrorCode leadership = partition.checkLeader(-1);
            if (leadership != ErrorCode.NONE) {
                p.error = leadership;
                answerNow = true;
                return false;
            }
            SharePartition sharePartition = shares.sharePartition(groupId, p.id.topicId(), partition);
            CompletableFuture<ErrorCode> initialized = sharePartition.initialize(partition.leaderEpoch());
            if (!initialized.isDone()) {
                if (!p.awaitingInitialization) {
                    p.awaitingInitialization = true;
                    initialized.whenComplete((e, t) -> partitions.waiting().wake(partition));
                }
                return false;
            }
            ErrorCode initError = initialized.isCompletedExceptionally() ? ErrorCode.UNKNOWN_SERVER_ERROR
                    : initialized.join();
            if (initError != ErrorCode.NONE) {
                // Kafka drops a share partition that failed to initialize; the next fetch makes it afresh.
                shares.fenced(new SharePartitionKey(groupId, p.id.topicId(), p.id.partition()), sharePartition);
                p.error = initError;
                answerNow = true;
                return false;
            }
            if (!sharePartition.canAcquireRecords()) {
                return false;
            }
            long fetchOffset = sharePartition.nextFetchOffset();
            FileSlice slice;
            try {
                slice = partition.read(fetchOffset, limit, isolation);
            } catch (LogException e) {
                if (e.errorCode() == ErrorCode.OFFSET_OUT_OF_RANGE && fetchOffset < partition.logStartOffset()) {
                    // Retention moved the log start past the share partition's: it starts there now (Kafka), and
                    // this pass reads again from there.
                    sharePartition.updateLogStartOffset(partition.logStartOffset());
                    return sharePartition.nextFetchOffset() > fetchOffset;
                }
                p.error = e.errorCode();
                answerNow = true;
                return false;
            }
            if (slice.isEmpty()) {
                return false;
            }
            SliceBatches batches = SliceBatches.of(slice, fetchOffset, maxRecords - acquiredRecords);
            if (batches.isEmpty()) {
                return false;
            }
            // read_committed: the aborted transactions over the range read, whose batches the share partition
            // archives instead of handing out (as Kafka's share partitions do).
            List<AbortedTxn> aborted = isolation == FetchIsolation.TXN_COMMITTED
                    ? partition.abortedTransactions(fetchOffset, slice.upperBoundOffset()) : List.of();
            List<AcquiredRecords> acquired = sharePartition.acquire(memberId, fetchOffset, batches.batches(),
                    maxRecords - acquiredRecords, batchSize, recordLimit, partition.fetchableEnd(isolation), aborted);
            if (acquired.isEmpty()) {
                // read_committed: a read may hold only an aborted transaction's batches (a log read stops at its
                // segment's end), all archived just now; the records after them are read on the next pass rather
                // than waiting for a later ShareFetch.
                return !aborted.isEmpty() && sharePartition.nextFetchOffset() > fetchOffset;
            }
            FileSlice sent = batches.trimTo(acquired.get(0).firstOffset(), acquired.get(acquired.size() - 1).lastOffset());
            p.records = sent;
            p.acquired = acquired;
            for (AcquiredRecords a : acquired) {
                acquiredRecords += (int) (a.lastOffset() - a.firstOffset() + 1);
            }
            acquiredBytes += sent.size();
            remainingBytes = Math.max(0, remainingBytes - sent.size());
            return false;
        }

        @Override
        protected boolean canComplete() {
            return tryAcquire();
        }

        @Override
        protected void onComplete(Outcome outcome) {
            switch (outcome) {
                case SATISFIED -> future.complete(fetches);
                case EXPIRED -> {
                    try {
                        tryAcquire();
                        future.complete(fetches);
                    } catch (RuntimeException e) {
                        future.completeExceptionally(e);
                    }
                }
                // The connection is gone: no answer (what was acquired goes back when its session ends).
                case CANCELLED -> future.complete(null);
                case FAILED -> future.completeExceptionally(failure());
            }
        }
    }

    /**
     * A member the full session cache refused waits MaxWaitMs for its answer (Kafka's IdleShareFetchTimerTask),
     * in the waiting-operations set with nothing to watch: only its timeout or its connection end it.
     */
    private final class IdleWait extends DelayedOperation {
        private final Struct answer;
        private final CompletableFuture<Struct> future = new CompletableFuture<>();

        IdleWait(RequestContext context, int maxWaitMs, Struct answer) {
            super(Math.max(0, maxWaitMs), context.executor());
            this.answer = answer;
        }

        CompletableFuture<Struct> park(RequestContext context) {
            partitions.waiting().watch(this, List.of());
            CancelOnClose.bind(this, context);
            return future;
        }

        @Override
        protected boolean canComplete() {
            return false;
        }

        @Override
        protected void onComplete(Outcome outcome) {
            future.complete(outcome == Outcome.CANCELLED ? null : answer);
        }
    }
}
