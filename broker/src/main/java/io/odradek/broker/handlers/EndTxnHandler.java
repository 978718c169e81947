package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.transaction.EndTxnResult;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.EndTxnApi;
import io.odradek.wire.api.EndTxnApi.Request;
import io.odradek.wire.api.EndTxnApi.Response;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * EndTxn (key 26), versions 0-5. Commits or aborts the producer's ongoing transaction: the coordinator
 * records PrepareCommit/PrepareAbort, answers, then writes the markers to every partition of the
 * transaction and completes it (CONCURRENT_TRANSACTIONS while a previous EndTxn is still completing;
 * INVALID_TXN_STATE when ending what is not open, or committing what was aborted; epoch errors as Kafka,
 * including, under v5+, PRODUCER_FENCED for a commit that raced the coordinator's own abort, KAFKA-20785).
 *
 * <p>The request version picks the transaction protocol, as Kafka's transactionVersionForEndTxn does:
 * v5+ is transaction version 2 (KIP-890), under which every EndTxn bumps the producer epoch and the
 * response carries the producer id and epoch to use next; v0-4 are version 1, whose responses carry no
 * id or epoch. PRODUCER_FENCED is answered to v2+ only, INVALID_PRODUCER_EPOCH before, as Kafka does.
 * Authorization, as Kafka 4.4: WRITE on the transactional id, else TRANSACTIONAL_ID_AUTHORIZATION_FAILED (producer
 * id and epoch -1) and the transaction is left as it is.
 */
public final class EndTxnHandler implements ApiHandler {
    private static final int FIRST_TRANSACTION_V2_VERSION = 5;

    private final TransactionCoordinator transactions;

    public EndTxnHandler(TransactionCoordinator transactions) {
        this.transactions = transactions;
    }

    @Override
    public ApiSpec api() {
        return EndTxnApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        String transactionalId = request.get(Request.TRANSACTIONAL_ID);
        int version = context.version();
        if (!CoordinatorAccess.allowed(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)) {
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.THROTTLE_TIME_MS, 0)
                    .set(Response.ERROR_CODE, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code())
                    .set(Response.PRODUCER_ID, -1L)
                    .set(Response.PRODUCER_EPOCH, (short) -1));
        }
        return transactions.endTransaction(transactionalId, request.get(Request.PRODUCER_ID), request.get(Request.PRODUCER_EPOCH),
                        request.get(Request.COMMITTED), version >= FIRST_TRANSACTION_V2_VERSION)
                .handle((result, failure) -> {
                    EndTxnResult r = failure != null
                            ? EndTxnResult.error(TxnErrors.ofFailure(failure, "EndTxn for transactional id " + transactionalId))
                            : result;
                    ErrorCode error = TxnErrors.fencedFor(r.error(), version, 2);
                    return Response.SCHEMA.newStruct()
                            .set(Response.THROTTLE_TIME_MS, 0)
                            .set(Response.ERROR_CODE, error.code())
                            .set(Response.PRODUCER_ID, r.producerId())
                            .set(Response.PRODUCER_EPOCH, r.producerEpoch());
                });
    }
}
