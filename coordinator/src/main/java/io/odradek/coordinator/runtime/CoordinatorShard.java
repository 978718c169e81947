package io.odradek.coordinator.runtime;

/**
 * The state of one coordinator partition, confined to its runtime thread. It changes in two ways only:
 * by {@link #replay} of its records and transaction markers (at load, and after each committed write whose
 * result asks for it), and by the operations the runtime runs on it.
 */
public interface CoordinatorShard<R> {
    /** Applies one record: every record of the log at load, and every committed record written since. */
    void replay(R record);

    /**
     * Applies one record at its log offset. {@code producerId} is -1 for an ordinary record; otherwise the
     * record belongs to that producer's open transaction (a transactional write) and takes effect only
     * when {@link #replayEndTransaction} commits it. The default, for a shard that writes no transactional
     * records, applies it at once through {@link #replay(Object)}.
     */
    default void replay(long offset, long producerId, short producerEpoch, R record) {
        replay(record);
    }

    /**
     * The producer's transaction ended on this partition (its marker is committed, or read at load): its
     * pending records become effective ({@code commit}) or are dropped.
     */
    default void replayEndTransaction(long producerId, short producerEpoch, boolean commit) {
    }

    /** The log has been replayed: start timers; the shard serves requests once this returns. */
    default void onLoaded() {
    }

    /** The partition moved away or the broker stops: stop timers, answer parked requests. */
    default void onUnloaded() {
    }
}
