package io.odradek.coordinator.share.partition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A clock that moves only when told; due timers run on the caller's thread during {@link #advance}. */
final class ManualTimers implements ShareTimers {
    private long now;
    private long seq;
    private final List<Scheduled> pending = new ArrayList<>();

    private final class Scheduled implements Timer {
        final long dueMs;
        final long order = seq++;
        final Runnable task;
        boolean cancelled;

        Scheduled(long dueMs, Runnable task) {
            this.dueMs = dueMs;
            this.task = task;
        }

        @Override
        public void cancel() {
            cancelled = true;
            pending.remove(this);
        }
    }

    ManualTimers(long startMs) {
        this.now = startMs;
    }

    @Override
    public long nowMs() {
        return now;
    }

    @Override
    public Timer schedule(long delayMs, Runnable task) {
        Scheduled s = new Scheduled(now + delayMs, task);
        pending.add(s);
        return s;
    }

    void advance(long ms) {
        long target = now + ms;
        while (true) {
            Scheduled next = pending.stream().filter(s -> s.dueMs <= target)
                    .min(Comparator.<Scheduled>comparingLong(s -> s.dueMs).thenComparingLong(s -> s.order)).orElse(null);
            if (next == null) {
                break;
            }
            pending.remove(next);
            now = Math.max(now, next.dueMs);
            next.task.run();
        }
        now = target;
    }

    /** Timers scheduled and neither fired nor cancelled. */
    int pendingCount() {
        return pending.size();
    }
}
