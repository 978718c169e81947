package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.HeartbeatApi;
import io.odradek.wire.api.HeartbeatApi.Request;
import io.odradek.wire.api.HeartbeatApi.Response;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * Heartbeat (key 12), versions 0-4. Keeps a member's session alive. REBALANCE_IN_PROGRESS tells a member
 * to rejoin; ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID and (v3+, static members) FENCED_INSTANCE_ID that it
 * is no longer part of the current generation. Heartbeats while the leader computes the assignment
 * (CompletingRebalance) are accepted. Needs READ on the group, as Kafka: else GROUP_AUTHORIZATION_FAILED
 * and the member's session is not extended.
 */
public final class HeartbeatHandler implements ApiHandler {
    private final GroupCoordinator groups;

    public HeartbeatHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public ApiSpec api() {
        return HeartbeatApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!CoordinatorAccess.allowed(context, AclOperation.READ, ResourceType.GROUP, request.get(Request.GROUP_ID))) {
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.ERROR_CODE, ErrorCode.GROUP_AUTHORIZATION_FAILED.code()));
        }
        return groups.heartbeat(request.get(Request.GROUP_ID), request.get(Request.MEMBER_ID),
                        request.get(Request.GROUP_INSTANCE_ID), request.get(Request.GENERATION_ID))
                .thenApply(error -> Response.SCHEMA.newStruct().set(Response.ERROR_CODE, error.code()));
    }
}
