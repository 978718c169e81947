package io.odradek.replication.partition;

import io.odradek.log.AppendResult;
import io.odradek.log.FileSlice;
import io.odradek.log.OffsetAndTimestamp;
import io.odradek.log.PartitionLog;
import io.odradek.log.checkpoint.LeaderEpochFile;
import io.odradek.log.producer.ActiveProducer;
import io.odradek.log.producer.VerificationGuard;
import io.odradek.log.txn.AbortedTxn;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * One partition as its leader sees it (Kafka's Partition): the log, the leader epoch from the metadata,
 * the high watermark and the last stable offset. Handlers and coordinators read and write through it, never
 * through the {@link PartitionLog} directly, so that whoever appends, the waiting operations parked on this
 * partition are woken.
 *
 * <p>Appends run on the partition's writer thread, one at a time. The high watermark is the smallest log
 * end among the in-sync replicas: on one node (no followers) it is the log end as soon as an append is in
 * the log. The last stable offset is the high watermark or, if lower, the first offset of the oldest
 * transaction that is open (or, with followers, decided by a marker the high watermark has not passed yet).
 * Reads are lock-free slices of the log bounded by whichever of the three the reader may see.
 */
public final class Partition {
    private final PartitionLog log;
    private final int leaderEpoch;
    private final Executor writer;
    private final WaitingOperations<Partition> waiting;
    /** Log end of each in-sync follower, as its last fetch said; empty on one node. */
    private final Map<Integer, Long> followerLogEnds = new ConcurrentHashMap<>();
    private volatile long highWatermark;

    /**
     * @param log         the partition's log (this partition leads it)
     * @param leaderEpoch the current leader epoch from the cluster metadata
     * @param followers   the other in-sync replicas; empty on one node
     * @param writer      the thread this partition's appends run on
     * @param waiting     the set woken when this partition moves
     */
    public Partition(PartitionLog log, int leaderEpoch, Set<Integer> followers, Executor writer,
            WaitingOperations<Partition> waiting) {
        this.log = log;
        this.leaderEpoch = leaderEpoch;
        this.writer = writer;
        this.waiting = waiting;
        for (int follower : followers) {
            followerLogEnds.put(follower, log.logStartOffset());
        }
        this.highWatermark = followers.isEmpty() ? log.logEndOffset() : log.logStartOffset();
        // With followers a decided transaction stays unstable until the high watermark passes its marker.
        log.updateHighWatermark(followers.isEmpty() ? Long.MAX_VALUE : highWatermark);
    }

    public String topic() {
        return log.topic();
    }

    public int partition() {
        return log.partition();
    }

    public int leaderEpoch() {
        return leaderEpoch;
    }

    /** The log, for storage administration (configs, retention, deletion); the data path goes through this class. */
    public PartitionLog log() {
        return log;
    }

    public long logStartOffset() {
        return log.logStartOffset();
    }

    public long logEndOffset() {
        return log.logEndOffset();
    }

    /** Offsets below this are on every in-sync replica: what consumers may read and acks=all waits for. */
    public long highWatermark() {
        // Alone in the ISR, the log end is the high watermark: this also covers appends made straight to the
        // log (the group coordinator's, until it appends through appendRecordsAsCoordinator).
        return followerLogEnds.isEmpty() ? log.logEndOffset() : highWatermark;
    }

    /**
     * Offsets below this belong to no undecided transaction and are committed: what read_committed consumers
     * may read (the high watermark, or the log's first unstable offset if lower).
     */
    public long lastStableOffset() {
        return Math.min(highWatermark(), log.firstUnstableOffset());
    }

    /** The aborted transactions overlapping [fetchOffset, upperBoundOffset), in offset order (see the log's). */
    public List<AbortedTxn> abortedTransactions(long fetchOffset, long upperBoundOffset) {
        return log.abortedTransactions(fetchOffset, upperBoundOffset);
    }

    /** The producers this partition knows, for DescribeProducers; safe from any thread. */
    public List<ActiveProducer> activeProducers() {
        return log.activeProducers();
    }

    /** Where a reader with this isolation must stop. */
    public long fetchableEnd(FetchIsolation isolation) {
        return switch (isolation) {
            case LOG_END -> log.logEndOffset();
            case HIGH_WATERMARK -> highWatermark();
            case TXN_COMMITTED -> lastStableOffset();
        };
    }

    // ---------------------------------------------------------------- writes

    /**
     * Appends a producer's batches on this partition's writer thread, stamping them with the leader epoch.
     * The future completes once they are in the log (with the log's {@code LogException} on a refusal);
     * {@code records} must stay valid and untouched until then. Whether acks=all is satisfied is the caller's
     * check: {@link #highWatermark()} past {@link AppendResult#lastOffset()}, waiting in the set if not yet.
     *
     * @param requiredAcks the request's acks (-1, 0 or 1); kept for the min.insync.replicas check replication adds
     */
    public CompletableFuture<AppendResult> appendAsLeader(ByteBuffer records, short requiredAcks) {
        CompletableFuture<AppendResult> result = new CompletableFuture<>();
        submit(result, records);
        return result;
    }

    /**
     * As {@link #appendAsLeader(ByteBuffer, short)} for a transactional batch that went through verification:
     * refused with INVALID_TXN_STATE (a {@code LogAppendException}, nothing appended) when its transaction is
     * not open at its epoch and {@code guard} is no longer the producer's current one, because a marker
     * ended the transaction (or the transaction opened and ended) while the coordinator was being asked.
     *
     * @param guard from {@link #startTransactionVerification}
     */
    public CompletableFuture<AppendResult> appendAsLeader(ByteBuffer records, short requiredAcks,
            VerificationGuard guard) {
        CompletableFuture<AppendResult> result = new CompletableFuture<>();
        submit(result, () -> log.append(records, leaderEpoch, guard));
        return result;
    }

    /**
     * Kafka's hasOngoingTransaction: whether the producer has a transaction open here at exactly this epoch,
     * so its batch needs no question to the transaction coordinator. Lock-free and allocation-free, from any
     * thread; the append still re-checks it (with {@code VerificationGuard.NONE}).
     */
    public boolean hasOngoingTransaction(long producerId, short producerEpoch) {
        return log.hasOngoingTransaction(producerId, producerEpoch);
    }

    /**
     * Kafka's maybeStartTransactionVerification: the guard to hand back to
     * {@link #appendAsLeader(ByteBuffer, short, VerificationGuard)} once the coordinator has verified the
     * producer's transaction ({@code VerificationGuard.NONE} if it is already open here). From any thread.
     *
     * @param supportsEpochBump whether the producer uses transaction version 2 (Produce v12+)
     */
    public VerificationGuard startTransactionVerification(long producerId, short producerEpoch,
            boolean supportsEpochBump) {
        return log.startTransactionVerification(producerId, producerEpoch, supportsEpochBump);
    }

    /**
     * Appends a coordinator's batch (already built, with its producer id and control flags as the coordinator
     * wants them; validated as Kafka's AppendOrigin.COORDINATOR, so transactional batches without sequence
     * numbers are accepted) through the same writer, waking the same waiters, and completes once the batch
     * is committed: the high watermark has passed it. Nothing times out here; the coordinator decides how
     * long to wait.
     */
    public CompletableFuture<AppendResult> appendRecordsAsCoordinator(ByteBuffer batch) {
        CompletableFuture<AppendResult> appended = new CompletableFuture<>();
        submit(appended, () -> log.appendAsCoordinator(batch, leaderEpoch));
        return appended.thenCompose(this::whenCommitted);
    }

    /**
     * Writes a transaction marker (commit or abort of {@code producerId}'s transaction) on the writer thread,
     * stamped with the leader epoch, wakes the waiting operations (the last stable offset may have moved) and
     * completes once the marker is committed. Fails with the log's {@code LogAppendException}
     * (INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED) when the marker is refused.
     */
    public CompletableFuture<AppendResult> appendMarker(long producerId, short producerEpoch, int coordinatorEpoch,
            boolean commit) {
        return appendMarker(producerId, producerEpoch, coordinatorEpoch, commit, (short) 0);
    }

    /**
     * As {@link #appendMarker(long, short, int, boolean)} with WriteTxnMarkers v2's TransactionVersion
     * (KIP-1228; 0 for older requests): from 2 on the marker's epoch must be newer than the producer's.
     */
    public CompletableFuture<AppendResult> appendMarker(long producerId, short producerEpoch, int coordinatorEpoch,
            boolean commit, short transactionVersion) {
        CompletableFuture<AppendResult> appended = new CompletableFuture<>();
        submit(appended, () -> log.appendMarker(producerId, producerEpoch, coordinatorEpoch, commit, leaderEpoch,
                transactionVersion));
        return appended.thenCompose(this::whenCommitted);
    }

    /** Completes when the high watermark passes {@code appended} (at once if it already has). */
    public CompletableFuture<AppendResult> whenCommitted(AppendResult appended) {
        if (highWatermark > appended.lastOffset()) {
            return CompletableFuture.completedFuture(appended);
        }
        CompletableFuture<AppendResult> committed = new CompletableFuture<>();
        waiting.watch(new DelayedOperation(-1, DelayedOperation.INLINE) {
            @Override
            protected boolean canComplete() {
                return highWatermark > appended.lastOffset();
            }

            @Override
            protected void onComplete(Outcome outcome) {
                if (outcome == Outcome.SATISFIED) {
                    committed.complete(appended);
                } else {
                    committed.completeExceptionally(new IllegalStateException(
                            "append to " + Partition.this + " ended " + outcome + " before it was committed", failure()));
                }
            }
        }, List.of(this));
        return committed;
    }

    private void submit(CompletableFuture<AppendResult> result, ByteBuffer records) {
        submit(result, () -> log.append(records, leaderEpoch));
    }

    private void submit(CompletableFuture<AppendResult> result, Supplier<AppendResult> append) {
        try {
            writer.execute(() -> {
                try {
                    result.complete(appendOnWriter(append));
                } catch (Throwable e) {
                    // Whatever happens, the caller hears of it (and releases the records it retained).
                    result.completeExceptionally(e);
                    if (e instanceof Error error) {
                        throw error;
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(e);
        }
    }

    private AppendResult appendOnWriter(Supplier<AppendResult> append) {
        AppendResult appended = append.get();
        if (!appended.duplicate()) {
            maybeAdvanceHighWatermark();
            // The log end moved (and with one node the high watermark): fetches and produces parked here re-check.
            waiting.wake(this);
        }
        return appended;
    }

    /**
     * A follower's fetch reported its log end (the seam replication builds on): the high watermark may move,
     * completing acks=all produces and coordinator writes parked on this partition.
     */
    public void recordFollowerLogEnd(int replicaId, long logEndOffset) {
        if (followerLogEnds.replace(replicaId, logEndOffset) != null && maybeAdvanceHighWatermark()) {
            waiting.wake(this);
        }
    }

    /** Recomputes the high watermark as the smallest in-sync log end; true if it moved. */
    private synchronized boolean maybeAdvanceHighWatermark() {
        long candidate = log.logEndOffset();
        for (long followerEnd : followerLogEnds.values()) {
            candidate = Math.min(candidate, followerEnd);
        }
        if (candidate > highWatermark) {
            highWatermark = candidate;
            if (!followerLogEnds.isEmpty()) {
                log.updateHighWatermark(candidate);
            }
            return true;
        }
        return false;
    }

    // ---------------------------------------------------------------- leadership (PLACEHOLDER bodies: partition-replication implements)

    /** Whether this broker leads the partition now (always on a single node). */
    public boolean isLeader() {
        return true;
    }

    /** The current leader's broker id, or -1 when unknown/none. */
    public int leaderId() {
        return -1;
    }

    /** The replicas in preference order and the in-sync replicas (node ids); empty on a single node. */
    public List<Integer> inSyncReplicas() {
        return List.of();
    }

    /**
     * Kafka's leader check for a client or follower request carrying {@code requestLeaderEpoch} (-1: none):
     * NONE, NOT_LEADER_OR_FOLLOWER (not the leader), FENCED_LEADER_EPOCH (the request's epoch is older) or
     * UNKNOWN_LEADER_EPOCH (newer than ours: our metadata lags).
     */
    public io.odradek.wire.ErrorCode checkLeader(int requestLeaderEpoch) {
        return io.odradek.wire.ErrorCode.NONE;
    }

    /** NOT_ENOUGH_REPLICAS when acks=all and the ISR is smaller than the topic's min.insync.replicas, else NONE. */
    public io.odradek.wire.ErrorCode checkEnoughReplicas(short requiredAcks) {
        return io.odradek.wire.ErrorCode.NONE;
    }

    /**
     * The leader side of a follower's fetch at {@code fetchOffset}: its log end (so the high watermark and
     * the ISR may move). Unknown replicas are ignored.
     */
    public void updateFollowerFetchState(int replicaId, long brokerEpoch, long fetchOffset, long nowMs) {
        recordFollowerLogEnd(replicaId, fetchOffset);
    }

    /**
     * For a follower fetching at {@code fetchOffset} after epoch {@code lastFetchedEpoch}: the epoch and end
     * offset it must truncate to when its log diverges from ours (Fetch v12+'s DivergingEpoch), else empty.
     */
    public Optional<io.odradek.log.EpochEndOffset> divergingEpoch(int lastFetchedEpoch, long fetchOffset) {
        return Optional.empty();
    }

    /** OffsetForLeaderEpoch: where {@code epoch} ended in this leader's log. */
    public io.odradek.log.EpochEndOffset endOffsetForEpoch(int epoch) {
        return log.endOffsetForEpoch(epoch);
    }

    // ---------------------------------------------------------------- reads

    /**
     * A slice of the log from the batch holding {@code offset}, bounded by what this reader may see (see
     * {@link PartitionLog#read(long, int, long)}: the whole first batch, then up to {@code maxBytes}).
     */
    public FileSlice read(long offset, int maxBytes, FetchIsolation isolation) {
        return log.read(offset, maxBytes, readBound(isolation), isolation == FetchIsolation.TXN_COMMITTED);
    }

    /**
     * The offset a read must stop at, or Long.MAX_VALUE to read to the log end from the log's own snapshot.
     * Alone in the ISR every bound is the log end; passing it as a number would make a read racing an
     * append look up where that older end lay. read_committed is bounded by the high watermark here and
     * by the first unstable offset inside the log, from the same snapshot as the data it reads (a number
     * taken here could miss a transaction an append opens meanwhile).
     */
    private long readBound(FetchIsolation isolation) {
        if (isolation == FetchIsolation.LOG_END || followerLogEnds.isEmpty()) {
            return Long.MAX_VALUE;
        }
        return highWatermark;
    }

    public Optional<OffsetAndTimestamp> offsetForTimestamp(long timestamp) {
        return log.offsetForTimestamp(timestamp);
    }

    public Optional<OffsetAndTimestamp> maxTimestampOffset() {
        return log.maxTimestampOffset();
    }

    public List<LeaderEpochFile.EpochEntry> leaderEpochs() {
        return log.leaderEpochs();
    }

    @Override
    public String toString() {
        return log.topic() + "-" + log.partition();
    }
}
