package io.odradek.broker.txn;

import io.odradek.broker.cluster.ClusterView;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.coordinator.transaction.TransactionVerifier;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AddPartitionsToTxnApi;
import io.odradek.wire.api.AddPartitionsToTxnApi.Request.AddPartitionsToTxnTopic;
import io.odradek.wire.api.AddPartitionsToTxnApi.Request.AddPartitionsToTxnTransaction;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnPartitionResult;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnResult;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnTopicResult;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A partition leader's transaction verification in a cluster (Kafka's AddPartitionsToTxnManager): the
 * transactional id's coordinator is the leader of its {@code __transaction_state} partition in the newest
 * metadata image. Led here: the local {@link TransactionCoordinator} answers. Elsewhere: AddPartitionsToTxn
 * to that broker, v4 with VerifyOnly for transaction protocol 1 producers (verification), v5 adding the
 * partitions for protocol 2 producers (Produce v12+, TxnOffsetCommit v5+).
 *
 * <p>Answers per partition: the coordinator's (a top-level error of the response for every partition);
 * COORDINATOR_NOT_AVAILABLE when {@code __transaction_state} or its partition has no leader in the image;
 * NETWORK_EXCEPTION when the coordinator cannot be reached (Kafka's answer on a disconnect). The produce path
 * turns those into NOT_ENOUGH_REPLICAS, which producers retry.
 */
public final class ClusterTransactionVerifier implements TransactionVerifier {
    static final short VERIFY_VERSION = 4;
    static final short ADD_VERSION = 5;

    private final ClusterView cluster;
    private final TransactionCoordinator local;
    private final InterBrokerSender sender;

    public ClusterTransactionVerifier(ClusterView cluster, TransactionCoordinator local, InterBrokerSender sender) {
        this.cluster = cluster;
        this.local = local;
        this.sender = sender;
    }

    @Override
    public CompletableFuture<Map<TopicPartition, ErrorCode>> verify(String transactionalId, long producerId,
            short producerEpoch, Collection<TopicPartition> partitions, boolean addIfMissing) {
        if (transactionalId == null || transactionalId.isEmpty()) {
            return local.verify(transactionalId, producerId, producerEpoch, partitions, addIfMissing); // INVALID_REQUEST
        }
        PartitionRegistration coordinatorPartition = cluster.image()
                .partition(TransactionStateTopic.NAME, local.partitionFor(transactionalId)).orElse(null);
        if (coordinatorPartition == null || !coordinatorPartition.hasLeader()) {
            return CompletableFuture.completedFuture(all(partitions, ErrorCode.COORDINATOR_NOT_AVAILABLE));
        }
        if (coordinatorPartition.leader() == cluster.localBrokerId()) {
            return local.verify(transactionalId, producerId, producerEpoch, partitions, addIfMissing);
        }
        short version = addIfMissing ? ADD_VERSION : VERIFY_VERSION;
        CompletableFuture<Struct> response;
        try {
            response = sender.send(coordinatorPartition.leader(), AddPartitionsToTxnApi.SPEC, version,
                    request(transactionalId, producerId, producerEpoch, partitions, !addIfMissing));
        } catch (RuntimeException e) {
            response = CompletableFuture.failedFuture(e);
        }
        return response.handle((body, failure) -> failure != null
                ? all(partitions, ErrorCode.NETWORK_EXCEPTION)
                : errors(body, transactionalId, partitions));
    }

    /** One transaction of a v4+ request, its partitions grouped by topic. */
    static Struct request(String transactionalId, long producerId, short producerEpoch,
            Collection<TopicPartition> partitions, boolean verifyOnly) {
        Map<String, List<Integer>> byTopic = new LinkedHashMap<>();
        partitions.forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition()));
        Struct request = AddPartitionsToTxnApi.Request.SCHEMA.newStruct();
        Struct txn = request.add(AddPartitionsToTxnApi.Request.TRANSACTIONS)
                .set(AddPartitionsToTxnTransaction.TRANSACTIONAL_ID, transactionalId)
                .set(AddPartitionsToTxnTransaction.PRODUCER_ID, producerId)
                .set(AddPartitionsToTxnTransaction.PRODUCER_EPOCH, producerEpoch)
                .set(AddPartitionsToTxnTransaction.VERIFY_ONLY, verifyOnly);
        byTopic.forEach((topic, indexes) -> txn.add(AddPartitionsToTxnTransaction.TOPICS)
                .set(AddPartitionsToTxnTopic.NAME, topic)
                .set(AddPartitionsToTxnTopic.PARTITIONS, indexes));
        return request;
    }

    private static Map<TopicPartition, ErrorCode> errors(Struct response, String transactionalId,
            Collection<TopicPartition> partitions) {
        ErrorCode topLevel = ErrorCode.forCode(response.get(AddPartitionsToTxnApi.Response.ERROR_CODE));
        if (topLevel != ErrorCode.NONE) {
            return all(partitions, topLevel);
        }
        Map<TopicPartition, ErrorCode> byPartition = new HashMap<>();
        for (Struct txn : response.get(AddPartitionsToTxnApi.Response.RESULTS_BY_TRANSACTION)) {
            if (!transactionalId.equals(txn.get(AddPartitionsToTxnResult.TRANSACTIONAL_ID))) {
                continue;
            }
            for (Struct topic : txn.get(AddPartitionsToTxnResult.TOPIC_RESULTS)) {
                String name = topic.get(AddPartitionsToTxnTopicResult.NAME);
                for (Struct p : topic.get(AddPartitionsToTxnTopicResult.RESULTS_BY_PARTITION)) {
                    byPartition.put(new TopicPartition(name, p.get(AddPartitionsToTxnPartitionResult.PARTITION_INDEX)),
                            ErrorCode.forCode(p.get(AddPartitionsToTxnPartitionResult.PARTITION_ERROR_CODE)));
                }
            }
        }
        Map<TopicPartition, ErrorCode> out = new LinkedHashMap<>();
        partitions.forEach(tp -> out.put(tp, byPartition.getOrDefault(tp, ErrorCode.UNKNOWN_SERVER_ERROR)));
        return out;
    }

    private static Map<TopicPartition, ErrorCode> all(Collection<TopicPartition> partitions, ErrorCode error) {
        Map<TopicPartition, ErrorCode> out = new LinkedHashMap<>();
        partitions.forEach(tp -> out.put(tp, error));
        return out;
    }
}
