package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.coordinator.transaction.TransactionDescription;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeTransactionsApi;
import io.odradek.wire.api.DescribeTransactionsApi.Request;
import io.odradek.wire.api.DescribeTransactionsApi.Response;
import io.odradek.wire.api.DescribeTransactionsApi.Response.TransactionState;
import io.odradek.wire.api.DescribeTransactionsApi.Response.TransactionState.TopicData;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeTransactions (key 65), version 0 (kafka-transactions.sh describe, Admin.describeTransactions):
 * for each transactional id, in request order, its state name, timeout, start time of the ongoing
 * transaction (-1 if none), producer id and epoch, and its partitions by topic (while it completes, those
 * still waiting for a marker). Per id: TRANSACTIONAL_ID_NOT_FOUND for an id the coordinator does not know,
 * NOT_COORDINATOR when its partition of {@code __transaction_state} is not served here,
 * COORDINATOR_LOAD_IN_PROGRESS while it loads, INVALID_REQUEST for an empty id (as Kafka).
 */
public final class DescribeTransactionsHandler implements ApiHandler {
    private final TransactionCoordinator transactions;

    public DescribeTransactionsHandler(TransactionCoordinator transactions) {
        this.transactions = transactions;
    }

    @Override
    public ApiSpec api() {
        return DescribeTransactionsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        List<String> ids = request.get(Request.TRANSACTIONAL_IDS);
        return transactions.describeTransactions(ids).handle((descriptions, failure) -> {
            List<TransactionDescription> described = failure != null
                    ? failed(ids, TxnErrors.ofFailure(failure, "DescribeTransactions")) : descriptions;
            Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
            for (TransactionDescription d : described) {
                Struct state = response.add(Response.TRANSACTION_STATES)
                        .set(TransactionState.ERROR_CODE, d.error().code())
                        .set(TransactionState.TRANSACTIONAL_ID, d.transactionalId())
                        .set(TransactionState.TRANSACTION_STATE, d.state())
                        .set(TransactionState.TRANSACTION_TIMEOUT_MS, d.transactionTimeoutMs())
                        .set(TransactionState.TRANSACTION_START_TIME_MS, d.transactionStartTimeMs())
                        .set(TransactionState.PRODUCER_ID, d.producerId())
                        .set(TransactionState.PRODUCER_EPOCH, d.producerEpoch());
                for (Map.Entry<String, List<Integer>> topic : d.topics().entrySet()) {
                    state.add(TransactionState.TOPICS)
                            .set(TopicData.TOPIC, topic.getKey())
                            .set(TopicData.PARTITIONS, topic.getValue());
                }
            }
            return response;
        });
    }

    private static List<TransactionDescription> failed(List<String> ids, ErrorCode error) {
        return ids.stream().map(id -> TransactionDescription.error(id, error)).toList();
    }
}
