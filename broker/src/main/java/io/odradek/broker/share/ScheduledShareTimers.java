package io.odradek.broker.share;

import io.odradek.coordinator.share.partition.ShareTimers;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The acquisition-lock timers of this broker's share partitions: one daemon thread (Kafka's
 * share-group-lock-timeout timer); a lock that expires only hands its work to the share partition.
 */
public final class ScheduledShareTimers implements ShareTimers, AutoCloseable {
    private final ScheduledThreadPoolExecutor executor;

    public ScheduledShareTimers() {
        executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "odradek-share-lock-timeout");
            t.setDaemon(true);
            return t;
        });
        // Most locks end by an acknowledgement: cancelled timers must not pile up in the queue.
        executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public long nowMs() {
        return System.currentTimeMillis();
    }

    @Override
    public Timer schedule(long delayMs, Runnable task) {
        ScheduledFuture<?> f = executor.schedule(task, Math.max(0, delayMs), TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
