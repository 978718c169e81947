package io.odradek.coordinator.runtime;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** A {@link Scheduler} on one single-threaded executor (shared by several coordinator partitions). */
final class ExecutorScheduler implements Scheduler {
    private static final System.Logger LOG = System.getLogger(ExecutorScheduler.class.getName());

    private final ScheduledExecutorService executor;

    ExecutorScheduler(ScheduledExecutorService executor) {
        this.executor = executor;
    }

    @Override
    public long nowMs() {
        return System.currentTimeMillis();
    }

    @Override
    public void execute(Runnable task) {
        executor.execute(() -> runLogged(task));
    }

    @Override
    public Timer schedule(long delayMs, Runnable task) {
        ScheduledFuture<?> f = executor.schedule(() -> runLogged(task), Math.max(0, delayMs), TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
    }

    /** An executor keeps a task's exception in a future nobody reads: say it instead. */
    private static void runLogged(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "coordinator task failed", e);
        }
    }
}
