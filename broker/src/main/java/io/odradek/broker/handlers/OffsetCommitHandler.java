package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.OffsetCommitRequest;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.OffsetCommitApi;
import io.odradek.wire.api.OffsetCommitApi.Request;
import io.odradek.wire.api.OffsetCommitApi.Request.OffsetCommitRequestTopic;
import io.odradek.wire.api.OffsetCommitApi.Request.OffsetCommitRequestTopic.OffsetCommitRequestPartition;
import io.odradek.wire.api.OffsetCommitApi.Response;
import io.odradek.wire.api.OffsetCommitApi.Response.OffsetCommitResponseTopic;
import io.odradek.wire.api.OffsetCommitApi.Response.OffsetCommitResponseTopic.OffsetCommitResponsePartition;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * OffsetCommit (key 8), versions 0-10. Members commit with their generation and member id; a generation
 * of -1 with no member id commits from outside group management (consumers using assign(), the admin
 * client), accepted while the group has no members — and creates a "simple" group when there is none.
 * Partitions of unknown topics fail with UNKNOWN_TOPIC_OR_PARTITION (v10, by topic id: UNKNOWN_TOPIC_ID)
 * and are not stored. Offsets are in {@code __consumer_offsets} before the response is sent.
 * <ul>
 * <li>v0 carries no generation or member id: a simple commit, stored in {@code __consumer_offsets} like
 *     every other version so OffsetFetch of any version reads it (Kafka kept v0 offsets in ZooKeeper, and
 *     Kafka 3.9 in KRaft mode refused v0). Unlike ZooKeeper-era Kafka, which wrote v0 commits whatever the
 *     group's state, a v0 commit into a classic group that has members is refused UNKNOWN_MEMBER_ID, as any
 *     commit from outside the group is.</li>
 * <li>v1 adds the generation, member id and a per-partition commit timestamp (-1 = now), stored as the
 *     offset's commit time: a simple group's offsets expire {@code offsets.retention.minutes} after it, as
 *     Kafka 3.9 did.</li>
 * <li>v2-4 carry a retention time (an explicit expiry); v3+ the throttle time; v6+ the leader epoch; v7+
 *     group.instance.id.</li>
 * <li>v9+ an unknown group with a generation is GROUP_ID_NOT_FOUND (ILLEGAL_GENERATION before), and the
 *     generation field is a KIP-848 member's epoch: a newer one is STALE_MEMBER_EPOCH, an older one is
 *     accepted only for partitions the member held at that epoch (Kafka 4.4). For a KIP-1071 streams group
 *     (issue 12) the member's current epoch is accepted, and the one before its last bump (a commit sent
 *     before the member heard of it); Kafka 4.4 checks per active task when it was assigned.</li>
 * </ul>
 * Authorization, as Kafka 4.4: READ on the group, else every partition answers GROUP_AUTHORIZATION_FAILED and
 * nothing is committed; then READ on each topic, else its partitions answer TOPIC_AUTHORIZATION_FAILED (an
 * unknown v10 topic id is UNKNOWN_TOPIC_ID whatever the ACLs) while the others are committed.
 */
public final class OffsetCommitHandler implements ApiHandler {
    /** v10 names topics by id; an id whose topic is gone by the lookup answers UNKNOWN_TOPIC_ID too. */
    private static final CommittedOffsetTopics TOPICS = new CommittedOffsetTopics((short) 10,
            CommittedOffsetTopics.UnknownTopicId.WHEN_TOPIC_UNKNOWN,
            new CommittedOffsetTopics.RequestFields(OffsetCommitRequestTopic.NAME, OffsetCommitRequestTopic.TOPIC_ID,
                    OffsetCommitRequestTopic.PARTITIONS, OffsetCommitRequestPartition.PARTITION_INDEX,
                    OffsetCommitRequestPartition.COMMITTED_OFFSET, OffsetCommitRequestPartition.COMMITTED_LEADER_EPOCH,
                    OffsetCommitRequestPartition.COMMITTED_METADATA, OffsetCommitRequestPartition.COMMIT_TIMESTAMP),
            new CommittedOffsetTopics.ResponseFields(Response.TOPICS, OffsetCommitResponseTopic.NAME,
                    OffsetCommitResponseTopic.TOPIC_ID, OffsetCommitResponseTopic.PARTITIONS,
                    OffsetCommitResponsePartition.PARTITION_INDEX, OffsetCommitResponsePartition.ERROR_CODE));

    private final GroupCoordinator groups;
    private final TopicService topics;

    public OffsetCommitHandler(GroupCoordinator groups, TopicService topics) {
        this.groups = groups;
        this.topics = topics;
    }

    @Override
    public ApiSpec api() {
        return OffsetCommitApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        short version = context.version();
        if (!CoordinatorAccess.allowed(context, AclOperation.READ, ResourceType.GROUP, request.get(Request.GROUP_ID))) {
            return CompletableFuture.completedFuture(TOPICS.refuseAll(request.get(Request.TOPICS), Response.SCHEMA.newStruct(),
                    ErrorCode.GROUP_AUTHORIZATION_FAILED));
        }
        CommittedOffsetTopics.Resolved resolved = TOPICS.resolve(request.get(Request.TOPICS), version, topics,
                CoordinatorAccess.topics(context, AclOperation.READ));
        List<OffsetCommitRequest.Partition> valid = resolved.valid();
        CompletableFuture<Map<TopicPartition, ErrorCode>> committed = valid.isEmpty()
                ? CompletableFuture.completedFuture(Map.of())
                : groups.commitOffsets(new OffsetCommitRequest(request.get(Request.GROUP_ID),
                        request.get(Request.GENERATION_ID_OR_MEMBER_EPOCH), request.get(Request.MEMBER_ID),
                        request.get(Request.GROUP_INSTANCE_ID), request.get(Request.RETENTION_TIME_MS), valid, version));
        return committed.thenApply(results -> resolved.addTo(Response.SCHEMA.newStruct(), results, UnaryOperator.identity()));
    }
}
