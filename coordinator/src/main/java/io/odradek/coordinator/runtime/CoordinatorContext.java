package io.odradek.coordinator.runtime;

import java.util.function.Supplier;

/**
 * What the runtime offers a shard: its partition, the clock, and writes that the shard starts itself
 * (timers, follow-ups). Call only on the shard's thread.
 */
public interface CoordinatorContext<R> {
    int partition();

    long nowMs();

    /**
     * After {@code delayMs}, runs {@code op} as a write operation (in order with the others, its records
     * appended and its callback run as for any write). Cancelling it on the shard's thread guarantees
     * it will not run; unloading cancels every timer.
     */
    Scheduler.Timer schedule(long delayMs, String name, Supplier<CoordinatorResult<Void, R>> op);

    /** Runs {@code op} as a write operation after the ones already waiting (e.g. from an append callback). */
    void scheduleWrite(String name, Supplier<CoordinatorResult<Void, R>> op);
}
