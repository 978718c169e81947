package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.ShareGroupOffsets;
import io.odradek.log.PartitionLog;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeShareGroupOffsetsApi;
import io.odradek.wire.api.DescribeShareGroupOffsetsApi.Request.DescribeShareGroupOffsetsRequestGroup;
import io.odradek.wire.api.DescribeShareGroupOffsetsApi.Response;
import io.odradek.wire.api.DescribeShareGroupOffsetsApi.Response.DescribeShareGroupOffsetsResponseGroup;
import io.odradek.wire.api.DescribeShareGroupOffsetsApi.Response.DescribeShareGroupOffsetsResponseGroup.DescribeShareGroupOffsetsResponseTopic;
import io.odradek.wire.api.DescribeShareGroupOffsetsApi.Response.DescribeShareGroupOffsetsResponseGroup.DescribeShareGroupOffsetsResponseTopic.DescribeShareGroupOffsetsResponsePartition;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * DescribeShareGroupOffsets (key 90), versions 0-1 (as Kafka 4.4): per share group, each partition's start
 * offset (the first record not yet acknowledged or archived, what {@code kafka-share-groups --describe} shows
 * as the group's offset) and leader epoch, from the share coordinator's summary (ReadShareGroupStateSummary).
 * Topics null: every partition the group has share state for; a partition without state has start offset -1.
 * v1 adds Lag: the partition's high watermark minus the start offset minus the records after it already
 * acknowledged or archived (KIP-1226), not clamped at 0, and -1 when the delivery complete count is unknown, as
 * Kafka 4.4 computes it. Unlike Kafka, which asks each partition's leader for its latest offset, the high watermark
 * is read only from a log on this broker: a partition led elsewhere in a cluster answers lag -1.
 *
 * <p>Authorization, as Kafka 4.4: DESCRIBE on the group, else the group answers GROUP_AUTHORIZATION_FAILED;
 * DESCRIBE on each topic, else its partitions answer TOPIC_AUTHORIZATION_FAILED (and with Topics null it is
 * left out). An unknown topic's partitions answer UNKNOWN_TOPIC_OR_PARTITION.
 */
public final class DescribeShareGroupOffsetsHandler implements ApiHandler {
    private final GroupCoordinator groups;
    private final TopicService topics;

    public DescribeShareGroupOffsetsHandler(GroupCoordinator groups, TopicService topics) {
        this.groups = groups;
        this.topics = topics;
    }

    @Override
    public ApiSpec api() {
        return DescribeShareGroupOffsetsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        Predicate<String> mayDescribe = CoordinatorAccess.topics(context, AclOperation.DESCRIBE);
        List<CompletableFuture<Struct>> answers = new ArrayList<>();
        for (Struct g : request.get(DescribeShareGroupOffsetsApi.Request.GROUPS)) {
            answers.add(describe(context, g, mayDescribe));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(v -> {
            Struct response = Response.SCHEMA.newStruct().set(Response.GROUPS, new ArrayList<>());
            answers.forEach(a -> response.get(Response.GROUPS).add(a.join()));
            return response;
        });
    }

    private CompletableFuture<Struct> describe(RequestContext context, Struct g, Predicate<String> mayDescribe) {
        String groupId = g.get(DescribeShareGroupOffsetsRequestGroup.GROUP_ID);
        if (!CoordinatorAccess.allowed(context, AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
            return CompletableFuture.completedFuture(groupError(groupId, ErrorCode.GROUP_AUTHORIZATION_FAILED, null));
        }
        List<Struct> asked = g.get(DescribeShareGroupOffsetsRequestGroup.TOPICS);
        if (asked == null) {
            return groups.describeShareGroupOffsets(groupId, null).thenApply(d -> answer(groupId, d, mayDescribe, true));
        }
        // Topics refused or unknown are answered here; the others are summarized.
        Map<String, ErrorCode> failed = new LinkedHashMap<>();
        Map<String, List<Integer>> failedPartitions = new LinkedHashMap<>();
        Map<UUID, List<Integer>> known = new LinkedHashMap<>();
        for (Struct t : asked) {
            String name = t.get(DescribeShareGroupOffsetsRequestGroup.DescribeShareGroupOffsetsRequestTopic.TOPIC_NAME);
            List<Integer> parts = t.get(DescribeShareGroupOffsetsRequestGroup.DescribeShareGroupOffsetsRequestTopic.PARTITIONS);
            Optional<TopicInfo> topic = topics.topic(name);
            if (!mayDescribe.test(name)) {
                failed.put(name, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
                failedPartitions.put(name, parts);
            } else if (topic.isEmpty()) {
                failed.put(name, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
                failedPartitions.put(name, parts);
            } else {
                known.put(topic.get().id(), parts);
            }
        }
        return groups.describeShareGroupOffsets(groupId, known).thenApply(d -> {
            Struct answer = answer(groupId, d, mayDescribe, false);
            failed.forEach((name, error) -> {
                Struct topic = topicStruct(name, topics.topicId(name).orElse(new UUID(0, 0)));
                for (int p : failedPartitions.get(name)) {
                    topic.add(DescribeShareGroupOffsetsResponseTopic.PARTITIONS)
                            .set(DescribeShareGroupOffsetsResponsePartition.PARTITION_INDEX, p)
                            .set(DescribeShareGroupOffsetsResponsePartition.START_OFFSET, -1L)
                            .set(DescribeShareGroupOffsetsResponsePartition.LEADER_EPOCH, -1)
                            .set(DescribeShareGroupOffsetsResponsePartition.ERROR_CODE, error.code())
                            .set(DescribeShareGroupOffsetsResponsePartition.ERROR_MESSAGE, ShareGroupErrors.message(error));
                }
                answer.get(DescribeShareGroupOffsetsResponseGroup.TOPICS).add(topic);
            });
            return answer;
        });
    }

    private Struct answer(String groupId, ShareGroupOffsets.Described d,
            Predicate<String> mayDescribe, boolean hideRefused) {
        if (d.error() != ErrorCode.NONE) {
            return groupError(groupId, d.error(), d.message());
        }
        Struct group = groupError(groupId, ErrorCode.NONE, null);
        d.topics().forEach((id, partitions) -> {
            String name = topics.topicName(id).orElse("");
            if (hideRefused && !mayDescribe.test(name)) {
                return;
            }
            Struct topic = topicStruct(name, id);
            partitions.forEach((p, o) -> topic.add(DescribeShareGroupOffsetsResponseTopic.PARTITIONS)
                    .set(DescribeShareGroupOffsetsResponsePartition.PARTITION_INDEX, p)
                    .set(DescribeShareGroupOffsetsResponsePartition.START_OFFSET, o.startOffset())
                    .set(DescribeShareGroupOffsetsResponsePartition.LEADER_EPOCH, o.leaderEpoch())
                    .set(DescribeShareGroupOffsetsResponsePartition.LAG, lag(name, p, o))
                    .set(DescribeShareGroupOffsetsResponsePartition.ERROR_CODE, o.error().code())
                    .set(DescribeShareGroupOffsetsResponsePartition.ERROR_MESSAGE, o.message()));
            group.get(DescribeShareGroupOffsetsResponseGroup.TOPICS).add(topic);
        });
        return group;
    }

    /** KIP-1226's lag, from the local log's high watermark; -1 when unknown here. */
    private long lag(String topic, int partition, ShareGroupOffsets.PartitionOffset o) {
        Optional<PartitionLog> log = topics.partitionLog(topic, partition);
        return log.isEmpty() ? -1 : lagOf(log.get().highWatermark(), o);
    }

    /**
     * Kafka 4.4's arithmetic: high watermark - start offset - delivery complete count, not clamped (a start offset
     * past the high watermark gives a negative lag, as with Kafka); -1 for a partition with an error, without
     * state (start offset -1) or whose delivery complete count is unknown (-1: Kafka's shouldComputeSharePartitionLag).
     */
    static long lagOf(long highWatermark, ShareGroupOffsets.PartitionOffset o) {
        if (o.error() != ErrorCode.NONE || o.startOffset() == -1 || o.deliveryCompleteCount() == -1) {
            return -1;
        }
        return highWatermark - o.startOffset() - o.deliveryCompleteCount();
    }

    private static Struct topicStruct(String name, UUID id) {
        return DescribeShareGroupOffsetsResponseTopic.SCHEMA.newStruct()
                .set(DescribeShareGroupOffsetsResponseTopic.TOPIC_NAME, name)
                .set(DescribeShareGroupOffsetsResponseTopic.TOPIC_ID, id)
                .set(DescribeShareGroupOffsetsResponseTopic.PARTITIONS, new ArrayList<>());
    }

    private static Struct groupError(String groupId, ErrorCode error, String message) {
        return DescribeShareGroupOffsetsResponseGroup.SCHEMA.newStruct()
                .set(DescribeShareGroupOffsetsResponseGroup.GROUP_ID, groupId)
                .set(DescribeShareGroupOffsetsResponseGroup.TOPICS, new ArrayList<>())
                .set(DescribeShareGroupOffsetsResponseGroup.ERROR_CODE, error.code())
                .set(DescribeShareGroupOffsetsResponseGroup.ERROR_MESSAGE, error == ErrorCode.NONE ? null
                        : message != null ? message : ShareGroupErrors.message(error));
    }
}
