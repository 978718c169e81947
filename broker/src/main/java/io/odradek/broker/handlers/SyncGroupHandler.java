package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.SyncGroupRequest;
import io.odradek.coordinator.group.SyncGroupResult;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.SyncGroupApi;
import io.odradek.wire.api.SyncGroupApi.Request;
import io.odradek.wire.api.SyncGroupApi.Response;
import io.odradek.wire.schema.Struct;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * SyncGroup (key 14), versions 0-5. The leader sends every member's assignment; followers send none and
 * are parked until the leader's arrives (then each gets its own). Once the group is Stable a SyncGroup is
 * answered at once with the member's current assignment (a static member back from a restart). v3+
 * carries group.instance.id; v5+ the protocol type and name, checked against the group's
 * (INCONSISTENT_GROUP_PROTOCOL) and echoed back. Needs READ on the group, as Kafka: else
 * GROUP_AUTHORIZATION_FAILED with an empty assignment (a v5+ request missing its protocol type or name is
 * still INCONSISTENT_GROUP_PROTOCOL first, Kafka's order).
 */
public final class SyncGroupHandler implements ApiHandler {
    private final GroupCoordinator groups;

    public SyncGroupHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public ApiSpec api() {
        return SyncGroupApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        boolean protocolMissing = context.version() >= 5
                && (request.get(Request.PROTOCOL_TYPE) == null || request.get(Request.PROTOCOL_NAME) == null);
        if (!protocolMissing
                && !CoordinatorAccess.allowed(context, AclOperation.READ, ResourceType.GROUP, request.get(Request.GROUP_ID))) {
            return CompletableFuture.completedFuture(response(SyncGroupResult.error(ErrorCode.GROUP_AUTHORIZATION_FAILED)));
        }
        Map<String, byte[]> assignments = new LinkedHashMap<>();
        for (Struct a : request.get(Request.ASSIGNMENTS)) {
            assignments.put(a.get(Request.SyncGroupRequestAssignment.MEMBER_ID),
                    a.get(Request.SyncGroupRequestAssignment.ASSIGNMENT));
        }
        SyncGroupRequest sync = new SyncGroupRequest(request.get(Request.GROUP_ID), request.get(Request.GENERATION_ID),
                request.get(Request.MEMBER_ID), request.get(Request.GROUP_INSTANCE_ID), request.get(Request.PROTOCOL_TYPE),
                request.get(Request.PROTOCOL_NAME), assignments);
        return groups.syncGroup(sync).thenApply(SyncGroupHandler::response);
    }

    private static Struct response(SyncGroupResult r) {
        return Response.SCHEMA.newStruct()
                .set(Response.ERROR_CODE, r.error().code())
                .set(Response.PROTOCOL_TYPE, r.protocolType())
                .set(Response.PROTOCOL_NAME, r.protocolName())
                .set(Response.ASSIGNMENT, r.assignment());
    }
}
