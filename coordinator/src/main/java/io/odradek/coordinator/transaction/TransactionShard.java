package io.odradek.coordinator.transaction;

import static io.odradek.coordinator.transaction.TransactionMetadata.NO_PRODUCER_ID;
import static io.odradek.coordinator.transaction.TransactionMetadata.TV_0;
import static io.odradek.coordinator.transaction.TransactionMetadata.TV_2;
import static io.odradek.coordinator.transaction.TransactionMetadata.supportsEpochBump;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.runtime.CoordinatorContext;
import io.odradek.coordinator.runtime.CoordinatorResult;
import io.odradek.coordinator.runtime.CoordinatorShard;
import io.odradek.coordinator.runtime.Scheduler;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.regex.Pattern;

/**
 * The transactional ids of one {@code __transaction_state} partition (Kafka's TransactionStateManager
 * cache plus the TransactionCoordinator's rules for them), confined to the partition's coordinator thread.
 *
 * <p>State changes only by {@link #replay} of this partition's records: an operation computes the next
 * {@link TransactionMetadata} from the committed one and returns it as a record; the runtime appends it and,
 * once committed, replays it here (as load does) and answers. Writes are serialised by the runtime, so
 * Kafka's "pending transition" (CONCURRENT_TRANSACTIONS while an append is in flight) only shows here as
 * the one long transition Kafka has too: a prepared transaction whose markers are being written
 * ({@link #completing}).
 *
 * <p>Completion: once PrepareCommit/PrepareAbort is committed (or found at load) the markers go to every
 * partition of the transaction through the {@link TransactionMarkerWriter} with this partition's coordinator
 * epoch; partitions that failed retriably, or whose write was not answered within 30 s, are retried after
 * a backoff (logged once a minute at most), a non-retriable error stops the sending as in Kafka; then
 * CompleteCommit/CompleteAbort is written. Timers: transactions older than their timeout are aborted (their epoch bumped, as Kafka does),
 * idle transactional ids older than {@code transactional.id.expiration.ms} get tombstones.
 */
final class TransactionShard implements CoordinatorShard<TransactionRecord> {
    private static final System.Logger LOG = System.getLogger(TransactionShard.class.getName());
    /** At most this many records in one timer write (each a small record; keeps a batch well under 1 MB). */
    private static final int MAX_RECORDS_PER_WRITE = 500;
    /** Markers retried for long (a partition offline) are logged this often, not at every backoff. */
    static final long RETRY_LOG_INTERVAL_MS = 60_000;

    private final CoordinatorContext<TransactionRecord> context;
    /** This partition's thread: marker answers come back on other threads and are handled here. */
    private final Scheduler thread;
    private final TransactionCoordinatorConfig config;
    private final TransactionMarkerWriter markers;
    private final ProducerIdSource producerIds;
    private final int coordinatorEpoch;
    private final Map<String, TransactionMetadata> transactions = new HashMap<>();
    /** Prepared transactions whose markers are being written (Kafka's pending Complete* transition). */
    private final Map<String, Completion> completing = new HashMap<>();
    private boolean unloaded;

    TransactionShard(CoordinatorContext<TransactionRecord> context, Scheduler thread, TransactionCoordinatorConfig config,
            TransactionMarkerWriter markers, ProducerIdSource producerIds, int coordinatorEpoch) {
        this.context = context;
        this.thread = thread;
        this.config = config;
        this.markers = markers;
        this.producerIds = producerIds;
        this.coordinatorEpoch = coordinatorEpoch;
    }

    // ------------------------------------------------------------------ state

    @Override
    public void replay(TransactionRecord record) {
        if (record.metadata() == null) {
            transactions.remove(record.transactionalId());
        } else {
            transactions.put(record.transactionalId(), record.metadata());
        }
    }

    /** Prepared transactions found in the log are completed (their markers sent again); timers start. */
    @Override
    public void onLoaded() {
        List<Completion> prepared = new ArrayList<>();
        transactions.forEach((id, m) -> {
            if (isPrepared(m.state())) {
                Completion c = new Completion(id, m);
                completing.put(id, c); // pending from now on, as in Kafka
                prepared.add(c);
            }
        });
        if (!prepared.isEmpty()) {
            // Sent once the partition serves (writes are refused while it loads, and completions are writes).
            context.schedule(0, "complete-prepared-transactions", () -> {
                prepared.forEach(this::sendMarkers);
                return CoordinatorResult.of(null);
            });
        }
        context.schedule(config.abortTimedOutTransactionsIntervalMs(), "abort-timed-out-transactions", this::abortTimedOutTransactions);
        context.schedule(config.removeExpiredTransactionalIdsIntervalMs(), "expire-transactional-ids", this::expireTransactionalIds);
        if (!transactions.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "transaction state partition " + context.partition() + ": " + transactions.size()
                    + " transactional ids, " + prepared.size() + " prepared transactions being completed");
        }
    }

    /** Markers in flight are dropped: the next leader loads the prepared state and sends them again. */
    @Override
    public void onUnloaded() {
        unloaded = true;
        completing.clear();
    }

    /** For tests and describe: the committed state of an id, or null. */
    TransactionMetadata get(String transactionalId) {
        return transactions.get(transactionalId);
    }

    private static boolean isPrepared(TransactionState state) {
        return state == TransactionState.PREPARE_COMMIT || state == TransactionState.PREPARE_ABORT;
    }

    private long now() {
        return context.nowMs();
    }

    private static TransactionRecord record(String transactionalId, TransactionMetadata metadata) {
        return new TransactionRecord(transactionalId, metadata);
    }

    /** Writes the prepared state, answers once committed, then sends the markers. */
    private <T> CoordinatorResult<T, TransactionRecord> prepared(String transactionalId, TransactionMetadata next, T response) {
        return new CoordinatorResult<>(List.of(record(transactionalId, next)), response, true, error -> {
            if (error == ErrorCode.NONE) {
                startMarkers(transactionalId);
            }
        });
    }

    // ------------------------------------------------------------------ InitProducerId

    /**
     * Kafka's InitProducerId for a transactional id (the request's own checks, timeout and 2PC flags, are the
     * caller's).
     *
     * @param expectedProducerId -1 when the producer gave none (then {@code expectedEpoch} is ignored)
     */
    CoordinatorResult<InitProducerIdResult, TransactionRecord> initProducerId(String transactionalId, int timeoutMs,
            long expectedProducerId, short expectedEpoch) {
        try {
            return initProducerIdChecked(transactionalId, timeoutMs, expectedProducerId, expectedEpoch);
        } catch (TransactionException e) {
            return CoordinatorResult.of(InitProducerIdResult.error(e.error()));
        }
    }

    private CoordinatorResult<InitProducerIdResult, TransactionRecord> initProducerIdChecked(String transactionalId,
            int timeoutMs, long expectedProducerId, short expectedEpoch) {
        boolean expected = expectedProducerId != NO_PRODUCER_ID;
        TransactionMetadata m = transactions.get(transactionalId);
        if (m == null) {
            m = TransactionMetadata.fresh(producerIds.next(), timeoutMs, now());
        }
        if (completing.containsKey(transactionalId)) {
            return CoordinatorResult.of(InitProducerIdResult.error(ErrorCode.CONCURRENT_TRANSACTIONS));
        }
        if (expected && !isValidProducerId(m, expectedProducerId, expectedEpoch)) {
            return CoordinatorResult.of(InitProducerIdResult.error(ErrorCode.PRODUCER_FENCED));
        }
        switch (m.state()) {
            case PREPARE_COMMIT, PREPARE_ABORT -> {
                return CoordinatorResult.of(InitProducerIdResult.error(ErrorCode.CONCURRENT_TRANSACTIONS));
            }
            case EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT -> {
                TransactionMetadata next;
                if (m.isEpochExhausted() && (!expected || expectedEpoch == m.producerEpoch())) {
                    next = m.rotateProducerId(producerIds.next(), timeoutMs, now(), expected);
                } else if (m.isEpochExhausted()) {
                    // Kafka fails the epoch bump it then attempts with an internal error.
                    return CoordinatorResult.of(InitProducerIdResult.error(ErrorCode.UNKNOWN_SERVER_ERROR));
                } else {
                    next = m.incrementEpoch(timeoutMs, expected ? expectedEpoch : null, now());
                }
                LOG.log(System.Logger.Level.DEBUG, () -> "initialized transactional id " + transactionalId);
                return CoordinatorResult.of(List.of(record(transactionalId, next)),
                        new InitProducerIdResult(ErrorCode.NONE, next.producerId(), next.producerEpoch()));
            }
            case ONGOING -> {
                // The previous producer's transaction is aborted first (its epoch fenced); the new producer is
                // told to retry, and its retry bumps the epoch once more. The fence follows the cluster's
                // transaction.version, as in Kafka.
                TransactionMetadata aborting = prepareAbort(m, config.transactionVersionLevel());
                return prepared(transactionalId, aborting, InitProducerIdResult.error(ErrorCode.CONCURRENT_TRANSACTIONS));
            }
            default -> throw new IllegalStateException(transactionalId + " is in state " + m.state()
                    + ", which is never stored");
        }
    }

    /**
     * KIP-360: a producer that names its id and epoch is fenced unless the id is new, or is the current one
     * (its epoch is checked by the bump), or is the previous one with an exhausted epoch (a retried rotation).
     */
    private static boolean isValidProducerId(TransactionMetadata m, long producerId, short epoch) {
        return m.producerEpoch() == TransactionMetadata.NO_PRODUCER_EPOCH
                || producerId == m.producerId()
                || (producerId == m.prevProducerId() && TransactionMetadata.isEpochExhausted(epoch));
    }

    /**
     * The abort the coordinator starts itself (a fenced producer's or a timed-out transaction), its epoch
     * bumped once: protocol v1 fences the epoch first, v2 bumps it when preparing (moving to a new producer
     * id on completion when the epoch ran out).
     */
    private TransactionMetadata prepareAbort(TransactionMetadata m, short transactionVersion) {
        if (!supportsEpochBump(transactionVersion)) {
            return m.withFencedEpoch(m.fencedEpoch()).prepareEnd(TransactionState.PREPARE_ABORT, TV_0, NO_PRODUCER_ID, now(), false);
        }
        long nextProducerId = m.isEpochExhausted() ? producerIds.next() : NO_PRODUCER_ID;
        return m.prepareEnd(TransactionState.PREPARE_ABORT, TV_2, nextProducerId, now(), false);
    }

    // ------------------------------------------------------------------ AddPartitionsToTxn, AddOffsetsToTxn, verification

    /**
     * AddPartitionsToTxn (and AddOffsetsToTxn's offsets partition, and the v2 implicit add on produce): the
     * transaction becomes Ongoing with these partitions. NONE at once when they are all in it already.
     *
     * @param transactionVersion 0 for the client's own request, 2 for the partition leader's v2 add
     */
    CoordinatorResult<ErrorCode, TransactionRecord> addPartitions(String transactionalId, long producerId, short producerEpoch,
            Set<TopicPartition> partitions, short transactionVersion) {
        TransactionMetadata m = transactions.get(transactionalId);
        if (m == null) {
            return CoordinatorResult.of(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
        }
        if (completing.containsKey(transactionalId)) {
            return CoordinatorResult.of(ErrorCode.CONCURRENT_TRANSACTIONS);
        }
        if (m.producerId() != producerId) {
            return CoordinatorResult.of(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
        }
        if (m.producerEpoch() != producerEpoch) {
            return CoordinatorResult.of(ErrorCode.PRODUCER_FENCED);
        }
        if (isPrepared(m.state())) {
            return CoordinatorResult.of(ErrorCode.CONCURRENT_TRANSACTIONS);
        }
        if (m.state() == TransactionState.ONGOING && m.partitions().containsAll(partitions)) {
            return CoordinatorResult.of(ErrorCode.NONE);
        }
        return CoordinatorResult.of(List.of(record(transactionalId, m.addPartitions(partitions, now(), transactionVersion))),
                ErrorCode.NONE);
    }

    /**
     * Verify-only (AddPartitionsToTxn v4 verifyOnly, a v1 transactional produce): NONE for the partitions in
     * the ongoing transaction, TRANSACTION_ABORTABLE for the others, or one error for all.
     */
    Map<TopicPartition, ErrorCode> verifyPartitions(String transactionalId, long producerId, short producerEpoch,
            Collection<TopicPartition> partitions) {
        TransactionMetadata m = transactions.get(transactionalId);
        ErrorCode error = null;
        if (m == null || m.producerId() != producerId) {
            error = ErrorCode.INVALID_PRODUCER_ID_MAPPING;
        } else if (m.producerEpoch() != producerEpoch) {
            error = ErrorCode.PRODUCER_FENCED;
        } else if (isPrepared(m.state())) {
            error = ErrorCode.CONCURRENT_TRANSACTIONS;
        }
        Map<TopicPartition, ErrorCode> out = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            out.put(tp, error != null ? error
                    : m.partitions().contains(tp) ? ErrorCode.NONE : ErrorCode.TRANSACTION_ABORTABLE);
        }
        return out;
    }

    // ------------------------------------------------------------------ EndTxn

    /** EndTxn from the client, under transaction protocol v1 (EndTxn v0-4) or v2 (v5+). */
    CoordinatorResult<EndTxnResult, TransactionRecord> endTransaction(String transactionalId, long producerId,
            short producerEpoch, boolean commit, boolean transactionV2) {
        try {
            return transactionV2 ? endTransactionV2(transactionalId, producerId, producerEpoch, commit)
                    : endTransactionV1(transactionalId, producerId, producerEpoch, commit);
        } catch (TransactionException e) {
            return CoordinatorResult.of(EndTxnResult.error(e.error()));
        }
    }

    private CoordinatorResult<EndTxnResult, TransactionRecord> endTransactionV1(String transactionalId, long producerId,
            short producerEpoch, boolean commit) {
        TransactionMetadata m = transactions.get(transactionalId);
        if (m == null || m.producerId() != producerId) {
            return CoordinatorResult.of(EndTxnResult.error(ErrorCode.INVALID_PRODUCER_ID_MAPPING));
        }
        if (producerEpoch != m.producerEpoch()) {
            return CoordinatorResult.of(EndTxnResult.error(ErrorCode.PRODUCER_FENCED));
        }
        if (completing.containsKey(transactionalId)) {
            return CoordinatorResult.of(EndTxnResult.error(ErrorCode.CONCURRENT_TRANSACTIONS));
        }
        return switch (m.state()) {
            case ONGOING -> prepareEnd(transactionalId, m, commit, TV_0, NO_PRODUCER_ID, false);
            // A retry of an EndTxn already done is answered as done.
            case COMPLETE_COMMIT -> commit ? done(m) : invalidTransition(transactionalId, m, commit);
            case COMPLETE_ABORT -> !commit ? done(m) : invalidTransition(transactionalId, m, commit);
            case PREPARE_COMMIT -> commit ? CoordinatorResult.of(EndTxnResult.error(ErrorCode.CONCURRENT_TRANSACTIONS))
                    : invalidTransition(transactionalId, m, commit);
            case PREPARE_ABORT -> !commit ? CoordinatorResult.of(EndTxnResult.error(ErrorCode.CONCURRENT_TRANSACTIONS))
                    : invalidTransition(transactionalId, m, commit);
            default -> invalidTransition(transactionalId, m, commit);
        };
    }

    /**
     * KIP-890: every EndTxn bumps the epoch, so a retry is recognised by the epoch (the stored one is the
     * request's plus one) or, past an epoch overflow, by the previous producer id; an abort with no
     * transaction open is allowed (and bumps the epoch too).
     */
    private CoordinatorResult<EndTxnResult, TransactionRecord> endTransactionV2(String transactionalId, long producerId,
            short producerEpoch, boolean commit) {
        TransactionMetadata m = transactions.get(transactionalId);
        if (m == null) {
            return CoordinatorResult.of(EndTxnResult.error(ErrorCode.INVALID_PRODUCER_ID_MAPPING));
        }
        boolean retryOnOverflow = m.prevProducerId() == producerId && producerEpoch == Short.MAX_VALUE - 1
                && m.producerEpoch() == 0;
        boolean retryOnEpochBump = m.producerEpoch() == producerEpoch + 1;
        boolean isRetry = retryOnEpochBump || retryOnOverflow;
        boolean validEpoch = switch (m.state()) {
            case PREPARE_COMMIT, PREPARE_ABORT -> retryOnEpochBump;
            case COMPLETE_COMMIT, COMPLETE_ABORT -> isRetry || producerEpoch == m.producerEpoch();
            default -> producerEpoch == m.producerEpoch();
        };
        if (completing.containsKey(transactionalId)) {
            return CoordinatorResult.of(EndTxnResult.error(ErrorCode.CONCURRENT_TRANSACTIONS));
        }
        if (m.producerId() != producerId && !retryOnOverflow) {
            return CoordinatorResult.of(EndTxnResult.error(ErrorCode.INVALID_PRODUCER_ID_MAPPING));
        }
        if (!validEpoch) {
            return CoordinatorResult.of(EndTxnResult.error(ErrorCode.PRODUCER_FENCED));
        }
        return switch (m.state()) {
            case ONGOING -> prepareEndV2(transactionalId, m, commit, false);
            case COMPLETE_COMMIT -> commit ? (isRetry ? done(m) : invalidTransition(transactionalId, m, commit))
                    : (isRetry ? invalidTransition(transactionalId, m, commit) : prepareEndV2(transactionalId, m, false, true));
            // A commit at a retry epoch after an abort: only the coordinator's own abort (timeout, fence) bumps
            // the epoch under a commit in flight, so the producer is fenced (recoverable), not INVALID_TXN_STATE
            // (fatal to the Java producer), as Kafka answers since KAFKA-20785.
            case COMPLETE_ABORT -> commit ? (isRetry ? fencedByAbort(transactionalId, m) : invalidTransition(transactionalId, m, commit))
                    : (isRetry ? done(m) : prepareEndV2(transactionalId, m, false, true));
            case PREPARE_COMMIT -> commit ? CoordinatorResult.of(EndTxnResult.error(ErrorCode.CONCURRENT_TRANSACTIONS))
                    : invalidTransition(transactionalId, m, commit);
            case PREPARE_ABORT -> !commit ? CoordinatorResult.of(EndTxnResult.error(ErrorCode.CONCURRENT_TRANSACTIONS))
                    : invalidTransition(transactionalId, m, commit);
            case EMPTY -> !commit ? prepareEndV2(transactionalId, m, false, true) : invalidTransition(transactionalId, m, commit);
            default -> throw new IllegalStateException(transactionalId + " is in state " + m.state() + ", which is never stored");
        };
    }

    private CoordinatorResult<EndTxnResult, TransactionRecord> prepareEndV2(String transactionalId, TransactionMetadata m,
            boolean commit, boolean noPartitionAdded) {
        long nextProducerId = m.isEpochExhausted() ? producerIds.next() : NO_PRODUCER_ID;
        return prepareEnd(transactionalId, m, commit, TV_2, nextProducerId, noPartitionAdded);
    }

    /** Writes PrepareCommit/PrepareAbort; the answer names the producer id and epoch the producer goes on with. */
    private CoordinatorResult<EndTxnResult, TransactionRecord> prepareEnd(String transactionalId, TransactionMetadata m,
            boolean commit, short transactionVersion, long nextProducerId, boolean noPartitionAdded) {
        TransactionMetadata next = m.prepareEnd(commit ? TransactionState.PREPARE_COMMIT : TransactionState.PREPARE_ABORT,
                transactionVersion, nextProducerId, now(), noPartitionAdded);
        TransactionMetadata after = next.complete(now());
        return prepared(transactionalId, next, new EndTxnResult(ErrorCode.NONE, after.producerId(), after.producerEpoch()));
    }

    private static CoordinatorResult<EndTxnResult, TransactionRecord> done(TransactionMetadata m) {
        return CoordinatorResult.of(new EndTxnResult(ErrorCode.NONE, m.producerId(), m.producerEpoch()));
    }

    private static CoordinatorResult<EndTxnResult, TransactionRecord> fencedByAbort(String transactionalId,
            TransactionMetadata m) {
        LOG.log(System.Logger.Level.DEBUG, () -> "transactional id " + transactionalId + ": commit after the coordinator"
                + " aborted the transaction (now epoch " + m.producerEpoch() + "): fenced");
        return CoordinatorResult.of(EndTxnResult.error(ErrorCode.PRODUCER_FENCED));
    }

    private static CoordinatorResult<EndTxnResult, TransactionRecord> invalidTransition(String transactionalId,
            TransactionMetadata m, boolean commit) {
        LOG.log(System.Logger.Level.DEBUG, () -> "transactional id " + transactionalId + ": cannot "
                + (commit ? "commit" : "abort") + " in state " + m.state());
        return CoordinatorResult.of(EndTxnResult.error(ErrorCode.INVALID_TXN_STATE));
    }

    // ------------------------------------------------------------------ markers and completion

    /** A prepared transaction whose markers are being written. */
    private static final class Completion {
        final String transactionalId;
        final long producerId;
        final short producerEpoch;
        final boolean commit;
        /** Partitions still without their marker. */
        final Set<TopicPartition> remaining;
        /** A partition answered a non-retriable error: Kafka stops sending. */
        boolean stopped;
        /** Answers that left partitions to retry, and when the last of them was logged. */
        int retries;
        long lastRetryLogMs;
        /** The write in flight (answers of earlier, timed-out ones are ignored) and its timeout. */
        int attempt;
        boolean inFlight;
        Scheduler.Timer timeout;

        Completion(String transactionalId, TransactionMetadata m) {
            this.transactionalId = transactionalId;
            this.producerId = m.producerId();
            this.producerEpoch = m.producerEpoch();
            this.commit = m.state() == TransactionState.PREPARE_COMMIT;
            this.remaining = new TreeSet<>(m.partitions());
        }
    }

    private void startMarkers(String transactionalId) {
        TransactionMetadata m = transactions.get(transactionalId);
        if (m == null || !isPrepared(m.state()) || unloaded) {
            return;
        }
        Completion c = new Completion(transactionalId, m);
        completing.put(transactionalId, c);
        sendMarkers(c);
    }

    private boolean current(Completion c) {
        return !unloaded && completing.get(c.transactionalId) == c;
    }

    private void sendMarkers(Completion c) {
        if (!current(c) || c.stopped) {
            return;
        }
        if (c.remaining.isEmpty()) {
            context.scheduleWrite("complete-transaction", () -> writeCompletion(c));
            return;
        }
        List<TopicPartition> partitions = List.copyOf(c.remaining);
        int attempt = ++c.attempt;
        c.inFlight = true;
        // A marker write not answered within request.timeout.ms counts as REQUEST_TIMED_OUT and is retried, as
        // Kafka's WriteTxnMarkers requests time out after the inter-broker request.timeout.ms.
        c.timeout = context.schedule(config.requestTimeoutMs(), "transaction-markers-timeout", () -> {
            Map<TopicPartition, ErrorCode> timedOut = new TreeMap<>();
            partitions.forEach(tp -> timedOut.put(tp, ErrorCode.REQUEST_TIMED_OUT));
            markersAnswered(c, attempt, timedOut, null);
            return CoordinatorResult.of(null);
        });
        CompletableFuture<Map<TopicPartition, ErrorCode>> sent;
        try {
            sent = markers.writeMarkers(c.producerId, c.producerEpoch, coordinatorEpoch, c.commit, partitions);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((errors, failure) -> {
            try {
                thread.execute(() -> markersAnswered(c, attempt, errors, failure));
            } catch (RejectedExecutionException e) {
                // shutting down: the next load completes the transaction
            }
        });
    }

    /**
     * As Kafka's TransactionMarkerRequestCompletionHandler treats each partition's answer: written (or a
     * partition that cannot hold transactions) leaves the transaction; the leader-side retriable errors are
     * retried after the backoff; anything else is fatal there (an IllegalStateException, logged once, the
     * transaction left pending), and here too.
     *
     * <p>A stale producer or coordinator epoch (INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED) stops
     * Kafka's sending too, leaving the transaction prepared for the next coordinator to load and finish. One
     * node never gets a next coordinator, and the reload would meet the same answer, so the transaction would
     * stay prepared for good: here that partition is left without the marker (it has moved past this
     * producer or coordinator epoch, so the marker cannot be written there any more) and the others go on.
     */
    private void markersAnswered(Completion c, int attempt, Map<TopicPartition, ErrorCode> errors, Throwable failure) {
        if (!current(c) || attempt != c.attempt || !c.inFlight) {
            return; // unloaded, or an answer after this write timed out (its retry is under way)
        }
        c.inFlight = false;
        c.timeout.cancel();
        Map<TopicPartition, ErrorCode> retried = new TreeMap<>();
        String fatal = null;
        if (failure != null) {
            c.remaining.forEach(tp -> retried.put(tp, ErrorCode.UNKNOWN_SERVER_ERROR)); // as a lost connection
        } else {
            for (Map.Entry<TopicPartition, ErrorCode> e : errors.entrySet()) {
                if (!c.remaining.contains(e.getKey())) {
                    continue;
                }
                switch (e.getValue()) {
                    // UNSUPPORTED_*: the producer could not have written there, so nothing waits for a marker.
                    case NONE, UNSUPPORTED_FOR_MESSAGE_FORMAT, UNSUPPORTED_VERSION -> c.remaining.remove(e.getKey());
                    case INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED -> {
                        c.remaining.remove(e.getKey());
                        LOG.log(System.Logger.Level.WARNING, "the marker of " + c.transactionalId + " (producer id "
                                + c.producerId + ", epoch " + c.producerEpoch + ", coordinator epoch " + coordinatorEpoch
                                + ") cannot be written to " + e.getKey() + ": " + e.getValue()
                                + " (it has a newer epoch); the transaction completes without it");
                    }
                    case UNKNOWN_TOPIC_OR_PARTITION, NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS,
                            NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT, KAFKA_STORAGE_ERROR ->
                            retried.put(e.getKey(), e.getValue());
                    // CORRUPT_MESSAGE, MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE, INVALID_REQUIRED_ACKS and any
                    // other error: a retry would fail the same way.
                    default -> fatal = e.getKey() + " answered " + e.getValue();
                }
            }
        }
        if (fatal != null) {
            c.stopped = true;
            LOG.log(System.Logger.Level.ERROR, "stopped writing the markers of " + c.transactionalId + " (producer id "
                    + c.producerId + ", epoch " + c.producerEpoch + "): " + fatal + ", which is not retriable; the "
                    + "transaction stays " + (c.commit ? "PrepareCommit" : "PrepareAbort")
                    + " until its partition is loaded again (a restart), as in Kafka");
            return;
        }
        if (c.remaining.isEmpty()) {
            context.scheduleWrite("complete-transaction", () -> writeCompletion(c));
        } else {
            logRetry(c, retried, failure);
            context.schedule(config.markerRetryBackoffMs(), "retry-transaction-markers", () -> {
                sendMarkers(c);
                return CoordinatorResult.of(null);
            });
        }
    }

    /** One line at the first retry, then at most one per {@link #RETRY_LOG_INTERVAL_MS}, not one per backoff. */
    private void logRetry(Completion c, Map<TopicPartition, ErrorCode> retried, Throwable failure) {
        c.retries++;
        long now = now();
        if (c.retries > 1 && now - c.lastRetryLogMs < RETRY_LOG_INTERVAL_MS) {
            return;
        }
        c.lastRetryLogMs = now;
        LOG.log(System.Logger.Level.WARNING, "markers of " + c.transactionalId + " not written yet (" + c.retries
                + (c.retries == 1 ? " attempt" : " attempts") + "), retrying every " + config.markerRetryBackoffMs()
                + " ms: " + (failure != null ? "the write failed: " + failure : retried));
    }

    /** Every marker is written: CompleteCommit/CompleteAbort (retried until written, unless unloaded). */
    private CoordinatorResult<Void, TransactionRecord> writeCompletion(Completion c) {
        TransactionMetadata m = transactions.get(c.transactionalId);
        if (!current(c) || m == null || !isPrepared(m.state()) || m.producerId() != c.producerId
                || m.producerEpoch() != c.producerEpoch) {
            return CoordinatorResult.of(null);
        }
        return new CoordinatorResult<>(List.of(record(c.transactionalId, m.complete(now()))), null, true, error -> {
            if (error == ErrorCode.NONE) {
                completing.remove(c.transactionalId, c);
            } else if (error != ErrorCode.NOT_COORDINATOR && error != ErrorCode.COORDINATOR_LOAD_IN_PROGRESS) {
                context.schedule(config.markerRetryBackoffMs(), "complete-transaction", () -> writeCompletion(c));
            }
        });
    }

    // ------------------------------------------------------------------ timers

    /**
     * Ongoing transactions older than their timeout (not 2PC ones, whose timeout is Integer.MAX_VALUE) are
     * aborted as a fenced producer's would be: the epoch is bumped, so the producer that let it time out is
     * fenced. One write each, as Kafka appends each abort on its own (a transaction's record can be large).
     */
    private CoordinatorResult<Void, TransactionRecord> abortTimedOutTransactions() {
        context.schedule(config.abortTimedOutTransactionsIntervalMs(), "abort-timed-out-transactions", this::abortTimedOutTransactions);
        long now = now();
        List<String> timedOut = new ArrayList<>();
        transactions.forEach((id, m) -> {
            if (isTimedOut(id, m, now)) {
                timedOut.add(id);
            }
        });
        timedOut.forEach(id -> context.scheduleWrite("abort-timed-out-transaction", () -> abortTimedOut(id)));
        return CoordinatorResult.of(null);
    }

    private boolean isTimedOut(String transactionalId, TransactionMetadata m, long now) {
        return m.state() == TransactionState.ONGOING && !completing.containsKey(transactionalId)
                && m.timeoutMs() != Integer.MAX_VALUE && m.startTimestampMs() + m.timeoutMs() < now;
    }

    private CoordinatorResult<Void, TransactionRecord> abortTimedOut(String transactionalId) {
        TransactionMetadata m = transactions.get(transactionalId);
        if (m == null || !isTimedOut(transactionalId, m, now())) {
            return CoordinatorResult.of(null); // ended meanwhile
        }
        TransactionMetadata aborting;
        try {
            aborting = prepareAbort(m, m.clientTransactionVersion());
        } catch (TransactionException noProducerId) {
            return CoordinatorResult.of(null); // no producer id ready for its epoch overflow: the next check tries again
        }
        LOG.log(System.Logger.Level.INFO, "aborting the transaction of " + transactionalId + " (producer id " + m.producerId()
                + ", epoch " + m.producerEpoch() + "): older than its timeout of " + m.timeoutMs() + " ms");
        return prepared(transactionalId, aborting, null);
    }

    private CoordinatorResult<Void, TransactionRecord> expireTransactionalIds() {
        context.schedule(config.removeExpiredTransactionalIdsIntervalMs(), "expire-transactional-ids", this::expireTransactionalIds);
        return expireBatch();
    }

    /** Idle ids (Empty, CompleteCommit, CompleteAbort) not updated for {@code transactional.id.expiration.ms}: tombstones. */
    private CoordinatorResult<Void, TransactionRecord> expireBatch() {
        long cutoff = now() - config.transactionalIdExpirationMs();
        List<TransactionRecord> tombstones = new ArrayList<>();
        for (Map.Entry<String, TransactionMetadata> e : transactions.entrySet()) {
            TransactionMetadata m = e.getValue();
            if (!m.state().isIdle() || completing.containsKey(e.getKey()) || m.lastUpdateTimestampMs() > cutoff) {
                continue;
            }
            if (tombstones.size() == MAX_RECORDS_PER_WRITE) {
                context.scheduleWrite("expire-transactional-ids", this::expireBatch);
                break;
            }
            tombstones.add(record(e.getKey(), null));
        }
        if (!tombstones.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "transaction state partition " + context.partition() + ": expiring "
                    + tombstones.size() + " idle transactional ids");
        }
        return CoordinatorResult.of(tombstones, null);
    }

    // ------------------------------------------------------------------ ListTransactions, DescribeTransactions

    /** ListTransactions on this partition; the caller has checked the pattern and the state names. */
    List<ListTransactionsResult.Listing> list(Set<TransactionState> states, boolean filterStates, Set<Long> producerIds,
            long minDurationMs, Pattern pattern) {
        long now = now();
        List<ListTransactionsResult.Listing> out = new ArrayList<>();
        for (Map.Entry<String, TransactionMetadata> e : transactions.entrySet()) {
            TransactionMetadata m = e.getValue();
            if ((!producerIds.isEmpty() && !producerIds.contains(m.producerId()))
                    || (filterStates && !states.contains(m.state()))
                    || (minDurationMs >= 0 && now - m.startTimestampMs() <= minDurationMs)
                    || (pattern != null && !pattern.matcher(e.getKey()).matches())) {
                continue;
            }
            out.add(new ListTransactionsResult.Listing(e.getKey(), m.producerId(), m.state().kafkaName()));
        }
        return out;
    }

    TransactionDescription describe(String transactionalId) {
        TransactionMetadata m = transactions.get(transactionalId);
        if (m == null) {
            return TransactionDescription.error(transactionalId, ErrorCode.TRANSACTIONAL_ID_NOT_FOUND);
        }
        // As in Kafka, a partition leaves the transaction once its marker is written.
        Completion c = completing.get(transactionalId);
        Set<TopicPartition> partitions = c != null ? c.remaining : m.partitions();
        Map<String, List<Integer>> topics = new TreeMap<>();
        new TreeSet<>(partitions).forEach(tp -> topics.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition()));
        return new TransactionDescription(transactionalId, ErrorCode.NONE, m.state().kafkaName(), m.timeoutMs(),
                m.startTimestampMs(), m.producerId(), m.producerEpoch(), topics);
    }
}
