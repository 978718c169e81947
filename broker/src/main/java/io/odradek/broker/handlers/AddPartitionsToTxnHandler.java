package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.replication.metadata.TopicNames;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AddPartitionsToTxnApi;
import io.odradek.wire.api.AddPartitionsToTxnApi.Request;
import io.odradek.wire.api.AddPartitionsToTxnApi.Request.AddPartitionsToTxnTopic;
import io.odradek.wire.api.AddPartitionsToTxnApi.Request.AddPartitionsToTxnTransaction;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnPartitionResult;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnResult;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnTopicResult;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * AddPartitionsToTxn (key 24), versions 0-5.
 *
 * <p>Behaviour / version notes (Kafka's KafkaApis.handleAddPartitionsToTxnRequest):
 * <ul>
 * <li>v0-3 (producers of transaction protocol 1): one transaction in the V3AndBelow fields; the answer is
 *     ResultsByTopicV3AndBelow. v4+ (partition leaders and transaction protocol 2, KIP-890): a batch of
 *     transactions, each answered in ResultsByTransaction in request order, top-level ErrorCode NONE
 *     (Kafka sets it only when the whole request is refused, which without ACLs never happens).</li>
 * <li>A partition of a topic that does not exist (or beyond its partition count) fails the whole
 *     transaction of the request without asking the coordinator: UNKNOWN_TOPIC_OR_PARTITION for it,
 *     OPERATION_NOT_ATTEMPTED for the others.</li>
 * <li>Otherwise the coordinator adds them (an empty transaction starts; CONCURRENT_TRANSACTIONS while
 *     the previous one completes, which clients retry; INVALID_PRODUCER_EPOCH / PRODUCER_FENCED,
 *     INVALID_PRODUCER_ID_MAPPING, INVALID_TXN_STATE as Kafka). v4+ with verify_only only checks that the
 *     partitions are in the ongoing transaction, adding nothing (per partition: NONE, or
 *     TRANSACTION_ABORTABLE / INVALID_TXN_STATE as the coordinator answers). v4+ without it (a partition
 *     leader adding for a transaction version 2 producer, e.g. from another broker of a cluster) records the
 *     transaction as transaction version 2, as Kafka does for requests above v3.</li>
 * <li>PRODUCER_FENCED is answered to v2+ only, INVALID_PRODUCER_EPOCH before, as Kafka does.</li>
 * <li>Authorization, as Kafka 4.4. v0-3 (from producers): WRITE on the transactional id, else every partition
 *     answers TRANSACTIONAL_ID_AUTHORIZATION_FAILED; then WRITE on each topic: the partitions of a topic refused
 *     (with an authorizer, internal topics always are) answer TOPIC_AUTHORIZATION_FAILED, which fails the
 *     transaction's request as an unknown partition does (checked first; the rest OPERATION_NOT_ATTEMPTED).
 *     v4+ (from brokers): CLUSTER_ACTION on the cluster, else a top-level CLUSTER_AUTHORIZATION_FAILED with no
 *     results; no transactional id or topic checks.</li>
 * </ul>
 */
public final class AddPartitionsToTxnHandler implements ApiHandler {
    private final TransactionCoordinator transactions;
    private final TopicService topics;

    public AddPartitionsToTxnHandler(TransactionCoordinator transactions, TopicService topics) {
        this.transactions = transactions;
        this.topics = topics;
    }

    @Override
    public ApiSpec api() {
        return AddPartitionsToTxnApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        int version = context.version();
        if (version < 4) {
            String transactionalId = request.get(Request.V3_AND_BELOW_TRANSACTIONAL_ID);
            if (!CoordinatorAccess.allowed(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)) {
                Map<TopicPartition, ErrorCode> refused = new LinkedHashMap<>();
                partitions(request.get(Request.V3_AND_BELOW_TOPICS))
                        .forEach(tp -> refused.put(tp, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED));
                return CompletableFuture.completedFuture(Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0)
                        .set(Response.RESULTS_BY_TOPIC_V3_AND_BELOW, topicResults(refused)));
            }
            // With an authorizer Kafka never asks about internal topics, so they are refused like any other.
            Predicate<String> mayWrite = null;
            if (CoordinatorAccess.enabled(context)) {
                Predicate<String> writable = CoordinatorAccess.topics(context, AclOperation.WRITE);
                mayWrite = topic -> !TopicNames.isInternal(topic) && writable.test(topic);
            }
            return addToTransaction(mayWrite, transactionalId, request.get(Request.V3_AND_BELOW_PRODUCER_ID),
                    request.get(Request.V3_AND_BELOW_PRODUCER_EPOCH), false,
                    partitions(request.get(Request.V3_AND_BELOW_TOPICS)), version)
                    .thenApply(results -> {
                        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
                        response.set(Response.RESULTS_BY_TOPIC_V3_AND_BELOW, topicResults(results));
                        return response;
                    });
        }
        if (!CoordinatorAccess.allowedOnCluster(context, AclOperation.CLUSTER_ACTION)) {
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.THROTTLE_TIME_MS, 0)
                    .set(Response.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code())
                    .set(Response.RESULTS_BY_TRANSACTION, List.of()));
        }
        List<Struct> transactionsInRequest = request.get(Request.TRANSACTIONS);
        List<CompletableFuture<Struct>> answers = new ArrayList<>(transactionsInRequest.size());
        for (Struct txn : transactionsInRequest) {
            String transactionalId = txn.get(AddPartitionsToTxnTransaction.TRANSACTIONAL_ID);
            answers.add(addToTransaction(null, transactionalId, txn.get(AddPartitionsToTxnTransaction.PRODUCER_ID),
                    txn.get(AddPartitionsToTxnTransaction.PRODUCER_EPOCH), txn.get(AddPartitionsToTxnTransaction.VERIFY_ONLY),
                    partitions(txn.get(AddPartitionsToTxnTransaction.TOPICS)), version)
                    .thenApply(results -> AddPartitionsToTxnResult.SCHEMA.newStruct()
                            .set(AddPartitionsToTxnResult.TRANSACTIONAL_ID, transactionalId)
                            .set(AddPartitionsToTxnResult.TOPIC_RESULTS, topicResults(results))));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done -> {
            Struct response = Response.SCHEMA.newStruct()
                    .set(Response.THROTTLE_TIME_MS, 0)
                    .set(Response.ERROR_CODE, ErrorCode.NONE.code());
            response.set(Response.RESULTS_BY_TRANSACTION, answers.stream().map(CompletableFuture::join).toList());
            return response;
        });
    }

    /**
     * One transaction's partitions: checked against {@code mayWrite} (null: no topic checks, for a broker's
     * v4+ request or without an authorizer) and the topics, then added (or verified) by the coordinator.
     */
    private CompletableFuture<Map<TopicPartition, ErrorCode>> addToTransaction(Predicate<String> mayWrite,
            String transactionalId, long producerId, short producerEpoch, boolean verifyOnly, Set<TopicPartition> partitions,
            int version) {
        Map<TopicPartition, ErrorCode> unknown = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            if (mayWrite != null && !mayWrite.test(tp.topic())) {
                unknown.put(tp, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
                continue;
            }
            Optional<TopicInfo> topic = topics.topic(tp.topic());
            if (topic.isEmpty() || tp.partition() < 0 || tp.partition() >= topic.get().partitions()) {
                unknown.put(tp, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
            }
        }
        if (!unknown.isEmpty()) {
            Map<TopicPartition, ErrorCode> results = new LinkedHashMap<>();
            for (TopicPartition tp : partitions) {
                results.put(tp, unknown.getOrDefault(tp, ErrorCode.OPERATION_NOT_ATTEMPTED));
            }
            return CompletableFuture.completedFuture(results);
        }
        // v4+ without verify_only comes from a partition leader of a transaction version 2 producer: the
        // transaction is recorded as TV2, as Kafka's transactionVersionForAddPartitionsToTxn (version > 3) says.
        CompletableFuture<Map<TopicPartition, ErrorCode>> answer = verifyOnly
                ? transactions.verify(transactionalId, producerId, producerEpoch, partitions, false)
                : version >= 4 ? transactions.verify(transactionalId, producerId, producerEpoch, partitions, true)
                : transactions.addPartitions(transactionalId, producerId, producerEpoch, partitions);
        return answer.handle((byPartition, failure) -> {
            Map<TopicPartition, ErrorCode> results = new LinkedHashMap<>();
            ErrorCode failed = failure == null ? null
                    : TxnErrors.ofFailure(failure, "AddPartitionsToTxn for transactional id " + transactionalId);
            for (TopicPartition tp : partitions) {
                ErrorCode error = failed != null ? failed : byPartition.getOrDefault(tp, ErrorCode.UNKNOWN_SERVER_ERROR);
                results.put(tp, TxnErrors.fencedFor(error, version, 2));
            }
            return results;
        });
    }

    /** The request's partitions in request order, duplicates once. */
    private static Set<TopicPartition> partitions(List<Struct> topicsInRequest) {
        Set<TopicPartition> partitions = new LinkedHashSet<>();
        for (Struct topic : topicsInRequest) {
            String name = topic.get(AddPartitionsToTxnTopic.NAME);
            for (int p : topic.get(AddPartitionsToTxnTopic.PARTITIONS)) {
                partitions.add(new TopicPartition(name, p));
            }
        }
        return partitions;
    }

    /** Results grouped by topic, topics and partitions in request order. */
    private static List<Struct> topicResults(Map<TopicPartition, ErrorCode> results) {
        Map<String, Struct> byTopic = new LinkedHashMap<>();
        results.forEach((tp, error) -> byTopic.computeIfAbsent(tp.topic(), name -> AddPartitionsToTxnTopicResult.SCHEMA.newStruct()
                        .set(AddPartitionsToTxnTopicResult.NAME, name))
                .add(AddPartitionsToTxnTopicResult.RESULTS_BY_PARTITION)
                .set(AddPartitionsToTxnPartitionResult.PARTITION_INDEX, tp.partition())
                .set(AddPartitionsToTxnPartitionResult.PARTITION_ERROR_CODE, error.code()));
        return new ArrayList<>(byTopic.values());
    }
}
