package io.odradek.coordinator.transaction;

import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.coordinator.runtime.CoordinatorErrors;
import io.odradek.coordinator.runtime.CoordinatorLog;
import io.odradek.coordinator.runtime.CoordinatorResult;
import io.odradek.coordinator.runtime.CoordinatorRuntime;
import io.odradek.coordinator.runtime.CoordinatorThreads;
import io.odradek.coordinator.runtime.Scheduler;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The transaction coordinator (Kafka 4.4's TransactionCoordinator), serving every partition of
 * {@code __transaction_state} this broker leads: InitProducerId with a transactional id,
 * AddPartitionsToTxn, AddOffsetsToTxn, EndTxn (transaction protocols v1, KIP-98, and v2, KIP-890),
 * the partition leaders' verification (KIP-890), ListTransactions and DescribeTransactions.
 *
 * <p>A transactional id lives on partition {@link #partitionFor}; each partition is a
 * {@link TransactionShard} run by the {@link CoordinatorRuntime} on one of a few coordinator threads. Methods
 * may be called from any thread and answer through futures, completed once what the request changed is
 * committed. Until a partition is loaded its ids answer COORDINATOR_LOAD_IN_PROGRESS; a partition not led
 * here answers NOT_COORDINATOR.
 *
 * <p>Not done: KIP-939 two-phase commit beyond what Kafka 4.4 answers with it off (enable2Pc is refused
 * unless {@code transaction.two.phase.commit.enable}; with it on, the transaction only gets no timeout;
 * keepPreparedTxn is UNSUPPORTED_VERSION, as in 4.4). Markers for a partition that no longer exists: Kafka
 * skips partitions without a leader in its metadata; here that is the {@link TransactionMarkerWriter}'s
 * to do (answer NONE), since an UNKNOWN_TOPIC_OR_PARTITION answer is retried, as Kafka retries it.
 *
 * <p>Errors are Kafka's coordinator errors. The coordinator always says PRODUCER_FENCED for a stale epoch;
 * the handlers turn it into INVALID_PRODUCER_EPOCH for request versions that predate PRODUCER_FENCED, as
 * KafkaApis does (InitProducerId &lt; v4, AddPartitionsToTxn &lt; v2, AddOffsetsToTxn &lt; v2, EndTxn &lt; v2).
 */
public final class TransactionCoordinator implements TransactionVerifier, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(TransactionCoordinator.class.getName());

    /** The internal topic that holds transaction state. */
    public static final String TOPIC = "__transaction_state";
    /**
     * Kafka's topic configs for it (TransactionStateManager's): compacted (expired ids get tombstones),
     * uncompressed, 100 MiB segments, no unclean election. Kafka also sets {@code min.insync.replicas} from
     * {@code transaction.state.log.min.isr} (default 2); whoever creates the topic adds that for its cluster.
     */
    public static final Map<String, String> TOPIC_CONFIGS = Map.of(
            "cleanup.policy", "compact",
            "compression.type", "uncompressed",
            "segment.bytes", "104857600",
            "unclean.leader.election.enable", "false");

    private final TransactionCoordinatorConfig config;
    private final IntFunction<CoordinatorLog> logs;
    /** Null when the caller supplies the schedulers (tests). */
    private final CoordinatorThreads threads;
    private final CoordinatorRuntime<TransactionShard, TransactionRecord> runtime;
    /** Each loaded partition's coordinator epoch (its leader epoch), stamped into the markers it writes. */
    private final ConcurrentHashMap<Integer, Integer> coordinatorEpochs = new ConcurrentHashMap<>();
    /** Group id -> its {@code __consumer_offsets} partition, by the count the group coordinator uses. */
    private final ToIntFunction<String> offsetsPartitionFor;
    /** {@code __transaction_state}'s partition count: the config's, or the topic's once the metadata says (a cluster). */
    private volatile int stateLogPartitions;
    private volatile boolean closed;

    private TransactionCoordinator(TransactionCoordinatorConfig config, IntFunction<CoordinatorLog> logs,
            ProducerIdManager producerIds, TransactionMarkerWriter markers, IntFunction<Scheduler> schedulers,
            CoordinatorThreads threads, ToIntFunction<String> offsetsPartitionFor) {
        this.config = config;
        this.logs = logs;
        this.threads = threads;
        this.offsetsPartitionFor = offsetsPartitionFor;
        this.stateLogPartitions = config.stateLogPartitions();
        ProducerIdSource ids = new ProducerIdSource(producerIds);
        this.runtime = new CoordinatorRuntime<>(TOPIC, new TransactionLogCodec(config.transactionVersionLevel()), schedulers,
                config.requestTimeoutMs(), context -> new TransactionShard(context, schedulers.apply(context.partition()), config, markers, ids,
                        coordinatorEpochs.getOrDefault(context.partition(), 0)));
    }

    /**
     * A coordinator on its own threads (at most 4, one per core). Nothing is served until partitions are
     * loaded: {@link #startup()} for all of them (one node), or {@link #onElection} per partition.
     */
    public static TransactionCoordinator create(TransactionCoordinatorConfig config, IntFunction<CoordinatorLog> logs,
            ProducerIdManager producerIds, TransactionMarkerWriter markers) {
        return createPlacingGroupsBy(config, logs, producerIds, markers, configuredOffsetsPartitions(config));
    }

    /**
     * As {@link #create(TransactionCoordinatorConfig, IntFunction, ProducerIdManager, TransactionMarkerWriter)},
     * with AddOffsetsToTxn placing a group on {@code offsetsPartitionFor.applyAsInt(groupId)}: the broker
     * gives the group coordinator's {@code partitionFor}, so an existing {@code __consumer_offsets} whose
     * partition count differs from {@code offsets.topic.num.partitions} is addressed by its real count, as
     * Kafka's TransactionCoordinator asks its GroupCoordinator.
     */
    public static TransactionCoordinator createPlacingGroupsBy(TransactionCoordinatorConfig config,
            IntFunction<CoordinatorLog> logs, ProducerIdManager producerIds, TransactionMarkerWriter markers,
            ToIntFunction<String> offsetsPartitionFor) {
        CoordinatorThreads threads = CoordinatorThreads.perCore("transaction-coordinator");
        return new TransactionCoordinator(config, logs, producerIds, markers, threads::scheduler, threads, offsetsPartitionFor);
    }

    /** A coordinator whose partitions run on the given schedulers (tests: a manual clock). */
    public static TransactionCoordinator create(TransactionCoordinatorConfig config, IntFunction<CoordinatorLog> logs,
            ProducerIdManager producerIds, TransactionMarkerWriter markers, IntFunction<Scheduler> schedulers) {
        return create(config, logs, producerIds, markers, schedulers, configuredOffsetsPartitions(config));
    }

    /** On the given schedulers, groups placed by {@code offsetsPartitionFor} (tests). */
    public static TransactionCoordinator create(TransactionCoordinatorConfig config, IntFunction<CoordinatorLog> logs,
            ProducerIdManager producerIds, TransactionMarkerWriter markers, IntFunction<Scheduler> schedulers,
            ToIntFunction<String> offsetsPartitionFor) {
        return new TransactionCoordinator(config, logs, producerIds, markers, schedulers, null, offsetsPartitionFor);
    }

    /** Groups placed by {@code offsets.topic.num.partitions} alone (no group coordinator to ask). */
    private static ToIntFunction<String> configuredOffsetsPartitions(TransactionCoordinatorConfig config) {
        return groupId -> OffsetsTopic.partitionFor(groupId, config.offsetsTopicPartitions());
    }

    public TransactionCoordinatorConfig config() {
        return config;
    }

    /**
     * Starts loading every partition of {@code __transaction_state} (one node leads them all) with coordinator
     * epoch 0; each serves as soon as it is loaded. Completes once all are (exceptionally if one failed).
     */
    public CompletableFuture<Void> startup() {
        List<CompletableFuture<Void>> loads = new ArrayList<>();
        for (int p = 0; p < stateLogPartitions; p++) {
            loads.add(onElection(p, 0));
        }
        return CompletableFuture.allOf(loads.toArray(CompletableFuture[]::new));
    }

    /**
     * Kafka's rule: {@code Utils.abs(transactionalId.hashCode()) % transaction.state.log.num.partitions}, the
     * same as for group ids.
     */
    public int partitionFor(String transactionalId) {
        return OffsetsTopic.partitionFor(transactionalId, stateLogPartitions);
    }

    /**
     * In a cluster: {@code __transaction_state} exists with {@code partitions} partitions (as the metadata
     * says; another broker may have created it), which then place the transactional ids, as Kafka takes
     * the topic's real count over {@code transaction.state.log.num.partitions}. Ignored if not positive.
     */
    public void useStateLogPartitions(int partitions) {
        if (partitions > 0) {
            stateLogPartitions = partitions;
        }
    }

    /** Whether every partition has been loaded. */
    public boolean isLoaded() {
        for (int p = 0; p < stateLogPartitions; p++) {
            if (!runtime.isActive(p)) {
                return false;
            }
        }
        return true;
    }

    /** {@link #onElection(int, int)} with coordinator epoch 0 (one node: leader epochs start at 0). */
    public CompletableFuture<Void> onElection(int partition) {
        return onElection(partition, 0);
    }

    /**
     * This broker leads {@code __transaction_state} partition {@code partition}: its ids are read back from
     * the log (COORDINATOR_LOAD_IN_PROGRESS meanwhile); prepared transactions found there are completed.
     *
     * @param coordinatorEpoch the partition's leader epoch: stamped into the markers this coordinator writes,
     *                         so a partition rejects those of a coordinator that lost leadership
     */
    public CompletableFuture<Void> onElection(int partition, int coordinatorEpoch) {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("transaction coordinator is closed"));
        }
        Integer previous = coordinatorEpochs.put(partition, coordinatorEpoch);
        if (previous != null && previous != coordinatorEpoch && (runtime.isActive(partition) || runtime.isLoading(partition))) {
            // Led again under a newer epoch without a resignation seen in between (Kafka's onElection does the
            // same): state loaded under the old epoch is dropped and read back, so markers carry the new one.
            return runtime.unload(partition).thenCompose(v -> runtime.load(partition, logs.apply(partition)));
        }
        return runtime.load(partition, logs.apply(partition));
    }

    /** This broker no longer leads the partition: its ids answer NOT_COORDINATOR, markers in flight stop. */
    public CompletableFuture<Void> onResignation(int partition) {
        return runtime.unload(partition);
    }

    /** Whether {@code __transaction_state} partition {@code partition} is loaded and served here. */
    public boolean isServing(int partition) {
        return runtime.isActive(partition);
    }

    // ------------------------------------------------------------------ InitProducerId

    /**
     * InitProducerId with a transactional id (a null one needs no coordinator: the handler asks the
     * ProducerIdManager itself).
     *
     * @param expectedProducerId    v3+ (KIP-360): the producer's current id, or -1
     * @param expectedProducerEpoch its epoch, or -1
     * @param enable2Pc             v6 (KIP-939): TRANSACTIONAL_ID_AUTHORIZATION_FAILED unless
     *                              {@code transaction.two.phase.commit.enable}, as Kafka 4.4
     * @param keepPreparedTxn       v6: UNSUPPORTED_VERSION, as Kafka 4.4 answers it
     */
    public CompletableFuture<InitProducerIdResult> initProducerId(String transactionalId, int transactionTimeoutMs,
            long expectedProducerId, short expectedProducerEpoch, boolean enable2Pc, boolean keepPreparedTxn) {
        ErrorCode refused = null;
        if (transactionalId == null || transactionalId.isEmpty()) {
            refused = ErrorCode.INVALID_REQUEST;
        } else if ((expectedProducerId == -1) != (expectedProducerEpoch == -1)) {
            refused = ErrorCode.INVALID_REQUEST; // KafkaApis: an id without an epoch or the reverse
        } else if (enable2Pc && !config.twoPhaseCommitEnabled()) {
            refused = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
        } else if (keepPreparedTxn) {
            refused = ErrorCode.UNSUPPORTED_VERSION;
        } else if (!enable2Pc && (transactionTimeoutMs <= 0 || transactionTimeoutMs > config.maxTransactionTimeoutMs())) {
            refused = ErrorCode.INVALID_TRANSACTION_TIMEOUT;
        }
        if (refused != null) {
            return CompletableFuture.completedFuture(InitProducerIdResult.error(refused));
        }
        // A 2PC transaction never times out (Kafka stores Integer.MAX_VALUE).
        int timeoutMs = enable2Pc ? Integer.MAX_VALUE : transactionTimeoutMs;
        return write(transactionalId, "init-producer-id", InitProducerIdResult::error,
                shard -> shard.initProducerId(transactionalId, timeoutMs, expectedProducerId, expectedProducerEpoch));
    }

    // ------------------------------------------------------------------ AddPartitionsToTxn, AddOffsetsToTxn, verification

    /**
     * AddPartitionsToTxn from the client (v0-3, or one transaction of a v4+ batch that is not verify-only):
     * the same error for every partition.
     */
    public CompletableFuture<Map<TopicPartition, ErrorCode>> addPartitions(String transactionalId, long producerId,
            short producerEpoch, Collection<TopicPartition> partitions) {
        return add(transactionalId, producerId, producerEpoch, partitions, TransactionMetadata.TV_0);
    }

    /**
     * For a partition leader (KIP-890): verify-only ({@code addIfMissing} false: transaction protocol v1,
     * AddPartitionsToTxn v4 verifyOnly) answers NONE for the transaction's partitions and
     * TRANSACTION_ABORTABLE for others; {@code addIfMissing} (protocol v2, Produce v12+, TxnOffsetCommit v5+)
     * adds them as AddPartitionsToTxn v5 does.
     */
    @Override
    public CompletableFuture<Map<TopicPartition, ErrorCode>> verify(String transactionalId, long producerId,
            short producerEpoch, Collection<TopicPartition> partitions, boolean addIfMissing) {
        if (addIfMissing) {
            return add(transactionalId, producerId, producerEpoch, partitions, TransactionMetadata.TV_2);
        }
        if (transactionalId == null || transactionalId.isEmpty()) {
            return CompletableFuture.completedFuture(all(partitions, ErrorCode.INVALID_REQUEST));
        }
        return answer(runtime.scheduleRead(partitionFor(transactionalId), "verify-partitions",
                shard -> shard.verifyPartitions(transactionalId, producerId, producerEpoch, partitions)),
                error -> all(partitions, error));
    }

    private CompletableFuture<Map<TopicPartition, ErrorCode>> add(String transactionalId, long producerId,
            short producerEpoch, Collection<TopicPartition> partitions, short transactionVersion) {
        if (transactionalId == null || transactionalId.isEmpty()) {
            return CompletableFuture.completedFuture(all(partitions, ErrorCode.INVALID_REQUEST));
        }
        Set<TopicPartition> added = new LinkedHashSet<>(partitions);
        return write(transactionalId, "add-partitions-to-txn", error -> error,
                shard -> shard.addPartitions(transactionalId, producerId, producerEpoch, added, transactionVersion))
                .thenApply(error -> all(partitions, error));
    }

    /**
     * AddOffsetsToTxn: adds the group's {@code __consumer_offsets} partition
     * ({@code abs(groupId.hashCode()) % partitions}, by the topic's real partition count when the broker
     * wired the group coordinator in) to the transaction.
     */
    public CompletableFuture<ErrorCode> addOffsets(String transactionalId, long producerId, short producerEpoch, String groupId) {
        if (transactionalId == null || transactionalId.isEmpty()) {
            return CompletableFuture.completedFuture(ErrorCode.INVALID_REQUEST);
        }
        TopicPartition offsets = new TopicPartition(OffsetsTopic.NAME, offsetsPartitionFor.applyAsInt(groupId));
        return write(transactionalId, "add-offsets-to-txn", error -> error,
                shard -> shard.addPartitions(transactionalId, producerId, producerEpoch, Set.of(offsets), TransactionMetadata.TV_0));
    }

    // ------------------------------------------------------------------ EndTxn

    /**
     * EndTxn: answered once PrepareCommit/PrepareAbort is committed; the markers and the completion follow.
     *
     * @param transactionV2 EndTxn v5+ (KIP-890): the epoch is bumped and returned in the answer
     */
    public CompletableFuture<EndTxnResult> endTransaction(String transactionalId, long producerId, short producerEpoch,
            boolean commit, boolean transactionV2) {
        if (transactionalId == null || transactionalId.isEmpty()) {
            return CompletableFuture.completedFuture(EndTxnResult.error(ErrorCode.INVALID_REQUEST));
        }
        return write(transactionalId, commit ? "commit-transaction" : "abort-transaction", EndTxnResult::error,
                shard -> shard.endTransaction(transactionalId, producerId, producerEpoch, commit, transactionV2));
    }

    // ------------------------------------------------------------------ ListTransactions, DescribeTransactions

    /**
     * ListTransactions over every partition led here; COORDINATOR_LOAD_IN_PROGRESS while one is loading.
     *
     * @param states                Kafka's state names ("Ongoing", ...); unknown ones are answered back in
     *                              {@code unknownStateFilters} and match nothing; empty: every state
     * @param producerIds           empty: every producer
     * @param minDurationMs         v1: only transactions running longer than this; -1: any
     * @param transactionalIdPattern v2: a regular expression the whole id must match; null or empty: any.
     *                              INVALID_REGULAR_EXPRESSION when it does not compile
     */
    public CompletableFuture<ListTransactionsResult> listTransactions(Set<String> states, Set<Long> producerIds,
            long minDurationMs, String transactionalIdPattern) {
        Pattern pattern = null;
        if (transactionalIdPattern != null && !transactionalIdPattern.isEmpty()) {
            try {
                pattern = Pattern.compile(transactionalIdPattern);
            } catch (PatternSyntaxException e) {
                return CompletableFuture.completedFuture(ListTransactionsResult.error(ErrorCode.INVALID_REGULAR_EXPRESSION));
            }
        }
        Set<TransactionState> known = EnumSet.noneOf(TransactionState.class);
        List<String> unknown = new ArrayList<>();
        for (String name : states) {
            TransactionState s = TransactionState.ofKafkaName(name);
            if (s == null) {
                unknown.add(name);
            } else {
                known.add(s);
            }
        }
        Pattern idPattern = pattern;
        Set<Long> pids = Set.copyOf(producerIds);
        List<CompletableFuture<List<ListTransactionsResult.Listing>>> parts = new ArrayList<>();
        for (int p = 0; p < stateLogPartitions; p++) {
            if (runtime.isLoading(p)) {
                return CompletableFuture.completedFuture(ListTransactionsResult.error(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS));
            }
            if (runtime.isActive(p)) {
                parts.add(answer(runtime.scheduleRead(p, "list-transactions",
                        shard -> shard.list(known, !states.isEmpty(), pids, minDurationMs, idPattern)), error -> List.of()));
            }
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(v -> {
            List<ListTransactionsResult.Listing> all = new ArrayList<>();
            parts.forEach(p -> all.addAll(p.join()));
            return new ListTransactionsResult(ErrorCode.NONE, List.copyOf(unknown), all);
        });
    }

    /**
     * DescribeTransactions: one answer per id, in request order. One read per {@code __transaction_state}
     * partition asked about, not per id, so a request naming many ids costs the shards a few tasks.
     */
    public CompletableFuture<List<TransactionDescription>> describeTransactions(Collection<String> transactionalIds) {
        List<String> ids = List.copyOf(transactionalIds);
        TransactionDescription[] answers = new TransactionDescription[ids.size()];
        Map<Integer, List<Integer>> byPartition = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            if (id == null || id.isEmpty()) {
                answers[i] = TransactionDescription.error(id, ErrorCode.INVALID_REQUEST);
            } else {
                byPartition.computeIfAbsent(partitionFor(id), p -> new ArrayList<>()).add(i);
            }
        }
        List<CompletableFuture<Void>> reads = new ArrayList<>(byPartition.size());
        byPartition.forEach((partition, indexes) -> reads.add(answer(
                runtime.scheduleRead(partition, "describe-transactions", shard -> {
                    for (int i : indexes) {
                        answers[i] = shard.describe(ids.get(i));
                    }
                    return null;
                }),
                error -> {
                    for (int i : indexes) {
                        answers[i] = TransactionDescription.error(ids.get(i), error);
                    }
                    return null;
                })));
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(v -> List.of(answers));
    }

    /** For tests: the committed state of an id, or null. */
    CompletableFuture<TransactionMetadata> stateOf(String transactionalId) {
        return runtime.scheduleRead(partitionFor(transactionalId), "transaction-state", shard -> shard.get(transactionalId));
    }

    // ------------------------------------------------------------------ plumbing

    private <T> CompletableFuture<T> write(String transactionalId, String name, Function<ErrorCode, T> onError,
            Function<TransactionShard, CoordinatorResult<T, TransactionRecord>> op) {
        return answer(runtime.scheduleWrite(partitionFor(transactionalId), name, op), onError);
    }

    private static Map<TopicPartition, ErrorCode> all(Collection<TopicPartition> partitions, ErrorCode error) {
        Map<TopicPartition, ErrorCode> out = new LinkedHashMap<>();
        partitions.forEach(tp -> out.put(tp, error));
        return out;
    }

    /** Coordinator errors become the API's error answer; anything else (a bug) fails the request. */
    private static <T> CompletableFuture<T> answer(CompletableFuture<T> f, Function<ErrorCode, T> onError) {
        return f.exceptionally(e -> {
            ErrorCode error = CoordinatorErrors.of(e);
            if (error == null) {
                LOG.log(System.Logger.Level.ERROR, "transaction coordinator operation failed", e);
                throw e instanceof CompletionException c ? c : new CompletionException(e);
            }
            return onError.apply(error);
        });
    }

    /** Unloads every partition; stops the coordinator's own threads. */
    @Override
    public void close() {
        closed = true;
        runtime.close();
        if (threads != null) {
            threads.close();
        }
    }
}
