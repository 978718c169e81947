package io.odradek.coordinator.runtime;

/**
 * The state of one coordinator partition, confined to its runtime thread. It changes in two ways only:
 * by {@link #replay} of its records (at load, and after each committed write whose result asks for it),
 * and by the operations the runtime runs on it.
 */
public interface CoordinatorShard<R> {
    /** Applies one record: every record of the log at load, and every committed record written since. */
    void replay(R record);

    /** The log has been replayed: start timers; the shard serves requests once this returns. */
    default void onLoaded() {
    }

    /** The partition moved away or the broker stops: stop timers, answer parked requests. */
    default void onUnloaded() {
    }
}
