package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.coordinator.runtime.CoordinatorErrors;
import io.odradek.coordinator.transaction.InitProducerIdResult;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.InitProducerIdApi;
import io.odradek.wire.api.InitProducerIdApi.Request;
import io.odradek.wire.api.InitProducerIdApi.Response;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * InitProducerId (key 22), versions 0-6.
 *
 * <p>Behaviour / version notes:
 * <ul>
 * <li>No transactional_id (idempotent producers): a fresh producer id with epoch 0, from
 *     {@link ProducerIdManager}, which never reissues an id, restarts included. As Kafka's
 *     TransactionCoordinator does for a null transactional id, a request carrying an existing
 *     producer_id/producer_epoch (v3+, KIP-360) also just gets a new id: it is not checked, except that
 *     an id without an epoch, or an epoch without an id, is INVALID_REQUEST (Kafka's KafkaApis check).</li>
 * <li>A transactional_id goes to the {@link TransactionCoordinator} (Kafka's handleInitProducerId): a new
 *     producer id, or the same id with its epoch bumped (a new id when the epoch would overflow); the
 *     previous epoch is fenced and its open transaction aborted first (CONCURRENT_TRANSACTIONS meanwhile,
 *     which clients retry); a transaction_timeout_ms above {@code transaction.max.timeout.ms} is
 *     INVALID_TRANSACTION_TIMEOUT; an empty id INVALID_REQUEST; NOT_COORDINATOR or
 *     COORDINATOR_LOAD_IN_PROGRESS while this broker does not (yet) serve the id's partition of
 *     {@code __transaction_state}. PRODUCER_FENCED is answered to v4+ only, INVALID_PRODUCER_EPOCH
 *     before, as Kafka does. v6's enable_2pc / keep_prepared_txn are passed to the coordinator, which
 *     refuses them as Kafka 4.4 does while {@code transaction.two.phase.commit.enable} is off; the v6
 *     ongoing_txn_producer_id/epoch are -1.</li>
 * <li>The id is usually ready at once; when a new block of ids is being made durable the response waits
 *     for that write, off the event loop, and completes back on it. If it cannot be written:
 *     KAFKA_STORAGE_ERROR, which clients retry. In a cluster the blocks come from the controller; while
 *     none can be had: COORDINATOR_LOAD_IN_PROGRESS, as Kafka's RPCProducerIdManager answers.</li>
 * <li>Without a transactional_id, transaction_timeout_ms and v6's enable_2pc / keep_prepared_txn are
 *     ignored, as in Kafka.</li>
 * <li>Authorization, checked first as Kafka 4.4 does: a transactional_id needs WRITE on it, and with v6's
 *     enable_2pc also TWO_PHASE_COMMIT on it (else TRANSACTIONAL_ID_AUTHORIZATION_FAILED); an idempotent
 *     producer needs IDEMPOTENT_WRITE on the cluster or WRITE on at least one topic (KIP-679), else
 *     CLUSTER_AUTHORIZATION_FAILED.</li>
 * </ul>
 */
public final class InitProducerIdHandler implements ApiHandler {
    private static final System.Logger LOG = System.getLogger(InitProducerIdHandler.class.getName());

    private final ProducerIdManager producerIds;
    private final TransactionCoordinator transactions;

    /**
     * @param transactions the transaction coordinator; null on a broker without one, where a
     *                     transactional_id is INVALID_REQUEST (the client fails fatally and says the broker
     *                     is incompatible)
     */
    public InitProducerIdHandler(ProducerIdManager producerIds, TransactionCoordinator transactions) {
        this.producerIds = producerIds;
        this.transactions = transactions;
    }

    @Override
    public ApiSpec api() {
        return InitProducerIdApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        String transactionalId = request.get(Request.TRANSACTIONAL_ID);
        long producerId = request.get(Request.PRODUCER_ID);
        short producerEpoch = request.get(Request.PRODUCER_EPOCH);
        ErrorCode refused = authorize(context, transactionalId, request.get(Request.ENABLE2_PC));
        if (refused != null) {
            return CompletableFuture.completedFuture(error(refused));
        }
        if ((producerId == -1L) != (producerEpoch == -1)) {
            return CompletableFuture.completedFuture(error(ErrorCode.INVALID_REQUEST));
        }
        if (transactionalId != null) {
            return initTransactional(context, request, transactionalId, producerId, producerEpoch);
        }
        CompletableFuture<Long> id = producerIds.nextProducerId();
        if (id.isDone()) {
            return CompletableFuture.completedFuture(response(id));
        }
        return id.handleAsync((v, e) -> response(id), context.executor());
    }

    /** The authorization error Kafka 4.4 answers before anything else, or null when allowed. */
    private static ErrorCode authorize(RequestContext context, String transactionalId, boolean enable2Pc) {
        if (transactionalId != null) {
            boolean allowed = CoordinatorAccess.allowed(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)
                    && (!enable2Pc || CoordinatorAccess.allowed(context, AclOperation.TWO_PHASE_COMMIT,
                            ResourceType.TRANSACTIONAL_ID, transactionalId));
            return allowed ? null : ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
        }
        boolean allowed = CoordinatorAccess.allowedOnCluster(context, AclOperation.IDEMPOTENT_WRITE)
                || CoordinatorAccess.allowedAny(context, AclOperation.WRITE, ResourceType.TOPIC);
        return allowed ? null : ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
    }

    private CompletableFuture<Struct> initTransactional(RequestContext context, Struct request, String transactionalId,
            long producerId, short producerEpoch) {
        if (transactions == null || transactionalId.isEmpty()) {
            if (transactions == null) {
                LOG.log(System.Logger.Level.WARNING, "InitProducerId from " + context.clientAddress() + " (client "
                        + context.clientId() + "): this broker runs no transaction coordinator (transactional.id "
                        + transactionalId + ")");
            }
            return CompletableFuture.completedFuture(error(ErrorCode.INVALID_REQUEST));
        }
        int version = context.version();
        return transactions.initProducerId(transactionalId, request.get(Request.TRANSACTION_TIMEOUT_MS), producerId,
                        producerEpoch, request.get(Request.ENABLE2_PC), request.get(Request.KEEP_PREPARED_TXN))
                .handle((result, failure) -> failure != null
                        ? error(TxnErrors.ofFailure(failure, "InitProducerId for transactional id " + transactionalId))
                        : transactional(result, version));
    }

    private static Struct transactional(InitProducerIdResult result, int version) {
        ErrorCode error = TxnErrors.fencedFor(result.error(), version, 4);
        if (error != ErrorCode.NONE) {
            return error(error);
        }
        return Response.SCHEMA.newStruct()
                .set(Response.THROTTLE_TIME_MS, 0)
                .set(Response.ERROR_CODE, ErrorCode.NONE.code())
                .set(Response.PRODUCER_ID, result.producerId())
                .set(Response.PRODUCER_EPOCH, result.producerEpoch());
    }

    private static Struct response(CompletableFuture<Long> id) {
        long producerId;
        try {
            producerId = id.join();
        } catch (RuntimeException e) {
            ErrorCode coordinatorError = CoordinatorErrors.of(e);
            if (coordinatorError != null) {
                return error(coordinatorError); // a cluster's manager waiting for its next block
            }
            LOG.log(System.Logger.Level.ERROR, "cannot allocate a producer id", e);
            return error(ErrorCode.KAFKA_STORAGE_ERROR);
        }
        return Response.SCHEMA.newStruct()
                .set(Response.THROTTLE_TIME_MS, 0)
                .set(Response.ERROR_CODE, ErrorCode.NONE.code())
                .set(Response.PRODUCER_ID, producerId)
                .set(Response.PRODUCER_EPOCH, (short) 0);
    }

    private static Struct error(ErrorCode error) {
        return Response.SCHEMA.newStruct()
                .set(Response.THROTTLE_TIME_MS, 0)
                .set(Response.ERROR_CODE, error.code())
                .set(Response.PRODUCER_ID, -1L)
                .set(Response.PRODUCER_EPOCH, (short) -1);
    }
}
