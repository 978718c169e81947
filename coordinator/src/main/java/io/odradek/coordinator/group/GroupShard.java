package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.OffsetsLog;
import io.odradek.coordinator.offsets.OffsetsRecord;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.log.LogException;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The groups of one {@code __consumer_offsets} partition: loading them from the log, their committed
 * offsets (commit, fetch, delete, expiry) and their administration (list, describe, delete), with the
 * protocols in their own classes: {@link ClassicGroupProtocol} (JoinGroup/SyncGroup/Heartbeat/LeaveGroup)
 * and {@link ConsumerGroupProtocol} (KIP-848 ConsumerGroupHeartbeat). A group id is either a classic group
 * or a consumer group; an empty one of either kind turns into the other when a member of the other
 * protocol joins, offsets included.
 *
 * <p>Every method runs on the partition's {@link Scheduler} thread, so state changes are serialised
 * without locks, and every delay is a timer on that same thread. State is changed only after the records
 * describing it are in the log; appends are synchronous on this thread, so a request that follows sees
 * the outcome.
 */
final class GroupShard {
    private static final System.Logger LOG = System.getLogger(GroupShard.class.getName());

    final int partition;
    private final GroupCoordinatorConfig config;
    private final Scheduler scheduler;
    private final OffsetsLog log;
    private final Map<String, ClassicGroup> groups = new HashMap<>();
    private final ClassicGroupProtocol classic;
    private final ConsumerGroupProtocol consumer;
    private volatile boolean loaded;
    private volatile boolean closed;
    private Scheduler.Timer expirationTimer;

    GroupShard(int partition, GroupCoordinatorConfig config, Scheduler scheduler, OffsetsLog log, TopicCatalog topics) {
        this.partition = partition;
        this.config = config;
        this.scheduler = scheduler;
        this.log = log;
        this.classic = new ClassicGroupProtocol(config, scheduler, groups, this::append);
        this.consumer = new ConsumerGroupProtocol(partition, config.consumer(), scheduler, topics, groups, this::writeAndApply);
    }

    Scheduler scheduler() {
        return scheduler;
    }

    boolean isLoaded() {
        return loaded;
    }

    private long now() {
        return scheduler.nowMs();
    }

    // ------------------------------------------------------------------ loading

    /** Rebuilds every group and offset from the partition, then starts serving it. */
    void load() {
        long start = System.nanoTime();
        long records = log.replay(this::replay);
        for (ClassicGroup group : groups.values()) {
            // Members restored from the log get a fresh session: they keep their place if they heartbeat.
            for (GroupMember m : group.members.values()) {
                classic.rescheduleHeartbeat(group, m, m.sessionTimeoutMs);
            }
        }
        consumer.onLoaded();
        scheduleExpiration();
        loaded = true;
        // An empty partition (every one, on a first start) is not worth a line each.
        LOG.log(records == 0 ? System.Logger.Level.DEBUG : System.Logger.Level.INFO, "loaded " + OffsetsTopic.NAME
                + "-" + partition + ": " + groups.size() + " classic and " + consumer.groups().size()
                + " consumer groups from " + records + " records in " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }

    private void replay(OffsetsRecord record) {
        String id = record.groupId();
        ConsumerGroup consumerGroup = consumer.group(id);
        if (record instanceof OffsetsRecord.OffsetCommit c && consumerGroup != null) {
            if (c.value() != null) {
                consumerGroup.offsets.put(c.partition(), c.value());
            } else {
                consumerGroup.offsets.remove(c.partition());
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
        } else {
            consumer.replay(record);
        }
    }

    /** Writes the records, then applies them as a load would (how consumer groups change state). */
    private void writeAndApply(List<OffsetsRecord> records) {
        append(records);
        records.forEach(this::replay);
    }

    /** Stops timers; parked requests are answered so no connection waits on a closed coordinator. */
    void close() {
        closed = true;
        loaded = false;
        cancel(expirationTimer);
        consumer.close();
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

    void joinGroup(JoinGroupRequest req, CompletableFuture<JoinGroupResult> future) {
        ConsumerGroup consumerGroup = consumer.group(req.groupId());
        if (consumerGroup != null) {
            // Classic members cannot join a consumer group here; an empty one turns back into a classic group.
            if (!consumerGroup.isEmpty()) {
                future.complete(JoinGroupResult.error(req.memberId(), ErrorCode.INCONSISTENT_GROUP_PROTOCOL));
                return;
            }
            try {
                writeAndApply(consumer.conversionToClassicRecords(consumerGroup));
            } catch (LogException e) {
                future.complete(JoinGroupResult.error(req.memberId(), appendError(e)));
                return;
            }
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
        return consumer.heartbeat(req);
    }

    ConsumerGroupDescription describeConsumerGroup(String groupId) {
        return consumer.describe(groupId);
    }

    // ------------------------------------------------------------------ offsets

    Map<TopicPartition, ErrorCode> commitOffsets(OffsetCommitRequest req) {
        ConsumerGroup consumerGroup = consumer.group(req.groupId());
        if (consumerGroup != null) {
            Function<TopicPartition, ErrorCode> check;
            try {
                check = consumer.validateOffsetCommit(consumerGroup, req.memberId(), req.generationId(), req.apiVersion());
            } catch (GroupException e) {
                return allPartitions(req, e.error);
            }
            return storeOffsets(req, consumerGroup.offsets, check, null);
        }
        ClassicGroup group = groups.get(req.groupId());
        boolean created = false;
        if (group == null) {
            if (req.generationId() >= 0) {
                // v9+ says so plainly; older clients expect ILLEGAL_GENERATION and rejoin.
                return allPartitions(req, req.apiVersion() >= 9 ? ErrorCode.GROUP_ID_NOT_FOUND : ErrorCode.ILLEGAL_GENERATION);
            }
            group = new ClassicGroup(req.groupId(), now()); // a "simple" group: offsets only
            created = true;
        }
        ErrorCode invalid = group.validateOffsetCommit(req.memberId(), req.groupInstanceId(), req.generationId());
        if (invalid != ErrorCode.NONE) {
            return allPartitions(req, invalid);
        }
        GroupMember member = group.member(req.memberId());
        if (member != null && (group.is(GroupState.STABLE) || group.is(GroupState.PREPARING_REBALANCE))) {
            classic.rescheduleHeartbeat(group, member, member.sessionTimeoutMs); // a commit keeps the session alive
        }
        ClassicGroup target = group;
        return storeOffsets(req, group.offsets, tp -> ErrorCode.NONE, created ? () -> groups.put(target.groupId, target) : null);
    }

    /**
     * Writes the offsets that pass {@code check} (and whose metadata is small enough) as one batch, then
     * puts them into {@code offsets}; {@code onStored} runs first when given (a new simple group).
     */
    private Map<TopicPartition, ErrorCode> storeOffsets(OffsetCommitRequest req, Map<TopicPartition, OffsetAndMetadata> offsets,
            Function<TopicPartition, ErrorCode> check, Runnable onStored) {
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
                    new OffsetAndMetadata(p.offset(), p.leaderEpoch(), metadata, now, expireTimestamp)));
        }
        try {
            append(records);
        } catch (LogException e) {
            ErrorCode error = appendError(e);
            records.forEach(r -> results.put(r.partition(), error));
            return results;
        }
        if (onStored != null) {
            onStored.run();
        }
        for (OffsetsRecord.OffsetCommit r : records) {
            offsets.put(r.partition(), r.value());
        }
        return results;
    }

    private static Map<TopicPartition, ErrorCode> allPartitions(OffsetCommitRequest req, ErrorCode error) {
        Map<TopicPartition, ErrorCode> out = new LinkedHashMap<>();
        req.partitions().forEach(p -> out.put(p.partition(), error));
        return out;
    }

    /**
     * Offsets of the partitions asked for (null: every committed partition); unknown ones map to null. A
     * consumer group checks the member id and epoch (OffsetFetch v9+; null and -1 from anyone else).
     */
    OffsetFetchResult fetchOffsets(String groupId, String memberId, int memberEpoch, List<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets;
        ConsumerGroup consumerGroup = consumer.group(groupId);
        if (consumerGroup != null) {
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
        return new OffsetFetchResult(ErrorCode.NONE, out);
    }

    OffsetDeleteResult deleteOffsets(String groupId, List<TopicPartition> partitions) {
        ConsumerGroup consumerGroup = consumer.group(groupId);
        ClassicGroup group = groups.get(groupId);
        Map<TopicPartition, OffsetAndMetadata> offsets;
        Predicate<String> subscribed;
        if (consumerGroup != null) {
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
                if (offsets.containsKey(tp)) {
                    tombstones.add(new OffsetsRecord.OffsetCommit(groupId, tp, null));
                }
            }
        }
        try {
            append(tombstones);
        } catch (LogException e) {
            return OffsetDeleteResult.error(appendError(e));
        }
        tombstones.forEach(t -> offsets.remove(((OffsetsRecord.OffsetCommit) t).partition()));
        return new OffsetDeleteResult(ErrorCode.NONE, results);
    }

    /** Every group's committed offsets, classic and consumer, by group id. */
    private Map<String, Map<TopicPartition, OffsetAndMetadata>> allOffsets() {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> out = new HashMap<>();
        groups.values().forEach(g -> out.put(g.groupId, g.offsets));
        consumer.groups().forEach(g -> out.put(g.groupId, g.offsets));
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
        try {
            append(tombstones);
        } catch (LogException e) {
            LOG.log(System.Logger.Level.WARNING, "failed to delete the offsets of deleted topics " + deletedTopics
                    + " in " + OffsetsTopic.NAME + "-" + partition + ": " + e.getMessage());
            return 0;
        }
        tombstones.forEach(t -> all.get(t.groupId()).remove(t.partition()));
        return tombstones.size();
    }

    // ------------------------------------------------------------------ groups: list, describe, delete

    List<GroupOverview> listGroups(Set<String> statesFilter, Set<String> typesFilter) {
        List<GroupOverview> out = new ArrayList<>(consumer.listGroups(statesFilter, typesFilter));
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
        ConsumerGroup consumerGroup = consumer.group(groupId);
        if (consumerGroup != null) {
            if (!consumerGroup.isEmpty()) {
                return ErrorCode.NON_EMPTY_GROUP;
            }
            List<OffsetsRecord> records = offsetTombstones(groupId, consumerGroup.offsets);
            records.addAll(ConsumerGroupProtocol.deletionRecords(consumerGroup));
            try {
                writeAndApply(records);
            } catch (LogException e) {
                return appendError(e);
            }
            LOG.log(System.Logger.Level.INFO, "deleted consumer group " + groupId);
            return ErrorCode.NONE;
        }
        ClassicGroup group = groups.get(groupId);
        if (group == null || group.is(GroupState.DEAD)) {
            return ErrorCode.GROUP_ID_NOT_FOUND;
        }
        if (!group.is(GroupState.EMPTY)) {
            return ErrorCode.NON_EMPTY_GROUP;
        }
        List<OffsetsRecord> tombstones = offsetTombstones(groupId, group.offsets);
        tombstones.add(new OffsetsRecord.GroupMetadata(groupId, null));
        try {
            append(tombstones);
        } catch (LogException e) {
            return appendError(e);
        }
        removeGroup(group);
        LOG.log(System.Logger.Level.INFO, "deleted group " + groupId + " and its " + (tombstones.size() - 1) + " offsets");
        return ErrorCode.NONE;
    }

    private static List<OffsetsRecord> offsetTombstones(String groupId, Map<TopicPartition, OffsetAndMetadata> offsets) {
        List<OffsetsRecord> tombstones = new ArrayList<>();
        for (TopicPartition tp : new TreeMap<>(offsets).keySet()) {
            tombstones.add(new OffsetsRecord.OffsetCommit(groupId, tp, null));
        }
        return tombstones;
    }

    private void removeGroup(ClassicGroup group) {
        group.transitionTo(GroupState.DEAD, now());
        cancel(group.joinTimer);
        cancel(group.syncTimer);
        for (String pending : new ArrayList<>(group.pendingJoinMembers.keySet())) {
            group.remove(pending);
        }
        groups.remove(group.groupId);
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
        for (ClassicGroup g : groups.values()) {
            Boolean fromStateChange = expiryBase(g);
            if (fromStateChange == null) {
                continue;
            }
            boolean allExpired = expire(g.groupId, g.offsets, g::isSubscribedToTopic,
                    o -> fromStateChange ? g.currentStateTimestamp : o.commitTimestampMs(), now, records);
            if (allExpired && g.is(GroupState.EMPTY) && g.pendingJoinMembers.isEmpty()) {
                records.add(new OffsetsRecord.GroupMetadata(g.groupId, null));
                deleted.add(g);
            }
        }
        List<OffsetsRecord> consumerDeletions = new ArrayList<>();
        for (ConsumerGroup g : consumer.groups()) {
            boolean allExpired = expire(g.groupId, g.offsets, topic -> consumer.isSubscribedToTopic(g, topic),
                    OffsetAndMetadata::commitTimestampMs, now, records);
            if (allExpired && g.isEmpty()) {
                consumerDeletions.addAll(ConsumerGroupProtocol.deletionRecords(g));
            }
        }
        if (records.isEmpty() && consumerDeletions.isEmpty()) {
            return;
        }
        Map<String, Map<TopicPartition, OffsetAndMetadata>> all = allOffsets();
        try {
            append(records);
        } catch (LogException e) {
            LOG.log(System.Logger.Level.WARNING, "failed to expire offsets in " + OffsetsTopic.NAME + "-" + partition + ": " + e.getMessage());
            return;
        }
        int expired = 0;
        for (OffsetsRecord r : records) {
            if (r instanceof OffsetsRecord.OffsetCommit c) {
                Map<TopicPartition, OffsetAndMetadata> offsets = all.get(c.groupId());
                if (offsets != null && offsets.remove(c.partition()) != null) {
                    expired++;
                }
            }
        }
        deleted.forEach(this::removeGroup);
        try {
            writeAndApply(consumerDeletions);
        } catch (LogException e) {
            LOG.log(System.Logger.Level.WARNING, "failed to delete empty consumer groups in " + OffsetsTopic.NAME + "-"
                    + partition + ": " + e.getMessage());
        }
        LOG.log(System.Logger.Level.INFO, "expired " + expired + " offsets and removed "
                + (deleted.size() + consumerDeletions.stream().filter(r -> r instanceof OffsetsRecord.ConsumerGroupMetadata).count())
                + " empty groups in " + OffsetsTopic.NAME + "-" + partition);
    }

    /**
     * Adds tombstones for the group's expired offsets; true when every offset expired.
     *
     * @param base when an offset without an explicit expiry started to age
     */
    private boolean expire(String groupId, Map<TopicPartition, OffsetAndMetadata> offsets, Predicate<String> subscribed,
            Function<OffsetAndMetadata, Long> base, long now, List<OffsetsRecord> records) {
        boolean allExpired = true;
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : new TreeMap<>(offsets).entrySet()) {
            OffsetAndMetadata o = e.getValue();
            boolean expired;
            if (subscribed.test(e.getKey().topic())) {
                expired = false;
            } else if (o.hasExpireTimestamp()) {
                expired = now >= o.expireTimestampMs();
            } else {
                expired = now - base.apply(o) >= config.offsetsRetentionMs();
            }
            if (expired) {
                records.add(new OffsetsRecord.OffsetCommit(groupId, e.getKey(), null));
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

    private void append(List<? extends OffsetsRecord> records) {
        if (closed) {
            throw new LogException(ErrorCode.NOT_COORDINATOR, "the coordinator is shutting down");
        }
        log.append(records, now());
    }

    /** The error a client gets when a coordinator write fails, as Kafka maps them. */
    static ErrorCode appendError(LogException e) {
        return switch (e.errorCode()) {
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT ->
                    ErrorCode.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR, NOT_COORDINATOR -> ErrorCode.NOT_COORDINATOR;
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE, INVALID_FETCH_SIZE -> ErrorCode.UNKNOWN_SERVER_ERROR;
            default -> ErrorCode.UNKNOWN_SERVER_ERROR;
        };
    }

    private static void cancel(Scheduler.Timer timer) {
        if (timer != null) {
            timer.cancel();
        }
    }
}
