package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.OffsetsRecord;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.ShareGroupRecord;
import io.odradek.coordinator.offsets.StreamsGroupRecord;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.runtime.CoordinatorContext;
import io.odradek.coordinator.runtime.CoordinatorResult;
import io.odradek.coordinator.runtime.CoordinatorShard;
import io.odradek.coordinator.runtime.Scheduler;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The groups of one {@code __consumer_offsets} partition: loading them from the log, their committed
 * offsets (commit, fetch, delete, expiry) and their administration (list, describe, delete), with the
 * protocols in their own classes: {@link ClassicGroupProtocol} (JoinGroup/SyncGroup/Heartbeat/LeaveGroup)
 * and {@link ConsumerGroupProtocol} (KIP-848 ConsumerGroupHeartbeat). A group id is either a classic group
 * or a consumer group; an empty one of either kind turns into the other when a member of the other
 * protocol joins, offsets included.
 *
 * <p>A {@link CoordinatorShard} of the coordinator runtime: every method runs on the partition's thread,
 * so state changes are serialised without locks, and every delay is a timer on that same thread. A write
 * operation ({@link #operation}) collects the records its code writes ({@link #write}) into one
 * {@link CoordinatorResult}; the runtime appends them and, once they are committed, applies them through
 * {@link #replay} (offsets, group deletions, consumer groups: event-sourced) or runs the callback the code
 * gave (a classic group's state, changed in memory first as in Kafka, is only described by its records).
 * The next write operation runs after that, so it sees the outcome.
 *
 * <p>Transactional offset commits (TxnOffsetCommit) are written as the producer's transactional batch and
 * replayed as pending ({@link TransactionalOffsets}); the producer's marker, replayed through
 * {@link #replayEndTransaction}, commits or drops them, at load as after a live WriteTxnMarkers.
 */
final class GroupShard implements CoordinatorShard<OffsetsRecord> {
    private static final System.Logger LOG = System.getLogger(GroupShard.class.getName());

    final int partition;
    private final GroupCoordinatorConfig config;
    private final CoordinatorContext<OffsetsRecord> context;
    private final Scheduler scheduler;
    private final Map<String, ClassicGroup> groups = new HashMap<>();
    private final ClassicGroupProtocol classic;
    private final ConsumerGroupProtocol consumer;
    /** Share groups (KIP-932), issue 12. */
    private final ShareGroupProtocol share;
    /** Streams groups (KIP-1071), issue 12. */
    private final StreamsGroupProtocol streams;
    /** Offsets committed in transactions not yet ended (TxnOffsetCommit). */
    private final TransactionalOffsets transactional = new TransactionalOffsets();
    private boolean closed;
    private Scheduler.Timer expirationTimer;
    /** The write the running operation is collecting; null between operations. */
    private PendingWrite pending;

    GroupShard(CoordinatorContext<OffsetsRecord> context, GroupCoordinatorConfig config, TopicCatalog topics) {
        this(context, config, topics, null, () -> ShareGroupServices.DEFAULTS);
    }

    /**
     * @param streamsConfig streams groups' settings and assignor (issue 12, streams); null: Kafka's defaults, no assignor
     * @param shares        share groups' settings, group configs and persister (issue 12), read when used
     */
    GroupShard(CoordinatorContext<OffsetsRecord> context, GroupCoordinatorConfig config, TopicCatalog topics,
            StreamsGroupConfig streamsConfig, Supplier<ShareGroupServices> shares) {
        this.partition = context.partition();
        this.config = config;
        this.context = context;
        this.scheduler = new OperationScheduler();
        this.classic = new ClassicGroupProtocol(config, scheduler, groups, (records, after) -> write(records, false, after));
        this.consumer = new ConsumerGroupProtocol(partition, config.consumer(), scheduler, topics, groups,
                (records, after) -> write(records, true, after));
        // Share groups (issue 12): a group id of another type is "not a share group".
        this.share = new ShareGroupProtocol(partition, shares, scheduler, topics,
                this::hasNonShareGroup, (records, after) -> write(records, true, after));
        // issue 12, streams: a streams group id is of no other type (consumer, share; classic via the map).
        this.streams = new StreamsGroupProtocol(partition, scheduler, (records, after) -> write(records, true, after),
                streamsConfig != null ? streamsConfig : StreamsGroupConfig.from(Map.of(), GroupConfigSource.NONE, () -> null),
                topics, groups, id -> consumer.group(id) != null || share.hasGroup(id));
    }

    private long now() {
        return context.nowMs();
    }

    // ------------------------------------------------------------------ writes

    /**
     * Runs {@code body} as one write operation: the records it writes become the result's, and its
     * return value the response, completed once they are committed.
     */
    <T> CoordinatorResult<T, OffsetsRecord> operation(Supplier<T> body) {
        PendingWrite outer = pending;
        PendingWrite write = new PendingWrite();
        pending = write;
        try {
            T response = body.get();
            return write.result(response);
        } finally {
            pending = outer;
        }
    }

    /**
     * Adds records to the running operation's write; {@code after} hears the outcome on this thread
     * (NONE once committed, after replay when {@code replay}). Outside an operation (in an append
     * callback) the records go out as an operation of their own, after the writes already waiting.
     *
     * @param replay whether the committed records are applied through {@link #replay}; false when the
     *               caller already changed memory (classic groups)
     */
    private void write(List<? extends OffsetsRecord> records, boolean replay, CoordinatorResult.AfterAppend after) {
        if (pending == null) {
            context.scheduleWrite("deferred write", () -> operation(() -> {
                write(records, replay, after);
                return null;
            }));
            return;
        }
        pending.add(records, replay, after);
    }

    /** The records and callbacks of one operation; all its records are replayed, or none. */
    private static final class PendingWrite {
        final List<OffsetsRecord> records = new ArrayList<>();
        final List<CoordinatorResult.AfterAppend> callbacks = new ArrayList<>();
        Boolean replay;

        void add(List<? extends OffsetsRecord> more, boolean replayMore, CoordinatorResult.AfterAppend after) {
            if (!more.isEmpty()) {
                if (replay != null && replay != replayMore) {
                    throw new IllegalStateException("one operation mixes replayed records and records describing memory");
                }
                replay = replayMore;
                records.addAll(more);
            }
            if (after != null) {
                callbacks.add(after);
            }
        }

        <T> CoordinatorResult<T, OffsetsRecord> result(T response) {
            List<CoordinatorResult.AfterAppend> all = List.copyOf(callbacks);
            return new CoordinatorResult<>(records, response, replay == null || replay,
                    all.isEmpty() ? null : error -> all.forEach(c -> c.done(error)));
        }
    }

    /**
     * The protocols' scheduler: their timers and tasks run as write operations of this shard, in order
     * with requests, and what they write goes through the runtime like any operation's records.
     */
    private final class OperationScheduler implements Scheduler {
        @Override
        public long nowMs() {
            return context.nowMs();
        }

        @Override
        public void execute(Runnable task) {
            context.scheduleWrite("task", () -> operation(() -> {
                task.run();
                return null;
            }));
        }

        @Override
        public Timer schedule(long delayMs, Runnable task) {
            return context.schedule(delayMs, "timer", () -> operation(() -> {
                task.run();
                return null;
            }));
        }
    }

    // ------------------------------------------------------------------ loading

    /** Every group and offset has been replayed from the partition: start the timers. */
    @Override
    public void onLoaded() {
        for (ClassicGroup group : groups.values()) {
            // Members restored from the log get a fresh session: they keep their place if they heartbeat.
            for (GroupMember m : group.members.values()) {
                classic.rescheduleHeartbeat(group, m, m.sessionTimeoutMs);
            }
        }
        consumer.onLoaded();
        share.onLoaded();
        streams.onLoaded();
        scheduleExpiration();
        if (!groups.isEmpty() || !consumer.groups().isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "loaded " + OffsetsTopic.NAME + "-" + partition + ": " + groups.size()
                    + " classic and " + consumer.groups().size() + " consumer groups");
        }
    }

    /**
     * Applies one record at its log offset: on load, and after every committed write. An offset commit of
     * a transaction ({@code producerId} set) stays pending for the producer until its marker.
     */
    @Override
    public void replay(long offset, long producerId, short producerEpoch, OffsetsRecord record) {
        if (record instanceof OffsetsRecord.OffsetCommit c && c.value() != null && producerId >= 0) {
            if (consumer.group(c.groupId()) == null && !groups.containsKey(c.groupId()) && !streams.hasGroup(c.groupId())) {
                groups.put(c.groupId(), new ClassicGroup(c.groupId(), now())); // a simple group, as for any commit
            }
            transactional.addPending(producerId, c.groupId(), c.partition(), c.value(), offset);
            return;
        }
        replay(record);
        if (record instanceof OffsetsRecord.OffsetCommit c && c.value() != null) {
            transactional.committed(c.groupId(), c.partition(), offset);
        } else if (record instanceof OffsetsRecord.OffsetCommit c) {
            transactional.tombstone(c.groupId(), c.partition());
        }
    }

    /**
     * The producer's transaction ended (its marker is committed here): on commit its pending offsets
     * become the groups' committed offsets, unless an offset committed later in the log is there already.
     */
    @Override
    public void replayEndTransaction(long producerId, short producerEpoch, boolean commit) {
        for (TransactionalOffsets.Committed c : transactional.end(producerId, commit)) {
            ConsumerGroup consumerGroup = consumer.group(c.groupId());
            StreamsGroup streamsGroup = streams.group(c.groupId()); // issue 12, streams
            if (consumerGroup != null) {
                consumerGroup.offsets.put(c.partition(), c.value());
            } else if (streamsGroup != null) {
                streamsGroup.offsets.put(c.partition(), c.value());
            } else {
                groups.computeIfAbsent(c.groupId(), id -> new ClassicGroup(id, now())).offsets.put(c.partition(), c.value());
            }
        }
    }

    /** Applies one record that belongs to no transaction. */
    @Override
    public void replay(OffsetsRecord record) {
        String id = record.groupId();
        ConsumerGroup consumerGroup = consumer.group(id);
        StreamsGroup streamsGroup = streams.group(id); // issue 12, streams
        if (record instanceof OffsetsRecord.OffsetCommit c && consumerGroup != null) {
            if (c.value() != null) {
                consumerGroup.offsets.put(c.partition(), c.value());
            } else {
                consumerGroup.offsets.remove(c.partition());
            }
        } else if (record instanceof OffsetsRecord.OffsetCommit c && streamsGroup != null) {
            if (c.value() != null) {
                streamsGroup.offsets.put(c.partition(), c.value());
            } else {
                streamsGroup.offsets.remove(c.partition());
            }
        } else if (record instanceof OffsetsRecord.OffsetCommit c) {
            ClassicGroup group = groups.get(id);
            if (c.value() != null) {
                if (group == null) {
                    group = new ClassicGroup(id, now());
                    groups.put(id, group);
                }
                group.offsets.put(c.partition(), c.value());
            } else if (group != null) {
                group.offsets.remove(c.partition());
            }
        } else if (record instanceof OffsetsRecord.GroupMetadata gm) {
            ClassicGroup previous = groups.remove(id);
            if (previous != null && gm.value() == null) {
                retire(previous); // deleted or expired while loaded: its timers and pending members go too
            }
            if (gm.value() != null) {
                ClassicGroup group = ClassicGroup.fromStored(id, gm.value(), now());
                if (previous != null) {
                    group.offsets.putAll(previous.offsets);
                }
                groups.put(id, group);
            } else if (previous != null && !previous.offsets.isEmpty()) {
                // Offsets outlive a group tombstone only if they were not tombstoned themselves.
                ClassicGroup simple = new ClassicGroup(id, now());
                simple.offsets.putAll(previous.offsets);
                groups.put(id, simple);
            }
        } else if (record instanceof ShareGroupRecord r) {
            share.replay(r);
        } else if (record instanceof StreamsGroupRecord r) {
            streams.replay(r);
        } else {
            consumer.replay(record);
        }
    }

    /** Stops timers; parked requests are answered so no connection waits on a closed coordinator. */
    @Override
    public void onUnloaded() {
        closed = true;
        cancel(expirationTimer);
        consumer.close();
        share.close();
        streams.close();
        for (ClassicGroup group : groups.values()) {
            cancel(group.joinTimer);
            cancel(group.syncTimer);
            group.pendingJoinMembers.values().forEach(GroupShard::cancel);
            for (GroupMember m : group.members.values()) {
                cancel(m.heartbeatTimer);
                group.completeJoin(m, JoinGroupResult.error(m.memberId, ErrorCode.NOT_COORDINATOR));
                group.completeSync(m, SyncGroupResult.error(ErrorCode.NOT_COORDINATOR));
            }
        }
        groups.clear();
    }

    // ------------------------------------------------------------------ classic protocol (see ClassicGroupProtocol)

    /**
     * Before a JoinGroup: classic members cannot join a consumer group here; an empty one turns back into a
     * classic group (written, then the join runs as the next operation). NONE when the join may go on.
     */
    ErrorCode prepareClassicJoin(String groupId) {
        if (streams.hasGroup(groupId) || share.hasGroup(groupId)) {
            return ErrorCode.INCONSISTENT_GROUP_PROTOCOL; // issue 12: as Kafka 4.4, a streams or share group takes no classic member
        }
        ConsumerGroup consumerGroup = consumer.group(groupId);
        if (consumerGroup == null) {
            return ErrorCode.NONE;
        }
        if (!consumerGroup.isEmpty()) {
            return ErrorCode.INCONSISTENT_GROUP_PROTOCOL;
        }
        write(consumer.conversionToClassicRecords(consumerGroup), true, null);
        return ErrorCode.NONE;
    }

    void joinGroup(JoinGroupRequest req, CompletableFuture<JoinGroupResult> future) {
        if (consumer.group(req.groupId()) != null || streams.hasGroup(req.groupId())) {
            // A consumer group came back between the conversion and this join.
            future.complete(JoinGroupResult.error(req.memberId(), ErrorCode.INCONSISTENT_GROUP_PROTOCOL));
            return;
        }
        classic.joinGroup(req, future);
    }

    void syncGroup(SyncGroupRequest req, CompletableFuture<SyncGroupResult> future) {
        classic.syncGroup(req, future);
    }

    ErrorCode heartbeat(String groupId, String memberId, String groupInstanceId, int generationId) {
        return classic.heartbeat(groupId, memberId, groupInstanceId, generationId);
    }

    LeaveGroupResult leaveGroup(String groupId, List<LeaveGroupResult.Member> leaving) {
        return classic.leaveGroup(groupId, leaving);
    }

    // ------------------------------------------------------------------ consumer protocol (see ConsumerGroupProtocol)

    ConsumerGroupHeartbeatResult consumerGroupHeartbeat(ConsumerGroupHeartbeatRequest req) {
        if (streams.hasGroup(req.groupId()) || share.hasGroup(req.groupId())) { // issue 12
            return ConsumerGroupHeartbeatResult.error(ErrorCode.GROUP_ID_NOT_FOUND, "Group " + req.groupId() + " is not a consumer group.");
        }
        return consumer.heartbeat(req);
    }

    ConsumerGroupDescription describeConsumerGroup(String groupId) {
        if (share.hasGroup(groupId)) {
            return ConsumerGroupDescription.error(groupId, ErrorCode.GROUP_ID_NOT_FOUND, "Group " + groupId + " is not a consumer group.");
        }
        return consumer.describe(groupId);
    }

    // ------------------------------------------------------------------ streams protocol (issue 12; see StreamsGroupProtocol)

    StreamsGroupHeartbeatResult streamsGroupHeartbeat(StreamsGroupHeartbeatRequest req) {
        return streams.heartbeat(req);
    }

    StreamsGroupDescription describeStreamsGroup(String groupId) {
        return streams.describe(groupId);
    }

    // ------------------------------------------------------------------ share groups (issue 12, see ShareGroupProtocol)

    /** Whether a group of this id exists that is not a share group (classic, consumer, streams). */
    private boolean hasNonShareGroup(String groupId) {
        ClassicGroup classicGroup = groups.get(groupId);
        return (classicGroup != null && !classicGroup.is(GroupState.DEAD)) || consumer.group(groupId) != null
                || streams.hasGroup(groupId);
    }

    ShareGroupProtocol.HeartbeatOutcome shareGroupHeartbeat(ShareGroupHeartbeatRequest req) {
        return share.heartbeat(req);
    }

    ShareGroupDescription describeShareGroup(String groupId) {
        return share.describe(groupId);
    }

    void shareStateInitialized(String groupId, Map<java.util.UUID, Set<Integer>> partitions) {
        share.initialized(groupId, partitions);
    }

    void shareStateUninitialized(String groupId, Map<java.util.UUID, Set<Integer>> partitions) {
        share.uninitialized(groupId, partitions);
    }

    /** AlterShareGroupOffsets: the partitions the SharePersister initialized, and those it failed to. */
    void shareStateSettled(String groupId, Map<java.util.UUID, Set<Integer>> succeeded, Map<java.util.UUID, Set<Integer>> failed) {
        share.settleInitialization(groupId, succeeded, failed);
    }

    /** The partitions with share state of an empty share group about to be deleted; NON_EMPTY_GROUP etc. otherwise. */
    ShareGroupProtocol.StateToDelete shareStateToDelete(String groupId) {
        ErrorCode refused = share.deletionRefused(groupId);
        return new ShareGroupProtocol.StateToDelete(refused, refused == ErrorCode.NONE ? share.statePartitions(groupId) : Map.of());
    }

    Map<java.util.UUID, Set<Integer>> initializedSharePartitions(String groupId) {
        return share.initializedPartitions(groupId);
    }

    /** AlterShareGroupOffsets: the state epoch to initialize at, or the refusal. */
    ShareGroupProtocol.OffsetsChange alterShareGroupOffsets(String groupId, Map<java.util.UUID, Set<Integer>> partitions) {
        GroupException refused = share.offsetsChangeRefused(groupId, true);
        if (refused != null) {
            return new ShareGroupProtocol.OffsetsChange(refused.error, refused.getMessage(), 0, Map.of());
        }
        return new ShareGroupProtocol.OffsetsChange(ErrorCode.NONE, null, share.alterOffsets(groupId, partitions), partitions);
    }

    /** DeleteShareGroupOffsets: the partitions whose share state to delete, or the refusal. */
    ShareGroupProtocol.OffsetsChange startDeletingShareGroupOffsets(String groupId, Set<java.util.UUID> topicIds) {
        GroupException refused = share.offsetsChangeRefused(groupId, false);
        if (refused != null) {
            return new ShareGroupProtocol.OffsetsChange(refused.error, refused.getMessage(), 0, Map.of());
        }
        return new ShareGroupProtocol.OffsetsChange(ErrorCode.NONE, null, 0, share.startDeletingOffsets(groupId, topicIds));
    }

    void shareGroupOffsetsDeleted(String groupId, Set<java.util.UUID> topicIds) {
        share.deletedOffsets(groupId, topicIds);
    }

    // ------------------------------------------------------------------ offsets

    Map<TopicPartition, ErrorCode> commitOffsets(OffsetCommitRequest req) {
        if (share.hasGroup(req.groupId())) {
            return allPartitions(req, ErrorCode.GROUP_ID_NOT_FOUND); // a share group keeps no committed offsets
        }
        StreamsGroup streamsGroup = streams.group(req.groupId()); // issue 12, streams
        if (streamsGroup != null) {
            Function<TopicPartition, ErrorCode> check;
            try {
                check = streams.validateOffsetCommit(streamsGroup, req.memberId(), req.generationId(), req.apiVersion());
            } catch (GroupException e) {
                return allPartitions(req, e.error);
            }
            return storeOffsets(req, check);
        }
        ConsumerGroup consumerGroup = consumer.group(req.groupId());
        if (consumerGroup != null) {
            Function<TopicPartition, ErrorCode> check;
            try {
                check = consumer.validateOffsetCommit(consumerGroup, req.memberId(), req.generationId(), req.apiVersion());
            } catch (GroupException e) {
                return allPartitions(req, e.error);
            }
            return storeOffsets(req, check);
        }
        ClassicGroup group = groups.get(req.groupId());
        if (group == null) {
            if (req.generationId() >= 0) {
                // v9+ says so plainly; older clients expect ILLEGAL_GENERATION and rejoin.
                return allPartitions(req, req.apiVersion() >= 9 ? ErrorCode.GROUP_ID_NOT_FOUND : ErrorCode.ILLEGAL_GENERATION);
            }
            group = new ClassicGroup(req.groupId(), now()); // a "simple" group (offsets only), made real by replay
        }
        ErrorCode invalid = group.validateOffsetCommit(req.memberId(), req.groupInstanceId(), req.generationId());
        if (invalid != ErrorCode.NONE) {
            return allPartitions(req, invalid);
        }
        GroupMember member = group.member(req.memberId());
        if (member != null && (group.is(GroupState.STABLE) || group.is(GroupState.PREPARING_REBALANCE))) {
            classic.rescheduleHeartbeat(group, member, member.sessionTimeoutMs); // a commit keeps the session alive
        }
        return storeOffsets(req, tp -> ErrorCode.NONE);
    }

    /**
     * Writes the offsets that pass {@code check} (and whose metadata is small enough) as one batch; replay
     * puts them into the group's offsets once committed (creating a simple group when there is none).
     * If the write fails the whole commit fails, every partition with the error (as in Kafka).
     */
    private Map<TopicPartition, ErrorCode> storeOffsets(OffsetCommitRequest req, Function<TopicPartition, ErrorCode> check) {
        long now = now();
        long expireTimestamp = req.retentionTimeMs() >= 0 ? now + req.retentionTimeMs() : OffsetAndMetadata.NO_EXPIRE_TIMESTAMP;
        Map<TopicPartition, ErrorCode> results = new LinkedHashMap<>();
        List<OffsetsRecord.OffsetCommit> records = new ArrayList<>();
        for (OffsetCommitRequest.Partition p : req.partitions()) {
            String metadata = p.metadata() == null ? "" : p.metadata();
            ErrorCode refused = check.apply(p.partition());
            if (refused != ErrorCode.NONE) {
                results.put(p.partition(), refused);
                continue;
            }
            if (metadata.length() > config.offsetMetadataMaxBytes()) {
                results.put(p.partition(), ErrorCode.OFFSET_METADATA_TOO_LARGE);
                continue;
            }
            results.put(p.partition(), ErrorCode.NONE);
            records.add(new OffsetsRecord.OffsetCommit(req.groupId(), p.partition(),
                    new OffsetAndMetadata(p.offset(), p.leaderEpoch(), metadata,
                            p.commitTimestampMs() == OffsetCommitRequest.Partition.NOW ? now : p.commitTimestampMs(),
                            expireTimestamp)));
        }
        write(records, true, null);
        return results;
    }

    private static Map<TopicPartition, ErrorCode> allPartitions(OffsetCommitRequest req, ErrorCode error) {
        return allPartitions(req.partitions(), error);
    }

    private static Map<TopicPartition, ErrorCode> allPartitions(List<OffsetCommitRequest.Partition> partitions, ErrorCode error) {
        Map<TopicPartition, ErrorCode> out = new LinkedHashMap<>();
        partitions.forEach(p -> out.put(p.partition(), error));
        return out;
    }

    /**
     * A TxnOffsetCommit (Kafka's commitTransactionalOffset): the member is checked as for an OffsetCommit
     * but whatever the group's state, and an unknown group is accepted from outside group management
     * (generation -1; ILLEGAL_GENERATION otherwise). The offsets are written in the producer's transaction
     * (the runtime's transactional write) and stay pending until its marker. A failed check fails every
     * partition; a stale member epoch of a consumer group answers ILLEGAL_GENERATION, as Kafka does (v6+:
     * STALE_MEMBER_EPOCH, and GROUP_ID_NOT_FOUND for an unknown group with a generation).
     */
    Map<TopicPartition, ErrorCode> txnOffsetCommit(TxnOffsetCommitRequest req) {
        ErrorCode invalid = validateTxnOffsetCommit(req);
        if (invalid != ErrorCode.NONE) {
            return allPartitions(req.partitions(), invalid);
        }
        long now = now();
        Map<TopicPartition, ErrorCode> results = new LinkedHashMap<>();
        List<OffsetsRecord> records = new ArrayList<>();
        for (OffsetCommitRequest.Partition p : req.partitions()) {
            String metadata = p.metadata() == null ? "" : p.metadata();
            if (metadata.length() > config.offsetMetadataMaxBytes()) {
                results.put(p.partition(), ErrorCode.OFFSET_METADATA_TOO_LARGE);
                continue;
            }
            results.put(p.partition(), ErrorCode.NONE);
            records.add(new OffsetsRecord.OffsetCommit(req.groupId(), p.partition(),
                    new OffsetAndMetadata(p.offset(), p.leaderEpoch(), metadata, now, OffsetAndMetadata.NO_EXPIRE_TIMESTAMP)));
        }
        write(records, true, null);
        return results;
    }

    private ErrorCode validateTxnOffsetCommit(TxnOffsetCommitRequest req) {
        // v6 (KIP-1319) says GROUP_ID_NOT_FOUND and STALE_MEMBER_EPOCH; older versions ILLEGAL_GENERATION for both.
        ErrorCode staleEpoch = req.apiVersion() >= 6 ? ErrorCode.STALE_MEMBER_EPOCH : ErrorCode.ILLEGAL_GENERATION;
        if (share.hasGroup(req.groupId())) {
            return ErrorCode.GROUP_ID_NOT_FOUND; // a share group keeps no committed offsets
        }
        StreamsGroup streamsGroup = streams.group(req.groupId()); // issue 12, streams
        if (streamsGroup != null) {
            if (req.generationId() < 0 && req.memberId().isEmpty() && req.groupInstanceId() == null) {
                return ErrorCode.NONE;
            }
            Function<TopicPartition, ErrorCode> check;
            try {
                check = streams.validateOffsetCommit(streamsGroup, req.memberId(), req.generationId(), (short) 9);
            } catch (GroupException e) {
                return e.error == ErrorCode.STALE_MEMBER_EPOCH ? staleEpoch : e.error;
            }
            for (OffsetCommitRequest.Partition p : req.partitions()) {
                if (check.apply(p.partition()) != ErrorCode.NONE) {
                    return staleEpoch;
                }
            }
            return ErrorCode.NONE;
        }
        ConsumerGroup consumerGroup = consumer.group(req.groupId());
        if (consumerGroup != null && req.generationId() < 0 && req.memberId().isEmpty() && req.groupInstanceId() == null) {
            return ErrorCode.NONE; // no member information (v0-2): not checked, as in Kafka
        }
        if (consumerGroup != null) {
            Function<TopicPartition, ErrorCode> check;
            try {
                // No OffsetCommit version rule here: a transactional commit may come in any version.
                check = consumer.validateOffsetCommit(consumerGroup, req.memberId(), req.generationId(), (short) 9);
            } catch (GroupException e) {
                return e.error == ErrorCode.STALE_MEMBER_EPOCH ? staleEpoch : e.error;
            }
            for (OffsetCommitRequest.Partition p : req.partitions()) {
                if (check.apply(p.partition()) != ErrorCode.NONE) {
                    return staleEpoch;
                }
            }
            return ErrorCode.NONE;
        }
        ClassicGroup group = groups.get(req.groupId());
        if (group == null) {
            // Unknown: a producer outside group management (generation -1) makes a simple group, as in Kafka.
            return req.generationId() < 0 ? ErrorCode.NONE
                    : req.apiVersion() >= 6 ? ErrorCode.GROUP_ID_NOT_FOUND : ErrorCode.ILLEGAL_GENERATION;
        }
        return group.validateTxnOffsetCommit(req.memberId(), req.groupInstanceId(), req.generationId());
    }

    /**
     * Offsets of the partitions asked for (null: every committed partition); unknown ones map to null. A
     * consumer group checks the member id and epoch (OffsetFetch v9+; null and -1 from anyone else).
     */
    OffsetFetchResult fetchOffsets(String groupId, String memberId, int memberEpoch, List<TopicPartition> partitions) {
        return fetchOffsets(groupId, memberId, memberEpoch, partitions, false);
    }

    /**
     * As above; with {@code requireStable} (OffsetFetch v7+), a partition with a transactional commit still
     * pending answers UNSTABLE_OFFSET_COMMIT and no offset (the consumer retries), as in Kafka.
     */
    OffsetFetchResult fetchOffsets(String groupId, String memberId, int memberEpoch, List<TopicPartition> partitions,
            boolean requireStable) {
        if (share.hasGroup(groupId)) {
            return OffsetFetchResult.error(ErrorCode.GROUP_ID_NOT_FOUND); // a share group keeps no committed offsets
        }
        Map<TopicPartition, OffsetAndMetadata> offsets;
        ConsumerGroup consumerGroup = consumer.group(groupId);
        StreamsGroup streamsGroup = streams.group(groupId); // issue 12, streams
        if (streamsGroup != null) {
            ErrorCode invalid = StreamsGroupProtocol.validateOffsetFetch(streamsGroup, memberId, memberEpoch);
            if (invalid != ErrorCode.NONE) {
                return OffsetFetchResult.error(invalid);
            }
            offsets = streamsGroup.offsets;
        } else if (consumerGroup != null) {
            ErrorCode invalid = ConsumerGroupProtocol.validateOffsetFetch(consumerGroup, memberId, memberEpoch);
            if (invalid != ErrorCode.NONE) {
                return OffsetFetchResult.error(invalid);
            }
            offsets = consumerGroup.offsets;
        } else {
            ClassicGroup group = groups.get(groupId);
            offsets = group == null || group.is(GroupState.DEAD) ? Map.of() : group.offsets;
        }
        Map<TopicPartition, OffsetAndMetadata> out;
        if (partitions == null) {
            out = new TreeMap<>(offsets);
        } else {
            out = new LinkedHashMap<>();
            for (TopicPartition tp : partitions) {
                out.put(tp, offsets.get(tp));
            }
        }
        Set<TopicPartition> unstable = new HashSet<>();
        if (requireStable && groupId != null && transactional.hasPending(groupId)) {
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e : out.entrySet()) {
                if (transactional.hasPending(groupId, e.getKey())) {
                    unstable.add(e.getKey());
                    e.setValue(null);
                }
            }
        }
        return new OffsetFetchResult(ErrorCode.NONE, out, unstable);
    }

    OffsetDeleteResult deleteOffsets(String groupId, List<TopicPartition> partitions) {
        if (share.hasGroup(groupId)) {
            return OffsetDeleteResult.error(ErrorCode.GROUP_ID_NOT_FOUND); // a share group keeps no committed offsets
        }
        ConsumerGroup consumerGroup = consumer.group(groupId);
        ClassicGroup group = groups.get(groupId);
        Map<TopicPartition, OffsetAndMetadata> offsets;
        Predicate<String> subscribed;
        StreamsGroup streamsGroup = streams.group(groupId); // issue 12, streams
        if (streamsGroup != null) {
            offsets = streamsGroup.offsets;
            subscribed = topic -> streams.isSubscribedToTopic(streamsGroup, topic);
        } else if (consumerGroup != null) {
            offsets = consumerGroup.offsets;
            subscribed = topic -> consumer.isSubscribedToTopic(consumerGroup, topic);
        } else {
            if (group == null || group.is(GroupState.DEAD)) {
                return OffsetDeleteResult.error(ErrorCode.GROUP_ID_NOT_FOUND);
            }
            if (!group.is(GroupState.EMPTY) && !group.usesConsumerProtocol()) {
                return OffsetDeleteResult.error(ErrorCode.NON_EMPTY_GROUP);
            }
            offsets = group.offsets;
            subscribed = group::isSubscribedToTopic;
        }
        Map<TopicPartition, ErrorCode> results = new LinkedHashMap<>();
        List<OffsetsRecord> tombstones = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            if (subscribed.test(tp.topic())) {
                results.put(tp, ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC);
            } else {
                results.put(tp, ErrorCode.NONE);
                if (offsets.containsKey(tp) || transactional.hasPending(groupId, tp)) {
                    tombstones.add(new OffsetsRecord.OffsetCommit(groupId, tp, null));
                }
            }
        }
        write(tombstones, true, null);
        return new OffsetDeleteResult(ErrorCode.NONE, results);
    }

    /** Every group's committed offsets, classic and consumer, by group id. */
    private Map<String, Map<TopicPartition, OffsetAndMetadata>> allOffsets() {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> out = new HashMap<>();
        groups.values().forEach(g -> out.put(g.groupId, g.offsets));
        consumer.groups().forEach(g -> out.put(g.groupId, g.offsets));
        streams.groups().forEach(g -> out.put(g.groupId, g.offsets)); // issue 12, streams
        return out;
    }

    /** A deleted topic's committed offsets go with it, as in Kafka, so a topic re-created later starts afresh. */
    int deleteOffsetsOfTopics(Set<String> deletedTopics) {
        List<OffsetsRecord.OffsetCommit> tombstones = new ArrayList<>();
        Map<String, Map<TopicPartition, OffsetAndMetadata>> all = allOffsets();
        all.forEach((groupId, offsets) -> {
            for (TopicPartition tp : new TreeMap<>(offsets).keySet()) {
                if (deletedTopics.contains(tp.topic())) {
                    tombstones.add(new OffsetsRecord.OffsetCommit(groupId, tp, null));
                }
            }
        });
        // Pending transactional offsets of those topics go too (one tombstone per partition is enough).
        transactional.allPendingPartitions().forEach((groupId, pending) -> {
            Map<TopicPartition, OffsetAndMetadata> committed = all.getOrDefault(groupId, Map.of());
            for (TopicPartition tp : pending) {
                if (deletedTopics.contains(tp.topic()) && !committed.containsKey(tp)) {
                    tombstones.add(new OffsetsRecord.OffsetCommit(groupId, tp, null));
                }
            }
        });
        List<OffsetsRecord> records = new ArrayList<>(tombstones);
        records.addAll(share.forgetDeletedTopics(deletedTopics)); // share groups' state metadata (issue 12)
        write(records, true, error -> {
            if (error != ErrorCode.NONE) {
                LOG.log(System.Logger.Level.WARNING, "failed to delete the offsets of deleted topics " + deletedTopics
                        + " in " + OffsetsTopic.NAME + "-" + partition + ": " + error);
            }
        });
        return tombstones.size();
    }

    // ------------------------------------------------------------------ groups: list, describe, delete

    List<GroupOverview> listGroups(Set<String> statesFilter, Set<String> typesFilter) {
        List<GroupOverview> out = new ArrayList<>(consumer.listGroups(statesFilter, typesFilter));
        out.addAll(streams.listGroups(statesFilter, typesFilter)); // issue 12, streams
        out.addAll(share.listGroups(statesFilter, typesFilter)); // share groups (issue 12)
        if (!typesFilter.isEmpty() && !typesFilter.contains("classic")) {
            return out;
        }
        for (ClassicGroup g : groups.values()) {
            if (g.is(GroupState.DEAD) || (!statesFilter.isEmpty() && !statesFilter.contains(g.state.lowerCaseName()))) {
                continue;
            }
            out.add(new GroupOverview(g.groupId, g.protocolType == null ? "" : g.protocolType, g.state.kafkaName(), "classic"));
        }
        return out;
    }

    /** DescribeGroups: classic groups only; a consumer group is not found there, as in Kafka 4. */
    GroupDescription describeGroup(String groupId) {
        ClassicGroup g = groups.get(groupId);
        if (g == null || g.is(GroupState.DEAD)) {
            return GroupDescription.error(groupId, ErrorCode.GROUP_ID_NOT_FOUND, GroupState.DEAD.kafkaName());
        }
        boolean stable = g.is(GroupState.STABLE);
        List<GroupDescription.Member> members = new ArrayList<>(g.members.size());
        for (GroupMember m : g.members.values()) {
            members.add(new GroupDescription.Member(m.memberId, m.groupInstanceId, m.clientId, m.clientHost,
                    stable ? m.metadata(g.protocolName) : GroupMember.EMPTY_ASSIGNMENT, m.assignment));
        }
        return new GroupDescription(groupId, ErrorCode.NONE, g.state.kafkaName(),
                g.protocolType == null ? "" : g.protocolType, stable ? g.protocolName : "", members);
    }

    ErrorCode deleteGroup(String groupId) {
        StreamsGroup streamsGroup = streams.group(groupId); // issue 12, streams
        if (streamsGroup != null) {
            if (!streamsGroup.isEmpty()) {
                return ErrorCode.NON_EMPTY_GROUP;
            }
            List<OffsetsRecord> records = offsetTombstones(groupId, streamsGroup.offsets, transactional.pendingPartitions(groupId));
            records.addAll(StreamsGroupProtocol.deletionRecords(streamsGroup));
            write(records, true, error -> {
                if (error == ErrorCode.NONE) {
                    LOG.log(System.Logger.Level.INFO, "deleted streams group " + groupId);
                }
            });
            return ErrorCode.NONE;
        }
        // Share groups (issue 12): their share state was deleted first (GroupCoordinator.deleteGroup).
        ShareGroup shareGroup = share.group(groupId);
        if (shareGroup != null) {
            if (!shareGroup.isEmpty()) {
                return ErrorCode.NON_EMPTY_GROUP;
            }
            write(ShareGroupProtocol.deletionRecords(shareGroup), true, error -> {
                if (error == ErrorCode.NONE) {
                    LOG.log(System.Logger.Level.INFO, "deleted share group " + groupId);
                }
            });
            return ErrorCode.NONE;
        }
        ConsumerGroup consumerGroup = consumer.group(groupId);
        if (consumerGroup != null) {
            if (!consumerGroup.isEmpty()) {
                return ErrorCode.NON_EMPTY_GROUP;
            }
            List<OffsetsRecord> records = offsetTombstones(groupId, consumerGroup.offsets, transactional.pendingPartitions(groupId));
            records.addAll(ConsumerGroupProtocol.deletionRecords(consumerGroup));
            write(records, true, error -> {
                if (error == ErrorCode.NONE) {
                    LOG.log(System.Logger.Level.INFO, "deleted consumer group " + groupId);
                }
            });
            return ErrorCode.NONE;
        }
        ClassicGroup group = groups.get(groupId);
        if (group == null || group.is(GroupState.DEAD)) {
            return ErrorCode.GROUP_ID_NOT_FOUND;
        }
        if (!group.is(GroupState.EMPTY)) {
            return ErrorCode.NON_EMPTY_GROUP;
        }
        List<OffsetsRecord> tombstones = offsetTombstones(groupId, group.offsets, transactional.pendingPartitions(groupId));
        tombstones.add(new OffsetsRecord.GroupMetadata(groupId, null));
        write(tombstones, true, error -> { // replay removes the group
            if (error == ErrorCode.NONE) {
                LOG.log(System.Logger.Level.INFO, "deleted group " + groupId + " and its " + (tombstones.size() - 1) + " offsets");
            }
        });
        return ErrorCode.NONE;
    }

    /** Tombstones for the group's committed offsets and, as Kafka writes them, its pending transactional ones. */
    private static List<OffsetsRecord> offsetTombstones(String groupId, Map<TopicPartition, OffsetAndMetadata> offsets,
            Set<TopicPartition> pending) {
        Set<TopicPartition> all = new TreeSet<>(offsets.keySet());
        all.addAll(pending);
        List<OffsetsRecord> tombstones = new ArrayList<>();
        for (TopicPartition tp : all) {
            tombstones.add(new OffsetsRecord.OffsetCommit(groupId, tp, null));
        }
        return tombstones;
    }

    /** A group removed from the map (its tombstone replayed) is Dead: its timers and pending members go. */
    private void retire(ClassicGroup group) {
        if (!group.is(GroupState.DEAD)) {
            group.transitionTo(GroupState.DEAD, now());
        }
        cancel(group.joinTimer);
        cancel(group.syncTimer);
        for (String pendingMember : new ArrayList<>(group.pendingJoinMembers.keySet())) {
            group.remove(pendingMember);
        }
    }

    // ------------------------------------------------------------------ offset expiration

    private void scheduleExpiration() {
        if (!closed) {
            expirationTimer = scheduler.schedule(config.offsetsRetentionCheckIntervalMs(), () -> {
                expireOffsets();
                scheduleExpiration();
            });
        }
    }

    /**
     * Kafka's retention (KIP-211): an empty group's offsets expire {@code offsets.retention.minutes} after
     * it became empty; a Stable consumer group's offsets of topics it no longer subscribes to, and a
     * simple group's offsets, that long after their commit. A KIP-848 group's offsets of topics no member
     * subscribes to expire that long after their commit. A group left empty without offsets is deleted.
     */
    void expireOffsets() {
        long now = now();
        List<OffsetsRecord> records = new ArrayList<>();
        List<ClassicGroup> deleted = new ArrayList<>();
        int[] expired = new int[1];
        for (ClassicGroup g : groups.values()) {
            Boolean fromStateChange = expiryBase(g);
            if (fromStateChange == null) {
                continue;
            }
            boolean allExpired = expire(g.groupId, g.offsets, g::isSubscribedToTopic,
                    o -> fromStateChange ? g.currentStateTimestamp : o.commitTimestampMs(), now, records, expired);
            if (allExpired && g.is(GroupState.EMPTY) && g.pendingJoinMembers.isEmpty() && !transactional.hasPending(g.groupId)) {
                records.add(new OffsetsRecord.GroupMetadata(g.groupId, null));
                deleted.add(g);
            }
        }
        List<OffsetsRecord> consumerDeletions = new ArrayList<>();
        for (ConsumerGroup g : consumer.groups()) {
            boolean allExpired = expire(g.groupId, g.offsets, topic -> consumer.isSubscribedToTopic(g, topic),
                    OffsetAndMetadata::commitTimestampMs, now, records, expired);
            if (allExpired && g.isEmpty() && !transactional.hasPending(g.groupId)) {
                consumerDeletions.addAll(ConsumerGroupProtocol.deletionRecords(g));
            }
        }
        for (StreamsGroup g : streams.groups()) { // issue 12, streams: as consumer groups
            boolean allExpired = expire(g.groupId, g.offsets, topic -> streams.isSubscribedToTopic(g, topic),
                    OffsetAndMetadata::commitTimestampMs, now, records, expired);
            if (allExpired && g.isEmpty() && !transactional.hasPending(g.groupId)) {
                consumerDeletions.addAll(StreamsGroupProtocol.deletionRecords(g));
            }
        }
        if (records.isEmpty() && consumerDeletions.isEmpty()) {
            return;
        }
        // Replay removes the offsets, then the emptied groups (their tombstones come after their offsets').
        records.addAll(consumerDeletions);
        long removedGroups = deleted.size() + consumerDeletions.stream().filter(r -> r instanceof OffsetsRecord.ConsumerGroupMetadata).count();
        write(records, true, error -> {
            if (error != ErrorCode.NONE) {
                LOG.log(System.Logger.Level.WARNING, "failed to expire offsets in " + OffsetsTopic.NAME + "-" + partition + ": " + error);
            } else {
                LOG.log(System.Logger.Level.INFO, "expired " + expired[0] + " offsets and removed " + removedGroups
                        + " empty groups in " + OffsetsTopic.NAME + "-" + partition);
            }
        });
    }

    /**
     * Adds tombstones for the group's expired offsets; true when every offset expired.
     *
     * @param base when an offset without an explicit expiry started to age
     */
    private boolean expire(String groupId, Map<TopicPartition, OffsetAndMetadata> offsets, Predicate<String> subscribed,
            Function<OffsetAndMetadata, Long> base, long now, List<OffsetsRecord> records, int[] expiredCount) {
        boolean allExpired = true;
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : new TreeMap<>(offsets).entrySet()) {
            OffsetAndMetadata o = e.getValue();
            boolean expired;
            if (subscribed.test(e.getKey().topic()) || transactional.hasPending(groupId, e.getKey())) {
                expired = false; // a pending transactional commit keeps the offset, as in Kafka
            } else if (o.hasExpireTimestamp()) {
                expired = now >= o.expireTimestampMs();
            } else {
                expired = now - base.apply(o) >= config.offsetsRetentionMs();
            }
            if (expired) {
                records.add(new OffsetsRecord.OffsetCommit(groupId, e.getKey(), null));
                expiredCount[0]++;
            } else {
                allExpired = false;
            }
        }
        return allExpired;
    }

    /**
     * How a group's offsets age: TRUE from the time it became empty, FALSE from each commit, null when
     * they do not expire now (a rebalancing group, or one whose subscriptions are unknown).
     */
    private static Boolean expiryBase(ClassicGroup g) {
        if (g.protocolType == null) {
            return Boolean.FALSE;
        }
        if (g.is(GroupState.EMPTY)) {
            return Boolean.TRUE;
        }
        if (g.usesConsumerProtocol() && g.subscribedTopics != null && g.is(GroupState.STABLE)) {
            return Boolean.FALSE;
        }
        return null;
    }

    // ------------------------------------------------------------------ helpers

    /** For tests and tools: the state of a group, or null when unknown. */
    GroupState stateOf(String groupId) {
        ClassicGroup g = groups.get(groupId);
        return g == null ? null : g.state;
    }

    /** For tests: the state of a consumer group, or null when there is none of that id. */
    ConsumerGroupState consumerStateOf(String groupId) {
        ConsumerGroup g = consumer.group(groupId);
        return g == null ? null : g.state();
    }

    Collection<String> groupIds() {
        return List.copyOf(groups.keySet());
    }

    private static void cancel(Scheduler.Timer timer) {
        if (timer != null) {
            timer.cancel();
        }
    }
}
