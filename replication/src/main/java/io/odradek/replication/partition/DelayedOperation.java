package io.odradek.replication.partition;

import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An operation parked in {@link WaitingOperations} until it can answer (Kafka's DelayedOperation): a fetch
 * waiting for data, a produce waiting for the high watermark, a coordinator write waiting to be committed.
 *
 * <p>It ends exactly once, with an {@link Outcome}: satisfied when a check after a wake finds it ready,
 * expired when its timeout passes, cancelled (its connection closed), or failed when a check threw. Checks and
 * {@link #onComplete} run on the operation's executor: a connection's event loop for a fetch, so its state
 * needs no lock; or inline on the waking thread for operations that only read volatile offsets.
 */
public abstract class DelayedOperation {
    /** How an operation ended. */
    public enum Outcome { SATISFIED, EXPIRED, CANCELLED, FAILED }

    /** Runs a check or completion on the thread that asked for it. */
    public static final Executor INLINE = Runnable::run;

    private final long timeoutMs;
    private final Executor executor;
    private final AtomicBoolean done = new AtomicBoolean();
    private final AtomicBoolean checkQueued = new AtomicBoolean();
    private final AtomicBoolean onDoneRan = new AtomicBoolean();
    private volatile Runnable unwatch;
    private volatile Future<?> timer;
    private volatile Runnable onDone;
    private volatile RuntimeException failure;

    /**
     * @param timeoutMs how long it may wait; negative for no timeout (it then ends satisfied or cancelled)
     * @param executor  where checks and the completion run
     */
    protected DelayedOperation(long timeoutMs, Executor executor) {
        this.timeoutMs = timeoutMs;
        this.executor = executor;
    }

    /** Re-checks the operation's condition after a watched partition moved; true when it can answer now. */
    protected abstract boolean canComplete();

    /** Answers the operation; called exactly once, on the executor (or inline if it no longer runs). */
    protected abstract void onComplete(Outcome outcome);

    public final long timeoutMs() {
        return timeoutMs;
    }

    public final boolean isDone() {
        return done.get();
    }

    /** What a check threw, for {@link Outcome#FAILED}. */
    protected final RuntimeException failure() {
        return failure;
    }

    /** Ends the operation without an answer worth sending, e.g. because its connection closed. */
    public final boolean cancel() {
        return finish(Outcome.CANCELLED, false);
    }

    /**
     * Runs {@code action} once the operation has ended, however it ended (e.g. to drop a close listener);
     * at once if it has ended already. One action per operation: a second call replaces the first.
     */
    public final void whenDone(Runnable action) {
        this.onDone = action;
        if (done.get()) {
            runOnce(action);
        }
    }

    /** A watched partition moved: schedules one check on the executor (checks already queued absorb this one). */
    final void wake() {
        if (done.get() || !checkQueued.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.execute(this::check);
        } catch (RejectedExecutionException shuttingDown) {
            checkQueued.set(false);
        }
    }

    private void check() {
        checkQueued.set(false);
        if (done.get()) {
            return;
        }
        try {
            if (canComplete()) {
                finish(Outcome.SATISFIED, true);
            }
        } catch (RuntimeException e) {
            failure = e;
            finish(Outcome.FAILED, true);
        }
    }

    final void expire() {
        finish(Outcome.EXPIRED, false);
    }

    /** Called by the set once the operation is in its watcher lists; undoes itself if the operation ended meanwhile. */
    final void attach(Runnable unwatchAction, Future<?> timeout) {
        this.unwatch = unwatchAction;
        this.timer = timeout;
        if (done.get()) {
            release();
        }
    }

    private boolean finish(Outcome outcome, boolean onExecutor) {
        if (!done.compareAndSet(false, true)) {
            return false;
        }
        release();
        Runnable action = onDone;
        if (action != null) {
            runOnce(action);
        }
        if (onExecutor) {
            onComplete(outcome);
        } else {
            try {
                executor.execute(() -> onComplete(outcome));
            } catch (RejectedExecutionException shuttingDown) {
                onComplete(outcome);
            }
        }
        return true;
    }

    private void release() {
        Future<?> t = timer;
        if (t != null) {
            t.cancel(false);
        }
        Runnable u = unwatch;
        if (u != null) {
            u.run();
        }
    }

    private void runOnce(Runnable action) {
        if (onDoneRan.compareAndSet(false, true)) {
            action.run();
        }
    }
}
