package io.odradek.coordinator.transaction;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.wire.ErrorCode;
import java.util.HashSet;
import java.util.Set;

/**
 * One transactional id's state as {@code __transaction_state} stores it (Kafka's TransactionMetadata),
 * immutable: each transition returns the next state, which is written as a record and becomes the shard's
 * state only when that record is replayed. The transitions follow Kafka 4.4's own, field for field; as in
 * Kafka every transition records the producer id it leaves as {@code prevProducerId}.
 *
 * @param nextProducerId            the producer id a transaction protocol v2 transaction moves to when it
 *                                  completes (its epoch ran out); -1 otherwise
 * @param lastProducerEpoch         the epoch before the last bump, to recognise a retried InitProducerId or
 *                                  EndTxn; kept in memory only, as in Kafka (-1 after a load)
 * @param partitions                the ongoing transaction's partitions (empty unless Ongoing or Prepare*)
 * @param startTimestampMs          when the ongoing transaction started; -1 when there is none
 * @param clientTransactionVersion  the transaction protocol of the transaction (0: KIP-98, 2: KIP-890)
 */
public record TransactionMetadata(long producerId, long prevProducerId, long nextProducerId, short producerEpoch,
        short lastProducerEpoch, int timeoutMs, TransactionState state, Set<TopicPartition> partitions,
        long startTimestampMs, long lastUpdateTimestampMs, short clientTransactionVersion) {

    static final long NO_PRODUCER_ID = -1L;
    static final short NO_PRODUCER_EPOCH = -1;
    /** Transaction protocol v1 (KIP-98) and v2 (KIP-890: the epoch is bumped by every EndTxn). */
    static final short TV_0 = 0;
    static final short TV_2 = 2;

    public TransactionMetadata {
        partitions = Set.copyOf(partitions);
    }

    /** Kafka's rule: from {@code Short.MAX_VALUE - 1} on, a producer id gets no further epoch. */
    static boolean isEpochExhausted(short epoch) {
        return epoch >= Short.MAX_VALUE - 1;
    }

    static boolean supportsEpochBump(short transactionVersion) {
        return transactionVersion >= TV_2;
    }

    /** A transactional id seen for the first time: its producer id, no epoch yet (the first InitProducerId makes it 0). */
    static TransactionMetadata fresh(long producerId, int timeoutMs, long nowMs) {
        return new TransactionMetadata(producerId, NO_PRODUCER_ID, NO_PRODUCER_ID, NO_PRODUCER_EPOCH, NO_PRODUCER_EPOCH,
                timeoutMs, TransactionState.EMPTY, Set.of(), -1L, nowMs, TV_0);
    }

    boolean isEpochExhausted() {
        return isEpochExhausted(producerEpoch);
    }

    /** A transaction is open or being completed: no new producer id, no expiry. */
    boolean hasPendingTransaction() {
        return state == TransactionState.ONGOING || state == TransactionState.PREPARE_COMMIT
                || state == TransactionState.PREPARE_ABORT;
    }

    /** The next state, recording the producer id this one leaves (Kafka's transit metadata does). */
    private TransactionMetadata next(long newProducerId, long newNextProducerId, short epoch, short lastEpoch, int timeout,
            TransactionState newState, Set<TopicPartition> newPartitions, long start, long lastUpdate, short tv) {
        return new TransactionMetadata(newProducerId, producerId, newNextProducerId, epoch, lastEpoch, timeout, newState,
                newPartitions, start, lastUpdate, tv);
    }

    /** The epoch a fence moves to: one more, unless already at the maximum (which only a bug reaches). */
    short fencedEpoch() {
        return producerEpoch == Short.MAX_VALUE ? producerEpoch : (short) (producerEpoch + 1);
    }

    /** Transaction protocol v1's fence: the epoch is bumped in memory before the abort is prepared. */
    TransactionMetadata withFencedEpoch(short epoch) {
        return new TransactionMetadata(producerId, prevProducerId, nextProducerId, epoch, NO_PRODUCER_EPOCH, timeoutMs,
                state, partitions, startTimestampMs, lastUpdateTimestampMs, clientTransactionVersion);
    }

    /**
     * InitProducerId on an idle id: the epoch goes up by one (from none to 0 for a new id). With an expected
     * epoch (KIP-360): the current epoch bumps; the previous one is a retry of a bump already made (answered
     * with the same epoch); anything else is fenced.
     *
     * @param expectedEpoch the producer's epoch, or null when it gave none
     * @throws TransactionException PRODUCER_FENCED
     */
    TransactionMetadata incrementEpoch(int newTimeoutMs, Short expectedEpoch, long nowMs) {
        if (isEpochExhausted()) {
            throw new IllegalStateException("cannot bump the exhausted epoch " + producerEpoch + " of producer " + producerId);
        }
        short epoch;
        short lastEpoch;
        if (expectedEpoch == null) {
            epoch = (short) (producerEpoch + 1);
            lastEpoch = NO_PRODUCER_EPOCH;
        } else if (producerEpoch == NO_PRODUCER_EPOCH || expectedEpoch == producerEpoch) {
            epoch = (short) (producerEpoch + 1);
            lastEpoch = producerEpoch;
        } else if (expectedEpoch == lastProducerEpoch) {
            epoch = producerEpoch;
            lastEpoch = lastProducerEpoch;
        } else {
            throw new TransactionException(ErrorCode.PRODUCER_FENCED, "expected epoch " + expectedEpoch
                    + " is neither the current " + producerEpoch + " nor the previous " + lastProducerEpoch);
        }
        return next(producerId, nextProducerId, epoch, lastEpoch, newTimeoutMs, TransactionState.EMPTY, Set.of(), -1L,
                nowMs, clientTransactionVersion);
    }

    /** InitProducerId on an idle id whose epoch ran out: a new producer id at epoch 0. */
    TransactionMetadata rotateProducerId(long newProducerId, int newTimeoutMs, long nowMs, boolean recordLastEpoch) {
        if (hasPendingTransaction()) {
            throw new IllegalStateException("cannot rotate producer ids while a transaction is still pending");
        }
        return next(newProducerId, nextProducerId, (short) 0, recordLastEpoch ? producerEpoch : NO_PRODUCER_EPOCH,
                newTimeoutMs, TransactionState.EMPTY, Set.of(), -1L, nowMs, clientTransactionVersion);
    }

    /** AddPartitionsToTxn (or the v2 implicit add): Ongoing, with these partitions too; a new transaction starts now. */
    TransactionMetadata addPartitions(Set<TopicPartition> added, long nowMs, short transactionVersion) {
        long start = state == TransactionState.EMPTY || state == TransactionState.COMPLETE_ABORT
                || state == TransactionState.COMPLETE_COMMIT ? nowMs : startTimestampMs;
        Set<TopicPartition> all = new HashSet<>(partitions);
        all.addAll(added);
        return next(producerId, nextProducerId, producerEpoch, lastProducerEpoch, timeoutMs, TransactionState.ONGOING,
                all, start, nowMs, transactionVersion);
    }

    /**
     * EndTxn: PrepareCommit or PrepareAbort. Under protocol v2 the epoch goes up by one (not past the maximum on
     * an abort), and {@code newNextProducerId} is where the producer moves once it completes.
     *
     * @param noPartitionAdded an abort with no transaction open (v2): the transaction "starts" now
     */
    TransactionMetadata prepareEnd(TransactionState nextState, short transactionVersion, long newNextProducerId,
            long nowMs, boolean noPartitionAdded) {
        short epoch = producerEpoch;
        short lastEpoch = lastProducerEpoch;
        if (supportsEpochBump(transactionVersion)) {
            if (!(producerEpoch == Short.MAX_VALUE && nextState == TransactionState.PREPARE_ABORT)) {
                epoch = (short) (producerEpoch + 1);
            }
            lastEpoch = producerEpoch;
        }
        return next(producerId, newNextProducerId, epoch, lastEpoch, timeoutMs, nextState, partitions,
                noPartitionAdded ? nowMs : startTimestampMs, nowMs, transactionVersion);
    }

    /** The markers are written: CompleteCommit or CompleteAbort; a v2 producer whose epoch ran out moves to its next id. */
    TransactionMetadata complete(long nowMs) {
        TransactionState done = state == TransactionState.PREPARE_COMMIT ? TransactionState.COMPLETE_COMMIT
                : TransactionState.COMPLETE_ABORT;
        boolean rotate = supportsEpochBump(clientTransactionVersion) && nextProducerId != NO_PRODUCER_ID;
        return next(rotate ? nextProducerId : producerId, NO_PRODUCER_ID, rotate ? 0 : producerEpoch, lastProducerEpoch,
                timeoutMs, done, Set.of(), startTimestampMs, nowMs, clientTransactionVersion);
    }
}
