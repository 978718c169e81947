package io.odradek.coordinator.share.state;

import io.odradek.coordinator.group.TopicCatalog;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.runtime.CoordinatorErrors;
import io.odradek.coordinator.runtime.CoordinatorLog;
import io.odradek.coordinator.runtime.CoordinatorResult;
import io.odradek.coordinator.runtime.CoordinatorRuntime;
import io.odradek.coordinator.runtime.CoordinatorThreads;
import io.odradek.coordinator.runtime.Scheduler;
import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * The share coordinator (Kafka 4.4's ShareCoordinatorService): keeps every share partition's persisted state
 * (start offset, in-flight batches with delivery states and counts, state and leader epochs) in
 * {@code __share_group_state}, serving the share-state APIs (InitializeShareGroupState, ReadShareGroupState,
 * WriteShareGroupState, ReadShareGroupStateSummary, DeleteShareGroupState) for the partitions of that topic
 * this broker leads.
 *
 * <p>A share partition lives on partition {@link #partitionFor} ({@code Utils.abs(coordinatorKey.hashCode()) %
 * partitions}, the key {@code groupId:topicId:partition}); each partition is a {@link ShareCoordinatorShard} run
 * by the {@link CoordinatorRuntime} on the coordinator threads, loaded by {@link #startup} (one node) or
 * {@link #onElection} and dropped by {@link #onResignation}. Methods may be called from any thread and answer
 * through futures, completed once what the request changed is committed; a partition not loaded answers
 * NOT_COORDINATOR, one loading COORDINATOR_LOAD_IN_PROGRESS, a write not committed within
 * {@code share.coordinator.write.timeout.ms} COORDINATOR_NOT_AVAILABLE (the caller retries all three).
 *
 * <p>Pruning, as Kafka: every {@code share.coordinator.state.topic.prune.interval.ms} each loaded partition
 * deletes its records below the lowest offset still needed (the latest snapshot of each live share partition;
 * a deleted one needs nothing) through {@link CoordinatorLog#deleteRecordsBefore}, so a load replays from there.
 * Not done: Kafka's cold-partition snapshots ({@code share.coordinator.cold.partition.snapshot.interval.ms}),
 * which rewrite the snapshot of a share partition that is not written to: until such a partition is written
 * again (every 500 updates a snapshot), its old snapshot holds pruning back for the whole partition.
 */
public final class ShareCoordinator implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ShareCoordinator.class.getName());

    /** The internal topic that holds share-partition state. */
    public static final String TOPIC = "__share_group_state";

    private final ShareCoordinatorConfig config;
    private final IntFunction<CoordinatorLog> logs;
    /** Null when the caller supplies the schedulers (tests). */
    private final CoordinatorThreads threads;
    private final CoordinatorRuntime<ShareCoordinatorShard, ShareStateRecord> runtime;
    /** The topic's partition count: the config's, or the topic's once known (an existing topic's wins). */
    private volatile int partitions;
    private volatile boolean closed;
    /** The leader epoch each loaded partition was elected under. */
    private final ConcurrentHashMap<Integer, Integer> leaderEpochs = new ConcurrentHashMap<>();

    private ShareCoordinator(ShareCoordinatorConfig config, IntFunction<CoordinatorLog> logs, TopicCatalog topics,
            IntFunction<Scheduler> schedulers, CoordinatorThreads threads) {
        this.config = config;
        this.logs = logs;
        this.threads = threads;
        this.partitions = config.stateTopicPartitions();
        this.runtime = new CoordinatorRuntime<>(TOPIC, new ShareStateRecordCodec(), schedulers, config.writeTimeoutMs(),
                context -> new ShareCoordinatorShard(context, config, topics,
                        offset -> deleteRecordsBefore(context.partition(), offset)));
    }

    /**
     * A coordinator on its own threads (at most 4, one per core) whose share partitions must be partitions of
     * {@code topics} (else UNKNOWN_TOPIC_OR_PARTITION). Nothing is served until partitions are loaded.
     */
    public static ShareCoordinator create(ShareCoordinatorConfig config, IntFunction<CoordinatorLog> logs, TopicCatalog topics) {
        CoordinatorThreads threads = CoordinatorThreads.perCore("share-coordinator");
        return new ShareCoordinator(config, logs, topics, threads::scheduler, threads);
    }

    /** A coordinator whose partitions run on the given schedulers (tests: a manual clock). */
    public static ShareCoordinator create(ShareCoordinatorConfig config, IntFunction<CoordinatorLog> logs, TopicCatalog topics,
            IntFunction<Scheduler> schedulers) {
        return new ShareCoordinator(config, logs, topics, schedulers, null);
    }

    public ShareCoordinatorConfig config() {
        return config;
    }

    /** Prunes a partition below {@code offset} (never past what is committed); a failure is only logged. */
    private void deleteRecordsBefore(int partition, long offset) {
        CoordinatorLog log = logs.apply(partition);
        long target = Math.min(offset, log.committedEndOffset());
        if (target <= log.startOffset()) {
            return;
        }
        log.deleteRecordsBefore(target).whenComplete((v, e) -> {
            if (e != null) {
                LOG.log(System.Logger.Level.WARNING, "cannot prune " + TOPIC + "-" + partition + " below " + target, e);
            }
        });
    }

    /** Kafka's rule: {@code Utils.abs(key.coordinatorKey().hashCode()) % partitions}. */
    public int partitionFor(SharePartitionKey key) {
        return partitionFor(key.coordinatorKey());
    }

    /** The partition of a share-coordinator key ({@code groupId:topicId:partition}, as FindCoordinator names it). */
    public int partitionFor(String coordinatorKey) {
        return OffsetsTopic.partitionFor(coordinatorKey, partitions);
    }

    /** How many partitions {@code __share_group_state} has (or will be created with). */
    public int partitions() {
        return partitions;
    }

    /** The topic exists with {@code partitions} partitions (its real count wins over the config's); ignored if not positive. */
    public void useStateTopicPartitions(int count) {
        if (count > 0) {
            partitions = count;
        }
    }

    /** Loads every partition (one node leads them all); completes once all are loaded. */
    public CompletableFuture<Void> startup() {
        List<CompletableFuture<Void>> loads = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            loads.add(onElection(p));
        }
        return CompletableFuture.allOf(loads.toArray(CompletableFuture[]::new));
    }

    /** {@link #onElection(int, int)} under leader epoch 0 (one node). */
    public CompletableFuture<Void> onElection(int partition) {
        return onElection(partition, 0);
    }

    /**
     * This broker leads {@code __share_group_state} partition {@code partition} under {@code leaderEpoch}: its share
     * partitions are read back (COORDINATOR_LOAD_IN_PROGRESS meanwhile). Elected again under a newer epoch with no
     * resignation seen in between, the partition is dropped and read back: another leader may have written to it.
     */
    public CompletableFuture<Void> onElection(int partition, int leaderEpoch) {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("share coordinator is closed"));
        }
        Integer previous = leaderEpochs.put(partition, leaderEpoch);
        if (previous != null && previous != leaderEpoch && (runtime.isActive(partition) || runtime.isLoading(partition))) {
            // Reloaded only if still led under this epoch once unloaded: a resignation meanwhile must win.
            return runtime.unload(partition).thenCompose(v -> Integer.valueOf(leaderEpoch).equals(leaderEpochs.get(partition))
                    ? runtime.load(partition, logs.apply(partition))
                    : CompletableFuture.completedFuture(null));
        }
        return runtime.load(partition, logs.apply(partition));
    }

    /** This broker no longer leads the partition: its share partitions answer NOT_COORDINATOR. */
    public CompletableFuture<Void> onResignation(int partition) {
        leaderEpochs.remove(partition);
        return runtime.unload(partition);
    }

    /** Whether the partition is loaded and served here. */
    public boolean isServing(int partition) {
        return runtime.isActive(partition);
    }

    /** Whether every partition is loaded (one node). */
    public boolean isLoaded() {
        for (int p = 0; p < partitions; p++) {
            if (!runtime.isActive(p)) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ the share-state APIs

    /** InitializeShareGroupState for one share partition: a new state epoch starting at {@code startOffset}. */
    public CompletableFuture<ShareStateResult> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
        return answer(runtime.scheduleWrite(partitionFor(key), "initialize-share-group-state",
                shard -> shard.initialize(key, stateEpoch, startOffset)), ShareStateResult::new);
    }

    /** ReadShareGroupState for one share partition, by its leader under {@code leaderEpoch}. */
    public CompletableFuture<PersistedShareState> read(SharePartitionKey key, int leaderEpoch) {
        return answer(runtime.scheduleWrite(partitionFor(key), "read-update-leader-epoch-state",
                shard -> shard.read(key, leaderEpoch)), PersistedShareState::error);
    }

    /** WriteShareGroupState for one share partition: answered once durable. */
    public CompletableFuture<ShareStateResult> write(SharePartitionKey key, int stateEpoch, int leaderEpoch, long startOffset,
            int deliveryCompleteCount, List<StateBatch> batches) {
        List<StateBatch> copy = List.copyOf(batches);
        return answer(runtime.scheduleWrite(partitionFor(key), "write-share-group-state",
                shard -> shard.write(key, stateEpoch, leaderEpoch, startOffset, deliveryCompleteCount, copy)),
                ShareStateResult::new);
    }

    /** ReadShareGroupStateSummary for one share partition (in order with the writes, as Kafka runs it). */
    public CompletableFuture<ShareStateSummary> readSummary(SharePartitionKey key) {
        return answer(runtime.scheduleWrite(partitionFor(key), "read-share-group-state-summary",
                shard -> CoordinatorResult.of(shard.readSummary(key))), ShareStateSummary::error);
    }

    /** DeleteShareGroupState for one share partition. */
    public CompletableFuture<ShareStateResult> delete(SharePartitionKey key) {
        return answer(runtime.scheduleWrite(partitionFor(key), "delete-share-group-state", shard -> shard.delete(key)),
                ShareStateResult::new);
    }

    /**
     * Topics were deleted: the share partitions of topics no longer in the metadata, held on the loaded partitions,
     * get tombstones (Kafka's cleanup on a metadata update). Completes once written (failures are logged: the
     * state stays, which nothing reads any more, until the next deletion tries again).
     */
    public CompletableFuture<Void> onTopicsDeleted() {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            if (runtime.isActive(p)) {
                writes.add(runtime.scheduleWrite(p, "on-topics-deleted", ShareCoordinatorShard::dropDeletedTopics)
                        .exceptionally(e -> {
                            LOG.log(System.Logger.Level.WARNING, "cannot delete the share state of deleted topics: " + e);
                            return null;
                        }));
            }
        }
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
    }

    /** For tests: the state held for a share partition, or null. */
    CompletableFuture<ShareGroupOffset> stateOf(SharePartitionKey key) {
        return runtime.scheduleRead(partitionFor(key), "share-state", shard -> shard.state(key));
    }

    /** Coordinator errors (NOT_COORDINATOR, ...) become the API's answer with the error's text; a bug fails the future. */
    private static <T> CompletableFuture<T> answer(CompletableFuture<T> f, ErrorAnswer<T> onError) {
        return f.exceptionally(e -> {
            ErrorCode error = CoordinatorErrors.of(e);
            if (error == null) {
                LOG.log(System.Logger.Level.ERROR, "share coordinator operation failed", e);
                throw e instanceof CompletionException c ? c : new CompletionException(e);
            }
            return onError.apply(error, message(error));
        });
    }

    @FunctionalInterface
    private interface ErrorAnswer<T> {
        T apply(ErrorCode error, String message);
    }

    /** Kafka's Errors messages for the errors the runtime answers with. */
    static String message(ErrorCode error) {
        return switch (error) {
            case NOT_COORDINATOR -> "This is not the correct coordinator.";
            case COORDINATOR_LOAD_IN_PROGRESS -> "The coordinator is loading and hence can't process requests.";
            case COORDINATOR_NOT_AVAILABLE -> "The coordinator is not available.";
            default -> null;
        };
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
