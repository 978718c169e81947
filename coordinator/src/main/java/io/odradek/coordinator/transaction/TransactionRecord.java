package io.odradek.coordinator.transaction;

/**
 * One record of {@code __transaction_state}: a transactional id and its state, or null (a tombstone) when
 * the id has expired.
 */
public record TransactionRecord(String transactionalId, TransactionMetadata metadata) {
}
