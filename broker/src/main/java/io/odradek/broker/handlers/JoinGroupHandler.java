package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.JoinGroupRequest;
import io.odradek.coordinator.group.JoinGroupResult;
import io.odradek.coordinator.group.Protocol;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.JoinGroupApi;
import io.odradek.wire.api.JoinGroupApi.Request;
import io.odradek.wire.api.JoinGroupApi.Response;
import io.odradek.wire.schema.Struct;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * JoinGroup (key 11), versions 0-9, classic group protocol. The response is parked until the join phase
 * completes (every member rejoined, the rebalance timeout or, for a new group, the initial delay passed)
 * and completed from the coordinator's thread. v0 has no rebalance timeout (the session timeout serves);
 * v4+ first join gets MEMBER_ID_REQUIRED with a member id to rejoin with (KIP-394); v5+ carries
 * group.instance.id (static membership, KIP-345); v7+ reports the protocol type and a null protocol name
 * when there is none (an empty string before); v9 may tell a rejoining static leader to skip assignment
 * (KIP-814). The leader alone gets the members' metadata. Needs READ on the group, as Kafka: else
 * GROUP_AUTHORIZATION_FAILED at once (generation -1, empty member id and leader, no protocol name: "" before
 * v7), and the group is not touched.
 */
public final class JoinGroupHandler implements ApiHandler {
    private final GroupCoordinator groups;

    public JoinGroupHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public ApiSpec api() {
        return JoinGroupApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!CoordinatorAccess.allowed(context, AclOperation.READ, ResourceType.GROUP, request.get(Request.GROUP_ID))) {
            return CompletableFuture.completedFuture(response(JoinGroupResult.error("", ErrorCode.GROUP_AUTHORIZATION_FAILED),
                    context.version()));
        }
        List<Protocol> protocols = new ArrayList<>();
        for (Struct p : request.get(Request.PROTOCOLS)) {
            protocols.add(new Protocol(p.get(Request.JoinGroupRequestProtocol.NAME),
                    p.get(Request.JoinGroupRequestProtocol.METADATA)));
        }
        JoinGroupRequest join = new JoinGroupRequest(request.get(Request.GROUP_ID), request.get(Request.MEMBER_ID),
                request.get(Request.GROUP_INSTANCE_ID), context.clientId(), clientHost(context.clientAddress()),
                request.get(Request.SESSION_TIMEOUT_MS), request.get(Request.REBALANCE_TIMEOUT_MS),
                request.get(Request.PROTOCOL_TYPE), protocols, request.get(Request.REASON), context.version());
        short version = context.version();
        return groups.joinGroup(join).thenApply(r -> response(r, version));
    }

    static Struct response(JoinGroupResult r, short version) {
        String protocolName = r.protocolName();
        if (version < 7 && protocolName == null) {
            protocolName = "";
        } else if (version >= 7 && protocolName != null && protocolName.isEmpty()) {
            protocolName = null;
        }
        Struct response = Response.SCHEMA.newStruct()
                .set(Response.ERROR_CODE, r.error().code())
                .set(Response.GENERATION_ID, r.generationId())
                .set(Response.PROTOCOL_TYPE, r.protocolType())
                .set(Response.PROTOCOL_NAME, protocolName)
                .set(Response.LEADER, r.leader() == null ? "" : r.leader())
                .set(Response.SKIP_ASSIGNMENT, r.skipAssignment())
                .set(Response.MEMBER_ID, r.memberId());
        for (JoinGroupResult.Member m : r.members()) {
            response.add(Response.MEMBERS)
                    .set(Response.JoinGroupResponseMember.MEMBER_ID, m.memberId())
                    .set(Response.JoinGroupResponseMember.GROUP_INSTANCE_ID, m.groupInstanceId())
                    .set(Response.JoinGroupResponseMember.METADATA, m.metadata());
        }
        return response;
    }

    /** The client's address as Kafka reports it in DescribeGroups: "/127.0.0.1". */
    static String clientHost(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return "/" + inet.getAddress().getHostAddress();
        }
        return String.valueOf(address);
    }
}
