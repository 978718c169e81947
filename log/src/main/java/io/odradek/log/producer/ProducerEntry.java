package io.odradek.log.producer;

import java.util.ArrayDeque;
import java.util.List;

/**
 * One producer id's epoch and its last few batches (Kafka keeps 5: a client has at most 5 in flight), the
 * first offset of its open transaction on this partition and the coordinator epoch of its last marker
 * (Kafka's ProducerStateEntry). An entry in the manager's map is never changed once published: appends
 * stage changes on a {@link #copy()}, so readers on other threads may look at it without the log lock.
 */
public final class ProducerEntry {
    public static final int BATCHES_TO_RETAIN = 5;

    private final long producerId;
    private short epoch;
    private final ArrayDeque<BatchMetadata> batches = new ArrayDeque<>(BATCHES_TO_RETAIN);
    /** Max timestamp of the producer's last batch (Kafka's lastTimestamp): what expiry measures from. */
    private long lastTimestamp = -1L;
    /** First offset of the open transaction, -1 when none. */
    private long currentTxnFirstOffset = -1L;
    /** Coordinator epoch of the last transaction marker, -1 before any. */
    private int coordinatorEpoch = -1;

    public ProducerEntry(long producerId, short epoch) {
        this.producerId = producerId;
        this.epoch = epoch;
    }

    public long producerId() {
        return producerId;
    }

    public short epoch() {
        return epoch;
    }

    public List<BatchMetadata> batches() {
        return List.copyOf(batches);
    }

    /** Last sequence appended in this epoch, or -1 when none. */
    public int lastSeq() {
        BatchMetadata last = batches.peekLast();
        return last == null ? -1 : last.lastSeq();
    }

    public long lastTimestamp() {
        return lastTimestamp;
    }

    /** A batch of this producer was appended (or replayed) with this max timestamp. */
    void touch(long timestamp) {
        lastTimestamp = timestamp;
    }

    public long currentTxnFirstOffset() {
        return currentTxnFirstOffset;
    }

    public boolean hasOpenTransaction() {
        return currentTxnFirstOffset >= 0;
    }

    public int coordinatorEpoch() {
        return coordinatorEpoch;
    }

    void beginTransaction(long firstOffset) {
        currentTxnFirstOffset = firstOffset;
    }

    /** A marker ended the transaction (if any): Kafka's ProducerStateEntry.update for a marker. */
    void endTransaction(int markerCoordinatorEpoch) {
        currentTxnFirstOffset = -1L;
        coordinatorEpoch = markerCoordinatorEpoch;
    }

    /** Restores the transaction fields from a snapshot. */
    void restoreTransaction(long txnFirstOffset, int lastCoordinatorEpoch) {
        currentTxnFirstOffset = txnFirstOffset;
        coordinatorEpoch = lastCoordinatorEpoch;
    }

    public BatchMetadata lastBatch() {
        return batches.peekLast();
    }

    BatchMetadata findDuplicate(short batchEpoch, int firstSeq, int lastSeq) {
        if (batchEpoch != epoch) {
            return null;
        }
        for (BatchMetadata b : batches) {
            if (b.firstSeq() == firstSeq && b.lastSeq() == lastSeq) {
                return b;
            }
        }
        return null;
    }

    /** A new epoch forgets the old epoch's batches: sequences restart. */
    void bumpEpoch(short newEpoch) {
        epoch = newEpoch;
        batches.clear();
    }

    void addBatch(BatchMetadata batch) {
        if (batches.size() == BATCHES_TO_RETAIN) {
            batches.removeFirst();
        }
        batches.addLast(batch);
        lastTimestamp = batch.timestamp();
    }

    ProducerEntry copy() {
        ProducerEntry c = new ProducerEntry(producerId, epoch);
        c.batches.addAll(batches);
        c.lastTimestamp = lastTimestamp;
        c.currentTxnFirstOffset = currentTxnFirstOffset;
        c.coordinatorEpoch = coordinatorEpoch;
        return c;
    }
}
