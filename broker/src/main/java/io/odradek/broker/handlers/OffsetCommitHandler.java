package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.OffsetCommitRequest;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.replication.metadata.TopicInfo;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * OffsetCommit (key 8), versions 2-10. Members commit with their generation and member id; a generation
 * of -1 with no member id commits from outside group management (consumers using assign(), the admin
 * client), accepted while the group has no members — and creates a "simple" group when there is none.
 * Partitions of unknown topics fail with UNKNOWN_TOPIC_OR_PARTITION (v10, by topic id: UNKNOWN_TOPIC_ID)
 * and are not stored. v2-4 carry a retention time (an explicit expiry); v6+ the leader epoch; v7+
 * group.instance.id; v9+ an unknown group with a generation is GROUP_ID_NOT_FOUND (ILLEGAL_GENERATION
 * before), and the generation field is a KIP-848 member's epoch: a newer one is STALE_MEMBER_EPOCH, an
 * older one is accepted only for partitions the member held at that epoch (Kafka 4.4). Offsets are in {@code __consumer_offsets} before the response is sent.
 */
public final class OffsetCommitHandler implements ApiHandler {
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

    /** One topic of the request, the name it resolved to, and per partition the error if refused here. */
    private record TopicEntry(Struct topic, String name, List<Integer> partitions, List<ErrorCode> refused) {
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        short version = context.version();
        List<TopicEntry> entries = new ArrayList<>();
        List<OffsetCommitRequest.Partition> valid = new ArrayList<>();
        for (Struct t : request.get(Request.TOPICS)) {
            String name = version >= 10 ? topics.topicName(t.get(OffsetCommitRequestTopic.TOPIC_ID)).orElse(null)
                    : t.get(OffsetCommitRequestTopic.NAME);
            TopicInfo info = name == null ? null : topics.topic(name).orElse(null);
            TopicEntry entry = new TopicEntry(t, name, new ArrayList<>(), new ArrayList<>());
            entries.add(entry);
            for (Struct p : t.get(OffsetCommitRequestTopic.PARTITIONS)) {
                int index = p.get(OffsetCommitRequestPartition.PARTITION_INDEX);
                entry.partitions().add(index);
                if (info == null || index < 0 || index >= info.partitions()) {
                    entry.refused().add(version >= 10 && info == null ? ErrorCode.UNKNOWN_TOPIC_ID
                            : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
                    continue;
                }
                entry.refused().add(null);
                valid.add(new OffsetCommitRequest.Partition(new TopicPartition(name, index),
                        p.get(OffsetCommitRequestPartition.COMMITTED_OFFSET),
                        p.get(OffsetCommitRequestPartition.COMMITTED_LEADER_EPOCH),
                        p.get(OffsetCommitRequestPartition.COMMITTED_METADATA)));
            }
        }
        CompletableFuture<Map<TopicPartition, ErrorCode>> committed = valid.isEmpty()
                ? CompletableFuture.completedFuture(Map.of())
                : groups.commitOffsets(new OffsetCommitRequest(request.get(Request.GROUP_ID),
                        request.get(Request.GENERATION_ID_OR_MEMBER_EPOCH), request.get(Request.MEMBER_ID),
                        request.get(Request.GROUP_INSTANCE_ID), request.get(Request.RETENTION_TIME_MS), valid, version));
        return committed.thenApply(results -> response(entries, results));
    }

    private static Struct response(List<TopicEntry> entries, Map<TopicPartition, ErrorCode> results) {
        Struct response = Response.SCHEMA.newStruct();
        for (TopicEntry e : entries) {
            UUID id = e.topic().get(OffsetCommitRequestTopic.TOPIC_ID);
            Struct topic = response.add(Response.TOPICS)
                    .set(OffsetCommitResponseTopic.NAME, e.topic().get(OffsetCommitRequestTopic.NAME))
                    .set(OffsetCommitResponseTopic.TOPIC_ID, id);
            for (int i = 0; i < e.partitions().size(); i++) {
                int partition = e.partitions().get(i);
                ErrorCode error = e.refused().get(i) != null ? e.refused().get(i)
                        : results.getOrDefault(new TopicPartition(e.name(), partition), ErrorCode.UNKNOWN_SERVER_ERROR);
                topic.add(OffsetCommitResponseTopic.PARTITIONS)
                        .set(OffsetCommitResponsePartition.PARTITION_INDEX, partition)
                        .set(OffsetCommitResponsePartition.ERROR_CODE, error.code());
            }
        }
        return response;
    }
}
