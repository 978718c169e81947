package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AddOffsetsToTxnApi;
import io.odradek.wire.api.AddOffsetsToTxnApi.Request;
import io.odradek.wire.api.AddOffsetsToTxnApi.Response;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * AddOffsetsToTxn (key 25), versions 0-4. sendOffsetsToTransaction's first step: the coordinator adds the
 * group's partition of {@code __consumer_offsets} to the ongoing transaction, as AddPartitionsToTxn would
 * (so the commit or abort marker also reaches it); the offsets follow in TxnOffsetCommit to the group
 * coordinator. Errors as AddPartitionsToTxn's (CONCURRENT_TRANSACTIONS retried by clients, epoch and
 * state errors); PRODUCER_FENCED is answered to v2+ only, INVALID_PRODUCER_EPOCH before, as Kafka does.
 * Authorization, as Kafka 4.4: WRITE on the transactional id (else TRANSACTIONAL_ID_AUTHORIZATION_FAILED),
 * then READ on the group (else GROUP_AUTHORIZATION_FAILED); nothing is added when refused.
 */
public final class AddOffsetsToTxnHandler implements ApiHandler {
    private final TransactionCoordinator transactions;

    public AddOffsetsToTxnHandler(TransactionCoordinator transactions) {
        this.transactions = transactions;
    }

    @Override
    public ApiSpec api() {
        return AddOffsetsToTxnApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        String transactionalId = request.get(Request.TRANSACTIONAL_ID);
        int version = context.version();
        ErrorCode refused = !CoordinatorAccess.allowed(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)
                ? ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
                : !CoordinatorAccess.allowed(context, AclOperation.READ, ResourceType.GROUP, request.get(Request.GROUP_ID))
                ? ErrorCode.GROUP_AUTHORIZATION_FAILED : null;
        if (refused != null) {
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.THROTTLE_TIME_MS, 0)
                    .set(Response.ERROR_CODE, refused.code()));
        }
        return transactions.addOffsets(transactionalId, request.get(Request.PRODUCER_ID), request.get(Request.PRODUCER_EPOCH),
                        request.get(Request.GROUP_ID))
                .handle((error, failure) -> {
                    ErrorCode e = failure != null
                            ? TxnErrors.ofFailure(failure, "AddOffsetsToTxn for transactional id " + transactionalId) : error;
                    return Response.SCHEMA.newStruct()
                            .set(Response.THROTTLE_TIME_MS, 0)
                            .set(Response.ERROR_CODE, TxnErrors.fencedFor(e, version, 2).code());
                });
    }
}
