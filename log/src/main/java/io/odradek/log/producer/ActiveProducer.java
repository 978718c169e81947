package io.odradek.log.producer;

/**
 * A producer the partition knows, as DescribeProducers reports it: its epoch, last sequence and timestamp,
 * the epoch of the transaction coordinator that last wrote a marker for it (-1 none), and the first offset
 * of its open transaction (-1 none).
 */
public record ActiveProducer(long producerId, short producerEpoch, int lastSequence, long lastTimestamp,
        int coordinatorEpoch, long currentTxnStartOffset) {
}
