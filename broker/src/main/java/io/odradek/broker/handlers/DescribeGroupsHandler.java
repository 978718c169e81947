package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupDescription;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeGroupsApi;
import io.odradek.wire.api.DescribeGroupsApi.Request;
import io.odradek.wire.api.DescribeGroupsApi.Response;
import io.odradek.wire.api.DescribeGroupsApi.Response.DescribedGroup;
import io.odradek.wire.api.DescribeGroupsApi.Response.DescribedGroup.DescribedGroupMember;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeGroups (key 15), versions 0-6. State, protocol type, members with client id and host and their
 * assignments; member metadata and the protocol name (ProtocolData) only in the Stable state, as in
 * Kafka. An unknown group is reported as "Dead" — with GROUP_ID_NOT_FOUND from v6 (KIP-1043), without
 * an error before; so is a KIP-848 consumer group, as in Kafka 4 (ConsumerGroupDescribe describes those),
 * and a share group (ShareGroupDescribe describes those; issue 12).
 * v3+ may ask for authorized operations (KIP-430), given for groups described without error: those the
 * authorizer allows, every group operation (READ, DELETE, DESCRIBE) with no authorizer. v4+ report
 * group.instance.id. Authorization, as Kafka 4.4: DESCRIBE on each group; a group refused is answered first,
 * before the described ones as Kafka orders them, with GROUP_AUTHORIZATION_FAILED, state, protocol type and
 * data "" and no members.
 */
public final class DescribeGroupsHandler implements ApiHandler {
    /** READ (3), DELETE (6) and DESCRIBE (8), Kafka's AclOperation codes, as a bit field. */
    static final int ALL_GROUP_OPERATIONS = (1 << 3) | (1 << 6) | (1 << 8);

    private final GroupCoordinator groups;

    public DescribeGroupsHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public ApiSpec api() {
        return DescribeGroupsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        short version = context.version();
        boolean withOperations = request.get(Request.INCLUDE_AUTHORIZED_OPERATIONS);
        List<CompletableFuture<GroupDescription>> described = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (String groupId : request.get(Request.GROUPS)) {
            if (CoordinatorAccess.allowed(context, AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
                described.add(groups.describeGroup(groupId));
            } else {
                refused.add(groupId);
            }
        }
        return CompletableFuture.allOf(described.toArray(CompletableFuture[]::new)).thenApply(v -> {
            Struct response = Response.SCHEMA.newStruct().set(Response.GROUPS, new ArrayList<>());
            for (String groupId : refused) {
                response.add(Response.GROUPS)
                        .set(DescribedGroup.ERROR_CODE, ErrorCode.GROUP_AUTHORIZATION_FAILED.code())
                        .set(DescribedGroup.GROUP_ID, groupId)
                        .set(DescribedGroup.GROUP_STATE, "")
                        .set(DescribedGroup.PROTOCOL_TYPE, "")
                        .set(DescribedGroup.PROTOCOL_DATA, "")
                        .set(DescribedGroup.MEMBERS, new ArrayList<>())
                        .set(DescribedGroup.AUTHORIZED_OPERATIONS, Integer.MIN_VALUE);
            }
            for (CompletableFuture<GroupDescription> f : described) {
                GroupDescription d = f.join();
                ErrorCode error = d.error();
                if (error == ErrorCode.GROUP_ID_NOT_FOUND && version < 6) {
                    error = ErrorCode.NONE; // before KIP-1043 an unknown group is simply Dead
                }
                Struct g = response.add(Response.GROUPS)
                        .set(DescribedGroup.ERROR_CODE, error.code())
                        .set(DescribedGroup.ERROR_MESSAGE, error == ErrorCode.NONE ? null
                                : "Group " + d.groupId() + " " + (error == ErrorCode.GROUP_ID_NOT_FOUND ? "not found." : "unavailable."))
                        .set(DescribedGroup.GROUP_ID, d.groupId())
                        .set(DescribedGroup.GROUP_STATE, d.state())
                        .set(DescribedGroup.PROTOCOL_TYPE, d.protocolType())
                        .set(DescribedGroup.PROTOCOL_DATA, d.protocolData())
                        .set(DescribedGroup.AUTHORIZED_OPERATIONS, withOperations && error == ErrorCode.NONE
                                ? CoordinatorAccess.groupOperations(context, d.groupId()) : Integer.MIN_VALUE);
                for (GroupDescription.Member m : d.members()) {
                    g.add(DescribedGroup.MEMBERS)
                            .set(DescribedGroupMember.MEMBER_ID, m.memberId())
                            .set(DescribedGroupMember.GROUP_INSTANCE_ID, m.groupInstanceId())
                            .set(DescribedGroupMember.CLIENT_ID, m.clientId())
                            .set(DescribedGroupMember.CLIENT_HOST, m.clientHost())
                            .set(DescribedGroupMember.MEMBER_METADATA, m.metadata())
                            .set(DescribedGroupMember.MEMBER_ASSIGNMENT, m.assignment());
                }
            }
            return response;
        });
    }
}
