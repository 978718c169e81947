package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.ShareGroupOffsets;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterShareGroupOffsetsApi;
import io.odradek.wire.api.AlterShareGroupOffsetsApi.Request;
import io.odradek.wire.api.AlterShareGroupOffsetsApi.Response;
import io.odradek.wire.api.AlterShareGroupOffsetsApi.Response.AlterShareGroupOffsetsResponseTopic;
import io.odradek.wire.api.AlterShareGroupOffsetsApi.Response.AlterShareGroupOffsetsResponseTopic.AlterShareGroupOffsetsResponsePartition;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * AlterShareGroupOffsets (key 91), version 0 (as Kafka 4.4): sets where a share group starts reading partitions
 * ({@code kafka-share-groups --reset-offsets}). The group must be empty (NON_EMPTY_GROUP, top level); an id
 * nobody uses becomes an empty share group. Each partition's share state is initialized again at its new start
 * offset through the share coordinator (its in-flight records are forgotten). Per-partition errors: an unknown
 * topic or partition UNKNOWN_TOPIC_OR_PARTITION, the share coordinator's error otherwise.
 *
 * <p>Authorization, as Kafka 4.4: READ on the group, else GROUP_AUTHORIZATION_FAILED (top level); READ on each
 * topic, else its partitions answer TOPIC_AUTHORIZATION_FAILED.
 */
public final class AlterShareGroupOffsetsHandler implements ApiHandler {
    private final GroupCoordinator groups;
    private final TopicService topics;

    public AlterShareGroupOffsetsHandler(GroupCoordinator groups, TopicService topics) {
        this.groups = groups;
        this.topics = topics;
    }

    @Override
    public ApiSpec api() {
        return AlterShareGroupOffsetsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        String groupId = request.get(Request.GROUP_ID);
        if (!CoordinatorAccess.allowed(context, AclOperation.READ, ResourceType.GROUP, groupId)) {
            return CompletableFuture.completedFuture(topLevel(ErrorCode.GROUP_AUTHORIZATION_FAILED, null));
        }
        Predicate<String> mayRead = CoordinatorAccess.topics(context, AclOperation.READ);
        // Per topic name: the partitions refused here with their error, and what goes to the coordinator.
        Map<String, Map<Integer, ErrorCode>> refused = new LinkedHashMap<>();
        Map<UUID, Map<Integer, Long>> offsets = new TreeMap<>();
        Map<UUID, String> names = new LinkedHashMap<>();
        for (Struct t : request.get(Request.TOPICS)) {
            String name = t.get(Request.AlterShareGroupOffsetsRequestTopic.TOPIC_NAME);
            Optional<TopicInfo> topic = topics.topic(name);
            for (Struct p : t.get(Request.AlterShareGroupOffsetsRequestTopic.PARTITIONS)) {
                int partition = p.get(Request.AlterShareGroupOffsetsRequestTopic.AlterShareGroupOffsetsRequestPartition.PARTITION_INDEX);
                long offset = p.get(Request.AlterShareGroupOffsetsRequestTopic.AlterShareGroupOffsetsRequestPartition.START_OFFSET);
                ErrorCode error = !mayRead.test(name) ? ErrorCode.TOPIC_AUTHORIZATION_FAILED
                        : topic.isEmpty() || partition < 0 || partition >= topic.get().partitions() ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                        : ErrorCode.NONE;
                if (error != ErrorCode.NONE) {
                    refused.computeIfAbsent(name, n -> new TreeMap<>()).put(partition, error);
                } else {
                    offsets.computeIfAbsent(topic.get().id(), id -> new TreeMap<>()).put(partition, offset);
                    names.put(topic.get().id(), name);
                }
            }
        }
        CompletableFuture<ShareGroupOffsets.Altered> altered = offsets.isEmpty()
                ? CompletableFuture.completedFuture(new ShareGroupOffsets.Altered(ErrorCode.NONE, null, Map.of()))
                : groups.alterShareGroupOffsets(groupId, offsets);
        return altered.thenApply(a -> {
            if (a.error() != ErrorCode.NONE) {
                return topLevel(a.error(), a.message() != null ? a.message() : ShareGroupErrors.message(a.error()));
            }
            Struct response = topLevel(ErrorCode.NONE, null);
            a.partitions().forEach((id, errors) -> addTopic(response, names.get(id), id, errors));
            refused.forEach((name, errors) -> addTopic(response, name, topics.topicId(name).orElse(new UUID(0, 0)), errors));
            return response;
        });
    }

    private static void addTopic(Struct response, String name, UUID id, Map<Integer, ErrorCode> errors) {
        Struct topic = response.add(Response.RESPONSES)
                .set(AlterShareGroupOffsetsResponseTopic.TOPIC_NAME, name)
                .set(AlterShareGroupOffsetsResponseTopic.TOPIC_ID, id)
                .set(AlterShareGroupOffsetsResponseTopic.PARTITIONS, new ArrayList<>());
        errors.forEach((p, e) -> topic.add(AlterShareGroupOffsetsResponseTopic.PARTITIONS)
                .set(AlterShareGroupOffsetsResponsePartition.PARTITION_INDEX, p)
                .set(AlterShareGroupOffsetsResponsePartition.ERROR_CODE, e.code())
                .set(AlterShareGroupOffsetsResponsePartition.ERROR_MESSAGE, ShareGroupErrors.message(e)));
    }

    private static Struct topLevel(ErrorCode error, String message) {
        return Response.SCHEMA.newStruct()
                .set(Response.ERROR_CODE, error.code())
                .set(Response.ERROR_MESSAGE, message)
                .set(Response.RESPONSES, new ArrayList<>());
    }
}
