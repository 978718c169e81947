package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.LeaveGroupResult;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.LeaveGroupApi;
import io.odradek.wire.api.LeaveGroupApi.Request;
import io.odradek.wire.api.LeaveGroupApi.Response;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * LeaveGroup (key 13), versions 0-5. v0-2 name one member id; v3+ a batch of members by member id or,
 * for an admin removing static members, by group.instance.id alone (KIP-345), each with its own error;
 * v5 adds a reason (logged by clients, ignored here). An unknown group is a top-level UNKNOWN_MEMBER_ID.
 * For v0-2 the single member's error becomes the top-level error, as in Kafka. Needs READ on the group, as
 * Kafka: else a top-level GROUP_AUTHORIZATION_FAILED with no members, and nobody leaves.
 */
public final class LeaveGroupHandler implements ApiHandler {
    private final GroupCoordinator groups;

    public LeaveGroupHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public ApiSpec api() {
        return LeaveGroupApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        short version = context.version();
        if (!CoordinatorAccess.allowed(context, AclOperation.READ, ResourceType.GROUP, request.get(Request.GROUP_ID))) {
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.ERROR_CODE, ErrorCode.GROUP_AUTHORIZATION_FAILED.code())
                    .set(Response.MEMBERS, List.of()));
        }
        List<LeaveGroupResult.Member> leaving = new ArrayList<>();
        if (version < 3) {
            leaving.add(new LeaveGroupResult.Member(request.get(Request.MEMBER_ID), null, ErrorCode.NONE));
        } else {
            for (Struct m : request.get(Request.MEMBERS)) {
                leaving.add(new LeaveGroupResult.Member(m.get(Request.MemberIdentity.MEMBER_ID),
                        m.get(Request.MemberIdentity.GROUP_INSTANCE_ID), ErrorCode.NONE));
            }
        }
        return groups.leaveGroup(request.get(Request.GROUP_ID), leaving).thenApply(r -> {
            Struct response = Response.SCHEMA.newStruct();
            ErrorCode top = r.error();
            if (version < 3 && top == ErrorCode.NONE && !r.members().isEmpty()) {
                top = r.members().get(0).error();
            }
            response.set(Response.ERROR_CODE, top.code());
            for (LeaveGroupResult.Member m : r.members()) {
                response.add(Response.MEMBERS)
                        .set(Response.MemberResponse.MEMBER_ID, m.memberId())
                        .set(Response.MemberResponse.GROUP_INSTANCE_ID, m.groupInstanceId())
                        .set(Response.MemberResponse.ERROR_CODE, m.error().code());
            }
            return response;
        });
    }
}
