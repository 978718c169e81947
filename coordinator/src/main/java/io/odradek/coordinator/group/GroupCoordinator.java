package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.OffsetsRecord;
import io.odradek.coordinator.offsets.OffsetsRecordCodec;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.runtime.CoordinatorErrors;
import io.odradek.coordinator.runtime.CoordinatorException;
import io.odradek.coordinator.runtime.CoordinatorLog;
import io.odradek.coordinator.runtime.CoordinatorRuntime;
import io.odradek.coordinator.runtime.CoordinatorThreads;
import io.odradek.coordinator.runtime.Scheduler;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
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
 * run by the {@link CoordinatorRuntime} on one of a few coordinator threads, which serialises its groups'
 * state changes, runs their timers and writes their records. Methods here may be called from any thread
 * (the network event loops): they hand the work to the right partition and return a future completed from
 * there once what the request changed is committed, possibly much later (a parked JoinGroup). Until a
 * partition has been read back from the log its groups answer COORDINATOR_LOAD_IN_PROGRESS; before
 * {@code __consumer_offsets} exists they answer NOT_COORDINATOR (see {@link #createOnDemand}).
 *
 * <p>Transactions: {@link #txnOffsetCommit} writes offsets in a producer's transaction, pending until
 * {@link #completeTransaction} writes its marker (WriteTxnMarkers for a {@code __consumer_offsets} partition).
 *
 * <p>Share groups (KIP-932, issue 12): {@link #shareGroupHeartbeat} and the share group administration
 * ({@link #describeShareGroup}, the share group offset APIs, and share groups in list/delete), with the share
 * state of their partitions initialized, summarized and deleted through the SharePersister given by
 * {@link #setShareGroups} (see {@link ShareGroupProtocol}).
 */
public final class GroupCoordinator implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(GroupCoordinator.class.getName());

    private final GroupCoordinatorConfig config;
    private final IntFunction<CoordinatorLog> logs;
    /** Null when the caller supplies the schedulers (tests). */
    private final CoordinatorThreads threads;
    private final CoordinatorRuntime<GroupShard, OffsetsRecord> runtime;
    /** 0 until {@code __consumer_offsets} exists (see {@link #createOnDemand}); then fixed. */
    private volatile int partitions;
    /** Requests answer COORDINATOR_LOAD_IN_PROGRESS until {@link #startup()}. */
    private volatile boolean started;
    /** Creates {@code __consumer_offsets} on first need; null when it existed at startup. */
    private final Supplier<CompletableFuture<Integer>> offsetsTopicCreator;
    private final AtomicBoolean creating = new AtomicBoolean();
    /**
     * In a cluster partitions load and unload only with leadership ({@link #onElection}/{@link #onResignation});
     * on one node every partition loads at startup or once the topic is created.
     */
    private final boolean loadsOnElection;
    /** Each partition led here and the leader epoch it was elected under (a cluster; see {@link #onElection(int, int, int)}). */
    private final ConcurrentHashMap<Integer, Integer> leaderEpochs = new ConcurrentHashMap<>();
    private boolean closed;
    /** issue 12, streams: streams groups' settings and task assignor, read by each partition as it loads. */
    private volatile StreamsGroupConfig streamsConfig;
    /** Share groups' settings, group configs and share-state persister (issue 12); see {@link #setShareGroups}. */
    private volatile ShareGroupServices shares = ShareGroupServices.DEFAULTS;

    private GroupCoordinator(GroupCoordinatorConfig config, IntFunction<CoordinatorLog> logs, IntFunction<Scheduler> schedulers,
            CoordinatorThreads threads, TopicCatalog topics, Supplier<CompletableFuture<Integer>> offsetsTopicCreator) {
        this(config, logs, schedulers, threads, topics, offsetsTopicCreator, false);
    }

    private GroupCoordinator(GroupCoordinatorConfig config, IntFunction<CoordinatorLog> logs, IntFunction<Scheduler> schedulers,
            CoordinatorThreads threads, TopicCatalog topics, Supplier<CompletableFuture<Integer>> offsetsTopicCreator,
            boolean loadsOnElection) {
        this.config = config;
        this.logs = logs;
        this.threads = threads;
        this.offsetsTopicCreator = offsetsTopicCreator;
        this.loadsOnElection = loadsOnElection;
        this.runtime = new CoordinatorRuntime<>(OffsetsTopic.NAME, OffsetsRecordCodec.SERDE, schedulers,
                config.offsetCommitTimeoutMs(), context -> new GroupShard(context, config.withOffsetsTopicPartitions(partitions), topics,
                        streamsConfig, () -> shares));
        if (offsetsTopicCreator == null) {
            this.partitions = config.offsetsTopicPartitions();
        } else {
            this.started = true; // nothing to load until the topic exists
        }
    }

    /**
     * A coordinator over the given {@code __consumer_offsets} partition logs, on its own threads
     * (at most 4, one per core). Call {@link #startup()} to load the partitions and serve them.
     */
    public static GroupCoordinator create(GroupCoordinatorConfig config, IntFunction<CoordinatorLog> logs) {
        return create(config, logs, TopicCatalog.EMPTY);
    }

    /**
     * A coordinator whose consumer-protocol groups are assigned partitions of the catalog's topics (the
     * classic protocol leaves that to a member). Call {@link #startup()} to load the partitions and serve them.
     */
    public static GroupCoordinator create(GroupCoordinatorConfig config, IntFunction<CoordinatorLog> logs, TopicCatalog topics) {
        CoordinatorThreads threads = CoordinatorThreads.perCore("group-coordinator");
        return new GroupCoordinator(config, logs, threads::scheduler, threads, topics, null);
    }

    /**
     * For a broker without {@code __consumer_offsets} yet, as Kafka does: the topic is created when first
     * needed ({@link #ensureOffsetsTopic}, or any group request), not at startup. {@code create} starts
     * creating it off the caller's thread and completes with its partition count; its partitions are then
     * read from {@code logs} and load as after {@link #startup()}. Until then group requests answer
     * NOT_COORDINATOR (clients look the coordinator up again) and ListGroups an empty list, as a Kafka
     * broker hosting no offsets partition does. No {@link #startup()} needed.
     */
    public static GroupCoordinator createOnDemand(GroupCoordinatorConfig config, IntFunction<CoordinatorLog> logs,
            TopicCatalog topics, Supplier<CompletableFuture<Integer>> create) {
        CoordinatorThreads threads = CoordinatorThreads.perCore("group-coordinator");
        return new GroupCoordinator(config, logs, threads::scheduler, threads, topics, create);
    }

    /**
     * For a broker in a cluster: serves the {@code __consumer_offsets} partitions this broker leads, each
     * loaded by {@link #onElection(int, int)} and dropped by {@link #onResignation} as leadership moves
     * (groups of other partitions answer NOT_COORDINATOR, of a partition still loading
     * COORDINATOR_LOAD_IN_PROGRESS). {@code create} makes the topic when first needed (through the
     * controller) and completes with its partition count; it loads nothing itself. No {@link #startup()}.
     */
    public static GroupCoordinator createForElections(GroupCoordinatorConfig config, IntFunction<CoordinatorLog> logs,
            TopicCatalog topics, Supplier<CompletableFuture<Integer>> create) {
        CoordinatorThreads threads = CoordinatorThreads.perCore("group-coordinator");
        return new GroupCoordinator(config, logs, threads::scheduler, threads, topics, create, true);
    }

    /** For tests: {@link #createForElections} with partitions on the given schedulers. */
    static GroupCoordinator createForElections(GroupCoordinatorConfig config, IntFunction<CoordinatorLog> logs,
            IntFunction<Scheduler> schedulers, Supplier<CompletableFuture<Integer>> create) {
        return new GroupCoordinator(config, logs, schedulers, null, TopicCatalog.EMPTY, create, true);
    }

    /** For tests: {@link #createOnDemand} with partitions on the given schedulers. */
    static GroupCoordinator createOnDemand(GroupCoordinatorConfig config, IntFunction<CoordinatorLog> logs,
            IntFunction<Scheduler> schedulers, Supplier<CompletableFuture<Integer>> create) {
        return new GroupCoordinator(config, logs, schedulers, null, TopicCatalog.EMPTY, create);
    }

    /** For tests: partitions run on the given schedulers (e.g. a manual clock). */
    static GroupCoordinator create(GroupCoordinatorConfig config, IntFunction<CoordinatorLog> logs, IntFunction<Scheduler> schedulers) {
        return new GroupCoordinator(config, logs, schedulers, null, TopicCatalog.EMPTY, null);
    }

    /** For tests: partitions run on the given schedulers, consumer groups assigned from the catalog. */
    static GroupCoordinator create(GroupCoordinatorConfig config, IntFunction<CoordinatorLog> logs, IntFunction<Scheduler> schedulers,
            TopicCatalog topics) {
        return new GroupCoordinator(config, logs, schedulers, null, topics, null);
    }

    /** Starts reading every partition back from its log; each serves requests as soon as it is loaded. */
    public void startup() {
        load(partitions);
        started = true; // after every partition is registered as loading: requests meanwhile wait, not redirect
    }

    /**
     * Whether {@code __consumer_offsets} exists (its partitions may still be loading); if not, starts
     * creating it (once; again after a failure). FindCoordinator answers COORDINATOR_NOT_AVAILABLE while false.
     */
    public boolean ensureOffsetsTopic() {
        if (partitions > 0) {
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
        return partitions > 0;
    }

    /**
     * Fixes the partition count and (one node) starts loading each partition; from then on requests reach
     * them. In a cluster the partitions this broker leads load on election.
     */
    private synchronized void activate(int count) {
        if (closed || partitions > 0) {
            return;
        }
        partitions = count;
        if (!loadsOnElection) {
            load(count);
        }
    }

    /** Loads the partitions (on one node this broker leads them all). */
    private void load(int count) {
        for (int p = 0; p < count; p++) {
            runtime.load(p, logs.apply(p));
        }
    }

    /**
     * This broker became the leader of {@code __consumer_offsets} partition {@code partition}: load its
     * groups from the log (requests for them answer COORDINATOR_LOAD_IN_PROGRESS meanwhile). Called as
     * leadership moves in a cluster; one node leads every partition from startup.
     */
    public CompletableFuture<Void> onElection(int partition) {
        return runtime.load(partition, logs.apply(partition));
    }

    /**
     * As {@link #onElection(int)}, in a cluster where the topic may have been created by another broker:
     * {@code offsetsTopicPartitions} (its partition count in the metadata; 0 if unknown, then
     * {@code offsets.topic.num.partitions}) is taken as the topic's if this coordinator did not know it
     * yet, so groups are placed by it.
     */
    public CompletableFuture<Void> onElection(int partition, int offsetsTopicPartitions) {
        if (partitions == 0) {
            // Unknown (not positive): the configured count, which every broker normally shares.
            activate(offsetsTopicPartitions > 0 ? offsetsTopicPartitions : config.offsetsTopicPartitions());
        }
        return onElection(partition);
    }

    /**
     * As {@link #onElection(int, int)}, with the partition's leader epoch (a cluster). Elected again under a
     * newer epoch with no resignation seen in between (Kafka's runtime compares the partition epoch the same
     * way), the partition's groups are dropped and read back from the log: while another broker led it,
     * records were written that the state loaded under the old epoch lacks. The same or an older epoch keeps
     * the load there is.
     */
    public CompletableFuture<Void> onElection(int partition, int offsetsTopicPartitions, int leaderEpoch) {
        if (partitions == 0) {
            activate(offsetsTopicPartitions > 0 ? offsetsTopicPartitions : config.offsetsTopicPartitions());
        }
        Integer previous = leaderEpochs.get(partition);
        if (previous != null && leaderEpoch < previous) {
            return runtime.load(partition, logs.apply(partition)); // stale news: whatever is loaded stays
        }
        leaderEpochs.put(partition, leaderEpoch);
        if (previous != null && leaderEpoch > previous && (runtime.isActive(partition) || runtime.isLoading(partition))) {
            // Loads only if still elected under this epoch once unloaded: a resignation (or a newer election)
            // meanwhile finds nothing loaded to drop, so it must be the one that wins.
            return runtime.unload(partition).thenCompose(v -> stillElected(partition, leaderEpoch)
                    ? runtime.load(partition, logs.apply(partition))
                    : CompletableFuture.completedFuture(null));
        }
        return runtime.load(partition, logs.apply(partition));
    }

    private boolean stillElected(int partition, int leaderEpoch) {
        Integer current = leaderEpochs.get(partition);
        return current != null && current == leaderEpoch;
    }

    /**
     * This broker no longer leads the partition: its groups answer NOT_COORDINATOR (clients look the
     * coordinator up again), parked requests and writes not yet committed included; timers stop.
     */
    public CompletableFuture<Void> onResignation(int partition) {
        leaderEpochs.remove(partition); // a reload still waiting for an unload must not load it again
        return runtime.unload(partition);
    }

    public GroupCoordinatorConfig config() {
        return config;
    }

    /**
     * Share groups (issue 12): their settings, the groups' dynamic configs and the SharePersister the share
     * state is initialized, summarized and deleted through. May be called at any time (partitions read it when
     * they use it); until then share groups have Kafka's default settings and no share state is kept.
     */
    public void setShareGroups(ShareGroupServices services) {
        this.shares = services == null ? ShareGroupServices.DEFAULTS : services;
    }

    /**
     * The groups' dynamic configs as {@link #setShareGroups} last gave them, read at each use: streams groups
     * configured before the broker's group configs exist still see them (issue 12).
     */
    public GroupConfigSource groupConfigs() {
        return groupId -> shares.groupConfigs().configs(groupId);
    }

    /** What {@link #setShareGroups} set last (Kafka's defaults and no persister until then). */
    public ShareGroupServices shareGroups() {
        return shares;
    }

    /** The {@code __consumer_offsets} partition that holds this group. */
    public int partitionFor(String groupId) {
        int current = partitions;
        return OffsetsTopic.partitionFor(groupId, current > 0 ? current : config.offsetsTopicPartitions());
    }

    /** Whether every partition has been loaded. */
    public boolean isLoaded() {
        int current = partitions;
        if (current == 0 || !started) {
            return false;
        }
        for (int p = 0; p < current; p++) {
            if (!runtime.isActive(p)) {
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
        Function<ErrorCode, JoinGroupResult> onError = e -> JoinGroupResult.error(req.memberId(), e);
        // Two operations: an empty consumer group of that id is converted first (its records committed).
        return write(req.groupId(), "prepare-join-group", e -> e, shard -> shard.prepareClassicJoin(req.groupId()))
                .thenCompose(error -> error != ErrorCode.NONE ? CompletableFuture.completedFuture(onError.apply(error))
                        : parked(req.groupId(), "join-group", onError, (shard, f) -> shard.joinGroup(req, f)));
    }

    public CompletableFuture<SyncGroupResult> syncGroup(SyncGroupRequest req) {
        if (req.groupId() == null || req.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(SyncGroupResult.error(ErrorCode.INVALID_GROUP_ID));
        }
        return parked(req.groupId(), "sync-group", SyncGroupResult::error, (shard, f) -> shard.syncGroup(req, f));
    }

    public CompletableFuture<ErrorCode> heartbeat(String groupId, String memberId, String groupInstanceId, int generationId) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(ErrorCode.INVALID_GROUP_ID);
        }
        return write(groupId, "heartbeat", e -> e, shard -> shard.heartbeat(groupId, memberId, groupInstanceId, generationId));
    }

    public CompletableFuture<LeaveGroupResult> leaveGroup(String groupId, List<LeaveGroupResult.Member> members) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(LeaveGroupResult.error(ErrorCode.INVALID_GROUP_ID));
        }
        return write(groupId, "leave-group", LeaveGroupResult::error, shard -> shard.leaveGroup(groupId, members));
    }

    // ------------------------------------------------------------------ consumer groups (KIP-848)

    /** A ConsumerGroupHeartbeat: join, heartbeat or leave; answered at once (nothing is parked in this protocol). */
    public CompletableFuture<ConsumerGroupHeartbeatResult> consumerGroupHeartbeat(ConsumerGroupHeartbeatRequest req) {
        if (req.groupId() == null || req.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(
                    ConsumerGroupHeartbeatResult.error(ErrorCode.INVALID_REQUEST, "GroupId can't be empty."));
        }
        return write(req.groupId(), "consumer-group-heartbeat", e -> ConsumerGroupHeartbeatResult.error(e, null),
                shard -> shard.consumerGroupHeartbeat(req));
    }

    public CompletableFuture<ConsumerGroupDescription> describeConsumerGroup(String groupId) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(ConsumerGroupDescription.error(groupId, ErrorCode.INVALID_GROUP_ID, null));
        }
        return read(groupId, "describe-consumer-group", e -> ConsumerGroupDescription.error(groupId, e, null),
                shard -> shard.describeConsumerGroup(groupId));
    }

    /** For tests: a consumer group's state, or null when there is no consumer group of that id. */
    CompletableFuture<ConsumerGroupState> consumerStateOf(String groupId) {
        return read(groupId, "consumer-state", e -> null, shard -> shard.consumerStateOf(groupId));
    }

    // ------------------------------------------------------------------ streams groups (KIP-1071; issue 12, streams)

    /**
     * Streams groups' settings and task assignor (without this call streams groups have Kafka's default settings and
     * no assignor, so no tasks can be assigned). Call before {@link #startup()} or any partition loads.
     */
    public void configureStreams(StreamsGroupConfig config) {
        this.streamsConfig = config;
    }

    /** A StreamsGroupHeartbeat: join, heartbeat or leave; answered at once. */
    public CompletableFuture<StreamsGroupHeartbeatResult> streamsGroupHeartbeat(StreamsGroupHeartbeatRequest req) {
        if (req.groupId() == null || req.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(StreamsGroupHeartbeatResult.error(ErrorCode.INVALID_REQUEST, "GroupId can't be empty."));
        }
        return write(req.groupId(), "streams-group-heartbeat", e -> StreamsGroupHeartbeatResult.error(e, null),
                shard -> shard.streamsGroupHeartbeat(req));
    }

    public CompletableFuture<StreamsGroupDescription> describeStreamsGroup(String groupId) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(StreamsGroupDescription.error(groupId, ErrorCode.INVALID_GROUP_ID, null));
        }
        return read(groupId, "describe-streams-group", e -> StreamsGroupDescription.error(groupId, e, null),
                shard -> shard.describeStreamsGroup(groupId));
    }

    // ------------------------------------------------------------------ share groups (KIP-932, issue 12)

    /**
     * A ShareGroupHeartbeat: join, heartbeat or leave, answered as soon as what it changed is committed. When it
     * made partitions of the subscribed topics start initializing, their share state is initialized through the
     * SharePersister in the background (start offset -1: the partition leader applies share.auto.offset.reset),
     * as Kafka 4.4's GroupCoordinatorService does: the partitions are assigned by a later heartbeat once they are
     * recorded initialized; a failure is only logged and puts them back to uninitialized, so a later heartbeat
     * tries again. The client never sees the persister's errors.
     */
    public CompletableFuture<ShareGroupHeartbeatResult> shareGroupHeartbeat(ShareGroupHeartbeatRequest req) {
        Function<ErrorCode, ShareGroupHeartbeatResult> onError = e -> ShareGroupHeartbeatResult.error(e, null);
        return write(req.groupId() == null ? "" : req.groupId(), "share-group-heartbeat",
                e -> ShareGroupProtocol.HeartbeatOutcome.of(onError.apply(e)), shard -> shard.shareGroupHeartbeat(req))
                .thenApply(outcome -> {
                    if (!outcome.toInitialize().isEmpty()) {
                        initializeInBackground(req.groupId(), outcome.stateEpoch(), outcome.toInitialize());
                    }
                    return outcome.result();
                });
    }

    /** Starts initializing the share state of these partitions; nobody waits for it (failures are logged). */
    private void initializeInBackground(String groupId, int stateEpoch, Map<UUID, Set<Integer>> partitions) {
        try {
            initializeShareState(groupId, stateEpoch, offsetsOf(partitions, -1L)).whenComplete((error, e) -> {
                if (e != null) {
                    LOG.log(System.Logger.Level.WARNING, "cannot initialize the share state of group " + groupId, e);
                }
            });
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot initialize the share state of group " + groupId, e);
        }
    }

    /**
     * Initializes the share state of these partitions through the SharePersister, then records them initialized
     * (all succeeded) or no longer initializing (any failed: the first error is the result, as in Kafka).
     */
    private CompletableFuture<ErrorCode> initializeShareState(String groupId, int stateEpoch, Map<UUID, Map<Integer, Long>> offsets) {
        return initializeEach(groupId, stateEpoch, offsets).thenCompose(errors -> {
            ErrorCode first = errors.values().stream().flatMap(m -> m.values().stream())
                    .filter(e -> e != ErrorCode.NONE).findFirst().orElse(ErrorCode.NONE);
            Map<UUID, Set<Integer>> partitions = partitionsOf(offsets);
            if (first == ErrorCode.NONE) {
                return write(groupId, "initialize-share-group-state", e -> e, shard -> {
                    shard.shareStateInitialized(groupId, partitions);
                    return ErrorCode.NONE;
                });
            }
            LOG.log(System.Logger.Level.WARNING, "cannot initialize the share state of group " + groupId + ": " + errors);
            return write(groupId, "uninitialize-share-group-state", e -> first, shard -> {
                shard.shareStateUninitialized(groupId, partitions);
                return first;
            });
        });
    }

    /** SharePersister.initialize for every partition; each partition's error (NONE without a persister). */
    private CompletableFuture<Map<UUID, Map<Integer, ErrorCode>>> initializeEach(String groupId, int stateEpoch,
            Map<UUID, Map<Integer, Long>> offsets) {
        SharePersister persister = shares.persister();
        Map<UUID, Map<Integer, CompletableFuture<ErrorCode>>> calls = new TreeMap<>();
        offsets.forEach((topic, parts) -> parts.forEach((p, offset) -> calls.computeIfAbsent(topic, t -> new TreeMap<>())
                .put(p, persister == null ? CompletableFuture.completedFuture(ErrorCode.NONE)
                        : initializeRetrying(persister, new SharePartitionKey(groupId, topic, p), stateEpoch, offset, 1))));
        return allOf(calls);
    }

    /** Attempts of a SharePersister.initialize answered by a share coordinator not (yet) available. */
    private static final int INITIALIZE_ATTEMPTS = 5;

    /**
     * SharePersister.initialize, tried again after 100, 200, 400, 800 ms while the share coordinator is not
     * available (as Kafka's persister retries; e.g. while {@code __share_group_state} is being created).
     */
    private static CompletableFuture<ErrorCode> initializeRetrying(SharePersister persister, SharePartitionKey key,
            int stateEpoch, long offset, int attempt) {
        return persister.initialize(key, stateEpoch, offset).exceptionally(GroupCoordinator::persisterError)
                .thenCompose(error -> {
                    boolean unavailable = error == ErrorCode.COORDINATOR_NOT_AVAILABLE || error == ErrorCode.NOT_COORDINATOR
                            || error == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
                    if (!unavailable || attempt >= INITIALIZE_ATTEMPTS) {
                        return CompletableFuture.completedFuture(error);
                    }
                    java.util.concurrent.Executor later = CompletableFuture.delayedExecutor(
                            100L << (attempt - 1), java.util.concurrent.TimeUnit.MILLISECONDS);
                    return CompletableFuture.supplyAsync(() -> null, later)
                            .thenCompose(v -> initializeRetrying(persister, key, stateEpoch, offset, attempt + 1));
                });
    }

    private static <T> CompletableFuture<Map<UUID, Map<Integer, T>>> allOf(Map<UUID, Map<Integer, CompletableFuture<T>>> calls) {
        List<CompletableFuture<T>> all = new ArrayList<>();
        calls.values().forEach(m -> all.addAll(m.values()));
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenApply(v -> {
            Map<UUID, Map<Integer, T>> out = new TreeMap<>();
            calls.forEach((t, m) -> m.forEach((p, f) -> out.computeIfAbsent(t, x -> new TreeMap<>()).put(p, f.join())));
            return out;
        });
    }

    private static ErrorCode persisterError(Throwable e) {
        ErrorCode error = CoordinatorErrors.of(e);
        if (error == null) {
            LOG.log(System.Logger.Level.ERROR, "share persister call failed", e);
            return ErrorCode.UNKNOWN_SERVER_ERROR;
        }
        return error;
    }

    private static Map<UUID, Map<Integer, Long>> offsetsOf(Map<UUID, Set<Integer>> partitions, long offset) {
        Map<UUID, Map<Integer, Long>> out = new TreeMap<>();
        partitions.forEach((t, parts) -> parts.forEach(p -> out.computeIfAbsent(t, x -> new TreeMap<>()).put(p, offset)));
        return out;
    }

    private static Map<UUID, Set<Integer>> partitionsOf(Map<UUID, Map<Integer, Long>> offsets) {
        Map<UUID, Set<Integer>> out = new TreeMap<>();
        offsets.forEach((t, parts) -> out.put(t, new TreeSet<>(parts.keySet())));
        return out;
    }

    public CompletableFuture<ShareGroupDescription> describeShareGroup(String groupId) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(ShareGroupDescription.error(groupId, ErrorCode.INVALID_GROUP_ID, null));
        }
        return read(groupId, "describe-share-group", e -> ShareGroupDescription.error(groupId, e, null),
                shard -> shard.describeShareGroup(groupId));
    }

    /**
     * DescribeShareGroupOffsets: each partition's start offset as the share coordinator summarizes it. With
     * {@code partitions} null, every partition the group has initialized (Kafka's describeShareGroupAllOffsets);
     * otherwise the partitions asked for, whatever the group (Kafka does not look the group up then). A
     * partition without share state answers start offset -1.
     */
    public CompletableFuture<ShareGroupOffsets.Described> describeShareGroupOffsets(String groupId,
            Map<UUID, List<Integer>> partitions) {
        if (partitions != null) {
            return summarize(groupId, partitions);
        }
        return read(groupId, "share-group-initialized-partitions", e -> null, shard -> shard.initializedSharePartitions(groupId))
                .thenCompose(initialized -> {
                    if (initialized == null) {
                        return CompletableFuture.completedFuture(ShareGroupOffsets.Described.error(ErrorCode.COORDINATOR_NOT_AVAILABLE, null));
                    }
                    Map<UUID, List<Integer>> all = new TreeMap<>();
                    initialized.forEach((t, p) -> all.put(t, new ArrayList<>(new TreeSet<>(p))));
                    return summarize(groupId, all);
                });
    }

    private CompletableFuture<ShareGroupOffsets.Described> summarize(String groupId, Map<UUID, List<Integer>> partitions) {
        ErrorCode refused = refusal();
        if (refused != null) {
            return CompletableFuture.completedFuture(ShareGroupOffsets.Described.error(refused, null));
        }
        SharePersister persister = shares.persister();
        Map<UUID, Map<Integer, CompletableFuture<ShareGroupOffsets.PartitionOffset>>> calls = new TreeMap<>();
        partitions.forEach((topic, parts) -> parts.forEach(p -> calls.computeIfAbsent(topic, t -> new TreeMap<>())
                .put(p, persister == null ? CompletableFuture.completedFuture(ShareGroupOffsets.PartitionOffset.none(p))
                        : persister.readSummary(new SharePartitionKey(groupId, topic, p), -1)
                                .thenApply(s -> partitionOffset(p, s))
                                .exceptionally(e -> new ShareGroupOffsets.PartitionOffset(p, persisterError(e), null, -1, -1, -1)))));
        return allOf(calls).thenApply(all -> new ShareGroupOffsets.Described(ErrorCode.NONE, null, all));
    }

    /** The share coordinator's summary as it is (a partition never initialized: NONE with start offset -1). */
    private static ShareGroupOffsets.PartitionOffset partitionOffset(int partition, ShareStateSummary s) {
        return new ShareGroupOffsets.PartitionOffset(partition, s.error(), s.message(), s.startOffset(), s.leaderEpoch(),
                s.deliveryCompleteCount());
    }

    /**
     * AlterShareGroupOffsets: the group must be a share group without members (a new id becomes an empty share
     * group); each partition's share state is initialized again at its new start offset, under the group epoch.
     */
    public CompletableFuture<ShareGroupOffsets.Altered> alterShareGroupOffsets(String groupId, Map<UUID, Map<Integer, Long>> offsets) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(ShareGroupOffsets.Altered.error(ErrorCode.INVALID_GROUP_ID, null));
        }
        Map<UUID, Set<Integer>> partitions = partitionsOf(offsets);
        return write(groupId, "share-group-offsets-alter", e -> new ShareGroupProtocol.OffsetsChange(e, null, 0, Map.of()),
                shard -> shard.alterShareGroupOffsets(groupId, partitions)).thenCompose(checked -> {
            if (checked.error() != ErrorCode.NONE) {
                return CompletableFuture.completedFuture(ShareGroupOffsets.Altered.error(checked.error(), checked.message()));
            }
            return initializeEach(groupId, checked.stateEpoch(), offsets).thenCompose(errors -> {
                Map<UUID, Set<Integer>> ok = new TreeMap<>();
                Map<UUID, Set<Integer>> failed = new TreeMap<>();
                errors.forEach((t, m) -> m.forEach((p, e) -> (e == ErrorCode.NONE ? ok : failed)
                        .computeIfAbsent(t, x -> new TreeSet<>()).add(p)));
                return write(groupId, "share-group-offsets-altered", e -> e, shard -> {
                    shard.shareStateSettled(groupId, ok, failed);
                    return ErrorCode.NONE;
                }).thenApply(e -> new ShareGroupOffsets.Altered(ErrorCode.NONE, null, errors));
            });
        });
    }

    /**
     * DeleteShareGroupOffsets: the group must be a share group without members; the share state of each of
     * these topics it has is deleted through the SharePersister, and the topics leave the group's state metadata.
     * Topics the group has no state for answer UNKNOWN_TOPIC_OR_PARTITION, as in Kafka 4.4.
     */
    public CompletableFuture<ShareGroupOffsets.Deleted> deleteShareGroupOffsets(String groupId, Set<UUID> topicIds) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(ShareGroupOffsets.Deleted.error(ErrorCode.INVALID_GROUP_ID, null));
        }
        return write(groupId, "share-group-offsets-delete", e -> new ShareGroupProtocol.OffsetsChange(e, null, 0, Map.of()),
                shard -> shard.startDeletingShareGroupOffsets(groupId, topicIds)).thenCompose(checked -> {
                    if (checked.error() != ErrorCode.NONE) {
                        return CompletableFuture.completedFuture(ShareGroupOffsets.Deleted.error(checked.error(), checked.message()));
                    }
                    Map<UUID, Set<Integer>> deleting = checked.partitions();
                    return deleteShareState(groupId, deleting).thenCompose(errors -> {
                    Map<UUID, ErrorCode> byTopic = new TreeMap<>();
                    // A topic the group has no share state for: Kafka's "There is no offset information to delete."
                    topicIds.forEach(t -> byTopic.put(t, deleting.containsKey(t) ? ErrorCode.NONE : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION));
                    errors.forEach((t, m) -> m.values().stream().filter(e -> e != ErrorCode.NONE).findFirst()
                            .ifPresent(e -> byTopic.put(t, e)));
                    Set<UUID> done = new TreeSet<>(deleting.keySet());
                    done.removeIf(t -> byTopic.get(t) != ErrorCode.NONE);
                    return write(groupId, "share-group-offsets-deleted", e -> e, shard -> {
                        shard.shareGroupOffsetsDeleted(groupId, done);
                        return ErrorCode.NONE;
                    }).thenApply(e -> new ShareGroupOffsets.Deleted(ErrorCode.NONE, null, byTopic));
                    });
                });
    }

    /** SharePersister.delete for every partition; each partition's error (NONE for one never initialized). */
    private CompletableFuture<Map<UUID, Map<Integer, ErrorCode>>> deleteShareState(String groupId, Map<UUID, Set<Integer>> partitions) {
        SharePersister persister = shares.persister();
        Map<UUID, Map<Integer, CompletableFuture<ErrorCode>>> calls = new TreeMap<>();
        partitions.forEach((topic, parts) -> parts.forEach(p -> calls.computeIfAbsent(topic, t -> new TreeMap<>())
                .put(p, persister == null ? CompletableFuture.completedFuture(ErrorCode.NONE)
                        : persister.delete(new SharePartitionKey(groupId, topic, p))
                                .thenApply(e -> e == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION ? ErrorCode.NONE : e)
                                .exceptionally(GroupCoordinator::persisterError))));
        return allOf(calls);
    }

    // ------------------------------------------------------------------ offsets

    /** Per-partition errors, in request order. */
    public CompletableFuture<Map<TopicPartition, ErrorCode>> commitOffsets(OffsetCommitRequest req) {
        // "" is a group like any other here (Java consumers before 2.2 commit with it by default); Kafka refuses
        // only a null id for OffsetCommit, and an empty one for TxnOffsetCommit.
        return commitFor(req.groupId(), true, req.partitions(),
                all -> write(req.groupId(), "commit-offsets", all, shard -> shard.commitOffsets(req)));
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
        return fetchOffsets(groupId, memberId, memberEpoch, partitions, false);
    }

    /**
     * As above; with {@code requireStable} (OffsetFetch v7+ require_stable) a partition whose transactional
     * offset commit is still pending answers UNSTABLE_OFFSET_COMMIT (see {@link OffsetFetchResult#unstable}).
     * Such a fetch runs after the writes already queued on the group's partition, as Kafka runs it as a
     * write: a TxnOffsetCommit answered before it counts as pending.
     */
    public CompletableFuture<OffsetFetchResult> fetchOffsets(String groupId, String memberId, int memberEpoch,
            List<TopicPartition> partitions, boolean requireStable) {
        if (!requireStable) {
            return read(groupId == null ? "" : groupId, "fetch-offsets", OffsetFetchResult::error,
                    shard -> shard.fetchOffsets(groupId, memberId, memberEpoch, partitions));
        }
        return write(groupId == null ? "" : groupId, "fetch-stable-offsets", OffsetFetchResult::error,
                shard -> shard.fetchOffsets(groupId, memberId, memberEpoch, partitions, true));
    }

    // ------------------------------------------------------------------ transactions

    /**
     * A TxnOffsetCommit, once the transaction coordinator has verified (or added) the group's
     * {@code __consumer_offsets} partition in the producer's transaction: the offsets are written as a
     * transactional batch of the producer and stay pending (invisible to OffsetFetch) until
     * {@link #completeTransaction} commits them. Per-partition errors, in request order; a refused append
     * answers every partition with the client's error (INVALID_PRODUCER_EPOCH, NOT_COORDINATOR, ...).
     */
    public CompletableFuture<Map<TopicPartition, ErrorCode>> txnOffsetCommit(TxnOffsetCommitRequest req) {
        return commitFor(req.groupId(), false, req.partitions(), all -> {
            ErrorCode refused = refusal();
            if (refused != null) {
                return CompletableFuture.completedFuture(all.apply(refused));
            }
            return answer(runtime.scheduleTransactionalWrite(partitionFor(req.groupId()), "txn-commit-offsets",
                    req.producerId(), req.producerEpoch(), shard -> shard.operation(() -> shard.txnOffsetCommit(req))), all);
        });
    }

    /**
     * An offset commit's answer: INVALID_GROUP_ID for every partition without a group id (null, or also ""
     * unless {@code emptyAllowed}), else what {@code commit} answers, given the function that answers every
     * partition with one error.
     */
    private static CompletableFuture<Map<TopicPartition, ErrorCode>> commitFor(String groupId, boolean emptyAllowed,
            List<OffsetCommitRequest.Partition> partitions,
            Function<Function<ErrorCode, Map<TopicPartition, ErrorCode>>, CompletableFuture<Map<TopicPartition, ErrorCode>>> commit) {
        Function<ErrorCode, Map<TopicPartition, ErrorCode>> all = e -> {
            Map<TopicPartition, ErrorCode> out = new LinkedHashMap<>();
            partitions.forEach(p -> out.put(p.partition(), e));
            return out;
        };
        if (groupId == null || (groupId.isEmpty() && !emptyAllowed)) {
            return CompletableFuture.completedFuture(all.apply(ErrorCode.INVALID_GROUP_ID));
        }
        return commit.apply(all);
    }

    /**
     * Writes the producer's commit or abort marker into {@code __consumer_offsets} partition
     * {@code offsetsPartition} (WriteTxnMarkers for that partition) and, once it is committed, makes the
     * producer's pending offsets there committed, or drops them. Completes with the error WriteTxnMarkers
     * answers for the partition, as Kafka's KafkaApis makes it: NONE; the log's refusal
     * (INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED, ...); NOT_LEADER_OR_FOLLOWER when this broker
     * does not serve the partition (yet), so the transaction coordinator retries.
     */
    public CompletableFuture<ErrorCode> completeTransaction(int offsetsPartition, long producerId, short producerEpoch,
            int coordinatorEpoch, boolean commit) {
        CompletableFuture<Void> done = refusal() != null
                ? CompletableFuture.failedFuture(new CoordinatorException(ErrorCode.NOT_COORDINATOR, "write-txn-marker refused"))
                : runtime.scheduleTransactionCompletion(offsetsPartition, "write-txn-marker", producerId, producerEpoch,
                        coordinatorEpoch, commit);
        return done.handle((v, e) -> {
            if (e == null) {
                return ErrorCode.NONE;
            }
            ErrorCode error = CoordinatorErrors.of(e);
            if (error == null) {
                LOG.log(System.Logger.Level.ERROR, "transaction marker for producer " + producerId + " failed in "
                        + OffsetsTopic.NAME + "-" + offsetsPartition, e);
                return ErrorCode.UNKNOWN_SERVER_ERROR;
            }
            return switch (error) {
                // The transaction coordinator does not expect these: it retries on NOT_LEADER_OR_FOLLOWER.
                case COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS, NOT_COORDINATOR -> ErrorCode.NOT_LEADER_OR_FOLLOWER;
                default -> error;
            };
        });
    }

    public CompletableFuture<OffsetDeleteResult> deleteOffsets(String groupId, List<TopicPartition> partitions) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(OffsetDeleteResult.error(ErrorCode.INVALID_GROUP_ID));
        }
        return write(groupId, "delete-offsets", OffsetDeleteResult::error, shard -> shard.deleteOffsets(groupId, partitions));
    }

    // ------------------------------------------------------------------ group administration

    /**
     * Every group, optionally only those in the given states and of the given types (case-insensitive,
     * as in Kafka). A partition still loading makes the whole answer COORDINATOR_LOAD_IN_PROGRESS.
     */
    public CompletableFuture<ListGroupsResult> listGroups(Collection<String> statesFilter, Collection<String> typesFilter) {
        Set<String> states = lowerCase(statesFilter);
        Set<String> types = lowerCase(typesFilter);
        int current = partitions;
        if (current == 0) {
            return CompletableFuture.completedFuture(new ListGroupsResult(ErrorCode.NONE, List.of()));
        }
        List<CompletableFuture<List<GroupOverview>>> parts = new ArrayList<>(current);
        for (int p = 0; p < current; p++) {
            if (!started || runtime.isLoading(p)) {
                return CompletableFuture.completedFuture(new ListGroupsResult(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, List.of()));
            }
            // A partition not served here (it failed to load) has no groups to list.
            parts.add(runtime.scheduleRead(p, "list-groups", shard -> shard.listGroups(states, types))
                    .exceptionally(e -> orFallback(e, List.of())));
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
        return read(groupId == null ? "" : groupId, "describe-group", e -> GroupDescription.error(groupId, e, ""),
                shard -> shard.describeGroup(groupId));
    }

    public CompletableFuture<ErrorCode> deleteGroup(String groupId) {
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(ErrorCode.INVALID_GROUP_ID);
        }
        // Share groups (issue 12): an empty share group's share state is deleted first, as Kafka's deleteShareGroups.
        return write(groupId, "share-state-to-delete", e -> new ShareGroupProtocol.StateToDelete(e, Map.of()),
                shard -> shard.shareStateToDelete(groupId))
                .thenCompose(state -> {
                    if (state.error() == ErrorCode.GROUP_ID_NOT_FOUND) {
                        return write(groupId, "delete-group", e -> e, shard -> shard.deleteGroup(groupId)); // not a share group
                    }
                    if (state.error() != ErrorCode.NONE) {
                        return CompletableFuture.completedFuture(state.error());
                    }
                    return deleteShareState(groupId, state.partitions()).thenCompose(errors -> {
                        ErrorCode failed = errors.values().stream().flatMap(m -> m.values().stream())
                                .filter(e -> e != ErrorCode.NONE).findFirst().orElse(ErrorCode.NONE);
                        return failed != ErrorCode.NONE ? CompletableFuture.completedFuture(failed)
                                : write(groupId, "delete-group", e -> e, shard -> shard.deleteGroup(groupId));
                    });
                });
    }

    /** For tests: a group's state, or null when the group is unknown. */
    CompletableFuture<GroupState> stateOf(String groupId) {
        return read(groupId, "group-state", e -> null, shard -> shard.stateOf(groupId));
    }

    /**
     * Deletes every group's committed offsets of these topics (call when topics are deleted).
     *
     * @return how many offsets were deleted
     */
    public CompletableFuture<Integer> onTopicsDeleted(Collection<String> topics) {
        Set<String> deleted = Set.copyOf(topics);
        List<CompletableFuture<Integer>> parts = new ArrayList<>();
        for (int p : servedPartitions()) {
            parts.add(runtime.scheduleWrite(p, "delete-offsets-of-topics", shard -> shard.operation(() -> shard.deleteOffsetsOfTopics(deleted)))
                    .exceptionally(e -> orFallback(e, 0)));
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                .thenApply(v -> parts.stream().mapToInt(CompletableFuture::join).sum());
    }

    /** Runs offset expiration on every partition now, instead of at the next check interval. */
    public CompletableFuture<Void> expireOffsetsNow() {
        List<CompletableFuture<Void>> parts = new ArrayList<>();
        for (int p : servedPartitions()) {
            parts.add(runtime.scheduleWrite(p, "expire-offsets", shard -> shard.operation(() -> {
                shard.expireOffsets();
                return (Void) null;
            })).exceptionally(e -> orFallback(e, null)));
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new));
    }

    // ------------------------------------------------------------------ plumbing

    private interface ShardTask<T> {
        void run(GroupShard shard, CompletableFuture<T> future);
    }

    /** The partitions loaded here now. */
    private List<Integer> servedPartitions() {
        List<Integer> out = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            if (runtime.isActive(p)) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * A write operation on the group's partition: its answer once its records are committed, or
     * {@code onError} of the coordinator error (not loaded, not the coordinator, the write failed).
     */
    private <T> CompletableFuture<T> write(String groupId, String name, Function<ErrorCode, T> onError, Function<GroupShard, T> body) {
        return answer(submitWrite(groupId, name, body), onError);
    }

    private <T> CompletableFuture<T> submitWrite(String groupId, String name, Function<GroupShard, T> body) {
        ErrorCode refused = refusal();
        if (refused != null) {
            return CompletableFuture.failedFuture(new CoordinatorException(refused, name + " refused"));
        }
        return runtime.scheduleWrite(partitionFor(groupId), name, shard -> shard.operation(() -> body.apply(shard)));
    }

    /** A read-only operation on the group's partition (committed state). */
    private <T> CompletableFuture<T> read(String groupId, String name, Function<ErrorCode, T> onError, Function<GroupShard, T> body) {
        ErrorCode refused = refusal();
        if (refused != null) {
            return CompletableFuture.completedFuture(onError.apply(refused));
        }
        return answer(runtime.scheduleRead(partitionFor(groupId), name, body), onError);
    }

    /**
     * A write operation whose answer the shard completes itself, maybe much later (a parked JoinGroup or
     * SyncGroup); if the operation fails before the shard answered, the answer is {@code onError}'s.
     */
    private <T> CompletableFuture<T> parked(String groupId, String name, Function<ErrorCode, T> onError, ShardTask<T> task) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        submitWrite(groupId, name, shard -> {
            task.run(shard, answer);
            return null;
        }).whenComplete((v, e) -> {
            if (e != null && !answer.isDone()) {
                ErrorCode error = CoordinatorErrors.of(e);
                if (error != null) {
                    answer.complete(onError.apply(error));
                } else {
                    answer.completeExceptionally(e); // a bug: the connection closes rather than wait forever
                }
            }
        });
        return answer;
    }

    /** Null when requests may go to the partitions, else the error they get. */
    private ErrorCode refusal() {
        if (partitions == 0 && !ensureOffsetsTopic()) {
            return ErrorCode.NOT_COORDINATOR;
        }
        return started ? null : ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
    }

    /** Coordinator errors become the API's error answer; anything else (a bug) fails the request. */
    private static <T> CompletableFuture<T> answer(CompletableFuture<T> f, Function<ErrorCode, T> onError) {
        return f.exceptionally(e -> orRethrow(e, onError));
    }

    private static <T> T orFallback(Throwable e, T fallback) {
        return orRethrow(e, error -> fallback);
    }

    private static <T> T orRethrow(Throwable e, Function<ErrorCode, T> onError) {
        ErrorCode error = CoordinatorErrors.of(e);
        if (error == null) {
            throw e instanceof CompletionException c ? c : new CompletionException(e);
        }
        return onError.apply(error);
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
        runtime.close();
        if (threads != null) {
            threads.close();
        }
    }
}
