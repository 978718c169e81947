package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.coordinator.transaction.TransactionDescription;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeTransactionsApi;
import io.odradek.wire.api.DescribeTransactionsApi.Request;
import io.odradek.wire.api.DescribeTransactionsApi.Response;
import io.odradek.wire.api.DescribeTransactionsApi.Response.TransactionState;
import io.odradek.wire.api.DescribeTransactionsApi.Response.TransactionState.TopicData;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * DescribeTransactions (key 65), version 0 (kafka-transactions.sh describe, Admin.describeTransactions):
 * for each transactional id, in request order, its state name, timeout, start time of the ongoing
 * transaction (-1 if none), producer id and epoch, and its partitions by topic (while it completes, those
 * still waiting for a marker). Per id: TRANSACTIONAL_ID_NOT_FOUND for an id the coordinator does not know,
 * NOT_COORDINATOR when its partition of {@code __transaction_state} is not served here,
 * COORDINATOR_LOAD_IN_PROGRESS while it loads, INVALID_REQUEST for an empty id (as Kafka). Authorization, as
 * Kafka 4.4: DESCRIBE on each transactional id, else TRANSACTIONAL_ID_AUTHORIZATION_FAILED for it (not asked of
 * the coordinator); the topics of a described transaction are only those the client may DESCRIBE.
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
        List<String> asked = ids;
        Set<String> refused = Set.of();
        if (CoordinatorAccess.enabled(context)) {
            refused = new HashSet<>();
            for (String id : ids) {
                if (!CoordinatorAccess.allowed(context, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, id)) {
                    refused.add(id);
                }
            }
            Set<String> out = refused;
            asked = ids.stream().filter(id -> !out.contains(id)).toList();
        }
        Set<String> refusedIds = refused;
        List<String> askedIds = asked;
        CompletableFuture<List<TransactionDescription>> answer = asked.isEmpty()
                ? CompletableFuture.completedFuture(List.of()) : transactions.describeTransactions(asked);
        Predicate<String> mayDescribe = CoordinatorAccess.topics(context, AclOperation.DESCRIBE);
        return answer.handle((descriptions, failure) -> {
            List<TransactionDescription> described = failure != null
                    ? failed(askedIds, TxnErrors.ofFailure(failure, "DescribeTransactions")) : descriptions;
            if (!refusedIds.isEmpty()) {
                described = inRequestOrder(ids, refusedIds, described);
            }
            Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0)
                    .set(Response.TRANSACTION_STATES, new ArrayList<>());
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
                    if (!mayDescribe.test(topic.getKey())) {
                        continue;
                    }
                    state.add(TransactionState.TOPICS)
                            .set(TopicData.TOPIC, topic.getKey())
                            .set(TopicData.PARTITIONS, topic.getValue());
                }
            }
            return response;
        });
    }

    /** The descriptions of the ids asked, with the ids refused in between, in request order. */
    private static List<TransactionDescription> inRequestOrder(List<String> ids, Set<String> refused,
            List<TransactionDescription> described) {
        List<TransactionDescription> out = new ArrayList<>(ids.size());
        Iterator<TransactionDescription> next = described.iterator();
        for (String id : ids) {
            out.add(refused.contains(id) ? TransactionDescription.error(id, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED)
                    : next.next());
        }
        return out;
    }

    private static List<TransactionDescription> failed(List<String> ids, ErrorCode error) {
        return ids.stream().map(id -> TransactionDescription.error(id, error)).toList();
    }
}
