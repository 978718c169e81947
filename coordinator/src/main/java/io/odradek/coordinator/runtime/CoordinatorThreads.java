package io.odradek.coordinator.runtime;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A few single-threaded executors for coordinator partitions: partition {@code p} always runs on thread
 * {@code p % threads}, so a partition's work is serialised while partitions spread over the threads.
 */
public final class CoordinatorThreads implements AutoCloseable {
    private final ScheduledThreadPoolExecutor[] executors;

    /** {@code threads} threads named {@code name-N}, daemons (they never keep the JVM alive). */
    public CoordinatorThreads(String name, int threads) {
        executors = new ScheduledThreadPoolExecutor[Math.max(1, threads)];
        for (int i = 0; i < executors.length; i++) {
            String threadName = name + "-" + i;
            ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
            e.setRemoveOnCancelPolicy(true); // a cancelled session timer must not linger until its deadline
            executors[i] = e;
        }
    }

    /** One thread per core, at most 4. */
    public static CoordinatorThreads perCore(String name) {
        return new CoordinatorThreads(name, Math.min(4, Runtime.getRuntime().availableProcessors()));
    }

    public Scheduler scheduler(int partition) {
        return new ExecutorScheduler(executors[Math.floorMod(partition, executors.length)]);
    }

    /** Stops the threads; tasks not yet run are dropped. */
    @Override
    public void close() {
        for (ScheduledThreadPoolExecutor e : executors) {
            e.shutdownNow();
        }
        for (ScheduledThreadPoolExecutor e : executors) {
            try {
                e.awaitTermination(1, TimeUnit.SECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
