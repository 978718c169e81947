package io.odradek.coordinator.runtime;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.RecordBatchHeader;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Runs a coordinator (groups now, transactions next) as one {@link CoordinatorShard} per partition of its
 * internal topic, each confined to its partition's {@link Scheduler} thread with its timers.
 *
 * <p><b>Write model.</b> A write operation computes, from the shard's state, a {@link CoordinatorResult}:
 * records and a response. The runtime appends the records through the partition's {@link CoordinatorLog};
 * once the append is committed it applies the records with the shard's {@code replay} (the same code load
 * uses), runs the result's callback and completes the operation's future with the response. If the append
 * fails, nothing is applied, the callback hears the error and the future fails with a
 * {@link CoordinatorException} carrying the client's error (Kafka's mapping, {@link CoordinatorErrors}).
 *
 * <p><b>One write in flight per partition.</b> The append may complete later, on another thread (the
 * replicated Partition completes it when the high watermark passes). The shard thread never waits for it:
 * it goes on running read operations, which see the committed state, and timers; but the next write
 * operation waits in an ordered queue until the write in flight is committed and applied. So every write
 * is computed from the state that all earlier writes left, records are applied in log order, and a failed
 * append has changed nothing: no uncommitted state to roll back. (A result with {@code replayRecords} false
 * is the exception: its operation changed memory itself, and its callback completes or undoes that.) Kafka
 * instead applies records at once to snapshotted structures and reverts them on failure, which lets many
 * writes share one append; one append per write is plenty for a group coordinator, and batching would need
 * that uncommitted state. An append that completes at once, as the local log's does, costs one task hop
 * on the partition's thread before the next write runs.
 *
 * <p><b>Loading.</b> {@link #load} replays the partition's log from its start to its committed end into a
 * fresh shard on the shard's thread; meanwhile its operations fail with COORDINATOR_LOAD_IN_PROGRESS, and
 * operations on a partition this runtime does not serve (never loaded, unloaded, failed to load) with
 * NOT_COORDINATOR. {@link #unload} drops the shard when leadership moves away.
 *
 * <p><b>Transactions.</b> A transactional write ({@link #scheduleTransactionalWrite}) appends its records as
 * one transactional batch of the producer; once committed they are replayed with the producer id (the
 * shard keeps them pending). A transaction completion ({@link #scheduleTransactionCompletion}) appends the
 * producer's commit or abort marker and, once committed, tells the shard ({@code replayEndTransaction}).
 * Both are writes like the others: in order, one in flight. Load replays markers the same way.
 *
 * <p><b>Write timeout.</b> Kafka's runtime answers a write whose append is not committed within its write
 * timeout ({@code offsets.commit.timeout.ms} for groups) with a TimeoutException, which its coordinators
 * turn into COORDINATOR_NOT_AVAILABLE (the transaction coordinator does the same with {@code request.timeout.ms}).
 * Here the bound runs from the moment a write is scheduled, since a write waiting in the queue waits for
 * the same commit Kafka's would (it too would be appended behind the write in flight). A write that times
 * out while queued is dropped, never run; one in flight stays in flight: its future has failed, but once
 * its append is committed its records are applied and its callback runs, so the state still follows the
 * log. A marker that times out fails with REQUEST_TIMED_OUT (the writer of markers retries it). Writes a
 * shard schedules itself (timers) have nobody waiting and no bound.
 */
public final class CoordinatorRuntime<S extends CoordinatorShard<R>, R> implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(CoordinatorRuntime.class.getName());

    /** Makes a fresh, empty shard for a partition; records are replayed into it next. */
    @FunctionalInterface
    public interface ShardFactory<S, R> {
        S create(CoordinatorContext<R> context);
    }

    private enum State { LOADING, ACTIVE, FAILED, UNLOADED }

    private final String topic;
    private final RecordSerde<R> serde;
    private final ShardFactory<S, R> factory;
    private final IntFunction<Scheduler> schedulers;
    /** How long a write may wait for its commit before its future fails; Long.MAX_VALUE: no bound. */
    private final long writeTimeoutMs;
    private final ConcurrentHashMap<Integer, Partition> partitions = new ConcurrentHashMap<>();

    /** A runtime whose writes wait for their commit without bound (tests). */
    public CoordinatorRuntime(String topic, RecordSerde<R> serde, IntFunction<Scheduler> schedulers, ShardFactory<S, R> factory) {
        this(topic, serde, schedulers, Long.MAX_VALUE, factory);
    }

    /**
     * @param topic          the internal topic's name, for log lines and errors
     * @param schedulers     each partition's thread (the same for a partition every time it is asked)
     * @param writeTimeoutMs a scheduled write not committed after this long fails (see the class comment)
     */
    public CoordinatorRuntime(String topic, RecordSerde<R> serde, IntFunction<Scheduler> schedulers, long writeTimeoutMs,
            ShardFactory<S, R> factory) {
        this.topic = topic;
        this.serde = serde;
        this.schedulers = schedulers;
        this.writeTimeoutMs = writeTimeoutMs;
        this.factory = factory;
    }

    /**
     * Starts serving the partition: once {@code log} is caught up ({@link CoordinatorLog#whenCaughtUp}) a
     * fresh shard replays it on the partition's thread, and serves operations once loaded. Completes once loaded (exceptionally if the load failed; the
     * partition then answers NOT_COORDINATOR until loaded again). If it is already served or loading,
     * completes with that load.
     */
    public CompletableFuture<Void> load(int partition, CoordinatorLog log) {
        Partition p = new Partition(partition, log, schedulers.apply(partition));
        Partition existing = partitions.compute(partition, (k, old) -> old == null || old.state == State.FAILED ? p : old);
        if (existing != p) {
            return existing.loaded;
        }
        CompletableFuture<Void> caughtUp;
        try {
            caughtUp = log.whenCaughtUp();
        } catch (RuntimeException e) {
            caughtUp = CompletableFuture.failedFuture(e);
        }
        // Loading (COORDINATOR_LOAD_IN_PROGRESS) from now on; the replay itself once the log's tail is committed.
        // If that wait fails the load reads what is committed; an unload meanwhile makes it answer NOT_COORDINATOR.
        caughtUp.whenComplete((v, e) -> {
            if (!p.execute(p::load)) {
                p.state = State.FAILED;
                p.loaded.completeExceptionally(notCoordinator());
            }
        });
        return p.loaded;
    }

    /**
     * Stops serving the partition (leadership moved away, or shutdown): queued and in-flight writes fail
     * with NOT_COORDINATOR, timers stop, the shard answers its parked requests. Completes once done.
     */
    public CompletableFuture<Void> unload(int partition) {
        Partition p = partitions.remove(partition);
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (p == null) {
            done.complete(null);
            return done;
        }
        p.state = State.UNLOADED; // new operations are refused from now on
        if (!p.execute(() -> {
            p.unload();
            done.complete(null);
        })) {
            done.complete(null); // its thread is gone already
        }
        return done;
    }

    /** Whether the partition is loaded and serving. */
    public boolean isActive(int partition) {
        Partition p = partitions.get(partition);
        return p != null && p.state == State.ACTIVE;
    }

    /** Whether the partition is still being loaded. */
    public boolean isLoading(int partition) {
        Partition p = partitions.get(partition);
        return p != null && p.state == State.LOADING;
    }

    /**
     * Runs {@code op} on the partition's shard after the writes already queued there; completes with its
     * response once its records are committed and applied (see the class comment).
     *
     * @param name what the operation is, for log lines
     */
    public <T> CompletableFuture<T> scheduleWrite(int partition, String name, Function<S, CoordinatorResult<T, R>> op) {
        CompletableFuture<T> future = new CompletableFuture<>();
        Partition p = partitions.get(partition);
        if (refused(p, future)) {
            return future;
        }
        return submit(p, bounded(new Write<>(name, op, future)));
    }

    /**
     * As {@link #scheduleWrite}, but the records go out as one transactional batch of the producer (a
     * transactional offset commit); once committed the shard replays them as pending for that producer.
     * Whether the producer may write to this partition (it is part of its transaction) is the caller's to
     * check first. A refused append fails with the log's error for the client (INVALID_PRODUCER_EPOCH, ...).
     */
    public <T> CompletableFuture<T> scheduleTransactionalWrite(int partition, String name, long producerId, short producerEpoch,
            Function<S, CoordinatorResult<T, R>> op) {
        CompletableFuture<T> future = new CompletableFuture<>();
        Partition p = partitions.get(partition);
        if (refused(p, future)) {
            return future;
        }
        Write<T> write = bounded(new Write<>(name, op, future));
        write.producerId = producerId;
        write.producerEpoch = producerEpoch;
        return submit(p, write);
    }

    /**
     * Ends the producer's transaction on the partition: appends its commit or abort marker (in order with
     * the other writes) and, once committed, applies it to the shard. Fails with a {@link CoordinatorException}
     * carrying the log's error as is (INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED, NOT_COORDINATOR
     * when the partition is not served here, COORDINATOR_LOAD_IN_PROGRESS while it loads ...).
     */
    public CompletableFuture<Void> scheduleTransactionCompletion(int partition, String name, long producerId, short producerEpoch,
            int coordinatorEpoch, boolean commit) {
        CompletableFuture<Void> future = new CompletableFuture<>();
        Partition p = partitions.get(partition);
        if (refused(p, future)) {
            return future;
        }
        Write<Void> write = bounded(new Write<>(name, s -> CoordinatorResult.of(null), future));
        write.producerId = producerId;
        write.producerEpoch = producerEpoch;
        write.marker = new Marker(coordinatorEpoch, commit);
        return submit(p, write);
    }

    /** A write someone waits for: it fails once {@code writeTimeoutMs} passes without its commit. */
    private <T> Write<T> bounded(Write<T> write) {
        write.bounded = writeTimeoutMs != Long.MAX_VALUE;
        return write;
    }

    private <T> CompletableFuture<T> submit(Partition p, Write<T> write) {
        if (!p.execute(() -> p.submit(write))) {
            write.future.completeExceptionally(notCoordinator());
        }
        return write.future;
    }

    /** Runs {@code op}, which must not change the shard, on the partition's shard; it sees committed state. */
    public <T> CompletableFuture<T> scheduleRead(int partition, String name, Function<S, T> op) {
        CompletableFuture<T> future = new CompletableFuture<>();
        Partition p = partitions.get(partition);
        if (refused(p, future)) {
            return future;
        }
        boolean queued = p.execute(() -> {
            if (p.state != State.ACTIVE) {
                future.completeExceptionally(notCoordinator());
                return;
            }
            try {
                future.complete(op.apply(p.shard));
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.ERROR, name + " failed in " + topic + "-" + partition, e);
                future.completeExceptionally(e);
            }
        });
        if (!queued) {
            future.completeExceptionally(notCoordinator());
        }
        return future;
    }

    private boolean refused(Partition p, CompletableFuture<?> future) {
        if (p == null || p.state == State.FAILED || p.state == State.UNLOADED) {
            future.completeExceptionally(notCoordinator());
            return true;
        }
        if (p.state == State.LOADING) {
            future.completeExceptionally(new CoordinatorException(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
                    topic + "-" + p.partition + " is loading"));
            return true;
        }
        return false;
    }

    private CoordinatorException notCoordinator() {
        return new CoordinatorException(ErrorCode.NOT_COORDINATOR, "not the coordinator of this " + topic + " partition");
    }

    /** Unloads every partition (waiting at most 5 s). The schedulers' threads are their owner's to stop. */
    @Override
    public void close() {
        List<CompletableFuture<Void>> unloading = new ArrayList<>();
        for (Integer p : List.copyOf(partitions.keySet())) {
            unloading.add(unload(p));
        }
        try {
            CompletableFuture.allOf(unloading.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, topic + " coordinator did not close cleanly: " + e);
        }
    }

    /** A transaction marker a completion write appends. */
    private record Marker(int coordinatorEpoch, boolean commit) {
    }

    /** A write operation waiting, running or in flight. */
    private final class Write<T> {
        final String name;
        final Function<S, CoordinatorResult<T, R>> op;
        final CompletableFuture<T> future;
        CoordinatorResult<T, R> result;
        /** The producer of a transactional write or completion; -1 for an ordinary write. */
        long producerId = RecordBatchHeader.NO_PRODUCER_ID;
        short producerEpoch = RecordBatchHeader.NO_PRODUCER_EPOCH;
        /** Set for a transaction completion: the marker it appends instead of records. */
        Marker marker;
        /** Whether the write timeout applies; its timer while armed. */
        boolean bounded;
        Scheduler.Timer timeout;

        Write(String name, Function<S, CoordinatorResult<T, R>> op, CompletableFuture<T> future) {
            this.name = name;
            this.op = op;
            this.future = future;
        }

        /**
         * Applies a committed result (or not, on failure), runs its callback, completes the future.
         *
         * @param end the offset after the appended batch (null when nothing was appended)
         */
        void finish(Partition p, ErrorCode error, Long end) {
            disarm();
            try {
                if (error == ErrorCode.NONE && marker != null) {
                    p.shard.replayEndTransaction(producerId, producerEpoch, marker.commit());
                } else if (error == ErrorCode.NONE && result.replayRecords() && !result.records().isEmpty()) {
                    List<R> records = result.records();
                    long offset = end - records.size(); // the batch's records took the offsets just below its end
                    for (R r : records) {
                        p.shard.replay(offset++, producerId, producerEpoch, r);
                    }
                }
                if (result.afterAppend() != null) {
                    result.afterAppend().done(error);
                }
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.ERROR, name + " failed after its append in " + topic + "-" + p.partition, e);
                future.completeExceptionally(e);
                return;
            }
            if (error == ErrorCode.NONE) {
                future.complete(result.response());
            } else {
                future.completeExceptionally(new CoordinatorException(error, name + " could not be written to "
                        + topic + "-" + p.partition));
            }
        }

        void disarm() {
            if (timeout != null) {
                timeout.cancel();
                timeout = null;
            }
        }

        /** The write timeout passed: Kafka's coordinators answer COORDINATOR_NOT_AVAILABLE (markers: REQUEST_TIMED_OUT). */
        void timedOut(Partition p) {
            timeout = null;
            ErrorCode error = marker != null ? ErrorCode.REQUEST_TIMED_OUT : ErrorCode.COORDINATOR_NOT_AVAILABLE;
            boolean dropped = p.waiting.remove(this);
            LOG.log(System.Logger.Level.WARNING, name + " in " + topic + "-" + p.partition + " timed out after "
                    + writeTimeoutMs + " ms " + (dropped ? "waiting for an earlier write; it will not run" : "waiting for its commit"));
            future.completeExceptionally(new CoordinatorException(error, name + " timed out after " + writeTimeoutMs
                    + " ms waiting for " + topic + "-" + p.partition));
        }

        void fail(ErrorCode error) {
            disarm();
            future.completeExceptionally(new CoordinatorException(error, name + " was not run: " + topic + " partition unloaded"));
        }
    }

    /** One partition: its shard and the write queue. Fields other than {@code state} are confined to its thread. */
    private final class Partition implements CoordinatorContext<R> {
        final int partition;
        final CoordinatorLog log;
        final Scheduler scheduler;
        volatile State state = State.LOADING;
        S shard;
        final ArrayDeque<Write<?>> waiting = new ArrayDeque<>();
        Write<?> inFlight;
        boolean draining;
        final Set<Scheduler.Timer> timers = new HashSet<>();
        final CompletableFuture<Void> loaded = new CompletableFuture<>();

        Partition(int partition, CoordinatorLog log, Scheduler scheduler) {
            this.partition = partition;
            this.log = log;
            this.scheduler = scheduler;
        }

        String name() {
            return topic + "-" + partition;
        }

        /** Runs the task on the partition's thread; false when its executor is shut down. */
        boolean execute(Runnable task) {
            try {
                scheduler.execute(task);
                return true;
            } catch (RejectedExecutionException e) {
                return false;
            }
        }

        void load() {
            if (state != State.LOADING) {
                loaded.completeExceptionally(notCoordinator()); // unloaded before it loaded
                return;
            }
            long start = System.nanoTime();
            try {
                shard = factory.create(this);
                long records = CoordinatorLoader.replay(log, serde, new CoordinatorLoader.Sink<R>() {
                    @Override
                    public void record(long offset, long producerId, short producerEpoch, R record) {
                        shard.replay(offset, producerId, producerEpoch, record);
                    }

                    @Override
                    public void endTransaction(long producerId, short producerEpoch, boolean commit) {
                        shard.replayEndTransaction(producerId, producerEpoch, commit);
                    }
                }, name());
                shard.onLoaded();
                // An empty partition (every one, on a first start) is not worth a line each.
                LOG.log(records == 0 ? System.Logger.Level.DEBUG : System.Logger.Level.INFO, "loaded " + name() + ": "
                        + records + " records in " + (System.nanoTime() - start) / 1_000_000 + " ms");
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "failed to load " + name() + "; it answers NOT_COORDINATOR", e);
                state = State.FAILED;
                shard = null;
                loaded.completeExceptionally(e);
                return;
            }
            if (state == State.LOADING) {
                state = State.ACTIVE;
            }
            loaded.complete(null);
        }

        void unload() {
            state = State.UNLOADED;
            List.copyOf(timers).forEach(Scheduler.Timer::cancel);
            Write<?> write = inFlight;
            inFlight = null;
            if (write != null && shard != null) {
                write.finish(this, ErrorCode.NOT_COORDINATOR, null); // its callback answers what it parked
            }
            while (!waiting.isEmpty()) {
                waiting.poll().fail(ErrorCode.NOT_COORDINATOR);
            }
            if (shard != null) {
                try {
                    shard.onUnloaded();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.ERROR, "failed to unload " + name(), e);
                }
                shard = null;
            }
        }

        void submit(Write<?> write) {
            waiting.add(write);
            drain();
            // Only a write still queued or in flight needs its timeout: one with nothing to append (a heartbeat)
            // has already been answered by drain(), and arming then cancelling a timer for it is waste.
            if (write.bounded && state == State.ACTIVE && !write.future.isDone() && write.timeout == null) {
                write.timeout = scheduler.schedule(writeTimeoutMs, () -> {
                    if (write.timeout != null && !write.future.isDone()) {
                        write.timedOut(this);
                    }
                });
            }
        }

        /** Runs waiting writes in order while none is in flight; re-entrant calls leave it to the outer loop. */
        void drain() {
            if (draining) {
                return;
            }
            draining = true;
            try {
                while (inFlight == null && !waiting.isEmpty()) {
                    run(waiting.poll());
                }
            } finally {
                draining = false;
            }
        }

        private <T> void run(Write<T> write) {
            if (state != State.ACTIVE) {
                write.fail(ErrorCode.NOT_COORDINATOR);
                return;
            }
            ByteBuffer batch = null;
            try {
                write.result = write.op.apply(shard);
                if (write.marker == null && write.result.records().isEmpty()) {
                    write.finish(this, ErrorCode.NONE, null);
                    return;
                }
                if (write.marker == null && write.producerId != RecordBatchHeader.NO_PRODUCER_ID) {
                    batch = CoordinatorLoader.transactionalBatch(serde, write.result.records(), scheduler.nowMs(),
                            write.producerId, write.producerEpoch);
                } else if (write.marker == null) {
                    batch = CoordinatorLoader.batch(serde, write.result.records(), scheduler.nowMs());
                }
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.ERROR, write.name + " failed in " + name(), e);
                write.disarm();
                write.future.completeExceptionally(e);
                return;
            }
            inFlight = write;
            CompletableFuture<Long> appended;
            try {
                appended = write.marker != null
                        ? log.appendMarker(write.producerId, write.producerEpoch, write.marker.coordinatorEpoch(), write.marker.commit())
                        : log.append(batch);
            } catch (RuntimeException e) {
                appended = CompletableFuture.failedFuture(e);
            }
            // Back on this partition's thread, whichever thread completes the append (maybe this one, now).
            appended.whenComplete((end, failure) -> {
                if (!execute(() -> committed(write, end, failure))) {
                    write.fail(ErrorCode.NOT_COORDINATOR); // shutting down
                }
            });
        }

        private void committed(Write<?> write, Long end, Throwable failure) {
            if (inFlight != write) {
                return; // unloaded meanwhile: already failed
            }
            ErrorCode error = failure == null ? ErrorCode.NONE
                    : write.marker != null ? CoordinatorErrors.ofMarkerFailure(failure) : CoordinatorErrors.ofAppendFailure(failure);
            if (failure != null) {
                LOG.log(System.Logger.Level.WARNING, write.name + " could not be written to " + name() + " (" + error
                        + "): " + CoordinatorErrors.unwrap(failure));
            }
            write.finish(this, error, end);
            inFlight = null;
            drain();
        }

        // ------------------------------------------------------------ CoordinatorContext, for the shard

        @Override
        public int partition() {
            return partition;
        }

        @Override
        public long nowMs() {
            return scheduler.nowMs();
        }

        @Override
        public Scheduler.Timer schedule(long delayMs, String name, Supplier<CoordinatorResult<Void, R>> op) {
            if (state == State.UNLOADED || state == State.FAILED) {
                return () -> { };
            }
            TimerWrite timer = new TimerWrite(name, op);
            timer.underlying = scheduler.schedule(delayMs, timer::fire);
            timers.add(timer);
            return timer;
        }

        @Override
        public void scheduleWrite(String name, Supplier<CoordinatorResult<Void, R>> op) {
            if (state == State.ACTIVE || state == State.LOADING) {
                submit(new Write<Void>(name, s -> op.get(), new CompletableFuture<>()));
            }
        }

        /** A timer whose task runs as a write, in order; cancelled, it never runs even if already queued. */
        private final class TimerWrite implements Scheduler.Timer {
            final String name;
            final Supplier<CoordinatorResult<Void, R>> op;
            Scheduler.Timer underlying;
            boolean cancelled;

            TimerWrite(String name, Supplier<CoordinatorResult<Void, R>> op) {
                this.name = name;
                this.op = op;
            }

            void fire() {
                timers.remove(this);
                if (!cancelled && state == State.ACTIVE) {
                    submit(new Write<Void>(name, s -> cancelled ? CoordinatorResult.of(null) : op.get(), new CompletableFuture<>()));
                }
            }

            @Override
            public void cancel() {
                cancelled = true;
                timers.remove(this);
                underlying.cancel();
            }
        }
    }
}
