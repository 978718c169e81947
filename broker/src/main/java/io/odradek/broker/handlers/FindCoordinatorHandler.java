package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.LocalNode;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.FindCoordinatorApi;
import io.odradek.wire.api.FindCoordinatorApi.Request;
import io.odradek.wire.api.FindCoordinatorApi.Response;
import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * FindCoordinator (key 10), versions 0-6. One node serves every partition of {@code __consumer_offsets},
 * so the coordinator of any group (key type 0) is this broker; so is that of a transactional id (key
 * type 1). As in Kafka, the first group lookup creates {@code __consumer_offsets} (in the background)
 * and answers COORDINATOR_NOT_AVAILABLE until it exists; clients retry. Other key types (2, share groups) are INVALID_REQUEST, as Kafka answers
 * a type it does not serve. v0-3 look up one key (v0 has no key type: a group); v4+ batch them in
 * CoordinatorKeys (KIP-699) and answer one Coordinators entry per key, in request order. A group still
 * loading is found all the same; its requests then answer COORDINATOR_LOAD_IN_PROGRESS.
 */
public final class FindCoordinatorHandler implements ApiHandler {
    static final byte GROUP = 0;
    static final byte TRANSACTION = 1;

    private final LocalNode node;
    private final GroupCoordinator groups;

    public FindCoordinatorHandler(LocalNode node, GroupCoordinator groups) {
        this.node = node;
        this.groups = groups;
    }

    @Override
    public ApiSpec api() {
        return FindCoordinatorApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        byte keyType = request.get(Request.KEY_TYPE);
        ErrorCode error;
        String message = null;
        if (keyType == GROUP) {
            error = groups.ensureOffsetsTopic() ? ErrorCode.NONE : ErrorCode.COORDINATOR_NOT_AVAILABLE;
            if (error != ErrorCode.NONE) {
                message = "The coordinator is not available.";
            }
        } else if (keyType == TRANSACTION) {
            error = ErrorCode.NONE;
        } else {
            error = ErrorCode.INVALID_REQUEST;
            message = "unsupported coordinator key type " + keyType;
        }
        Struct response = Response.SCHEMA.newStruct();
        if (context.version() >= 4) {
            for (String key : request.get(Request.COORDINATOR_KEYS)) {
                Struct c = response.add(Response.COORDINATORS)
                        .set(Response.Coordinator.KEY, key)
                        .set(Response.Coordinator.ERROR_CODE, error.code())
                        .set(Response.Coordinator.ERROR_MESSAGE, message);
                fillNode(c, error, Response.Coordinator.NODE_ID, Response.Coordinator.HOST, Response.Coordinator.PORT);
            }
        } else {
            response.set(Response.ERROR_CODE, error.code()).set(Response.ERROR_MESSAGE, message);
            fillNode(response, error, Response.NODE_ID, Response.HOST, Response.PORT);
        }
        return CompletableFuture.completedFuture(response);
    }

    private void fillNode(Struct s, ErrorCode error, Field<Integer> nodeId, Field<String> host, Field<Integer> port) {
        boolean ok = error == ErrorCode.NONE;
        s.set(nodeId, ok ? node.nodeId() : -1).set(host, ok ? node.host() : "").set(port, ok ? node.port() : -1);
    }
}
