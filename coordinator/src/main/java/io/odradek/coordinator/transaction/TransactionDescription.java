package io.odradek.coordinator.transaction;

import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.Map;

/**
 * DescribeTransactions' answer for one transactional id.
 *
 * @param state                  Kafka's state name ("Empty", "Ongoing", "PrepareCommit", ...)
 * @param transactionStartTimeMs when the ongoing transaction started; -1 when none has
 * @param topics                 the transaction's partitions by topic, sorted
 */
public record TransactionDescription(String transactionalId, ErrorCode error, String state, int transactionTimeoutMs,
        long transactionStartTimeMs, long producerId, short producerEpoch, Map<String, List<Integer>> topics) {

    /** An id the coordinator cannot describe (NOT_COORDINATOR, TRANSACTIONAL_ID_NOT_FOUND, ...). */
    public static TransactionDescription error(String transactionalId, ErrorCode error) {
        return new TransactionDescription(transactionalId, error, "", 0, -1L, -1L, (short) -1, Map.of());
    }
}
