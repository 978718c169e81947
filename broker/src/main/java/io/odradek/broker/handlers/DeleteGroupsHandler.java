package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DeleteGroupsApi;
import io.odradek.wire.api.DeleteGroupsApi.Request;
import io.odradek.wire.api.DeleteGroupsApi.Response;
import io.odradek.wire.api.DeleteGroupsApi.Response.DeletableGroupResult;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * DeleteGroups (key 42), versions 0-3. Deletes empty groups with their committed offsets (tombstones in
 * {@code __consumer_offsets}, so they stay deleted after a restart). A group with members is
 * NON_EMPTY_GROUP; an unknown one GROUP_ID_NOT_FOUND. A streams group (issue 12) goes with its topology,
 * members and assignment records. An empty share group (issue 12) has its share state
 * deleted first through the share coordinator (DeleteShareGroupState for each partition it initialized), as
 * Kafka's deleteShareGroups; if that fails the group stays and answers the error. v3 adds error messages. Authorization, as Kafka 4.4:
 * DELETE on each group; the groups refused answer GROUP_AUTHORIZATION_FAILED (no message) after the others'
 * results, as Kafka orders them, and are not touched.
 */
public final class DeleteGroupsHandler implements ApiHandler {
    private final GroupCoordinator groups;

    public DeleteGroupsHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public ApiSpec api() {
        return DeleteGroupsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        List<String> ids = request.get(Request.GROUPS_NAMES);
        List<String> refused = List.of();
        if (CoordinatorAccess.enabled(context)) {
            List<String> allowed = new ArrayList<>();
            refused = new ArrayList<>();
            for (String id : ids) {
                (CoordinatorAccess.allowed(context, AclOperation.DELETE, ResourceType.GROUP, id) ? allowed : refused).add(id);
            }
            ids = allowed;
        }
        List<String> deleting = ids;
        List<String> unauthorized = refused;
        List<CompletableFuture<ErrorCode>> results = new ArrayList<>();
        ids.forEach(id -> results.add(groups.deleteGroup(id)));
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenApply(v -> {
            Struct response = Response.SCHEMA.newStruct().set(Response.RESULTS, new ArrayList<>());
            for (int i = 0; i < deleting.size(); i++) {
                ErrorCode error = results.get(i).join();
                response.add(Response.RESULTS)
                        .set(DeletableGroupResult.GROUP_ID, deleting.get(i))
                        .set(DeletableGroupResult.ERROR_CODE, error.code())
                        .set(DeletableGroupResult.ERROR_MESSAGE, message(deleting.get(i), error));
            }
            for (String id : unauthorized) {
                response.add(Response.RESULTS)
                        .set(DeletableGroupResult.GROUP_ID, id)
                        .set(DeletableGroupResult.ERROR_CODE, ErrorCode.GROUP_AUTHORIZATION_FAILED.code());
            }
            return response;
        });
    }

    private static String message(String groupId, ErrorCode error) {
        return switch (error) {
            case NONE -> null;
            case NON_EMPTY_GROUP -> "The group is not empty.";
            case GROUP_ID_NOT_FOUND -> "Group " + groupId + " not found.";
            default -> error.name();
        };
    }
}
