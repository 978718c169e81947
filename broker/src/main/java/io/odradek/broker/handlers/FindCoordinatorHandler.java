package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.coordinators.CoordinatorLocator;
import io.odradek.broker.coordinators.CoordinatorLocator.Coordinator;
import io.odradek.broker.coordinators.LocalCoordinatorLocator;
import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.txn.TransactionStateTopic;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.FindCoordinatorApi;
import io.odradek.wire.api.FindCoordinatorApi.Request;
import io.odradek.wire.api.FindCoordinatorApi.Response;
import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * FindCoordinator (key 10), versions 0-6. The coordinator of a group (key type 0) or transactional id (key
 * type 1) is found by the {@link CoordinatorLocator}: on one node this broker, which leads every partition
 * of {@code __consumer_offsets} and {@code __transaction_state}; in a cluster the leader of the key's
 * partition in the metadata image; either at its endpoint of the listener the request came on
 * (COORDINATOR_NOT_AVAILABLE when the coordinator has no such endpoint, as Kafka). As in Kafka, the first lookup of either kind
 * creates its internal topic (in the background; in a cluster through the controller) and answers
 * COORDINATOR_NOT_AVAILABLE until it exists (in a cluster also while the partition has no leader); clients
 * retry. Key type 2 (SHARE, issue 12: a share partition's {@code groupId:topicId:partition}, which brokers look
 * up for their share-state requests) finds the leader of the key's {@code __share_group_state} partition the same
 * way, creating that topic on first need; as Kafka 4.4 it is INVALID_REQUEST below v6, needs CLUSTER_ACTION on the
 * cluster (else CLUSTER_AUTHORIZATION_FAILED) and a key Kafka's SharePartitionKey parses (else INVALID_REQUEST).
 * Other key types (unknown to Kafka too) are INVALID_REQUEST. v0-3 look up one key (v0 has no key type: a group); v4+ batch them in CoordinatorKeys
 * (KIP-699) and answer one Coordinators entry per key, in request order (each key located on its own). An
 * error carries Kafka's message for its code and node -1, host "", port -1. A group or transaction
 * partition still loading is found all the same; its requests then answer COORDINATOR_LOAD_IN_PROGRESS (or
 * CONCURRENT_TRANSACTIONS, as Kafka's coordinator).
 *
 * <p>Authorization (Kafka 4.4's getCoordinator), per key before it is located: a group key needs DESCRIBE on
 * the group (else GROUP_AUTHORIZATION_FAILED), a transactional key DESCRIBE on the transactional id (else
 * TRANSACTIONAL_ID_AUTHORIZATION_FAILED), each with node -1, host "", port -1; v0-3 answer with the error's
 * message ("Group authorization failed." / "Transactional Id authorization failed."), v4+ per key without one
 * (Kafka sets no message there). Nothing is created for a refused key.
 */
public final class FindCoordinatorHandler implements ApiHandler {
    static final byte GROUP = CoordinatorLocator.GROUP;
    static final byte TRANSACTION = CoordinatorLocator.TRANSACTION;
    static final byte SHARE = CoordinatorLocator.SHARE;
    /** Kafka's message for INVALID_REQUEST (Errors.INVALID_REQUEST.message()). */
    static final String INVALID_REQUEST_MESSAGE = "This most likely occurs because of a request being malformed by the "
            + "client library or the message was sent to an incompatible broker. See the broker logs for more details.";

    private final CoordinatorLocator locator;

    /**
     * One node.
     *
     * @param transactions {@code __transaction_state}, created on the first transactional lookup; null when
     *                     this broker runs no transaction coordinator (transactional lookups then answer
     *                     COORDINATOR_NOT_AVAILABLE)
     */
    public FindCoordinatorHandler(LocalNode node, GroupCoordinator groups, TransactionStateTopic transactions) {
        this(new LocalCoordinatorLocator(node, groups, transactions));
    }

    /** Coordinators wherever {@code locator} finds them (a cluster: {@code ClusterCoordinatorLocator}). */
    public FindCoordinatorHandler(CoordinatorLocator locator) {
        this.locator = locator;
    }

    @Override
    public ApiSpec api() {
        return FindCoordinatorApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        byte keyType = request.get(Request.KEY_TYPE);
        Struct response = Response.SCHEMA.newStruct();
        if (context.version() >= 4) {
            for (String key : request.get(Request.COORDINATOR_KEYS)) {
                Struct c = response.add(Response.COORDINATORS).set(Response.Coordinator.KEY, key);
                fill(c, find(context, keyType, key), Response.Coordinator.ERROR_CODE, Response.Coordinator.ERROR_MESSAGE,
                        Response.Coordinator.NODE_ID, Response.Coordinator.HOST, Response.Coordinator.PORT, true);
            }
        } else {
            fill(response, find(context, keyType, request.get(Request.KEY)), Response.ERROR_CODE, Response.ERROR_MESSAGE,
                    Response.NODE_ID, Response.HOST, Response.PORT, false);
        }
        return CompletableFuture.completedFuture(response);
    }

    private Coordinator find(RequestContext context, byte keyType, String key) {
        if (keyType == GROUP && !CoordinatorAccess.allowed(context, AclOperation.DESCRIBE, ResourceType.GROUP, key)) {
            return new Coordinator(ErrorCode.GROUP_AUTHORIZATION_FAILED, -1, "", -1);
        }
        if (keyType == TRANSACTION
                && !CoordinatorAccess.allowed(context, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, key)) {
            return new Coordinator(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, -1, "", -1);
        }
        if (keyType == SHARE) {
            Coordinator refused = refusedShareKey(context, key);
            if (refused != null) {
                return refused;
            }
        } else if (keyType != GROUP && keyType != TRANSACTION) {
            // Kafka fails the request (an unknown type throws; share groups are off) with INVALID_REQUEST's text.
            return new Coordinator(ErrorCode.INVALID_REQUEST, -1, "", -1);
        }
        return locator.find(keyType, key, context.session().listenerName());
    }

    /** Kafka 4.4's checks of a share key, in its order; null when the key may be located. */
    private static Coordinator refusedShareKey(RequestContext context, String key) {
        if (context.version() < 6) {
            return new Coordinator(ErrorCode.INVALID_REQUEST, -1, "", -1);
        }
        if (!CoordinatorAccess.allowedOnCluster(context, AclOperation.CLUSTER_ACTION)) {
            return new Coordinator(ErrorCode.CLUSTER_AUTHORIZATION_FAILED, -1, "", -1);
        }
        try {
            SharePartitionKey.parse(key);
        } catch (IllegalArgumentException e) {
            return new Coordinator(ErrorCode.INVALID_REQUEST, -1, "", -1);
        }
        return null;
    }

    private static void fill(Struct s, Coordinator c, Field<Short> errorCode, Field<String> errorMessage,
            Field<Integer> nodeId, Field<String> host, Field<Integer> port, boolean batched) {
        String message = switch (c.error()) {
            case NONE -> null;
            case GROUP_AUTHORIZATION_FAILED -> batched ? null : "Group authorization failed.";
            case TRANSACTIONAL_ID_AUTHORIZATION_FAILED -> batched ? null : "Transactional Id authorization failed.";
            case INVALID_REQUEST -> INVALID_REQUEST_MESSAGE;
            case CLUSTER_AUTHORIZATION_FAILED -> "Cluster authorization failed.";
            default -> "The coordinator is not available.";
        };
        s.set(errorCode, c.error().code()).set(errorMessage, message)
                .set(nodeId, c.nodeId()).set(host, c.host()).set(port, c.port());
    }
}
