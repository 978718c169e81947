package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupOverview;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ListGroupsApi;
import io.odradek.wire.api.ListGroupsApi.Request;
import io.odradek.wire.api.ListGroupsApi.Response;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * ListGroups (key 16), versions 0-5. Every group this broker coordinates — all of them, on one node —
 * including simple groups that only hold offsets (protocol type ""). v4+ filter by state (KIP-518) and
 * report it; v5+ filter by type (KIP-848) and report it: "classic", or "consumer" for KIP-848 groups
 * (protocol type "consumer", states Empty, Assigning, Reconciling, Stable), "share" for KIP-932 share
 * groups (protocol type "share", states Empty, Stable; issue 12), or (issue 12) "streams" for KIP-1071
 * groups (protocol type "streams", states Empty, NotReady, Assigning, Reconciling, Stable). Filters match
 * case-insensitively, as in Kafka. While any coordinator partition loads: COORDINATOR_LOAD_IN_PROGRESS.
 * Authorization, as Kafka 4.4: with DESCRIBE on the cluster every group is listed, without it only the
 * groups the client may DESCRIBE (never an error).
 */
public final class ListGroupsHandler implements ApiHandler {
    private final GroupCoordinator groups;

    public ListGroupsHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public ApiSpec api() {
        return ListGroupsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        List<String> states = request.get(Request.STATES_FILTER);
        List<String> types = request.get(Request.TYPES_FILTER);
        boolean everyGroup = CoordinatorAccess.allowedOnCluster(context, AclOperation.DESCRIBE);
        return groups.listGroups(states, types).thenApply(r -> {
            Struct response = Response.SCHEMA.newStruct().set(Response.ERROR_CODE, r.error().code())
                    .set(Response.GROUPS, new ArrayList<>());
            for (GroupOverview g : r.groups()) {
                if (!everyGroup && !CoordinatorAccess.allowed(context, AclOperation.DESCRIBE, ResourceType.GROUP, g.groupId())) {
                    continue;
                }
                response.add(Response.GROUPS)
                        .set(Response.ListedGroup.GROUP_ID, g.groupId())
                        .set(Response.ListedGroup.PROTOCOL_TYPE, g.protocolType())
                        .set(Response.ListedGroup.GROUP_STATE, g.state())
                        .set(Response.ListedGroup.GROUP_TYPE, g.type());
            }
            return response;
        });
    }
}
