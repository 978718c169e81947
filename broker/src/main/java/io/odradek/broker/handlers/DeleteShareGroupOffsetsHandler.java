package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DeleteShareGroupOffsetsApi;
import io.odradek.wire.api.DeleteShareGroupOffsetsApi.Request;
import io.odradek.wire.api.DeleteShareGroupOffsetsApi.Response;
import io.odradek.wire.api.DeleteShareGroupOffsetsApi.Response.DeleteShareGroupOffsetsResponseTopic;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * DeleteShareGroupOffsets (key 92), version 0 (as Kafka 4.4): forgets a share group's state of whole topics
 * ({@code kafka-share-groups --delete-offsets}): the share coordinator deletes each partition's state and the
 * group no longer counts them initialized (a later member starts them afresh, from share.auto.offset.reset).
 * The group must be an empty share group (NON_EMPTY_GROUP; GROUP_ID_NOT_FOUND, top level). Per-topic errors:
 * UNKNOWN_TOPIC_OR_PARTITION for an unknown topic, and for a topic the group has no state for ("There is no
 * offset information to delete."), the share coordinator's error otherwise.
 *
 * <p>Authorization, as Kafka 4.4: DELETE on the group, else GROUP_AUTHORIZATION_FAILED (top level); READ on each
 * topic, else TOPIC_AUTHORIZATION_FAILED for it.
 */
public final class DeleteShareGroupOffsetsHandler implements ApiHandler {
    /** Kafka 4.4's message for a topic the group has no share state for. */
    static final String NO_STATE_MESSAGE = "There is no offset information to delete.";

    private final GroupCoordinator groups;
    private final TopicService topics;

    public DeleteShareGroupOffsetsHandler(GroupCoordinator groups, TopicService topics) {
        this.groups = groups;
        this.topics = topics;
    }

    @Override
    public ApiSpec api() {
        return DeleteShareGroupOffsetsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        String groupId = request.get(Request.GROUP_ID);
        if (!CoordinatorAccess.allowed(context, AclOperation.DELETE, ResourceType.GROUP, groupId)) {
            return CompletableFuture.completedFuture(topLevel(ErrorCode.GROUP_AUTHORIZATION_FAILED, null));
        }
        Predicate<String> mayRead = CoordinatorAccess.topics(context, AclOperation.READ);
        Map<String, ErrorCode> refused = new LinkedHashMap<>();
        Map<UUID, String> known = new LinkedHashMap<>();
        for (Struct t : request.get(Request.TOPICS)) {
            String name = t.get(Request.DeleteShareGroupOffsetsRequestTopic.TOPIC_NAME);
            Optional<UUID> id = topics.topicId(name);
            if (!mayRead.test(name)) {
                refused.put(name, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
            } else if (id.isEmpty()) {
                refused.put(name, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
            } else {
                known.put(id.get(), name);
            }
        }
        Set<UUID> ids = new TreeSet<>(known.keySet());
        return groups.deleteShareGroupOffsets(groupId, ids).thenApply(d -> {
            if (d.error() != ErrorCode.NONE) {
                return topLevel(d.error(), d.message() != null ? d.message() : ShareGroupErrors.message(d.error()));
            }
            Struct response = topLevel(ErrorCode.NONE, null);
            known.forEach((id, name) -> {
                ErrorCode error = d.topics().getOrDefault(id, ErrorCode.NONE);
                addTopic(response, name, id, error, error == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION ? NO_STATE_MESSAGE
                        : ShareGroupErrors.message(error));
            });
            refused.forEach((name, error) -> addTopic(response, name, new UUID(0, 0), error, ShareGroupErrors.message(error)));
            return response;
        });
    }

    private static void addTopic(Struct response, String name, UUID id, ErrorCode error, String message) {
        response.add(Response.RESPONSES)
                .set(DeleteShareGroupOffsetsResponseTopic.TOPIC_NAME, name)
                .set(DeleteShareGroupOffsetsResponseTopic.TOPIC_ID, id)
                .set(DeleteShareGroupOffsetsResponseTopic.ERROR_CODE, error.code())
                .set(DeleteShareGroupOffsetsResponseTopic.ERROR_MESSAGE, message);
    }

    private static Struct topLevel(ErrorCode error, String message) {
        return Response.SCHEMA.newStruct()
                .set(Response.ERROR_CODE, error.code())
                .set(Response.ERROR_MESSAGE, message)
                .set(Response.RESPONSES, new ArrayList<>());
    }
}
