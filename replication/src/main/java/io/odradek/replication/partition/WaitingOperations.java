package io.odradek.replication.partition;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The set of parked operations (Kafka's purgatory), keyed by partition. An operation watches one or more
 * keys; {@link #wake} on a key schedules a check of every operation watching it; each has a timeout; and it
 * leaves every watcher list as soon as it ends, however it ends, so nothing lingers until a purge.
 *
 * <p>The Partition wakes its key whenever its log end, high watermark or last stable offset moves. Timeouts
 * run on one daemon timer thread that only hands the expiry to the operation's executor.
 */
public final class WaitingOperations<K> implements AutoCloseable {
    private final ConcurrentHashMap<K, Set<DelayedOperation>> watchers = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor timer;

    public WaitingOperations(String name) {
        timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "odradek-" + name + "-timeout");
            t.setDaemon(true);
            return t;
        });
        // Most operations end before their timeout: cancelled timers must not pile up in the queue.
        timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Parks {@code op} on {@code keys} and starts its timeout, then checks it once: a move between the
     * caller's own check and this call woke nobody.
     */
    public void watch(DelayedOperation op, Collection<K> keys) {
        List<K> watched = List.copyOf(keys);
        for (K key : watched) {
            watchers.compute(key, (k, set) -> {
                Set<DelayedOperation> s = set == null ? ConcurrentHashMap.newKeySet() : set;
                s.add(op);
                return s;
            });
        }
        Future<?> timeout = op.timeoutMs() < 0 ? null
                : timer.schedule(op::expire, op.timeoutMs(), TimeUnit.MILLISECONDS);
        op.attach(() -> unwatch(op, watched), timeout);
        op.wake();
    }

    /** Something moved on {@code key}: every operation watching it re-checks itself on its executor. */
    public void wake(K key) {
        Set<DelayedOperation> waiting = watchers.get(key);
        if (waiting != null) {
            for (DelayedOperation op : waiting) {
                op.wake();
            }
        }
    }

    /** Operations parked on {@code key} now. */
    public int watching(K key) {
        Set<DelayedOperation> waiting = watchers.get(key);
        return waiting == null ? 0 : waiting.size();
    }

    /** Keys with at least one parked operation. */
    public int watchedKeys() {
        return watchers.size();
    }

    private void unwatch(DelayedOperation op, List<K> keys) {
        for (K key : keys) {
            watchers.computeIfPresent(key, (k, set) -> {
                set.remove(op);
                return set.isEmpty() ? null : set;
            });
        }
    }

    /** Stops the timer; operations still parked are cancelled. */
    @Override
    public void close() {
        for (Set<DelayedOperation> ops : watchers.values()) {
            ops.forEach(DelayedOperation::cancel);
        }
        timer.shutdownNow();
    }
}
