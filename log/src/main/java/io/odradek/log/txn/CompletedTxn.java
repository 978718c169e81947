package io.odradek.log.txn;

/**
 * A transaction a marker just ended on this partition (Kafka's CompletedTxn): its producer, its first
 * offset here, the marker's offset, and whether it aborted (only aborted ones go into the transaction index).
 */
public record CompletedTxn(long producerId, long firstOffset, long lastOffset, boolean aborted) {
}
