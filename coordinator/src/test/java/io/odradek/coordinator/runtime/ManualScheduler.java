package io.odradek.coordinator.runtime;

import java.util.ArrayDeque;
import java.util.PriorityQueue;

/**
 * A {@link Scheduler} on the test's own thread with a clock that moves only when told: tasks run at
 * once (or, while {@link #hold held}, when {@link #release released}), timers when {@link #advance} passes
 * their deadline. Makes every timeout test exact and instant.
 */
public final class ManualScheduler implements Scheduler {
    private final PriorityQueue<Task> timers = new PriorityQueue<>();
    private long now = 1_700_000_000_000L;
    private long seq;
    private ArrayDeque<Runnable> held;

    private final class Task implements Comparable<Task>, Timer {
        final long due;
        final long order = seq++;
        final Runnable action;
        boolean cancelled;

        Task(long due, Runnable action) {
            this.due = due;
            this.action = action;
        }

        @Override
        public int compareTo(Task o) {
            return due != o.due ? Long.compare(due, o.due) : Long.compare(order, o.order);
        }

        @Override
        public void cancel() {
            cancelled = true;
            timers.remove(this);
        }
    }

    @Override
    public long nowMs() {
        return now;
    }

    @Override
    public void execute(Runnable task) {
        if (held != null) {
            held.add(task);
        } else {
            task.run();
        }
    }

    /** From now on tasks wait (as on a busy thread) until {@link #release}. */
    public void hold() {
        held = new ArrayDeque<>();
    }

    /** Runs the tasks that waited, in order, and runs tasks at once again. */
    public void release() {
        ArrayDeque<Runnable> tasks = held;
        held = null;
        while (tasks != null && !tasks.isEmpty()) {
            tasks.poll().run();
        }
    }

    @Override
    public Timer schedule(long delayMs, Runnable task) {
        Task t = new Task(now + Math.max(0, delayMs), task);
        timers.add(t);
        return t;
    }

    /** Moves the clock forward, running every timer that falls due on the way, in order. */
    public void advance(long ms) {
        long target = now + ms;
        while (!timers.isEmpty() && timers.peek().due <= target) {
            Task t = timers.poll();
            now = t.due;
            if (!t.cancelled) {
                t.action.run();
            }
        }
        now = target;
    }
}
