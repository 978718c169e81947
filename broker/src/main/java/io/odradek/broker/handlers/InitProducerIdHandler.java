package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.producer.ProducerIdManager;
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
 * <li>An empty transactional_id: INVALID_REQUEST, as Kafka.</li>
 * <li>Transactions are not implemented yet: a transactional_id gets INVALID_REQUEST too, which Kafka's
 *     producer surfaces as a fatal "Unexpected error in InitProducerIdResponse ... sent to an incompatible
 *     broker. See the broker logs", and the broker logs why. (A retriable code such as
 *     COORDINATOR_NOT_AVAILABLE would only make initTransactions() spin until max.block.ms.)</li>
 * <li>The id is usually ready at once; when a new block of ids is being made durable the response waits
 *     for that write, off the event loop, and completes back on it. If it cannot be written:
 *     KAFKA_STORAGE_ERROR, which clients retry.</li>
 * <li>transaction_timeout_ms, and v6's enable_2pc / keep_prepared_txn, are accepted and ignored; the v6
 *     ongoing_txn_producer_id/epoch are -1.</li>
 * </ul>
 */
public final class InitProducerIdHandler implements ApiHandler {
    private static final System.Logger LOG = System.getLogger(InitProducerIdHandler.class.getName());

    private final ProducerIdManager producerIds;

    public InitProducerIdHandler(ProducerIdManager producerIds) {
        this.producerIds = producerIds;
    }

    @Override
    public ApiSpec api() {
        return InitProducerIdApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        String transactionalId = request.get(Request.TRANSACTIONAL_ID);
        if (transactionalId != null) {
            if (!transactionalId.isEmpty()) {
                // One line per attempt is enough: the client fails fatally and does not retry.
                LOG.log(System.Logger.Level.WARNING, "InitProducerId from " + context.clientAddress() + " (client " + context.clientId()
                        + "): transactional producers are not supported yet (transactional.id " + transactionalId + ")");
            }
            return CompletableFuture.completedFuture(error(ErrorCode.INVALID_REQUEST));
        }
        boolean noId = request.get(Request.PRODUCER_ID) == -1L;
        boolean noEpoch = request.get(Request.PRODUCER_EPOCH) == -1;
        if (noId != noEpoch) {
            return CompletableFuture.completedFuture(error(ErrorCode.INVALID_REQUEST));
        }
        CompletableFuture<Long> id = producerIds.nextProducerId();
        if (id.isDone()) {
            return CompletableFuture.completedFuture(response(id));
        }
        return id.handleAsync((v, e) -> response(id), context.executor());
    }

    private static Struct response(CompletableFuture<Long> id) {
        long producerId;
        try {
            producerId = id.join();
        } catch (RuntimeException e) {
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
