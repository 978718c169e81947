package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.OffsetFetchResult;
import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.OffsetFetchApi;
import io.odradek.wire.api.OffsetFetchApi.Request;
import io.odradek.wire.api.OffsetFetchApi.Request.OffsetFetchRequestGroup;
import io.odradek.wire.api.OffsetFetchApi.Request.OffsetFetchRequestGroup.OffsetFetchRequestTopics;
import io.odradek.wire.api.OffsetFetchApi.Request.OffsetFetchRequestTopic;
import io.odradek.wire.api.OffsetFetchApi.Response;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseGroup;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseGroup.OffsetFetchResponseTopics;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseGroup.OffsetFetchResponseTopics.OffsetFetchResponsePartitions;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseTopic;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseTopic.OffsetFetchResponsePartition;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * OffsetFetch (key 9), versions 0-10. v0-7 ask for one group, v8+ for several at once (KIP-709), each
 * answered with its own group-level error (v0-1 have no top-level error field: a group's error, such as
 * COORDINATOR_LOAD_IN_PROGRESS, is every partition's). v0 reads the same store as every other version
 * (Kafka read ZooKeeper for v0, where OffsetCommit v0 wrote); as Kafka's v0 path, a partition of an unknown
 * topic, or out of its range, answers UNKNOWN_TOPIC_OR_PARTITION (v1+ answer it offset -1 with no error).
 * Unlike Kafka's ZooKeeper path, which answered UNKNOWN_TOPIC_OR_PARTITION also for a partition with no
 * offset, v0 answers that like v1 (offset -1, no error): old clients (kafka-python pinned at 0.8) read both.
 * Null topics (v2+) asks for every committed partition. A
 * partition without a committed offset — of an unknown group too — answers offset -1, leader epoch -1 and
 * metadata "" with no error, as Kafka does. v7+ require_stable: a partition whose transactional offset
 * commit (TxnOffsetCommit) is not yet committed or aborted answers UNSTABLE_OFFSET_COMMIT and offset -1, so
 * the consumer retries until the transaction ends (KIP-447); without it the last committed offset is
 * answered. v9+ member id and epoch are checked for KIP-848 and (issue 12) streams
 * groups (UNKNOWN_MEMBER_ID, STALE_MEMBER_EPOCH; null and -1 fetch from outside the group) and ignored
 * for classic ones. v10 names topics by id: an unknown id gets UNKNOWN_TOPIC_ID,
 * and committed offsets of topics that no longer exist are left out of an all-topics answer.
 *
 * <p>Authorization, as Kafka 4.4, per group: DESCRIBE on the group, else GROUP_AUTHORIZATION_FAILED for that
 * group (v8+: its group-level error, other groups answered as usual; v2-7: the top-level error, no topics; v0-1,
 * which have no top-level error, on every asked partition, as Kafka's OffsetFetch error response did). A topic
 * the client may not DESCRIBE is not read: its asked partitions answer TOPIC_AUTHORIZATION_FAILED with offset
 * -1 (an unknown v10 id stays UNKNOWN_TOPIC_ID), and an all-topics fetch leaves it out.
 */
public final class OffsetFetchHandler implements ApiHandler {
    private static final UUID ZERO_ID = new UUID(0, 0);

    private final GroupCoordinator groups;
    private final TopicService topics;

    public OffsetFetchHandler(GroupCoordinator groups, TopicService topics) {
        this.groups = groups;
        this.topics = topics;
    }

    @Override
    public ApiSpec api() {
        return OffsetFetchApi.SPEC;
    }

    /** A topic as asked for: by name, or by id (v10) with the name it resolved to (null if unknown). */
    private record AskedTopic(String name, UUID id, List<Integer> partitions) {
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        short version = context.version();
        Predicate<String> mayDescribe = CoordinatorAccess.topics(context, AclOperation.DESCRIBE);
        if (version < 8) {
            List<AskedTopic> asked = null;
            List<Struct> requested = request.get(Request.TOPICS);
            if (requested != null) {
                asked = new ArrayList<>();
                for (Struct t : requested) {
                    asked.add(new AskedTopic(t.get(OffsetFetchRequestTopic.NAME), null,
                            t.get(OffsetFetchRequestTopic.PARTITION_INDEXES)));
                }
            }
            List<AskedTopic> finalAsked = asked;
            if (!CoordinatorAccess.allowed(context, AclOperation.DESCRIBE, ResourceType.GROUP, request.get(Request.GROUP_ID))) {
                return CompletableFuture.completedFuture(refusedSingleGroup(finalAsked, version));
            }
            return fetch(request.get(Request.GROUP_ID), null, -1, asked, requireStable(request, version), mayDescribe)
                    .thenApply(r -> singleGroupResponse(r, finalAsked, version, mayDescribe));
        }
        List<CompletableFuture<Struct>> answers = new ArrayList<>();
        for (Struct g : request.get(Request.GROUPS)) {
            List<AskedTopic> asked = null;
            List<Struct> requested = g.get(OffsetFetchRequestGroup.TOPICS);
            if (requested != null) {
                asked = new ArrayList<>();
                for (Struct t : requested) {
                    UUID id = version >= 10 ? t.get(OffsetFetchRequestTopics.TOPIC_ID) : null;
                    String name = version >= 10 ? topics.topicName(id).orElse(null) : t.get(OffsetFetchRequestTopics.NAME);
                    asked.add(new AskedTopic(name, id, t.get(OffsetFetchRequestTopics.PARTITION_INDEXES)));
                }
            }
            String groupId = g.get(OffsetFetchRequestGroup.GROUP_ID);
            List<AskedTopic> finalAsked = asked;
            if (!CoordinatorAccess.allowed(context, AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
                answers.add(CompletableFuture.completedFuture(OffsetFetchResponseGroup.SCHEMA.newStruct()
                        .set(OffsetFetchResponseGroup.GROUP_ID, groupId)
                        .set(OffsetFetchResponseGroup.ERROR_CODE, ErrorCode.GROUP_AUTHORIZATION_FAILED.code())
                        .set(OffsetFetchResponseGroup.TOPICS, List.of())));
                continue;
            }
            answers.add(fetch(groupId, g.get(OffsetFetchRequestGroup.MEMBER_ID), g.get(OffsetFetchRequestGroup.MEMBER_EPOCH), asked,
                    requireStable(request, version), mayDescribe)
                    .thenApply(r -> groupResponse(groupId, r, finalAsked, version, mayDescribe)));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(v -> {
            Struct response = Response.SCHEMA.newStruct();
            List<Struct> groupResponses = new ArrayList<>();
            answers.forEach(a -> groupResponses.add(a.join()));
            response.set(Response.GROUPS, groupResponses);
            return response;
        });
    }

    private static boolean requireStable(Struct request, short version) {
        return version >= 7 && request.get(Request.REQUIRE_STABLE);
    }

    /** The answer to a v0-7 request for a group the client may not DESCRIBE. */
    private static Struct refusedSingleGroup(List<AskedTopic> asked, short version) {
        Struct response = Response.SCHEMA.newStruct()
                .set(Response.ERROR_CODE, ErrorCode.GROUP_AUTHORIZATION_FAILED.code())
                .set(Response.TOPICS, new ArrayList<>());
        if (version < 2 && asked != null) {
            for (AskedTopic a : asked) {
                Struct t = response.add(Response.TOPICS).set(OffsetFetchResponseTopic.NAME, a.name());
                for (int p : a.partitions()) {
                    fillPartition(t.add(OffsetFetchResponseTopic.PARTITIONS), p, null, ErrorCode.GROUP_AUTHORIZATION_FAILED);
                }
            }
        }
        return response;
    }

    private CompletableFuture<OffsetFetchResult> fetch(String groupId, String memberId, int memberEpoch, List<AskedTopic> asked,
            boolean requireStable, Predicate<String> mayDescribe) {
        List<TopicPartition> partitions = null;
        if (asked != null) {
            partitions = new ArrayList<>();
            for (AskedTopic t : asked) {
                if (t.name() != null && mayDescribe.test(t.name())) {
                    for (int p : t.partitions()) {
                        partitions.add(new TopicPartition(t.name(), p));
                    }
                }
            }
        }
        return groups.fetchOffsets(groupId, memberId, memberEpoch, partitions, requireStable);
    }

    /** Every committed offset of an all-topics answer, grouped by topic (they come sorted by topic and partition). */
    private static Map<String, Map<Integer, OffsetAndMetadata>> byTopic(OffsetFetchResult r) {
        Map<String, Map<Integer, OffsetAndMetadata>> out = new LinkedHashMap<>();
        r.offsets().forEach((tp, o) -> out.computeIfAbsent(tp.topic(), t -> new LinkedHashMap<>()).put(tp.partition(), o));
        return out;
    }

    /** v0: whether the partition exists, as Kafka's v0 path checked before reading an offset. */
    private boolean exists(String topic, int partition) {
        return topics.topic(topic).map(t -> partition >= 0 && partition < t.partitions()).orElse(false);
    }

    private Struct singleGroupResponse(OffsetFetchResult r, List<AskedTopic> asked, short version,
            Predicate<String> mayDescribe) {
        Struct response = Response.SCHEMA.newStruct().set(Response.ERROR_CODE, r.error().code());
        ErrorCode partitionError = r.error();
        if (asked == null) {
            byTopic(r).forEach((topic, partitions) -> {
                if (!mayDescribe.test(topic)) {
                    return; // not the client's to see
                }
                Struct t = response.add(Response.TOPICS).set(OffsetFetchResponseTopic.NAME, topic);
                partitions.forEach((p, o) -> fillPartition(t.add(OffsetFetchResponseTopic.PARTITIONS), p, o,
                        partitionError != ErrorCode.NONE ? partitionError : r.partitionError(new TopicPartition(topic, p))));
            });
        } else {
            for (AskedTopic a : asked) {
                Struct t = response.add(Response.TOPICS).set(OffsetFetchResponseTopic.NAME, a.name());
                boolean unauthorized = !mayDescribe.test(a.name());
                for (int p : a.partitions()) {
                    if (unauthorized && partitionError == ErrorCode.NONE) {
                        fillPartition(t.add(OffsetFetchResponseTopic.PARTITIONS), p, null, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
                        continue;
                    }
                    TopicPartition tp = new TopicPartition(a.name(), p);
                    if (version == 0 && partitionError == ErrorCode.NONE && !exists(a.name(), p)) {
                        fillPartition(t.add(OffsetFetchResponseTopic.PARTITIONS), p, null, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
                        continue;
                    }
                    fillPartition(t.add(OffsetFetchResponseTopic.PARTITIONS), p, r.offsets().get(tp),
                            partitionError != ErrorCode.NONE ? partitionError : r.partitionError(tp));
                }
            }
        }
        return response;
    }

    private static void fillPartition(Struct p, int partition, OffsetAndMetadata o, ErrorCode error) {
        p.set(OffsetFetchResponsePartition.PARTITION_INDEX, partition)
                .set(OffsetFetchResponsePartition.COMMITTED_OFFSET, o == null ? OffsetAndMetadata.NO_OFFSET : o.offset())
                .set(OffsetFetchResponsePartition.COMMITTED_LEADER_EPOCH, o == null ? OffsetAndMetadata.NO_LEADER_EPOCH : o.leaderEpoch())
                .set(OffsetFetchResponsePartition.METADATA, o == null ? "" : o.metadata())
                .set(OffsetFetchResponsePartition.ERROR_CODE, error.code());
    }

    private Struct groupResponse(String groupId, OffsetFetchResult r, List<AskedTopic> asked, short version,
            Predicate<String> mayDescribe) {
        Struct group = OffsetFetchResponseGroup.SCHEMA.newStruct()
                .set(OffsetFetchResponseGroup.GROUP_ID, groupId)
                .set(OffsetFetchResponseGroup.ERROR_CODE, r.error().code());
        if (r.error() != ErrorCode.NONE) {
            return group;
        }
        if (asked == null) {
            byTopic(r).forEach((topic, partitions) -> {
                if (!mayDescribe.test(topic)) {
                    return; // not the client's to see
                }
                UUID id = version >= 10 ? topics.topicId(topic).orElse(null) : null;
                if (version >= 10 && id == null) {
                    return; // the topic is gone: a v10 answer cannot name it
                }
                Struct t = group.add(OffsetFetchResponseGroup.TOPICS)
                        .set(OffsetFetchResponseTopics.NAME, topic)
                        .set(OffsetFetchResponseTopics.TOPIC_ID, id == null ? ZERO_ID : id);
                partitions.forEach((p, o) -> fillPartitions(t.add(OffsetFetchResponseTopics.PARTITIONS), p, o,
                        r.partitionError(new TopicPartition(topic, p))));
            });
        } else {
            for (AskedTopic a : asked) {
                Struct t = group.add(OffsetFetchResponseGroup.TOPICS)
                        .set(OffsetFetchResponseTopics.NAME, a.name() == null ? "" : a.name())
                        .set(OffsetFetchResponseTopics.TOPIC_ID, a.id() == null ? ZERO_ID : a.id());
                boolean unknown = version >= 10 && a.name() == null;
                boolean unauthorized = a.name() != null && !mayDescribe.test(a.name());
                for (int p : a.partitions()) {
                    TopicPartition tp = a.name() == null || unauthorized ? null : new TopicPartition(a.name(), p);
                    OffsetAndMetadata o = tp == null ? null : r.offsets().get(tp);
                    fillPartitions(t.add(OffsetFetchResponseTopics.PARTITIONS), p, o,
                            unknown ? ErrorCode.UNKNOWN_TOPIC_ID : unauthorized ? ErrorCode.TOPIC_AUTHORIZATION_FAILED
                                    : tp == null ? ErrorCode.NONE : r.partitionError(tp));
                }
            }
        }
        return group;
    }

    private static void fillPartitions(Struct p, int partition, OffsetAndMetadata o, ErrorCode error) {
        p.set(OffsetFetchResponsePartitions.PARTITION_INDEX, partition)
                .set(OffsetFetchResponsePartitions.COMMITTED_OFFSET, o == null ? OffsetAndMetadata.NO_OFFSET : o.offset())
                .set(OffsetFetchResponsePartitions.COMMITTED_LEADER_EPOCH, o == null ? OffsetAndMetadata.NO_LEADER_EPOCH : o.leaderEpoch())
                .set(OffsetFetchResponsePartitions.METADATA, o == null ? "" : o.metadata())
                .set(OffsetFetchResponsePartitions.ERROR_CODE, error.code());
    }
}
