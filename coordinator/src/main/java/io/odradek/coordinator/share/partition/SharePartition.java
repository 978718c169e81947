package io.odradek.coordinator.share.partition;

import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;

/**
 * The in-flight state of one share partition on its partition's leader (Kafka 4.4's SharePartition): which
 * offsets from the start offset on are Available, Acquired (by which member, until when), Acknowledged or
 * Archived, with delivery counts; persisted through the {@link SharePersister}. Thread-safe: ShareFetch and
 * ShareAcknowledge call it from any event loop; lock timeouts fire on {@link ShareTimers}. One lock per
 * partition, never held while calling the persister or onAvailable; writes reach the persister in the order
 * the state changed.
 *
 * <p>Behaviour notes (Kafka 4.4):
 * <ul>
 * <li>Acquisition: new offsets whole log batches at a time (may pass maxRecords up to the batch end; exactly
 *     maxRecords in record-limit mode), cached ranges whole when wholly available, else per offset; bounded by
 *     share.partition.max.record.locks. Records already delivered ceil(limit / 2) times go out in groups halved
 *     per further delivery, and a record on its last attempt goes out alone.</li>
 * <li>Release (RELEASE, session end) and lock timeout make records Available, or Archived once their delivery
 *     count reached share.delivery.count.limit. ACCEPT -> Acknowledged, REJECT and GAP -> Archived, RENEW restarts
 *     the lock.</li>
 * <li>Acknowledge/release are transitions: applied at once, committed when the write succeeds, rolled back
 *     (records Acquired again, or Available if their lock expired meanwhile) when it fails. Lock timeouts are
 *     written but kept even if the write fails. Writes carry the start offset at the time and the changed
 *     ranges (neighbours with the same state merged); a log start offset move is written with the next write.
 *     Acknowledgements of offsets already below the start offset are ignored (NONE), as in Kafka.</li>
 * <li>Initialize: persisted batches come back Available/Acknowledged/Archived with their delivery counts. Odradek
 *     additions: a persisted start offset of -1 resolves share.auto.offset.reset and is written at once (Kafka
 *     writes it lazily); UNKNOWN_TOPIC_OR_PARTITION from the read initializes the state (state epoch 0) at the
 *     reset offset instead of failing.</li>
 * <li>read_committed (share.isolation.level): the batches of aborted transactions are archived when acquired,
 *     from the fetch's aborted-transaction list, and left out of the acquired ranges.</li>
 * <li>Not done: the dead-letter queue (KIP-1191); Kafka's persister-read "gap window" is replaced by making
 *     the never-written offsets between persisted batches Available on load (same deliveries, simpler).</li>
 * </ul>
 */
public final class SharePartition {
    private static final System.Logger LOG = System.getLogger(SharePartition.class.getName());

    private enum Phase { EMPTY, INITIALIZING, ACTIVE, FAILED, CLOSED }

    private final SharePartitionKey key;
    /** Read on each use, as Kafka reads the group config provider: a group config change applies at once. */
    private final Supplier<SharePartitionSettings> settings;
    private final SharePersister persister;
    private final ShareTimers timers;
    private final LongUnaryOperator offsetForReset;
    private final Runnable onAvailable;
    private final ReentrantLock lock = new ReentrantLock();
    private final InFlightRecords records;
    private final WriteQueue writes = new WriteQueue();
    private Phase phase = Phase.EMPTY;
    private CompletableFuture<ErrorCode> initialized;
    private int leaderEpoch = -1;
    private int stateEpoch;

    /**
     * @param offsetForReset the log's offset for the auto.offset.reset policy: called with -2 (earliest), -1 (latest)
     *                       or a timestamp (by_duration), answers the offset (ListOffsets semantics)
     * @param onAvailable    called (on any thread) whenever records become acquirable again (released, lock timed
     *                       out, start offset moved): the broker wakes share fetches parked on this partition.
     *                       It may run inside a persister callback: it must not block on this partition's futures
     */
    public SharePartition(SharePartitionKey key, SharePartitionSettings settings, SharePersister persister, ShareTimers timers,
            LongUnaryOperator offsetForReset, Runnable onAvailable) {
        this(key, () -> settings, persister, timers, offsetForReset, onAvailable);
    }

    /** With settings read on each use (lock duration, delivery count limit, record locks, offset reset, isolation). */
    public SharePartition(SharePartitionKey key, Supplier<SharePartitionSettings> settings, SharePersister persister,
            ShareTimers timers, LongUnaryOperator offsetForReset, Runnable onAvailable) {
        this.key = key;
        this.settings = settings;
        this.persister = persister;
        this.timers = timers;
        this.offsetForReset = offsetForReset;
        this.onAvailable = onAvailable;
        this.records = new InFlightRecords(() -> settings.get().deliveryCountLimit(),
                () -> settings.get().maxInFlightRecords(), this::startLock);
    }

    public SharePartitionKey key() {
        return key;
    }

    /**
     * Reads the persisted state (ReadShareGroupState under this leader epoch) and rebuilds the in-flight records
     * from it (nothing is Acquired after a restart). A persisted start offset of -1 (initialized without one)
     * starts at offsetForReset(share.auto.offset.reset), written at once; so does a partition the share
     * coordinator does not know (UNKNOWN_TOPIC_OR_PARTITION), initialized first. Completes with NONE once the
     * partition can serve, or the error the fetch answers for the partition (COORDINATOR_NOT_AVAILABLE,
     * NOT_LEADER_OR_FOLLOWER for a fenced epoch, ...). Later calls return the same future, except that a
     * failed initialization is tried again.
     */
    public CompletableFuture<ErrorCode> initialize(int leaderEpoch) {
        CompletableFuture<ErrorCode> future;
        lock.lock();
        try {
            if (phase == Phase.CLOSED) {
                return CompletableFuture.completedFuture(ErrorCode.NOT_LEADER_OR_FOLLOWER);
            }
            if (initialized != null && phase != Phase.FAILED) {
                return initialized;
            }
            future = new CompletableFuture<>();
            initialized = future;
            phase = Phase.INITIALIZING;
            this.leaderEpoch = leaderEpoch;
        } finally {
            lock.unlock();
        }
        persister.read(key, leaderEpoch).whenComplete((state, e) -> {
            if (e != null) {
                LOG.log(System.Logger.Level.WARNING, "reading share state of " + key.coordinatorKey() + " failed", e);
                finishInitialize(future, ErrorCode.UNKNOWN_SERVER_ERROR, -1, 0, List.of());
            } else {
                onRead(future, state);
            }
        });
        return future;
    }

    private void onRead(CompletableFuture<ErrorCode> future, PersistedShareState state) {
        if (state.error() == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION) {
            long start = resetOffset();
            persister.initialize(key, 0, start).whenComplete((code, e) -> {
                ErrorCode error = e != null ? ErrorCode.UNKNOWN_SERVER_ERROR : PersisterErrors.toPartitionError(code);
                finishInitialize(future, error, start, 0, List.of());
            });
            return;
        }
        if (state.error() != ErrorCode.NONE) {
            finishInitialize(future, PersisterErrors.toPartitionError(state.error()), -1, 0, List.of());
            return;
        }
        if (state.startOffset() >= 0) {
            finishInitialize(future, ErrorCode.NONE, state.startOffset(), state.stateEpoch(), state.batches());
            return;
        }
        long start = resetOffset();
        persister.write(key, state.stateEpoch(), leaderEpochNow(), start, 0, List.of()).whenComplete((code, e) -> {
            ErrorCode error = e != null ? ErrorCode.UNKNOWN_SERVER_ERROR : PersisterErrors.toPartitionError(code);
            finishInitialize(future, error, start, state.stateEpoch(), List.of());
        });
    }

    private long resetOffset() {
        long timestamp = AutoOffsetReset.timestampFor(settings.get().autoOffsetReset(), timers.nowMs());
        long offset = offsetForReset.applyAsLong(timestamp);
        // A timestamp after every record finds nothing: start at the end, as Kafka does.
        return offset >= 0 ? offset : offsetForReset.applyAsLong(AutoOffsetReset.LATEST);
    }

    private int leaderEpochNow() {
        lock.lock();
        try {
            return leaderEpoch;
        } finally {
            lock.unlock();
        }
    }

    private void finishInitialize(CompletableFuture<ErrorCode> future, ErrorCode error, long startOffset, int epoch,
            List<StateBatch> batches) {
        boolean available = false;
        lock.lock();
        try {
            if (phase == Phase.CLOSED) {
                error = ErrorCode.NOT_LEADER_OR_FOLLOWER;
            } else if (error == ErrorCode.NONE) {
                stateEpoch = epoch;
                records.load(startOffset, batches);
                phase = Phase.ACTIVE;
                available = true;
            } else {
                phase = Phase.FAILED;
            }
        } finally {
            lock.unlock();
        }
        future.complete(error);
        if (available) {
            onAvailable.run();
        }
    }

    /** Where the next fetch for this partition reads from: the first offset that may be acquired. */
    public long nextFetchOffset() {
        lock.lock();
        try {
            return records.nextFetchOffset();
        } finally {
            lock.unlock();
        }
    }

    /** Whether anything can be acquired now (false when the in-flight limit is reached and nothing is available). */
    public boolean canAcquireRecords() {
        lock.lock();
        try {
            return phase == Phase.ACTIVE && records.canAcquireRecords();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Acquires for {@code memberId} up to {@code maxRecords} acquirable offsets of the given batches (read from
     * the log at {@link #nextFetchOffset}, headers only; {@code highWatermark} bounds them), starting their
     * locks. Returns the acquired ranges in offset order, each with its delivery count after this delivery (1 on
     * the first); empty when none. The same as {@code acquire(memberId, firstBase, batches, maxRecords,
     * Integer.MAX_VALUE, false, highWatermark)}.
     */
    public List<AcquiredRecords> acquire(String memberId, List<LogBatch> batches, int maxRecords, long highWatermark) {
        long fetchOffset = batches.isEmpty() ? 0 : batches.get(0).baseOffset();
        return acquire(memberId, fetchOffset, batches, maxRecords, Integer.MAX_VALUE, false, highWatermark);
    }

    /**
     * Acquire as ShareFetch v1-2 asks.
     *
     * @param fetchOffset  the offset the log was read from ({@link #nextFetchOffset} at the time): available cached
     *                     records between it and the first batch no longer exist (compaction) and are archived
     * @param batchSize    ShareFetch BatchSize: new offsets are handed out in ranges of about this many records
     *                     (cut at log batch boundaries)
     * @param recordLimit  ShareAcquireMode 1 (record_limit, v2): exactly maxRecords, not to the batch end
     */
    public List<AcquiredRecords> acquire(String memberId, long fetchOffset, List<LogBatch> batches, int maxRecords, int batchSize,
            boolean recordLimit, long highWatermark) {
        return acquire(memberId, fetchOffset, batches, maxRecords, batchSize, recordLimit, highWatermark, List.of());
    }

    /**
     * Acquire as ShareFetch v1-2 asks, for a group whose share.isolation.level is read_committed: the batches
     * are read up to the last stable offset (pass it as {@code highWatermark}) with their producer ids and
     * transactional flags, and {@code abortedTransactions} are the partition's aborted transactions over the
     * range read (what a read_committed Fetch answers). Records of aborted transactions are archived instead of
     * delivered, as Kafka does. Ignored when the settings say read_uncommitted.
     */
    public List<AcquiredRecords> acquire(String memberId, long fetchOffset, List<LogBatch> batches, int maxRecords, int batchSize,
            boolean recordLimit, long highWatermark, List<AbortedTxn> abortedTransactions) {
        List<LogBatch> visible = new ArrayList<>(batches.size());
        for (LogBatch b : batches) {
            if (b.baseOffset() >= highWatermark) {
                break;
            }
            visible.add(b.lastOffset() < highWatermark ? b : new LogBatch(b.baseOffset(), highWatermark - 1, b.producerId(), b.transactional()));
        }
        lock.lock();
        try {
            if (phase != Phase.ACTIVE) {
                return List.of();
            }
            List<AcquiredRecords> acquired = records.acquire(memberId, visible, fetchOffset, maxRecords, Math.max(1, batchSize), recordLimit);
            if (!settings.get().readCommitted() || acquired.isEmpty()) {
                return acquired;
            }
            List<LogBatch> aborted = AbortedBatches.of(visible, abortedTransactions);
            if (aborted.isEmpty()) {
                return acquired;
            }
            records.archiveAcquired(memberId, aborted);
            records.advanceStartOffset();
            return AbortedBatches.without(acquired, aborted);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Applies a member's acknowledgements: ACCEPT (Acknowledged), RELEASE (Available again, delivery count kept;
     * Archived at the delivery limit), REJECT (Archived), RENEW (lock restarted), GAP (Archived: no record there).
     * Each offset must be Acquired by this member (INVALID_RECORD_STATE otherwise; INVALID_REQUEST for a malformed
     * batch or offsets never acquired). All or nothing. Completes with NONE once the change is persisted, or
     * the error for the partition.
     */
    public CompletableFuture<ErrorCode> acknowledge(String memberId, List<Acknowledgement> acknowledgements) {
        ErrorCode malformed = AcknowledgementValidation.check(acknowledgements);
        if (malformed != ErrorCode.NONE) {
            return CompletableFuture.completedFuture(malformed);
        }
        List<StateChange> changes = new ArrayList<>();
        CompletableFuture<ErrorCode> result;
        lock.lock();
        try {
            ErrorCode notActive = notActiveError();
            if (notActive != ErrorCode.NONE) {
                return CompletableFuture.completedFuture(notActive);
            }
            ErrorCode error = records.acknowledge(memberId, acknowledgements, changes);
            if (error != ErrorCode.NONE) {
                records.complete(changes, false);
                return CompletableFuture.completedFuture(error);
            }
            result = persist(changes);
        } finally {
            lock.unlock();
        }
        writes.drain();
        return result;
    }

    /** The member's share session ended or it left the group: what it holds becomes available again. */
    public CompletableFuture<ErrorCode> releaseAcquiredRecords(String memberId) {
        List<StateChange> changes = new ArrayList<>();
        CompletableFuture<ErrorCode> result;
        lock.lock();
        try {
            ErrorCode notActive = notActiveError();
            if (notActive != ErrorCode.NONE) {
                return CompletableFuture.completedFuture(notActive);
            }
            records.release(memberId, changes);
            result = persist(changes);
        } finally {
            lock.unlock();
        }
        writes.drain();
        return result;
    }

    private ErrorCode notActiveError() {
        return switch (phase) {
            case ACTIVE -> ErrorCode.NONE;
            case CLOSED -> ErrorCode.NOT_LEADER_OR_FOLLOWER;
            case FAILED -> ErrorCode.UNKNOWN_SERVER_ERROR;
            case EMPTY, INITIALIZING -> ErrorCode.LEADER_NOT_AVAILABLE;
        };
    }

    /**
     * Queues the write of the transitions (under the lock, so writes leave in the order of the changes); once
     * written they are committed (and the start offset moves) or rolled back.
     */
    private CompletableFuture<ErrorCode> persist(List<StateChange> changes) {
        if (changes.isEmpty()) {
            return CompletableFuture.completedFuture(ErrorCode.NONE);
        }
        CompletableFuture<ErrorCode> result = new CompletableFuture<>();
        Write write = currentWrite(StateChange.batchesOf(changes));
        writes.add(() -> send(write).whenComplete((code, e) -> {
            ErrorCode error = e != null ? ErrorCode.UNKNOWN_SERVER_ERROR : PersisterErrors.toPartitionError(code);
            if (e != null) {
                LOG.log(System.Logger.Level.WARNING, "writing share state of " + key.coordinatorKey() + " failed", e);
            }
            boolean wake;
            lock.lock();
            try {
                boolean committed = error == ErrorCode.NONE;
                wake = records.complete(changes, committed);
                if (committed) {
                    wake |= records.advanceStartOffset();
                }
            } finally {
                lock.unlock();
            }
            result.complete(error);
            if (wake) {
                onAvailable.run();
            }
        }));
        return result;
    }

    private record Write(int stateEpoch, int leaderEpoch, long startOffset, int deliveryCompleteCount, List<StateBatch> batches) {
    }

    /** A write of these batches with the partition's current epochs, start offset and completed count (under the lock). */
    private Write currentWrite(List<StateBatch> batches) {
        return new Write(stateEpoch, leaderEpoch, records.startOffset(), records.deliveryCompleteCount(), batches);
    }

    private CompletableFuture<ErrorCode> send(Write w) {
        return persister.write(key, w.stateEpoch, w.leaderEpoch, w.startOffset, w.deliveryCompleteCount, w.batches);
    }

    /** The log's start offset moved (retention, DeleteRecords): offsets below it are gone. */
    public void updateLogStartOffset(long logStartOffset) {
        boolean moved;
        lock.lock();
        try {
            moved = phase == Phase.ACTIVE && records.moveLogStartOffset(logStartOffset);
        } finally {
            lock.unlock();
        }
        if (moved) {
            onAvailable.run();
        }
    }

    /** The partition is no longer led here, or the group's state was deleted: cancel the lock timers. */
    public void close() {
        lock.lock();
        try {
            phase = Phase.CLOSED;
            records.cancelLocks();
        } finally {
            lock.unlock();
        }
    }

    /** The share-partition start offset (SPSO): everything below is acknowledged or archived. */
    public long startOffset() {
        lock.lock();
        try {
            return records.startOffset();
        } finally {
            lock.unlock();
        }
    }

    /** The last offset ever acquired (the SPEO), or the next one to fetch while nothing is in flight. */
    public long endOffset() {
        lock.lock();
        try {
            return records.endOffset();
        } finally {
            lock.unlock();
        }
    }

    private AcquisitionLock startLock(String memberId, long firstOffset, long lastOffset) {
        long duration = settings.get().recordLockDurationMs();
        AcquisitionLock acquisition = new AcquisitionLock(memberId, firstOffset, lastOffset, timers.nowMs() + duration);
        acquisition.start(timers.schedule(duration, () -> onLockExpired(acquisition)));
        return acquisition;
    }

    private void onLockExpired(AcquisitionLock expired) {
        List<StateBatch> timedOut = new ArrayList<>();
        boolean available;
        lock.lock();
        try {
            if (phase != Phase.ACTIVE || !expired.expire()) {
                return;
            }
            available = records.expire(expired, timedOut);
            if (!timedOut.isEmpty()) {
                Write write = currentWrite(StateChange.coalesce(timedOut));
                writes.add(() -> send(write).whenComplete((code, e) -> {
                    // Kept even when the write failed (as Kafka): the records are free again either way.
                    boolean moved;
                    lock.lock();
                    try {
                        moved = phase == Phase.ACTIVE && records.advanceStartOffset();
                    } finally {
                        lock.unlock();
                    }
                    if (moved) {
                        onAvailable.run();
                    }
                }));
            }
        } finally {
            lock.unlock();
        }
        writes.drain();
        if (available) {
            onAvailable.run();
        }
    }
}
