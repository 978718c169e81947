package io.odradek.broker.fetch;

import io.odradek.log.PartitionLog;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Fetches parked until their partitions have data, keyed by partition log. An append wakes the fetches
 * watching that partition; each re-checks itself on its own connection's event loop, so nothing polls
 * and no thread sleeps. A parked fetch also has a timer (its max wait) and unwatches itself when it
 * completes either way. Keyed by the log object itself: an append costs one map lookup and no allocation.
 */
public final class DelayedFetches {
    /** A parked operation. {@link #wake()} is called on the appending thread and must only schedule work. */
    public interface Waiter {
        void wake();
    }

    private final ConcurrentHashMap<PartitionLog, Set<Waiter>> watchers = new ConcurrentHashMap<>();

    public void watch(PartitionLog log, Waiter waiter) {
        watchers.compute(log, (k, set) -> {
            Set<Waiter> s = set == null ? ConcurrentHashMap.newKeySet() : set;
            s.add(waiter);
            return s;
        });
    }

    public void unwatch(PartitionLog log, Waiter waiter) {
        watchers.computeIfPresent(log, (k, set) -> {
            set.remove(waiter);
            return set.isEmpty() ? null : set;
        });
    }

    /** Called after every successful append to {@code log}. */
    public void onAppend(PartitionLog log) {
        Set<Waiter> waiting = watchers.get(log);
        if (waiting != null) {
            for (Waiter waiter : waiting) {
                waiter.wake();
            }
        }
    }

    /** Fetches parked on {@code log} now (a fetch watching several partitions counts once per partition). */
    public int waiting(PartitionLog log) {
        Set<Waiter> waiting = watchers.get(log);
        return waiting == null ? 0 : waiting.size();
    }

    /** Partitions with at least one parked fetch. */
    public int watchedPartitions() {
        return watchers.size();
    }
}
