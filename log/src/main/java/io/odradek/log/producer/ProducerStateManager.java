package io.odradek.log.producer;

import io.odradek.log.LogAppendException;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.RecordBatchHeader;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Idempotent-producer state of one partition, like Kafka's ProducerStateManager: per producer id the
 * current epoch and the last {@value ProducerEntry#BATCHES_TO_RETAIN} batches. Used under the log's append
 * lock only.
 */
public final class ProducerStateManager {
    private final Map<Long, ProducerEntry> producers = new HashMap<>();

    /** Starts validating one append; nothing changes until {@link ProducerAppend#commit()}. */
    public ProducerAppend begin() {
        return new ProducerAppend();
    }

    public ProducerEntry entry(long producerId) {
        return producers.get(producerId);
    }

    public Map<Long, ProducerEntry> producers() {
        return Collections.unmodifiableMap(producers);
    }

    void put(ProducerEntry entry) {
        producers.put(entry.producerId(), entry);
    }

    /**
     * Removes the producers whose last batch timestamp is {@code expirationMs} or more before {@code nowMs}
     * (Kafka's ProducerStateManager.removeExpiredProducers; no transactions yet, so none is kept for an open
     * one). A producer coming back afterwards is accepted at any sequence, as a new one. Returns how many went.
     */
    public int removeExpiredProducers(long nowMs, long expirationMs) {
        int before = producers.size();
        producers.values().removeIf(e -> nowMs - e.lastTimestamp() >= expirationMs);
        return before - producers.size();
    }

    public void clear() {
        producers.clear();
    }

    /** Applies a batch read back from the log (recovery): no validation, the log is the truth. */
    public void replay(RecordBatchHeader h) {
        long pid = h.producerId();
        if (pid < 0) {
            return;
        }
        ProducerEntry e = producers.computeIfAbsent(pid, id -> new ProducerEntry(id, h.producerEpoch()));
        if (h.producerEpoch() != e.epoch()) {
            e.bumpEpoch(h.producerEpoch());
        }
        e.touch(h.maxTimestamp());
        if (h.baseSequence() != RecordBatchHeader.NO_SEQUENCE && !h.isControlBatch()) {
            e.addBatch(new BatchMetadata(h.baseSequence(), h.lastSequence(), h.baseOffset(), h.lastOffset(),
                    h.maxTimestamp()));
        }
    }

    static boolean inSequence(int lastSeq, int nextSeq) {
        return nextSeq == lastSeq + 1L || (nextSeq == 0 && lastSeq == Integer.MAX_VALUE);
    }

    /** The producer-state effect of one append, staged on copies so a rejected append leaves no trace. */
    public final class ProducerAppend {
        private final Map<Long, ProducerEntry> staged = new HashMap<>();

        private ProducerAppend() {
        }

        /**
         * Checks one batch that will get offsets [assignedBase, assignedBase + lastOffsetDelta]. Returns the
         * original batch when this is a retry of one already in the log, else null; throws when the epoch
         * or sequence is wrong.
         */
        public BatchMetadata validate(RecordBatchHeader h, long assignedBase) {
            long pid = h.producerId();
            if (pid < 0) {
                return null;
            }
            short epoch = h.producerEpoch();
            int firstSeq = h.baseSequence();
            ProducerEntry e = staged.get(pid);
            if (e == null) {
                ProducerEntry current = producers.get(pid);
                if (current == null) {
                    // Kafka accepts any first sequence from a producer id it has not seen (e.g. after expiry).
                    e = new ProducerEntry(pid, epoch);
                } else {
                    e = current.copy();
                }
                staged.put(pid, e);
            }
            boolean known = producers.containsKey(pid);
            if (epoch < e.epoch()) {
                throw new LogAppendException(ErrorCode.INVALID_PRODUCER_EPOCH, "producer " + pid + " epoch " + epoch
                        + " is older than the current epoch " + e.epoch());
            }
            if (h.isControlBatch() || firstSeq == RecordBatchHeader.NO_SEQUENCE) {
                if (epoch > e.epoch()) {
                    e.bumpEpoch(epoch);
                }
                e.touch(h.maxTimestamp());
                return null;
            }
            if (epoch > e.epoch()) {
                if (firstSeq != 0 && known) {
                    throw new LogAppendException(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, "producer " + pid
                            + " started epoch " + epoch + " at sequence " + firstSeq + " instead of 0");
                }
                e.bumpEpoch(epoch);
            } else {
                BatchMetadata duplicate = e.findDuplicate(epoch, firstSeq, h.lastSequence());
                if (duplicate != null) {
                    return duplicate;
                }
                int lastSeq = e.lastSeq();
                boolean ok = lastSeq == -1 ? (firstSeq == 0 || !known)
                        : inSequence(lastSeq, firstSeq);
                if (!ok) {
                    throw new LogAppendException(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, "producer " + pid
                            + " epoch " + epoch + ": sequence " + firstSeq + " does not follow " + lastSeq);
                }
            }
            int delta = h.lastOffsetDelta();
            e.addBatch(new BatchMetadata(firstSeq, h.lastSequence(), assignedBase, assignedBase + delta,
                    h.maxTimestamp()));
            return null;
        }

        /** Makes the staged state current; call once the batches are in the file. */
        public void commit() {
            producers.putAll(staged);
        }
    }
}
