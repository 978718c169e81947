package io.odradek.coordinator.group;

import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import io.odradek.coordinator.offsets.OffsetsLog;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.log.PartitionLog;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The group coordinator: Kafka's classic group protocol (JoinGroup/SyncGroup/Heartbeat/LeaveGroup), its
 * consumer group protocol (KIP-848 ConsumerGroupHeartbeat) and committed offsets, serving every partition
 * of {@code __consumer_offsets} on this broker.
 *
 * <p>A group lives on partition {@link OffsetsTopic#partitionFor}; each partition is a {@link GroupShard}
 * confined to one thread of a small executor group, which serialises its groups' state changes and runs
 * their timers. Methods here may be called from any thread (the network event loops): they hand the work
 * to the right partition and return a future completed from there, possibly much later (a parked
 * JoinGroup). Until a partition has been read back from the log its groups answer
 * COORDINATOR_LOAD_IN_PROGRESS; before {@code __consumer_offsets} exists they answer NOT_COORDINATOR
 * (see {@link #createOnDemand}).
 */
public final class GroupCoordinator implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(GroupCoordinator.class.getName());

    private final GroupCoordinatorConfig config;
    private final IntFunction<PartitionLog> logs;
    private final IntFunction<Scheduler> schedulers;
    private final EventExecutorGroup executors;
    private final TopicCatalog topics;
    /** Null until {@code __consumer_offsets} exists (see {@link #createOnDemand}); then fixed. */
    private volatile GroupShard[] shards;
    /** Creates {@code __consumer_offsets} on first need; null when it existed at startup. */
    private final Supplier<CompletableFuture<Integer>> offsetsTopicCreator;
    private final AtomicBoolean creating = new AtomicBoolean();
    private boolean closed;

    GroupCoordinator(GroupCoordinatorConfig config, IntFunction<PartitionLog> logs, IntFunction<Scheduler> schedulers,
            EventExecutorGroup executors, TopicCatalog topics) {
        this(config, logs, schedulers, executors, topics, null);
        this.shards = newShards(config.offsetsTopicPartitions());
    }

    private GroupCoordinator(GroupCoordinatorConfig config, IntFunction<PartitionLog> logs, IntFunction<Scheduler> schedulers,
            EventExecutorGroup executors, TopicCatalog topics, Supplier<CompletableFuture<Integer>> offsetsTopicCreator) {
        this.config = config;
        this.logs = logs;
        this.schedulers = schedulers;
        this.executors = executors;
        this.topics = topics;
        this.offsetsTopicCreator = offsetsTopicCreator;
    }

    /**
     * A coordinator over the given {@code __consumer_offsets} partition logs, on its own threads
     * (at most 4, one per core). Call {@link #startup()} to load the partitions and serve them.
     */
    public static GroupCoordinator create(GroupCoordinatorConfig config, IntFunction<PartitionLog> logs) {
        return create(config, logs, TopicCatalog.EMPTY);
    }

    /**
     * A coordinator whose consumer-protocol groups are assigned partitions of the catalog's topics (the
     * classic protocol leaves that to a member). Call {@link #startup()} to load the partitions and serve them.
     */
    public static GroupCoordinator create(GroupCoordinatorConfig config, IntFunction<PartitionLog> logs, TopicCatalog topics) {
        EventExecutorGroup executors = newExecutors();
        return new GroupCoordinator(config, logs, schedulersOn(executors), executors, topics);
    }

    /**
     * For a broker without {@code __consumer_offsets} yet, as Kafka does: the topic is created when first
     * needed ({@link #ensureOffsetsTopic}, or any group request), not at startup. {@code create} starts
     * creating it off the caller's thread and completes with its partition count; its partitions are then
     * read from {@code logs} and load as after {@link #startup()}. Until then group requests answer
     * NOT_COORDINATOR (clients look the coordinator up again) and ListGroups an empty list, as a Kafka
     * broker hosting no offsets partition does. No {@link #startup()} needed.
     */
    public static GroupCoordinator createOnDemand(GroupCoordinatorConfig config, IntFunction<PartitionLog> logs,
            TopicCatalog topics, Supplier<CompletableFuture<Integer>> create) {
        EventExecutorGroup executors = newExecutors();
        return new GroupCoordinator(config, logs, schedulersOn(executors), executors, topics, create);
    }

    /** For tests: {@link #createOnDemand} with partitions on the given schedulers. */
    static GroupCoordinator createOnDemand(GroupCoordinatorConfig config, IntFunction<PartitionLog> logs,
            IntFunction<Scheduler> schedulers, Supplier<CompletableFuture<Integer>> create) {
        return new GroupCoordinator(config, logs, schedulers, null, TopicCatalog.EMPTY, create);
    }

    /** Threads of their own, at most 4 (one per core); started lazily by Netty, on first task. */
    private static EventExecutorGroup newExecutors() {
        int threads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
        return new DefaultEventExecutorGroup(threads, new DefaultThreadFactory("group-coordinator", true));
    }

    private static IntFunction<Scheduler> schedulersOn(EventExecutorGroup executors) {
        List<EventExecutor> loops = new ArrayList<>();
        executors.iterator().forEachRemaining(loops::add);
        return p -> new ExecutorScheduler(loops.get(p % loops.size()));
    }

    /** For tests: partitions run on the given schedulers (e.g. a manual clock). */
    static GroupCoordinator create(GroupCoordinatorConfig config, IntFunction<PartitionLog> logs, IntFunction<Scheduler> schedulers) {
        return new GroupCoordinator(config, logs, schedulers, null, TopicCatalog.EMPTY);
    }

    /** For tests: partitions run on the given schedulers, consumer groups assigned from the catalog. */
    static GroupCoordinator create(GroupCoordinatorConfig config, IntFunction<PartitionLog> logs, IntFunction<Scheduler> schedulers,
            TopicCatalog topics) {
        return new GroupCoordinator(config, logs, schedulers, null, topics);
    }

    /** Starts reading every partition back from its log; each serves requests as soon as it is loaded. */
    public void startup() {
        GroupShard[] current = shards;
        if (current != null) {
            load(current);
        }
    }

    /**
     * Whether {@code __consumer_offsets} exists (its partitions may still be loading); if not, starts
     * creating it (once; again after a failure). FindCoordinator answers COORDINATOR_NOT_AVAILABLE while false.
     */
    public boolean ensureOffsetsTopic() {
        if (shards != null) {
            return true;
        }
        if (offsetsTopicCreator != null && creating.compareAndSet(false, true)) {
            CompletableFuture<Integer> created;
            try {
                created = offsetsTopicCreator.get();
            } catch (RuntimeException e) {
                created = CompletableFuture.failedFuture(e);
            }
            created.thenAccept(this::activate).whenComplete((v, error) -> {
                if (error != null) {
                    LOG.log(System.Logger.Level.ERROR, "cannot create " + OffsetsTopic.NAME + "; retrying on the next request", error);
                    creating.set(false);
                }
            });
        }
        return shards != null;
    }

    /** Creates the partitions' shards and starts loading each from its log; from then on requests reach them. */
    private synchronized void activate(int partitions) {
        if (closed || shards != null) {
            return;
        }
        GroupShard[] created = newShards(partitions);
        load(created);
        shards = created;
    }

    private GroupShard[] newShards(int partitions) {
        GroupCoordinatorConfig shardConfig = config.withOffsetsTopicPartitions(partitions);
        GroupShard[] created = new GroupShard[partitions];
        for (int p = 0; p < partitions; p++) {
            created[p] = new GroupShard(p, shardConfig, schedulers.apply(p), new OffsetsLog(logs.apply(p)), topics);
        }
        return created;
    }

    private static void load(GroupShard[] shards) {
        for (GroupShard shard : shards) {
            shard.scheduler().execute(() -> {
                try {
                    shard.load();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.ERROR, "failed to load " + OffsetsTopic.NAME + "-" + shard.partition, e);
                }
            });
        }
    }

    public GroupCoordinatorConfig config() {
        return config;
    }

    /** The {@code __consumer_offsets} partition that holds this group. */
    public int partitionFor(String groupId) {
        GroupShard[] current = shards;
        return OffsetsTopic.partitionFor(groupId, current != null ? current.length : config.offsetsTopicPartitions());
    }

    /** Whether every partition has been loaded. */
    public boolean isLoaded() {
        GroupShard[] current = shards;
        if (current == null) {
            return false;
        }
        for (GroupShard s : current) {
            if (!s.isLoaded()) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ membership

    public CompletableFuture<JoinGroupResult> joinGroup(JoinGroupRequest req) {
        if (req.groupId() == null || req.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(JoinGroupResult.error(req.memberId(), ErrorCode.INVALID_GROUP_ID));
        }
        if (req.sessionTimeoutMs() < config.minSessionTimeoutMs() || req.sessionTimeoutMs() > config.maxSessionTimeoutMs()) {
            return CompletableFuture.completedFuture(JoinGroupResult.error(req.memberId(), ErrorCode.INVALID_SESSION_TIMEOUT));
        }
        return onShard(req.groupId(), e -> JoinGroupResult.error(req.memberId(), e), (shard, f) -> shard.joinGroup(req, f));
    }

    public CompletableFuture<SyncGroupResult> syncGroup(SyncGroupRequest req) {
        if (req.groupId() == null || req.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(SyncGroupResult.error(ErrorCode.INVALID_GROUP_ID));
        }
        return onShard(req.groupId(), SyncGroupResult::error, (shard, f) -> shard.syncGroup(req, f));
    }

    public CompletableFuture<ErrorCode> heartbeat(String groupId, String memberId, String groupInstanceId, int generationId) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(ErrorCode.INVALID_GROUP_ID);
        }
        return onShard(groupId, e -> e, (shard, f) -> f.complete(shard.heartbeat(groupId, memberId, groupInstanceId, generationId)));
    }

    public CompletableFuture<LeaveGroupResult> leaveGroup(String groupId, List<LeaveGroupResult.Member> members) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(LeaveGroupResult.error(ErrorCode.INVALID_GROUP_ID));
        }
        return onShard(groupId, LeaveGroupResult::error, (shard, f) -> f.complete(shard.leaveGroup(groupId, members)));
    }

    // ------------------------------------------------------------------ consumer groups (KIP-848)

    /** A ConsumerGroupHeartbeat: join, heartbeat or leave; answered at once (nothing is parked in this protocol). */
    public CompletableFuture<ConsumerGroupHeartbeatResult> consumerGroupHeartbeat(ConsumerGroupHeartbeatRequest req) {
        if (req.groupId() == null || req.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(
                    ConsumerGroupHeartbeatResult.error(ErrorCode.INVALID_REQUEST, "GroupId can't be empty."));
        }
        return onShard(req.groupId(), e -> ConsumerGroupHeartbeatResult.error(e, null),
                (shard, f) -> f.complete(shard.consumerGroupHeartbeat(req)));
    }

    public CompletableFuture<ConsumerGroupDescription> describeConsumerGroup(String groupId) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(ConsumerGroupDescription.error(groupId, ErrorCode.INVALID_GROUP_ID, null));
        }
        return onShard(groupId, e -> ConsumerGroupDescription.error(groupId, e, null),
                (shard, f) -> f.complete(shard.describeConsumerGroup(groupId)));
    }

    /** For tests: a consumer group's state, or null when there is no consumer group of that id. */
    CompletableFuture<ConsumerGroupState> consumerStateOf(String groupId) {
        return onShard(groupId, e -> null, (shard, f) -> f.complete(shard.consumerStateOf(groupId)));
    }

    // ------------------------------------------------------------------ offsets

    /** Per-partition errors, in request order. */
    public CompletableFuture<Map<TopicPartition, ErrorCode>> commitOffsets(OffsetCommitRequest req) {
        Function<ErrorCode, Map<TopicPartition, ErrorCode>> all = e -> {
            Map<TopicPartition, ErrorCode> out = new LinkedHashMap<>();
            req.partitions().forEach(p -> out.put(p.partition(), e));
            return out;
        };
        if (req.groupId() == null || req.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(all.apply(ErrorCode.INVALID_GROUP_ID));
        }
        return onShard(req.groupId(), all, (shard, f) -> f.complete(shard.commitOffsets(req)));
    }

    /** @param partitions the partitions asked for, or null for every committed one */
    public CompletableFuture<OffsetFetchResult> fetchOffsets(String groupId, List<TopicPartition> partitions) {
        return fetchOffsets(groupId, null, -1, partitions);
    }

    /**
     * OffsetFetch v9+: a consumer group's member fetches with its id and epoch (UNKNOWN_MEMBER_ID,
     * STALE_MEMBER_EPOCH); null and -1 fetch from outside the group. Classic groups ignore both.
     *
     * @param partitions the partitions asked for, or null for every committed one
     */
    public CompletableFuture<OffsetFetchResult> fetchOffsets(String groupId, String memberId, int memberEpoch,
            List<TopicPartition> partitions) {
        return onShard(groupId == null ? "" : groupId, OffsetFetchResult::error,
                (shard, f) -> f.complete(shard.fetchOffsets(groupId, memberId, memberEpoch, partitions)));
    }

    public CompletableFuture<OffsetDeleteResult> deleteOffsets(String groupId, List<TopicPartition> partitions) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(OffsetDeleteResult.error(ErrorCode.INVALID_GROUP_ID));
        }
        return onShard(groupId, OffsetDeleteResult::error, (shard, f) -> f.complete(shard.deleteOffsets(groupId, partitions)));
    }

    // ------------------------------------------------------------------ group administration

    /**
     * Every group, optionally only those in the given states and of the given types (case-insensitive,
     * as in Kafka). A partition still loading makes the whole answer COORDINATOR_LOAD_IN_PROGRESS.
     */
    public CompletableFuture<ListGroupsResult> listGroups(Collection<String> statesFilter, Collection<String> typesFilter) {
        Set<String> states = lowerCase(statesFilter);
        Set<String> types = lowerCase(typesFilter);
        GroupShard[] current = shards;
        if (current == null) {
            return CompletableFuture.completedFuture(new ListGroupsResult(ErrorCode.NONE, List.of()));
        }
        List<CompletableFuture<List<GroupOverview>>> parts = new ArrayList<>(current.length);
        for (GroupShard shard : current) {
            if (!shard.isLoaded()) {
                return CompletableFuture.completedFuture(new ListGroupsResult(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, List.of()));
            }
            CompletableFuture<List<GroupOverview>> f = new CompletableFuture<>();
            run(shard, f, () -> f.complete(shard.listGroups(states, types)));
            parts.add(f);
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(v -> {
            List<GroupOverview> all = new ArrayList<>();
            parts.forEach(p -> all.addAll(p.join()));
            return new ListGroupsResult(ErrorCode.NONE, all);
        });
    }

    /** The result of {@link #listGroups}. */
    public record ListGroupsResult(ErrorCode error, List<GroupOverview> groups) {
    }

    public CompletableFuture<GroupDescription> describeGroup(String groupId) {
        return onShard(groupId == null ? "" : groupId, e -> GroupDescription.error(groupId, e, ""),
                (shard, f) -> f.complete(shard.describeGroup(groupId)));
    }

    public CompletableFuture<ErrorCode> deleteGroup(String groupId) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(ErrorCode.INVALID_GROUP_ID);
        }
        return onShard(groupId, e -> e, (shard, f) -> f.complete(shard.deleteGroup(groupId)));
    }

    /** For tests: a group's state, or null when the group is unknown. */
    CompletableFuture<GroupState> stateOf(String groupId) {
        return onShard(groupId, e -> null, (shard, f) -> f.complete(shard.stateOf(groupId)));
    }

    /**
     * Deletes every group's committed offsets of these topics (call when topics are deleted).
     *
     * @return how many offsets were deleted
     */
    public CompletableFuture<Integer> onTopicsDeleted(Collection<String> topics) {
        Set<String> deleted = Set.copyOf(topics);
        List<CompletableFuture<Integer>> parts = new ArrayList<>();
        for (GroupShard shard : shardsOrNone()) {
            CompletableFuture<Integer> f = new CompletableFuture<>();
            run(shard, f, () -> f.complete(shard.isLoaded() ? shard.deleteOffsetsOfTopics(deleted) : 0));
            parts.add(f);
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                .thenApply(v -> parts.stream().mapToInt(CompletableFuture::join).sum());
    }

    /** Runs offset expiration on every partition now, instead of at the next check interval. */
    public CompletableFuture<Void> expireOffsetsNow() {
        List<CompletableFuture<Void>> parts = new ArrayList<>();
        for (GroupShard shard : shardsOrNone()) {
            CompletableFuture<Void> f = new CompletableFuture<>();
            run(shard, f, () -> {
                if (shard.isLoaded()) {
                    shard.expireOffsets();
                }
                f.complete(null);
            });
            parts.add(f);
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new));
    }

    // ------------------------------------------------------------------ plumbing

    private interface ShardTask<T> {
        void run(GroupShard shard, CompletableFuture<T> future);
    }

    private GroupShard[] shardsOrNone() {
        GroupShard[] current = shards;
        return current != null ? current : new GroupShard[0];
    }

    private <T> CompletableFuture<T> onShard(String groupId, Function<ErrorCode, T> onError, ShardTask<T> task) {
        GroupShard[] current = shards;
        if (current == null && !ensureOffsetsTopic()) {
            return CompletableFuture.completedFuture(onError.apply(ErrorCode.NOT_COORDINATOR));
        }
        current = shards;
        GroupShard shard = current[OffsetsTopic.partitionFor(groupId, current.length)];
        if (!shard.isLoaded()) {
            return CompletableFuture.completedFuture(onError.apply(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS));
        }
        CompletableFuture<T> future = new CompletableFuture<>();
        run(shard, future, () -> {
            if (!shard.isLoaded()) {
                future.complete(onError.apply(ErrorCode.NOT_COORDINATOR));
                return;
            }
            task.run(shard, future);
        });
        return future;
    }

    /** Runs on the shard's thread; a bug fails the future (the connection closes) instead of leaving it pending. */
    private static <T> void run(GroupShard shard, CompletableFuture<T> future, Runnable task) {
        try {
            shard.scheduler().execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException | Error e) {
                    LOG.log(System.Logger.Level.ERROR, "group coordinator failure in " + OffsetsTopic.NAME + "-" + shard.partition, e);
                    future.completeExceptionally(e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            future.completeExceptionally(e); // shutting down
        }
    }

    private static Set<String> lowerCase(Collection<String> values) {
        Set<String> out = new HashSet<>();
        if (values != null) {
            values.forEach(v -> out.add(v.toLowerCase(Locale.ROOT)));
        }
        return out;
    }

    /** Answers parked requests with NOT_COORDINATOR, stops the timers and the threads. The logs stay open. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true; // a creation still under way no longer activates
        }
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (GroupShard shard : shardsOrNone()) {
            CompletableFuture<Void> f = new CompletableFuture<>();
            run(shard, f, () -> {
                shard.close();
                f.complete(null);
            });
            closing.add(f);
        }
        try {
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "group coordinator did not close cleanly: " + e);
        }
        if (executors != null) {
            executors.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
