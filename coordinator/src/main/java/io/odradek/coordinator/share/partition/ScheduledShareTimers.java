package io.odradek.coordinator.share.partition;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@link ShareTimers} on one daemon thread: the broker's acquisition-lock timers for all share partitions.
 * Cancelled timers leave the queue at once (a lock is cancelled far more often than it fires).
 */
public final class ScheduledShareTimers implements ShareTimers, AutoCloseable {
    private final ScheduledThreadPoolExecutor executor;

    public ScheduledShareTimers() {
        this("odradek-share-timers");
    }

    public ScheduledShareTimers(String threadName) {
        executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public long nowMs() {
        return System.currentTimeMillis();
    }

    @Override
    public Timer schedule(long delayMs, Runnable task) {
        ScheduledFuture<?> f;
        try {
            f = executor.schedule(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    System.getLogger(ScheduledShareTimers.class.getName()).log(System.Logger.Level.ERROR, "share timer task failed", e);
                }
            }, Math.max(0, delayMs), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            return () -> { }; // closed: the broker is stopping, no lock needs to fire
        }
        return () -> f.cancel(false);
    }

    /** Timers waiting to fire (cancelled ones leave at once). */
    int pending() {
        return executor.getQueue().size();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
