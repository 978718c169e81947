package io.odradek.coordinator.transaction;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.wire.ErrorCode;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What a partition leader asks the transaction coordinator before it appends a transactional batch
 * (KIP-890): is this partition part of the producer's ongoing transaction (transaction protocol v1:
 * verify only), or add it now (v2: Produce v12+ adds partitions implicitly).
 */
public interface TransactionVerifier {
    /**
     * Completes with an error per partition: NONE when the partition is (now) in the producer's ongoing
     * transaction; INVALID_TXN_STATE, PRODUCER_FENCED / INVALID_PRODUCER_EPOCH, CONCURRENT_TRANSACTIONS,
     * NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS ... as Kafka's AddPartitionsToTxn answers otherwise.
     */
    CompletableFuture<Map<TopicPartition, ErrorCode>> verify(String transactionalId, long producerId,
            short producerEpoch, Collection<TopicPartition> partitions, boolean addIfMissing);
}
