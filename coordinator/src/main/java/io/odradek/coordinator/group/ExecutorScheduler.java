package io.odradek.coordinator.group;

import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.TimeUnit;

/** A {@link Scheduler} on one single-threaded Netty executor (shared by several coordinator partitions). */
final class ExecutorScheduler implements Scheduler {
    private final EventExecutor executor;

    ExecutorScheduler(EventExecutor executor) {
        this.executor = executor;
    }

    @Override
    public long nowMs() {
        return System.currentTimeMillis();
    }

    @Override
    public void execute(Runnable task) {
        executor.execute(task);
    }

    @Override
    public Timer schedule(long delayMs, Runnable task) {
        io.netty.util.concurrent.ScheduledFuture<?> f = executor.schedule(task, Math.max(0, delayMs), TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
    }
}
