package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.transaction.ListTransactionsResult;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ListTransactionsApi;
import io.odradek.wire.api.ListTransactionsApi.Request;
import io.odradek.wire.api.ListTransactionsApi.Response;
import io.odradek.wire.api.ListTransactionsApi.Response.TransactionState;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * ListTransactions (key 66), versions 0-2 (kafka-transactions.sh list, Admin.listTransactions): the
 * transactional ids this broker coordinates, filtered by state names ("Ongoing", "CompleteCommit", ...;
 * names no state has come back in UnknownStateFilters), by producer id, from v1 by DurationFilter (only
 * transactions running longer than that many ms; -1 = all) and from v2 by TransactionalIdPattern (a
 * regular expression; null or empty = all, an invalid one INVALID_REGULAR_EXPRESSION, KIP-1152). Empty
 * filters match everything. COORDINATOR_LOAD_IN_PROGRESS while a partition of {@code __transaction_state}
 * loads; an empty list before that topic exists. Authorization, as Kafka 4.4: only the transactional ids the
 * client may DESCRIBE are listed (never an error).
 */
public final class ListTransactionsHandler implements ApiHandler {
    private final TransactionCoordinator transactions;

    public ListTransactionsHandler(TransactionCoordinator transactions) {
        this.transactions = transactions;
    }

    @Override
    public ApiSpec api() {
        return ListTransactionsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        Set<String> states = new LinkedHashSet<>(request.get(Request.STATE_FILTERS));
        Set<Long> producerIds = new LinkedHashSet<>(request.get(Request.PRODUCER_ID_FILTERS));
        return transactions.listTransactions(states, producerIds, request.get(Request.DURATION_FILTER),
                        request.get(Request.TRANSACTIONAL_ID_PATTERN))
                .handle((result, failure) -> {
                    ListTransactionsResult r = failure != null
                            ? ListTransactionsResult.error(TxnErrors.ofFailure(failure, "ListTransactions")) : result;
                    Struct response = Response.SCHEMA.newStruct()
                            .set(Response.THROTTLE_TIME_MS, 0)
                            .set(Response.ERROR_CODE, r.error().code())
                            .set(Response.UNKNOWN_STATE_FILTERS, r.unknownStateFilters());
                    response.set(Response.TRANSACTION_STATES, new ArrayList<>());
                    for (ListTransactionsResult.Listing listing : r.transactions()) {
                        if (!CoordinatorAccess.allowed(context, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID,
                                listing.transactionalId())) {
                            continue;
                        }
                        response.add(Response.TRANSACTION_STATES)
                                .set(TransactionState.TRANSACTIONAL_ID, listing.transactionalId())
                                .set(TransactionState.PRODUCER_ID, listing.producerId())
                                .set(TransactionState.TRANSACTION_STATE, listing.state());
                    }
                    return response;
                });
    }
}
