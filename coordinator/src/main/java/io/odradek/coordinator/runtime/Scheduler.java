package io.odradek.coordinator.runtime;

/**
 * Where one coordinator partition's work runs: a single thread, so everything a task touches is
 * confined to it, plus timers on that same thread. Delayed operations (a join waiting for members, a
 * session timeout) are timers, never a sleeping or polling thread. Tests use a manual one.
 */
public interface Scheduler {
    /** Wall-clock time in ms, as stamped into commits and group state. */
    long nowMs();

    /** Runs the task on this scheduler's thread, after the tasks already submitted. */
    void execute(Runnable task);

    /** Runs the task on this scheduler's thread once {@code delayMs} has passed, unless cancelled first. */
    Timer schedule(long delayMs, Runnable task);

    /** A scheduled task. Cancelling it on the scheduler's thread guarantees it will not run. */
    interface Timer {
        void cancel();
    }
}
