package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.OffsetDeleteResult;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.OffsetDeleteApi;
import io.odradek.wire.api.OffsetDeleteApi.Request;
import io.odradek.wire.api.OffsetDeleteApi.Request.OffsetDeleteRequestTopic;
import io.odradek.wire.api.OffsetDeleteApi.Request.OffsetDeleteRequestTopic.OffsetDeleteRequestPartition;
import io.odradek.wire.api.OffsetDeleteApi.Response;
import io.odradek.wire.api.OffsetDeleteApi.Response.OffsetDeleteResponseTopic;
import io.odradek.wire.api.OffsetDeleteApi.Response.OffsetDeleteResponseTopic.OffsetDeleteResponsePartition;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * OffsetDelete (key 47), version 0 (KIP-496). Deletes a group's committed offsets of some partitions,
 * with tombstones. Refused per partition with GROUP_SUBSCRIBED_TO_TOPIC while a member of the group
 * subscribes to the topic, and for unknown topics or partitions with UNKNOWN_TOPIC_OR_PARTITION; refused
 * as a whole with GROUP_ID_NOT_FOUND for an unknown group and NON_EMPTY_GROUP for an active group that is
 * not a consumer group (its subscriptions cannot be read). A streams group's topics are those its topology
 * reads while it has members (issue 12). Authorization, as Kafka 4.4: DELETE on the group,
 * else a top-level GROUP_AUTHORIZATION_FAILED and nothing is deleted; then READ on each topic, else its
 * partitions answer TOPIC_AUTHORIZATION_FAILED and keep their offsets (a group-level error still replaces
 * every partition's, as in Kafka).
 */
public final class OffsetDeleteHandler implements ApiHandler {
    private final GroupCoordinator groups;
    private final TopicService topics;

    public OffsetDeleteHandler(GroupCoordinator groups, TopicService topics) {
        this.groups = groups;
        this.topics = topics;
    }

    @Override
    public ApiSpec api() {
        return OffsetDeleteApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!CoordinatorAccess.allowed(context, AclOperation.DELETE, ResourceType.GROUP, request.get(Request.GROUP_ID))) {
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.ERROR_CODE, ErrorCode.GROUP_AUTHORIZATION_FAILED.code())
                    .set(Response.TOPICS, List.of()));
        }
        Predicate<String> mayRead = CoordinatorAccess.topics(context, AclOperation.READ);
        List<TopicPartition> known = new ArrayList<>();
        for (Struct t : request.get(Request.TOPICS)) {
            String name = t.get(OffsetDeleteRequestTopic.NAME);
            TopicInfo info = mayRead.test(name) ? topics.topic(name).orElse(null) : null;
            for (Struct p : t.get(OffsetDeleteRequestTopic.PARTITIONS)) {
                int index = p.get(OffsetDeleteRequestPartition.PARTITION_INDEX);
                if (info != null && index >= 0 && index < info.partitions()) {
                    known.add(new TopicPartition(name, index));
                }
            }
        }
        return groups.deleteOffsets(request.get(Request.GROUP_ID), known).thenApply(r -> response(request, r, mayRead));
    }

    private static Struct response(Struct request, OffsetDeleteResult result, Predicate<String> mayRead) {
        Struct response = Response.SCHEMA.newStruct().set(Response.ERROR_CODE, result.error().code());
        if (result.error() != ErrorCode.NONE) {
            return response;
        }
        Map<TopicPartition, ErrorCode> errors = result.partitions();
        for (Struct t : request.get(Request.TOPICS)) {
            String name = t.get(OffsetDeleteRequestTopic.NAME);
            Struct topic = response.add(Response.TOPICS).set(OffsetDeleteResponseTopic.NAME, name);
            boolean unauthorized = !mayRead.test(name);
            for (Struct p : t.get(OffsetDeleteRequestTopic.PARTITIONS)) {
                int index = p.get(OffsetDeleteRequestPartition.PARTITION_INDEX);
                ErrorCode error = unauthorized ? ErrorCode.TOPIC_AUTHORIZATION_FAILED
                        : errors.getOrDefault(new TopicPartition(name, index), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
                topic.add(OffsetDeleteResponseTopic.PARTITIONS)
                        .set(OffsetDeleteResponsePartition.PARTITION_INDEX, index)
                        .set(OffsetDeleteResponsePartition.ERROR_CODE, error.code());
            }
        }
        return response;
    }
}
