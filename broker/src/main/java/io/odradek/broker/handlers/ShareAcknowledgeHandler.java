package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.broker.share.AcknowledgementBatches;
import io.odradek.broker.share.SharePartitionManager;
import io.odradek.broker.share.ShareSession;
import io.odradek.broker.share.ShareSessionCache;
import io.odradek.broker.share.ShareSessionException;
import io.odradek.broker.share.TopicIdPartition;
import io.odradek.coordinator.share.partition.Acknowledgement;
import io.odradek.replication.partition.Partitions;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ShareAcknowledgeApi;
import io.odradek.wire.api.ShareAcknowledgeApi.Request;
import io.odradek.wire.api.ShareAcknowledgeApi.Request.AcknowledgeTopic;
import io.odradek.wire.api.ShareAcknowledgeApi.Request.AcknowledgeTopic.AcknowledgePartition;
import io.odradek.wire.api.ShareAcknowledgeApi.Response;
import io.odradek.wire.api.ShareAcknowledgeApi.Response.ShareAcknowledgeTopicResponse;
import io.odradek.wire.api.ShareAcknowledgeApi.Response.ShareAcknowledgeTopicResponse.PartitionData;
import io.odradek.wire.schema.Struct;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * ShareAcknowledge (key 79), versions 1-2.
 *
 * <p>Behaviour / version notes (Kafka 4.4's KafkaApis.handleShareAcknowledgeRequest):
 * <ul>
 * <li>Checks, each answered at the top level: a missing or empty GroupId is INVALID_REQUEST; READ on the group,
 *     else GROUP_AUTHORIZATION_FAILED; a MemberId missing, empty or longer than 36 characters is
 *     INVALID_REQUEST. Then the share session (Kafka's acknowledgeSessionUpdate): epoch 0 is
 *     INVALID_SHARE_SESSION_EPOCH, no session SHARE_SESSION_NOT_FOUND, another epoch than the session expects
 *     INVALID_SHARE_SESSION_EPOCH; a matching one moves the session on; -1 applies the acknowledgements and
 *     then ends the session, releasing whatever the member still holds.</li>
 * <li>Each partition's AcknowledgementBatches are validated as Kafka does ({@link AcknowledgementBatches}:
 *     INVALID_REQUEST), then: UNKNOWN_TOPIC_ID for an unknown topic id, TOPIC_AUTHORIZATION_FAILED without
 *     READ on the topic, UNKNOWN_TOPIC_OR_PARTITION for a partition we do not know or with no share partition
 *     open here; a partition with no batches is answered NONE. The rest go to the share partitions (ACCEPT,
 *     RELEASE, REJECT, GAP; RENEW only with IsRenewAck, v2); the answer waits until they are persisted, each
 *     partition with its error (INVALID_RECORD_STATE for offsets the member does not hold, ...).</li>
 * <li>v2 answers AcquisitionLockTimeoutMs: the group's share.record.lock.duration.ms, else the broker's. Records
 *     released or rejected here wake share fetches parked on the partition.</li>
 * </ul>
 */
public final class ShareAcknowledgeHandler implements ApiHandler {
    private final SharePartitionManager shares;
    private final PartitionLogs topics;
    private final Partitions partitions;
    private final ClusterView cluster;

    public ShareAcknowledgeHandler(SharePartitionManager shares, PartitionLogs topics, Partitions partitions,
            ClusterView cluster) {
        this.shares = shares;
        this.topics = topics;
        this.partitions = partitions;
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return ShareAcknowledgeApi.SPEC;
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
        if (!ShareFetchHandler.validMemberId(memberId)) {
            return done(error(ErrorCode.INVALID_REQUEST, "Invalid member id in the request."));
        }
        int epoch = request.get(Request.SHARE_SESSION_EPOCH);
        ShareSession closing;
        try {
            shares.sessions().acknowledgeSessionUpdate(groupId, memberId, epoch);
            // The session a closing request ends, taken now: one the member opens meanwhile must stay.
            closing = epoch == ShareSessionCache.FINAL_EPOCH ? shares.sessions().get(groupId, memberId) : null;
        } catch (ShareSessionException e) {
            return done(error(e.error(), e.getMessage()));
        }
        boolean renewAck = context.version() >= 2 && request.get(Request.IS_RENEW_ACK);

        TopicAccess readable = TopicAccess.of(context, AclOperation.READ);
        Map<UUID, String> names = new HashMap<>();
        Map<TopicIdPartition, ErrorCode> answered = new LinkedHashMap<>();
        Map<TopicIdPartition, List<Acknowledgement>> applied = new LinkedHashMap<>();
        List<Struct> requestTopics = request.get(Request.TOPICS);
        for (Struct topic : requestTopics == null ? List.<Struct>of() : requestTopics) {
            UUID topicId = topic.get(AcknowledgeTopic.TOPIC_ID);
            String name = names.computeIfAbsent(topicId, topics::topicNameOrNull);
            for (Struct part : topic.get(AcknowledgeTopic.PARTITIONS)) {
                TopicIdPartition p = new TopicIdPartition(topicId, part.get(AcknowledgePartition.PARTITION_INDEX));
                AcknowledgementBatches batches = new AcknowledgementBatches(renewAck);
                for (Struct b : part.get(AcknowledgePartition.ACKNOWLEDGEMENT_BATCHES)) {
                    batches.add(b.get(AcknowledgePartition.AcknowledgementBatch.FIRST_OFFSET),
                            b.get(AcknowledgePartition.AcknowledgementBatch.LAST_OFFSET),
                            b.get(AcknowledgePartition.AcknowledgementBatch.ACKNOWLEDGE_TYPES));
                }
                ErrorCode error;
                if (batches.invalid()) {
                    error = ErrorCode.INVALID_REQUEST;
                } else if (name == null) {
                    error = ErrorCode.UNKNOWN_TOPIC_ID;
                } else if (!readable.allowsEverything() && !readable.allowed(name)) {
                    error = ErrorCode.TOPIC_AUTHORIZATION_FAILED;
                } else if (cluster.image().partition(name, p.partition()).isEmpty()
                        && partitions.partition(name, p.partition()).isEmpty()) {
                    error = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
                } else if (batches.isEmpty()) {
                    error = ErrorCode.NONE;
                } else {
                    applied.put(p, batches.batches());
                    continue;
                }
                answered.put(p, error);
            }
        }
        CompletableFuture<Map<TopicIdPartition, ErrorCode>> acknowledged = applied.isEmpty()
                ? CompletableFuture.completedFuture(Map.of()) : shares.acknowledge(groupId, memberId, applied);
        short version = context.version();
        int lockMs = shares.recordLockDurationMs(groupId);
        return acknowledged.thenApply(result -> {
            if (closing != null) {
                shares.endSession(closing);
            }
            Map<TopicIdPartition, ErrorCode> all = new LinkedHashMap<>(result);
            all.putAll(answered);
            Struct response = error(ErrorCode.NONE, null);
            if (version >= 2) {
                response.set(Response.ACQUISITION_LOCK_TIMEOUT_MS, lockMs);
            }
            Map<UUID, Struct> topicEntries = new LinkedHashMap<>();
            all.forEach((p, error) -> topicEntries
                    .computeIfAbsent(p.topicId(), id -> response.add(Response.RESPONSES)
                            .set(ShareAcknowledgeTopicResponse.TOPIC_ID, id))
                    .add(ShareAcknowledgeTopicResponse.PARTITIONS)
                    .set(PartitionData.PARTITION_INDEX, p.partition())
                    .set(PartitionData.ERROR_CODE, error.code())
                    .set(PartitionData.ERROR_MESSAGE, null)
                    .set(PartitionData.CURRENT_LEADER, PartitionData.LeaderIdAndEpoch.SCHEMA.newStruct()
                            .set(PartitionData.LeaderIdAndEpoch.LEADER_ID, 0)
                            .set(PartitionData.LeaderIdAndEpoch.LEADER_EPOCH, 0)));
            return response;
        });
    }

    private static CompletableFuture<Struct> done(Struct response) {
        return CompletableFuture.completedFuture(response);
    }

    static Struct error(ErrorCode error, String message) {
        return Response.SCHEMA.newStruct()
                .set(Response.THROTTLE_TIME_MS, 0)
                .set(Response.ERROR_CODE, error.code())
                .set(Response.ERROR_MESSAGE, message)
                .set(Response.ACQUISITION_LOCK_TIMEOUT_MS, 0)
                .set(Response.RESPONSES, List.of())
                .set(Response.NODE_ENDPOINTS, List.of());
    }
}
