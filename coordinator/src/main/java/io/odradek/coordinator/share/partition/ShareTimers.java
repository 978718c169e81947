package io.odradek.coordinator.share.partition;

/** The clock and timers share partitions use for acquisition locks; a manual one in tests. */
public interface ShareTimers {
    /** A scheduled task that may be cancelled. */
    interface Timer {
        void cancel();
    }

    long nowMs();

    /** Runs {@code task} once after {@code delayMs}, on a timer thread (never on the caller's). */
    Timer schedule(long delayMs, Runnable task);
}
