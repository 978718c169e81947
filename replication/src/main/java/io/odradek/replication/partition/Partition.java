package io.odradek.replication.partition;

import io.odradek.log.AppendResult;
import io.odradek.log.EpochEndOffset;
import io.odradek.log.FileSlice;
import io.odradek.log.LogAppendException;
import io.odradek.log.LogConfig;
import io.odradek.log.OffsetAndTimestamp;
import io.odradek.log.OffsetOutOfRangeException;
import io.odradek.log.PartitionLog;
import io.odradek.log.checkpoint.LeaderEpochFile;
import io.odradek.log.producer.ActiveProducer;
import io.odradek.log.producer.VerificationGuard;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ItemResult;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.wire.ErrorCode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One partition replica on this broker (Kafka's Partition): the log, the replication state from the metadata
 * ({@link PartitionState}: role, leader, epochs, replicas, ISR), the high watermark and the last stable offset. Handlers and coordinators read and write through it, never
 * through the {@link PartitionLog} directly, so that whoever appends, the waiting operations parked on this
 * partition are woken.
 *
 * <p>Appends run on the partition's writer thread, one at a time. The high watermark is the smallest log
 * end among the in-sync replicas: on one node (no followers) it is the log end as soon as an append is in
 * the log. The last stable offset is the high watermark or, if lower, the first offset of the oldest
 * transaction that is open (or, with followers, decided by a marker the high watermark has not passed yet).
 * Reads are lock-free slices of the log bounded by whichever of the three the reader may see.
 *
 * <p>Leader: tracks each follower's fetches, moves the high watermark over the maximal ISR, proposes ISR
 * expansion (a follower reached the high watermark) and shrinking (a follower lagged
 * {@code replica.lag.time.max.ms}) to the controller with AlterPartition, one change in flight, and adopts the
 * result when the metadata image shows it. Follower: appends what its fetcher brings from the leader and takes
 * the leader's high watermark, clamped to its log end; it refuses produce appends. State changes and
 * follower bookkeeping hold this object's monitor; readers take the volatile state without it.
 *
 * <p>Log start (DeleteRecords): the leader moves its log start forward ({@link #deleteRecordsOnLeader}); each
 * follower follows the leader's from the fetch responses ({@link #followLeaderLogStartOffset}) and reports its
 * own in its fetches; the {@link #lowWatermark} over the alive replicas is what DeleteRecords waits for.
 */
public final class Partition {
    /** The local broker id of a partition made by the single-node constructor, which knows no brokers. */
    private static final int NO_BROKER = -1;
    /** How long a pending ISR change that timed out or failed unclearly waits before it is sent again. */
    static final long ALTER_PARTITION_RETRY_BACKOFF_MS = 100;

    private final PartitionLog log;
    private final UUID topicId;
    private final Executor writer;
    private final WaitingOperations<Partition> waiting;
    /** This broker's id; -1 for the single-node constructor (no controller, ISR changes never proposed). */
    private final int localBrokerId;
    private final ControllerChannel controller;
    private final LongSupplier brokerEpoch;
    /** The leader's view of each other replica's fetches; empty on a follower and on one node. */
    private final Map<Integer, FollowerState> followers = new ConcurrentHashMap<>();
    private volatile PartitionState state;
    private volatile long highWatermark;
    /** Set when the replica leaves this broker: parked commits fail, nothing more is proposed. */
    private volatile boolean removed;

    /** What the leader knows of one follower from its fetches (Kafka's ReplicaState); guarded by the Partition. */
    private static final class FollowerState {
        long logEndOffset = -1;
        /** The LogStartOffset of its last fetch (Kafka's ReplicaState.logStartOffset); -1 until it fetches. */
        long logStartOffset = -1;
        long lastCaughtUpTimeMs;
        long lastFetchTimeMs;
        long lastFetchLeaderLogEndOffset = -1;
        long brokerEpoch = -1;

        FollowerState(long lastCaughtUpTimeMs) {
            this.lastCaughtUpTimeMs = lastCaughtUpTimeMs;
        }

        /** Kafka's isCaughtUp: at the leader's log end, or caught up within the last {@code maxLagMs}. */
        boolean isCaughtUp(long leaderLogEnd, long nowMs, long maxLagMs) {
            return logEndOffset == leaderLogEnd || nowMs - lastCaughtUpTimeMs <= maxLagMs;
        }
    }

    /**
     * A partition this broker leads with a fixed ISR and no controller: the single node (no followers), and
     * tests that move the high watermark through {@link #recordFollowerLogEnd}.
     *
     * @param log         the partition's log (this partition leads it)
     * @param leaderEpoch the current leader epoch from the cluster metadata
     * @param followers   the other in-sync replicas; empty on one node
     * @param writer      the thread this partition's appends run on
     * @param waiting     the set woken when this partition moves
     */
    public Partition(PartitionLog log, int leaderEpoch, Set<Integer> followers, Executor writer,
            WaitingOperations<Partition> waiting) {
        this.log = log;
        this.topicId = log.topicId();
        this.writer = writer;
        this.waiting = waiting;
        this.localBrokerId = NO_BROKER;
        this.controller = null;
        this.brokerEpoch = () -> -1L;
        List<Integer> isr = new ArrayList<>(new TreeSet<>(followers));
        this.state = new PartitionState(PartitionState.Role.LEADER, NO_BROKER, leaderEpoch, 0, isr, isr, null,
                log.logEndOffset());
        for (int follower : followers) {
            FollowerState f = new FollowerState(0);
            f.logEndOffset = log.logStartOffset();
            this.followers.put(follower, f);
        }
        this.highWatermark = followers.isEmpty() ? log.logEndOffset() : log.logStartOffset();
        // With followers a decided transaction stays unstable until the high watermark passes its marker.
        log.updateHighWatermark(followers.isEmpty() ? Long.MAX_VALUE : highWatermark);
    }

    /**
     * A replica in a cluster: a follower with no known leader until {@link #makeLeader} or
     * {@link #makeFollower} applies the partition's registration from the metadata image.
     *
     * @param topicId       the topic's id, for AlterPartition
     * @param localBrokerId this broker's id
     * @param controller    where ISR changes are proposed
     * @param brokerEpoch   this broker's current registration epoch, for AlterPartition
     */
    public Partition(PartitionLog log, UUID topicId, int localBrokerId, ControllerChannel controller,
            LongSupplier brokerEpoch, Executor writer, WaitingOperations<Partition> waiting) {
        this.log = log;
        this.topicId = topicId;
        this.writer = writer;
        this.waiting = waiting;
        this.localBrokerId = localBrokerId;
        this.controller = controller;
        this.brokerEpoch = brokerEpoch;
        this.state = new PartitionState(PartitionState.Role.FOLLOWER, -1, -1, -1, List.of(), List.of(), null, -1);
        // Kafka checkpoints the high watermark; we start from the log start and learn it from the leader.
        this.highWatermark = log.logStartOffset();
        log.updateHighWatermark(highWatermark);
    }

    public String topic() {
        return log.topic();
    }

    public int partition() {
        return log.partition();
    }

    public int leaderEpoch() {
        return state.leaderEpoch();
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
        return isAloneLeader(state) ? log.logEndOffset() : highWatermark;
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
     * check: {@link #checkEnoughReplicasReachOffset} with {@link AppendResult#lastOffset()} + 1 and the result's
     * {@link AppendResult#leaderEpoch()}, waiting in the set while it answers empty.
     *
     * @param requiredAcks the request's acks (-1, 0 or 1); kept for the min.insync.replicas check replication adds
     */
    public CompletableFuture<AppendResult> appendAsLeader(ByteBuffer records, short requiredAcks) {
        CompletableFuture<AppendResult> result = new CompletableFuture<>();
        submit(result, () -> {
            int epoch = leaderEpochForAppend(requiredAcks);
            return log.append(records, epoch).withLeaderEpoch(epoch);
        });
        return result;
    }

    /**
     * As {@link #appendAsLeader(ByteBuffer, short)} for records that are converted first, on the writer thread
     * (issue 9, "formats": a magic 0/1 message set becoming one v2 batch): {@code convert} gets the log's
     * current config and returns the batch, or throws the log's {@code LogAppendException}; the batch is
     * then appended like any other.
     */
    public CompletableFuture<AppendResult> appendConvertedAsLeader(Function<LogConfig, ByteBuffer> convert,
            short requiredAcks) {
        CompletableFuture<AppendResult> result = new CompletableFuture<>();
        submit(result, () -> {
            int epoch = leaderEpochForAppend(requiredAcks);
            return log.append(convert.apply(log.config()), epoch).withLeaderEpoch(epoch);
        });
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
        submit(result, () -> {
            int epoch = leaderEpochForAppend(requiredAcks);
            return log.append(records, epoch, guard).withLeaderEpoch(epoch);
        });
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
        submit(appended, () -> {
            int epoch = leaderEpochForAppend((short) 1);
            return log.appendAsCoordinator(batch, epoch).withLeaderEpoch(epoch);
        });
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
        submit(appended, () -> {
            int epoch = leaderEpochForAppend((short) 1);
            return log.appendMarker(producerId, producerEpoch, coordinatorEpoch, commit, epoch, transactionVersion)
                    .withLeaderEpoch(epoch);
        });
        return appended.thenCompose(this::whenCommitted);
    }

    /**
     * Completes when the high watermark passes {@code appended} while this broker still leads at the epoch it
     * was appended at (at once if it already has). Fails with a {@code LogAppendException} carrying
     * NOT_LEADER_OR_FOLLOWER when this broker stops leading (or leads at another epoch: the records may have
     * been truncated away, and a new leader's high watermark says nothing about them) or the partition is
     * removed, and with NOT_ENOUGH_REPLICAS_AFTER_APPEND as {@link #checkEnoughReplicasReachOffset}.
     */
    public CompletableFuture<AppendResult> whenCommitted(AppendResult appended) {
        long required = appended.lastOffset() + 1;
        Optional<ErrorCode> now = checkEnoughReplicasReachOffset(required, appended.leaderEpoch());
        if (now.isPresent()) {
            return now.get() == ErrorCode.NONE ? CompletableFuture.completedFuture(appended)
                    : CompletableFuture.failedFuture(notCommitted(now.get(), appended));
        }
        CompletableFuture<AppendResult> committed = new CompletableFuture<>();
        waiting.watch(new DelayedOperation(-1, DelayedOperation.INLINE) {
            private volatile ErrorCode outcome;

            @Override
            protected boolean canComplete() {
                Optional<ErrorCode> check = checkEnoughReplicasReachOffset(required, appended.leaderEpoch());
                check.ifPresent(e -> outcome = e);
                return check.isPresent();
            }

            @Override
            protected void onComplete(Outcome how) {
                if (how == Outcome.SATISFIED && outcome == ErrorCode.NONE) {
                    committed.complete(appended);
                } else if (how == Outcome.SATISFIED) {
                    committed.completeExceptionally(notCommitted(outcome, appended));
                } else {
                    committed.completeExceptionally(new IllegalStateException(
                            "append to " + Partition.this + " ended " + how + " before it was committed", failure()));
                }
            }
        }, List.of(this));
        return committed;
    }

    private LogAppendException notCommitted(ErrorCode error, AppendResult appended) {
        String why = error == ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND ? notEnoughReplicasMessage()
                : "Broker " + localBrokerId + " no longer leads " + this + " at leader epoch " + appended.leaderEpoch()
                        + ": offsets " + appended.baseOffset() + "-" + appended.lastOffset() + " may not be committed";
        return new LogAppendException(error, why);
    }

    /**
     * Kafka's checkEnoughReplicasReachOffset, for an acks=all produce or a coordinator write that this broker
     * appended as leader at {@code appendLeaderEpoch} (-1: any epoch) and that ends before
     * {@code requiredOffset}: empty while the high watermark has not reached it; NOT_LEADER_OR_FOLLOWER once
     * this broker no longer leads at that epoch or the partition was removed (a demoted leader's high
     * watermark comes from the new leader and covers other records); else NONE, or
     * NOT_ENOUGH_REPLICAS_AFTER_APPEND when the maximal ISR is now smaller than min.insync.replicas. Lock-free,
     * from any thread.
     */
    public Optional<ErrorCode> checkEnoughReplicasReachOffset(long requiredOffset, int appendLeaderEpoch) {
        // The high watermark first, then the state: a high watermark lifted after a demotion is read only
        // together with the demoted state (both are written under the lock, state first).
        long hwm = highWatermark();
        PartitionState s = state;
        if (removed || !s.isLeader() || appendLeaderEpoch >= 0 && s.leaderEpoch() != appendLeaderEpoch) {
            return Optional.of(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        }
        if (hwm < requiredOffset) {
            return Optional.empty();
        }
        // One node (no controller) keeps its old answer: min.insync.replicas is checked before its appends only.
        if (localBrokerId != NO_BROKER && s.maximalIsr().size() < minInsyncReplicas()) {
            return Optional.of(ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND);
        }
        return Optional.of(ErrorCode.NONE);
    }

    /**
     * The partition left this broker (its replica was removed or its topic deleted): writes waiting for their
     * commit here fail with NOT_LEADER_OR_FOLLOWER now instead of waiting forever, and no ISR change is
     * proposed again.
     */
    public void markRemoved() {
        removed = true;
        waiting.wake(this);
    }

    /**
     * On the writer, just before an append: the epoch to stamp, or a refusal with nothing written when this
     * broker no longer leads (NOT_LEADER_OR_FOLLOWER) or an acks=all produce finds the ISR below
     * min.insync.replicas (NOT_ENOUGH_REPLICAS), as Kafka checks under its leader lock.
     */
    private int leaderEpochForAppend(short requiredAcks) {
        PartitionState s = state;
        if (!s.isLeader()) {
            throw new LogAppendException(ErrorCode.NOT_LEADER_OR_FOLLOWER,
                    "Broker " + localBrokerId + " is not the leader of " + this);
        }
        ErrorCode enough = checkEnoughReplicas(requiredAcks);
        if (enough != ErrorCode.NONE) {
            throw new LogAppendException(enough, notEnoughReplicasMessage());
        }
        return s.leaderEpoch();
    }

    private void submit(CompletableFuture<AppendResult> result, Supplier<AppendResult> append) {
        completeOnWriter(result, () -> appendOnWriter(append));
    }

    /** Runs {@code work} on the writer thread and completes {@code result} with what it returns or throws. */
    private <T> void completeOnWriter(CompletableFuture<T> result, Supplier<T> work) {
        try {
            writer.execute(() -> {
                try {
                    result.complete(work.get());
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
     * A follower's fetch reported its log end (the single-node seam, with a fixed ISR): the high watermark
     * may move, completing acks=all produces and coordinator writes parked on this partition.
     */
    public void recordFollowerLogEnd(int replicaId, long logEndOffset) {
        recordFollowerFetch(replicaId, logEndOffset, -1L);
    }

    /**
     * As {@link #recordFollowerLogEnd}, with the log start offset the follower's fetch reported ({@code -1}:
     * not reported, the last one stands): the low watermark may move, completing DeleteRecords parked here.
     */
    public void recordFollowerFetch(int replicaId, long logEndOffset, long logStartOffset) {
        boolean moved;
        synchronized (this) {
            FollowerState f = followers.get(replicaId);
            if (f == null) {
                return;
            }
            f.logEndOffset = logEndOffset;
            moved = maybeAdvanceHighWatermark() | recordFollowerLogStart(f, logStartOffset);
        }
        if (moved) {
            waiting.wake(this);
        }
    }

    /**
     * Records a follower's reported log start; true when that may move the low watermark (it rose from the
     * lowest). Caller holds the lock.
     */
    private boolean recordFollowerLogStart(FollowerState f, long logStartOffset) {
        if (logStartOffset < 0 || logStartOffset == f.logStartOffset) {
            return false;
        }
        long before = f.logStartOffset;
        f.logStartOffset = logStartOffset;
        return before < log.logStartOffset();
    }

    /**
     * Recomputes the leader's high watermark as the smallest log end over the maximal ISR (never moving it
     * back); true if it moved. A follower whose log end is not known yet (-1) holds it where it is.
     */
    private synchronized boolean maybeAdvanceHighWatermark() {
        PartitionState s = state;
        if (!s.isLeader() || isUnderMinIsr(s)) {
            // Kafka's maybeIncrementLeaderHW: nothing is committed while the ISR is below min.insync.replicas.
            return false;
        }
        long candidate = log.logEndOffset();
        for (int replica : s.maximalIsr()) {
            if (replica == localBrokerId) {
                continue;
            }
            FollowerState f = followers.get(replica);
            candidate = Math.min(candidate, f == null ? -1 : f.logEndOffset);
        }
        if (candidate > highWatermark) {
            highWatermark = candidate;
            if (!isAloneLeader(s)) {
                log.updateHighWatermark(candidate);
            }
            return true;
        }
        return false;
    }

    /**
     * A leader with no other replica in its maximal ISR, and (in a cluster) not below min.insync.replicas:
     * every append is committed as soon as it is in the log.
     */
    private boolean isAloneLeader(PartitionState s) {
        if (!s.isLeader()) {
            return false;
        }
        for (int replica : s.maximalIsr()) {
            if (replica != localBrokerId) {
                return false;
            }
        }
        return !isUnderMinIsr(s);
    }

    /**
     * Kafka's isUnderMinIsr: a leader whose committed ISR is smaller than min.insync.replicas, so its high
     * watermark must not move. Never on one node (no controller): there the topic's min.insync.replicas only
     * refuses acks=all appends up front, as before.
     */
    private boolean isUnderMinIsr(PartitionState s) {
        return localBrokerId != NO_BROKER && s.isLeader() && s.isr().size() < minInsyncReplicas();
    }

    // ---------------------------------------------------------------- leadership

    /** The current replication state (one consistent version). */
    public PartitionState state() {
        return state;
    }

    /** Whether this broker leads the partition now (always for the single-node constructor). */
    public boolean isLeader() {
        return state.isLeader();
    }

    /** The current leader's broker id, or -1 when unknown/none (always -1 for the single-node constructor). */
    public int leaderId() {
        return state.leaderId();
    }

    /** The committed in-sync replicas (node ids), the leader included; empty for the single-node constructor. */
    public List<Integer> inSyncReplicas() {
        return localBrokerId == NO_BROKER ? List.of() : state.isr();
    }

    /** The replicas in preference order; empty for the single-node constructor. */
    public List<Integer> replicas() {
        return localBrokerId == NO_BROKER ? List.of() : state.replicas();
    }

    /**
     * Kafka's leader check for a client or follower request carrying {@code requestLeaderEpoch} (-1: none):
     * FENCED_LEADER_EPOCH (the request's epoch is older than ours), UNKNOWN_LEADER_EPOCH (newer: our metadata
     * lags), else NOT_LEADER_OR_FOLLOWER when this broker does not lead, else NONE. Epoch first, as Kafka's
     * localLogWithEpochOrThrow.
     */
    public ErrorCode checkLeader(int requestLeaderEpoch) {
        PartitionState s = state;
        if (requestLeaderEpoch >= 0) {
            if (requestLeaderEpoch < s.leaderEpoch()) {
                return ErrorCode.FENCED_LEADER_EPOCH;
            }
            if (requestLeaderEpoch > s.leaderEpoch()) {
                return ErrorCode.UNKNOWN_LEADER_EPOCH;
            }
        }
        return s.isLeader() ? ErrorCode.NONE : ErrorCode.NOT_LEADER_OR_FOLLOWER;
    }

    /**
     * NOT_ENOUGH_REPLICAS when acks=all and the committed ISR is smaller than the topic's
     * {@code min.insync.replicas}, else NONE (Kafka checks the committed ISR, not a pending one).
     */
    public ErrorCode checkEnoughReplicas(short requiredAcks) {
        if (requiredAcks != -1) {
            return ErrorCode.NONE;
        }
        return isrSize(state) < minInsyncReplicas() ? ErrorCode.NOT_ENOUGH_REPLICAS : ErrorCode.NONE;
    }

    /** Kafka's message for NOT_ENOUGH_REPLICAS(_AFTER_APPEND). */
    public String notEnoughReplicasMessage() {
        PartitionState s = state;
        return "The size of the current ISR " + (localBrokerId == NO_BROKER ? isrSize(s) : s.isr())
                + " is insufficient to satisfy the min.isr requirement of " + minInsyncReplicas()
                + " for partition " + this;
    }

    /** The topic's min.insync.replicas, read from the log's config each time (configs can change). */
    public int minInsyncReplicas() {
        String v = log.config().get(LogConfig.MIN_INSYNC_REPLICAS);
        return v == null ? 1 : Integer.parseInt(v);
    }

    private int isrSize(PartitionState s) {
        // The single-node constructor's ISR lists only the followers: the leader is this broker.
        return localBrokerId == NO_BROKER ? s.isr().size() + 1 : s.isr().size();
    }

    /**
     * Applies a registration that names this broker leader (Kafka's makeLeader), on the metadata thread. A new
     * leader epoch (or a former follower) starts afresh: follower states reset, in-sync followers count as
     * caught up now, any pending ISR change dropped; a newer partition epoch at the same leader epoch adopts
     * the ISR and replicas (typically the AlterPartition this leader asked for). Older registrations are ignored.
     *
     * @return true if this broker has just become leader or the leader epoch moved (a leadership change)
     */
    public boolean makeLeader(PartitionRegistration registration, long nowMs) {
        boolean newLeadership;
        synchronized (this) {
            PartitionState s = state;
            if (isStale(s, registration)) {
                return false;
            }
            newLeadership = !s.isLeader() || registration.leaderEpoch() > s.leaderEpoch();
            holdHighWatermarkAtLogEndIfAlone(s);
            long leaderLogEnd = log.logEndOffset();
            if (newLeadership) {
                followers.clear();
                // Kafka's makeLeader (assignEpochStartOffset): the new epoch starts at the log end before the
                // leader state is visible, so OffsetForLeaderEpoch and a fetch's DivergingEpoch answer the
                // previous epoch's end at once; without it a follower ahead in epochs never truncates.
                log.assignEpochStartOffset(registration.leaderEpoch(), leaderLogEnd);
            }
            followers.keySet().removeIf(r -> !registration.replicas().contains(r));
            for (int r : registration.replicas()) {
                if (r != localBrokerId) {
                    // Kafka resets a replica's state on a new leader: log end unknown, an in-sync one caught up now.
                    followers.computeIfAbsent(r, id -> new FollowerState(registration.isr().contains(id) ? nowMs : 0));
                }
            }
            state = new PartitionState(PartitionState.Role.LEADER, localBrokerId, registration.leaderEpoch(),
                    registration.partitionEpoch(), registration.replicas(), registration.isr(), null,
                    newLeadership ? leaderLogEnd : s.leaderEpochStartOffset());
            publishHighWatermark();
            maybeAdvanceHighWatermark();
        }
        // Parked fetches and produces re-check: the HWM, the ISR or the role may have changed.
        waiting.wake(this);
        return newLeadership;
    }

    /**
     * Applies a registration that makes this broker a follower (of {@code registration.leader()}, -1 when
     * the partition has no leader), on the metadata thread. Appends are refused from now on; the high
     * watermark comes from the leader's fetch responses.
     *
     * @return true if the leader or leader epoch changed (the fetcher must start over), false for an older or
     *     same-epoch registration that only changes the ISR
     */
    public boolean makeFollower(PartitionRegistration registration) {
        boolean changed;
        synchronized (this) {
            PartitionState s = state;
            if (isStale(s, registration)) {
                return false;
            }
            changed = s.isLeader() || registration.leaderEpoch() > s.leaderEpoch()
                    || registration.leader() != s.leaderId();
            holdHighWatermarkAtLogEndIfAlone(s);
            followers.clear();
            state = new PartitionState(PartitionState.Role.FOLLOWER, registration.leader(), registration.leaderEpoch(),
                    registration.partitionEpoch(), registration.replicas(), registration.isr(), null, -1);
            highWatermark = Math.min(highWatermark, log.logEndOffset());
            log.updateHighWatermark(highWatermark);
        }
        waiting.wake(this);
        return changed;
    }

    /** A registration older than (or the same as) the one applied: images are applied in order, but be safe. */
    private static boolean isStale(PartitionState s, PartitionRegistration registration) {
        return registration.leaderEpoch() < s.leaderEpoch()
                || registration.leaderEpoch() == s.leaderEpoch() && registration.partitionEpoch() <= s.partitionEpoch();
    }

    /**
     * Tells the log how far transactions are committed: the high watermark, or (a leader alone in its ISR)
     * Long.MAX_VALUE, handing the decision to the log as on one node. Caller holds the lock.
     */
    private void publishHighWatermark() {
        log.updateHighWatermark(isAloneLeader(state) ? Long.MAX_VALUE : highWatermark);
    }

    /** Leaving the alone-leader state, where the log end was the HWM: the field must hold that value now. */
    private void holdHighWatermarkAtLogEndIfAlone(PartitionState s) {
        if (isAloneLeader(s)) {
            highWatermark = Math.max(highWatermark, log.logEndOffset());
        }
    }

    /**
     * The leader side of a follower's fetch at {@code fetchOffset} (Kafka's updateFollowerFetchState): its log
     * end and caught-up time, then the ISR may expand and the high watermark move. Unknown replicas, calls on
     * a follower and fetches with an older broker epoch than the replica's last one are ignored.
     */
    public void updateFollowerFetchState(int replicaId, long followerBrokerEpoch, long fetchOffset, long nowMs) {
        updateFollowerFetchState(replicaId, followerBrokerEpoch, fetchOffset, -1L, nowMs);
    }

    /**
     * As {@link #updateFollowerFetchState(int, long, long, long)}, with the fetch's LogStartOffset (Fetch v5+;
     * -1: not sent): the follower's log start, which the low watermark of DeleteRecords waits for.
     */
    public void updateFollowerFetchState(int replicaId, long followerBrokerEpoch, long fetchOffset,
            long followerLogStartOffset, long nowMs) {
        if (localBrokerId == NO_BROKER) {
            recordFollowerFetch(replicaId, fetchOffset, followerLogStartOffset);
            return;
        }
        boolean moved;
        synchronized (this) {
            PartitionState s = state;
            FollowerState f = followers.get(replicaId);
            if (!s.isLeader() || f == null) {
                return;
            }
            if (followerBrokerEpoch >= 0 && f.brokerEpoch >= 0 && followerBrokerEpoch < f.brokerEpoch) {
                // Kafka's "stale fetch state update": a fetch from the replica's previous incarnation, answered
                // late, must not move its log end back or count toward the ISR.
                return;
            }
            long leaderLogEnd = log.logEndOffset();
            if (fetchOffset >= leaderLogEnd) {
                f.lastCaughtUpTimeMs = Math.max(f.lastCaughtUpTimeMs, nowMs);
            } else if (fetchOffset >= f.lastFetchLeaderLogEndOffset) {
                f.lastCaughtUpTimeMs = Math.max(f.lastCaughtUpTimeMs, f.lastFetchTimeMs);
            }
            f.logEndOffset = fetchOffset;
            f.lastFetchLeaderLogEndOffset = leaderLogEnd;
            f.lastFetchTimeMs = nowMs;
            f.brokerEpoch = followerBrokerEpoch;
            boolean lowWatermarkMayMove = recordFollowerLogStart(f, followerLogStartOffset);
            maybeExpandIsr(s, replicaId, f);
            moved = maybeAdvanceHighWatermark() | lowWatermarkMayMove;
        }
        if (moved) {
            waiting.wake(this);
        }
    }

    /**
     * Kafka's maybeExpandIsr: a replica outside the ISR that has reached the high watermark and the start of
     * this leader's epoch, and that the controller would accept, is proposed. Caller holds the lock.
     */
    private void maybeExpandIsr(PartitionState s, int replicaId, FollowerState f) {
        if (s.pendingIsr() != null || s.isr().contains(replicaId) || !s.replicas().contains(replicaId)) {
            return;
        }
        if (f.logEndOffset >= highWatermark() && f.logEndOffset >= s.leaderEpochStartOffset()
                && isIsrEligible(replicaId, f)) {
            List<Integer> expanded = new ArrayList<>(s.isr());
            expanded.add(replicaId);
            proposeIsr(s, expanded);
        }
    }

    /**
     * Kafka's isReplicaIsrEligible, from the newest image this broker has: registered, unfenced, not shutting
     * down, and fetching with its current broker epoch (so the controller will not refuse the change).
     */
    private boolean isIsrEligible(int replicaId, FollowerState f) {
        BrokerRegistration broker = controller.image().broker(replicaId).orElse(null);
        return broker != null && !broker.fenced() && !broker.inControlledShutdown()
                && (f.brokerEpoch < 0 || f.brokerEpoch == broker.epoch());
    }

    /**
     * Kafka's maybeShrinkIsr, run periodically by the ReplicaManager: in-sync followers that have not been
     * caught up within {@code replicaLagTimeMaxMs} are proposed out of the ISR.
     *
     * @return the replicas proposed out (empty when nothing changes, or a change is already pending)
     */
    public List<Integer> maybeShrinkIsr(long nowMs, long replicaLagTimeMaxMs) {
        if (localBrokerId == NO_BROKER) {
            return List.of();
        }
        synchronized (this) {
            PartitionState s = state;
            if (!s.isLeader() || s.pendingIsr() != null) {
                return List.of();
            }
            long leaderLogEnd = log.logEndOffset();
            List<Integer> outOfSync = new ArrayList<>();
            for (int r : s.isr()) {
                FollowerState f = followers.get(r);
                if (r != localBrokerId && f != null && !f.isCaughtUp(leaderLogEnd, nowMs, replicaLagTimeMaxMs)) {
                    outOfSync.add(r);
                }
            }
            if (outOfSync.isEmpty()) {
                return List.of();
            }
            List<Integer> shrunk = new ArrayList<>(s.isr());
            shrunk.removeAll(outOfSync);
            proposeIsr(s, shrunk);
            return outOfSync;
        }
    }

    /**
     * Sends an AlterPartition for {@code newIsr} (one in flight: the state records it as pending), as Kafka's
     * submitAlterPartition and handleAlterPartitionError. Success keeps it pending until the image shows the
     * new registration (see {@link #makeLeader}). Only a refusal proving the controller did not apply it
     * (INELIGIBLE_REPLICA, OPERATION_NOT_ATTEMPTED, INVALID_REQUEST) clears it, so the next fetch or shrink
     * check proposes again. FENCED_LEADER_EPOCH and INVALID_UPDATE_VERSION mean our image is behind: it stays
     * pending until the image shows the outcome. A timeout or any other failure may still be applied later
     * (a Ratis retry), so it stays pending too, and the same change is sent again after
     * {@link #ALTER_PARTITION_RETRY_BACKOFF_MS}: the high watermark keeps waiting for the maximal ISR meanwhile.
     * Caller holds the lock.
     */
    private void proposeIsr(PartitionState s, List<Integer> newIsr) {
        PartitionState pending = s.withPendingIsr(newIsr);
        holdHighWatermarkAtLogEndIfAlone(s);
        state = pending;
        publishHighWatermark();
        sendAlterPartition(pending);
    }

    private void sendAlterPartition(PartitionState pending) {
        ControllerCommand.AlterPartition command = new ControllerCommand.AlterPartition(localBrokerId,
                brokerEpoch.getAsLong(), topicId, partition(), pending.leaderEpoch(), pending.partitionEpoch(),
                pending.pendingIsr());
        CompletableFuture<CommandResult> sent;
        try {
            sent = controller.submit(command);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((result, error) -> {
            ErrorCode code = error != null ? null : errorOf(result);
            if (code == ErrorCode.NONE || code == ErrorCode.FENCED_LEADER_EPOCH
                    || code == ErrorCode.INVALID_UPDATE_VERSION) {
                return;
            }
            if (code == ErrorCode.INELIGIBLE_REPLICA || code == ErrorCode.OPERATION_NOT_ATTEMPTED
                    || code == ErrorCode.INVALID_REQUEST) {
                clearPendingIsr(pending);
                return;
            }
            CompletableFuture.delayedExecutor(ALTER_PARTITION_RETRY_BACKOFF_MS, TimeUnit.MILLISECONDS)
                    .execute(() -> resendAlterPartition(pending));
        });
    }

    /** Sends the same change again if it is still the pending one (no newer image, partition still here). */
    private void resendAlterPartition(PartitionState pending) {
        synchronized (this) {
            if (state != pending || removed) {
                return;
            }
            sendAlterPartition(pending);
        }
    }

    /** The command's error, else the first item's, else NONE (a null result counts as UNKNOWN_SERVER_ERROR). */
    private static ErrorCode errorOf(CommandResult result) {
        if (result == null) {
            return ErrorCode.UNKNOWN_SERVER_ERROR;
        }
        if (result.error() != ErrorCode.NONE) {
            return result.error();
        }
        for (ItemResult item : result.items()) {
            if (item.error() != ErrorCode.NONE) {
                return item.error();
            }
        }
        return ErrorCode.NONE;
    }

    private synchronized void clearPendingIsr(PartitionState pending) {
        // A newer image may have replaced the state meanwhile: then there is nothing of ours to undo.
        if (state == pending) {
            state = pending.withPendingIsr(null);
            publishHighWatermark();
        }
    }

    /** The follower side: the leader's high watermark from a fetch response, clamped to this log's end. */
    public void updateFollowerHighWatermark(long leaderHighWatermark) {
        boolean moved;
        synchronized (this) {
            if (state.isLeader()) {
                return;
            }
            long next = Math.max(log.logStartOffset(), Math.min(leaderHighWatermark, log.logEndOffset()));
            moved = next != highWatermark;
            highWatermark = next;
            log.updateHighWatermark(next);
        }
        if (moved) {
            waiting.wake(this);
        }
    }

    /**
     * The follower side of the leader's LogStartOffset in a fetch response (Kafka's ReplicaFetcherThread after
     * its append): this log's start follows it forward on the writer thread, deleting the segments wholly
     * below it and checkpointing it, so that the leader's DeleteRecords completes once every replica is there.
     * Nothing happens when the leader's start is not above ours, or is above our high watermark (then this
     * replica is behind and its fetches catch up first). Refused as {@link #truncateTo} if this broker leads.
     */
    public CompletableFuture<Void> followLeaderLogStartOffset(long leaderLogStartOffset) {
        if (leaderLogStartOffset <= log.logStartOffset()) {
            return CompletableFuture.completedFuture(null);
        }
        return onWriter(() -> {
            refuseIfLeader("take the leader's log start");
            if (leaderLogStartOffset <= highWatermark) {
                log.maybeIncrementLogStartOffset(leaderLogStartOffset);
            }
        });
    }

    /**
     * Kafka's Partition.deleteRecordsOnLeader (DeleteRecords), on the writer thread: the log start moves
     * forward to {@code offset} ({@code -1}: the high watermark), deleting the segments wholly below it.
     * Completes with the low watermark then ({@link #lowWatermark}); the caller waits for it to reach the
     * offset the log start moved to (the completed value is below it while followers have not followed yet).
     * Fails with a {@code LogException}: NOT_LEADER_OR_FOLLOWER when this broker does not lead,
     * POLICY_VIOLATION when the topic's cleanup.policy lacks delete, OFFSET_OUT_OF_RANGE for an offset below
     * -1 or above the high watermark.
     *
     * @return a future of {@link DeletedRecords}: the offset the log start was asked to reach, and the low watermark
     */
    public CompletableFuture<DeletedRecords> deleteRecordsOnLeader(long offset) {
        CompletableFuture<DeletedRecords> result = new CompletableFuture<>();
        completeOnWriter(result, () -> deleteRecordsOnWriter(offset));
        return result;
    }

    /** What DeleteRecords did on the leader: the offset asked for (the HWM for -1) and the low watermark then. */
    public record DeletedRecords(long requestedOffset, long lowWatermark) {
    }

    private DeletedRecords deleteRecordsOnWriter(long offset) {
        if (!state.isLeader()) {
            throw new LogAppendException(ErrorCode.NOT_LEADER_OR_FOLLOWER,
                    "Leader not local for partition " + this + " on broker " + localBrokerId);
        }
        if (!log.config().isDelete()) {
            throw new LogAppendException(ErrorCode.POLICY_VIOLATION,
                    "Records of partition " + this + " can not be deleted due to the configured policy");
        }
        long converted = offset == -1L ? highWatermark() : offset;
        if (converted < 0) {
            throw new OffsetOutOfRangeException("The offset " + converted + " for partition " + this + " is not valid");
        }
        log.maybeIncrementLogStartOffset(converted);
        // Nothing parked here waits for the log start but DeleteRecords itself; followers learn it by fetching.
        waiting.wake(this);
        return new DeletedRecords(converted, lowWatermark());
    }

    /**
     * Kafka's lowWatermarkIfLeader: the smallest log start offset over this replica and every other replica
     * of the assignment whose broker is alive (registered and not fenced in the newest image; on one node
     * every follower counts), as the followers last reported it in their fetches (-1 until one has). What a
     * DeleteRecords waits for. -1 when this broker does not lead.
     */
    public synchronized long lowWatermark() {
        if (!state.isLeader()) {
            return -1L;
        }
        long low = log.logStartOffset();
        for (Map.Entry<Integer, FollowerState> e : followers.entrySet()) {
            long start = e.getValue().logStartOffset;
            if (start < low && isAlive(e.getKey())) {
                low = start;
            }
        }
        return low;
    }

    private boolean isAlive(int brokerId) {
        if (controller == null) {
            return true;
        }
        BrokerRegistration broker = controller.image().broker(brokerId).orElse(null);
        return broker != null && !broker.fenced();
    }

    /**
     * A follower's append of batches fetched from the leader, on the writer thread, exactly as the leader
     * wrote them (offsets, epochs). Refused (NOT_LEADER_OR_FOLLOWER, nothing written) if this broker leads.
     */
    public CompletableFuture<AppendResult> appendAsFollower(ByteBuffer records) {
        CompletableFuture<AppendResult> result = new CompletableFuture<>();
        submit(result, () -> {
            // Under the lock: a makeLeader between this check and the write would otherwise lead a log that
            // still takes the old leader's records.
            synchronized (this) {
                refuseIfLeader("append as a follower");
                return log.appendAsFollower(records);
            }
        });
        return result;
    }

    /**
     * A follower drops its divergent tail from {@code offset} on (on the writer thread); the HWM follows.
     * Refused (NOT_LEADER_OR_FOLLOWER, nothing cut) if this broker leads by the time the writer runs it.
     */
    public CompletableFuture<Void> truncateTo(long offset) {
        return onWriter(() -> {
            refuseIfLeader("truncate");
            log.truncateTo(offset);
        });
    }

    /**
     * A follower far behind the leader's log start empties its log and starts again at {@code offset};
     * refused as {@link #truncateTo} if this broker leads by then.
     */
    public CompletableFuture<Void> truncateFullyAndStartAt(long offset) {
        return onWriter(() -> {
            refuseIfLeader("truncate");
            log.truncateFullyAndStartAt(offset);
        });
    }

    /** On the writer, under the lock: a follower's write queued before a makeLeader must not touch the leader. */
    private void refuseIfLeader(String what) {
        if (state.isLeader()) {
            throw new LogAppendException(ErrorCode.NOT_LEADER_OR_FOLLOWER,
                    "Broker " + localBrokerId + " leads " + this + ": it does not " + what + " as a follower");
        }
    }

    private CompletableFuture<Void> onWriter(Runnable truncation) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        completeOnWriter(done, () -> {
            synchronized (this) {
                truncation.run();
                highWatermark = Math.max(log.logStartOffset(), Math.min(highWatermark, log.logEndOffset()));
                publishHighWatermark();
            }
            waiting.wake(this);
            return null;
        });
        return done;
    }

    /**
     * For a follower fetching at {@code fetchOffset} after epoch {@code lastFetchedEpoch} (-1: not sent): the
     * epoch and end offset it must truncate to when its log diverges from ours (Fetch v12+'s DivergingEpoch),
     * else empty. As Kafka's Partition.fetchRecords: diverging when our log has no such epoch (we answer the
     * largest epoch below it) or that epoch ended before the follower's fetch offset.
     */
    public Optional<EpochEndOffset> divergingEpoch(int lastFetchedEpoch, long fetchOffset) {
        if (lastFetchedEpoch < 0) {
            return Optional.empty();
        }
        EpochEndOffset end = log.endOffsetForEpoch(lastFetchedEpoch);
        if (end.endOffset() < fetchOffset || end.leaderEpoch() < lastFetchedEpoch) {
            return Optional.of(end);
        }
        return Optional.empty();
    }

    /** OffsetForLeaderEpoch: where {@code epoch} ended in this leader's log. */
    public EpochEndOffset endOffsetForEpoch(int epoch) {
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
        if (isolation == FetchIsolation.LOG_END || isAloneLeader(state)) {
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
