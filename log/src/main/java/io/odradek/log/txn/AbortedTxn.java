package io.odradek.log.txn;

/**
 * One aborted transaction of a partition, as Kafka's transaction index keeps it: the producer, the first
 * and last offset of its transaction on this partition (the last is the abort marker's offset), and the
 * last stable offset once the abort was written. What read_committed fetches return as
 * aborted_transactions (producer id and first offset).
 */
public record AbortedTxn(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
}
