package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.txn.TransactionStateTopic;
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
 * FindCoordinator (key 10), versions 0-6. One node leads every partition of {@code __consumer_offsets} and
 * {@code __transaction_state}, so the coordinator of any group (key type 0) or transactional id (key
 * type 1) is this broker. As in Kafka, the first lookup of either kind creates its internal topic (in the
 * background) and answers COORDINATOR_NOT_AVAILABLE until it exists; clients retry. Other key types (2,
 * share groups, which we do not serve; anything else, unknown to Kafka too) are INVALID_REQUEST. v0-3
 * look up one key (v0 has no key type: a group); v4+ batch them in CoordinatorKeys (KIP-699) and answer
 * one Coordinators entry per key, in request order. An error carries Kafka's message for its code and
 * node -1, host "", port -1. A group or transaction partition still loading is found all the same; its
 * requests then answer COORDINATOR_LOAD_IN_PROGRESS (or CONCURRENT_TRANSACTIONS, as Kafka's coordinator).
 */
public final class FindCoordinatorHandler implements ApiHandler {
    static final byte GROUP = 0;
    static final byte TRANSACTION = 1;
    /** Kafka's message for INVALID_REQUEST (Errors.INVALID_REQUEST.message()). */
    static final String INVALID_REQUEST_MESSAGE = "This most likely occurs because of a request being malformed by the "
            + "client library or the message was sent to an incompatible broker. See the broker logs for more details.";

    private final LocalNode node;
    private final GroupCoordinator groups;
    private final TransactionStateTopic transactions;

    /**
     * @param transactions {@code __transaction_state}, created on the first transactional lookup; null when
     *                     this broker runs no transaction coordinator (transactional lookups then answer
     *                     COORDINATOR_NOT_AVAILABLE)
     */
    public FindCoordinatorHandler(LocalNode node, GroupCoordinator groups, TransactionStateTopic transactions) {
        this.node = node;
        this.groups = groups;
        this.transactions = transactions;
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
            error = transactions != null && transactions.ensureCreated() ? ErrorCode.NONE : ErrorCode.COORDINATOR_NOT_AVAILABLE;
            if (error != ErrorCode.NONE) {
                message = "The coordinator is not available.";
            }
        } else {
            // Kafka fails the request (an unknown type throws; share groups are off) with INVALID_REQUEST's text.
            error = ErrorCode.INVALID_REQUEST;
            message = INVALID_REQUEST_MESSAGE;
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
