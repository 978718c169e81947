package io.odradek.coordinator.group;

import io.odradek.coordinator.group.assignor.SimpleAssignor;
import io.odradek.coordinator.offsets.OffsetsRecord;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.ShareGroupRecord;
import io.odradek.coordinator.runtime.Scheduler;
import io.odradek.wire.ErrorCode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Kafka's share group protocol (KIP-932) for the share groups of one {@code __consumer_offsets} partition:
 * ShareGroupHeartbeat (join, heartbeat, leave), session timeouts, the share state of the group's partitions,
 * and what listing, describing, deleting and the share offset APIs need to know. Event-sourced like
 * {@link ConsumerGroupProtocol}: state changes only by {@link #replay} of {@link ShareGroupRecord}s.
 *
 * <p>A heartbeat runs Kafka 4.4's steps: (1) create or update the member; a changed subscription, a change in
 * the subscribed topics (ids and partition counts, from the {@link TopicCatalog}) or newly initialized share
 * partitions bump the group epoch; (2) past the target assignment's epoch the {@link SimpleAssignor} computes a
 * new target over the partitions whose share state is initialized; (3) the member takes its target at once
 * (share members own nothing, so nothing is revoked). Then, as Kafka, the subscribed partitions without share
 * state are recorded as "initializing" (ShareGroupStatePartitionMetadata) and returned to the caller, which
 * initializes them through the SharePersister (start offset -1: the partition leader applies
 * {@code share.auto.offset.reset}) and then records them "initialized" ({@link #initialized}); the next heartbeat
 * assigns them. So a new group's members get their partitions on their second heartbeat, as with Kafka.
 */
final class ShareGroupProtocol {
    private static final System.Logger LOG = System.getLogger(ShareGroupProtocol.class.getName());

    /** What a heartbeat answers, and the share partitions the caller must initialize (at {@code stateEpoch}). */
    record HeartbeatOutcome(ShareGroupHeartbeatResult result, int stateEpoch, Map<UUID, Set<Integer>> toInitialize) {
        static HeartbeatOutcome of(ShareGroupHeartbeatResult result) {
            return new HeartbeatOutcome(result, 0, Map.of());
        }
    }

    /** DeleteGroups of a share group: NONE and the partitions whose share state goes first, or the refusal. */
    record StateToDelete(ErrorCode error, Map<UUID, Set<Integer>> partitions) {
    }

    /** A checked Alter/DeleteShareGroupOffsets: NONE with the state epoch and partitions concerned, or the refusal. */
    record OffsetsChange(ErrorCode error, String message, int stateEpoch, Map<UUID, Set<Integer>> partitions) {
    }

    private final int partition;
    /** Settings and group configs, read when used (the broker may wire them after the partition loaded). */
    private final Supplier<ShareGroupServices> services;
    private final Scheduler scheduler;
    private final TopicCatalog topics;
    /** Whether a group of another type (classic, consumer, streams) has this id. */
    private final Predicate<String> otherGroup;
    private final ConsumerGroupProtocol.RecordWriter writer;
    private final SimpleAssignor assignor = new SimpleAssignor();
    private final Map<String, ShareGroup> groups = new HashMap<>();
    /** When each topic started initializing, per group: after the retry interval it is initialized again. */
    private final Map<String, Map<UUID, Long>> initializingSince = new HashMap<>();

    ShareGroupProtocol(int partition, Supplier<ShareGroupServices> services, Scheduler scheduler,
            TopicCatalog topics, Predicate<String> otherGroup, ConsumerGroupProtocol.RecordWriter writer) {
        this.partition = partition;
        this.services = services;
        this.scheduler = scheduler;
        this.topics = topics;
        this.otherGroup = otherGroup;
        this.writer = writer;
    }

    private ShareGroupConfig config() {
        return services.get().config();
    }

    private Map<String, String> groupConfigs(String groupId) {
        return services.get().groupConfigs().configs(groupId);
    }

    /** Whether a share group of this id exists here (a group id is of one type only). */
    boolean hasGroup(String groupId) {
        return groupId != null && groups.containsKey(groupId);
    }

    ShareGroup group(String groupId) {
        return groups.get(groupId);
    }

    Collection<ShareGroup> groups() {
        return groups.values();
    }

    // ------------------------------------------------------------------ ShareGroupHeartbeat

    HeartbeatOutcome heartbeat(ShareGroupHeartbeatRequest req) {
        try {
            validate(req);
            if (req.memberEpoch() == ShareGroupHeartbeatRequest.LEAVE_GROUP_MEMBER_EPOCH) {
                return HeartbeatOutcome.of(leave(req));
            }
            return joinOrHeartbeat(req);
        } catch (GroupException e) {
            return HeartbeatOutcome.of(ShareGroupHeartbeatResult.error(e.error, e.getMessage()));
        }
    }

    /** Kafka 4.4's checks (GroupCoordinatorService), with its messages. */
    private static void validate(ShareGroupHeartbeatRequest req) {
        requireNotBlank(req.memberId(), "MemberId can't be empty.");
        requireNotBlank(req.groupId(), "GroupId can't be empty.");
        requireNotBlank(req.rackId(), "RackId can't be empty.");
        if (req.memberEpoch() == 0) {
            if (req.subscribedTopicNames() == null || req.subscribedTopicNames().isEmpty()) {
                throw invalid("SubscribedTopicNames must be set in first request.");
            }
        } else if (req.memberEpoch() < ShareGroupHeartbeatRequest.LEAVE_GROUP_MEMBER_EPOCH) {
            throw invalid("MemberEpoch is invalid.");
        }
    }

    /** The group of this id, or a new one (not yet stored: replay makes it real) when joining. */
    private ShareGroup groupFor(String groupId, boolean create) {
        ShareGroup group = groups.get(groupId);
        if (group != null) {
            return group;
        }
        if (otherGroup.test(groupId)) {
            throw new GroupException(ErrorCode.GROUP_ID_NOT_FOUND, "Group " + groupId + " is not a share group.");
        }
        if (!create) {
            throw new GroupException(ErrorCode.GROUP_ID_NOT_FOUND, "Share group " + groupId + " not found.");
        }
        return new ShareGroup(groupId);
    }

    private HeartbeatOutcome joinOrHeartbeat(ShareGroupHeartbeatRequest req) {
        String groupId = req.groupId();
        String memberId = req.memberId();
        boolean joining = req.memberEpoch() == 0;
        ShareGroup group = groupFor(groupId, joining);
        if (group.members.size() >= config().maxSize() && group.member(memberId) == null) {
            throw new GroupException(ErrorCode.GROUP_MAX_SIZE_REACHED, "The share group has reached its maximum capacity of "
                    + config().maxSize() + " members.");
        }
        ShareGroupMember member = group.member(memberId);
        boolean isNew = member == null;
        if (isNew) {
            if (!joining) {
                throw new GroupException(ErrorCode.UNKNOWN_MEMBER_ID, "Member " + memberId + " is not a member of group " + groupId + ".");
            }
            member = new ShareGroupMember(memberId);
            LOG.log(System.Logger.Level.INFO, "member " + memberId + " joins share group " + groupId);
        } else {
            throwIfEpochInvalid(member, req.memberEpoch());
        }
        List<OffsetsRecord> records = new ArrayList<>();

        // 1. The member, created or updated; the group epoch moves when what the group should be assigned moved.
        ShareGroupRecord.MemberSubscription old = member.subscription;
        ShareGroupRecord.MemberSubscription sub = new ShareGroupRecord.MemberSubscription(
                req.rackId() != null ? req.rackId() : old.rackId(), req.clientId(), req.clientHost(),
                req.subscribedTopicNames() != null ? List.copyOf(new TreeSet<>(req.subscribedTopicNames())) : old.subscribedTopicNames());
        boolean subscriptionChanged = isNew || !sub.subscribedTopicNames().equals(old.subscribedTopicNames());
        if (isNew || !sub.equals(old)) {
            records.add(new ShareGroupRecord.MemberMetadata(groupId, memberId, sub));
        }
        boolean bump = subscriptionChanged || initializedAssignmentPending(group);
        Map<String, Set<String>> subscriptions = subscriptionsOf(group);
        subscriptions.put(memberId, new TreeSet<>(sub.subscribedTopicNames()));
        Set<String> subscribedNames = new TreeSet<>();
        subscriptions.values().forEach(subscribedNames::addAll);
        long hash = hash(subscribedNames);
        if (hash != group.metadataHash) {
            bump = true;
        }
        int groupEpoch = group.groupEpoch;
        if (bump) {
            groupEpoch++;
            records.add(new ShareGroupRecord.GroupMetadata(groupId, new ShareGroupRecord.GroupEpoch(groupEpoch, hash)));
            LOG.log(System.Logger.Level.INFO, "bumped share group " + groupId + " to epoch " + groupEpoch);
        }

        // 2. A new target assignment when the group epoch moved past the last one.
        int targetEpoch;
        Map<UUID, Set<Integer>> target;
        if (groupEpoch > group.assignmentEpoch) {
            Map<String, Map<UUID, Set<Integer>>> next = computeTarget(group, subscriptions);
            next.forEach((id, partitions) -> {
                if (!partitions.equals(group.target(id))) {
                    records.add(new ShareGroupRecord.TargetAssignmentMember(groupId, id, partitions));
                }
            });
            records.add(new ShareGroupRecord.TargetAssignmentMetadata(groupId, groupEpoch));
            LOG.log(System.Logger.Level.INFO, "share group " + groupId + " has a new target assignment for epoch " + groupEpoch + ": " + next);
            targetEpoch = groupEpoch;
            target = next.getOrDefault(memberId, Map.of());
        } else {
            targetEpoch = group.assignmentEpoch;
            target = group.target(memberId);
        }

        // 3. The member takes its target at once: nothing to revoke in a share group.
        ShareGroupRecord.MemberAssignment current = member.assignment;
        ShareGroupRecord.MemberAssignment nextAssignment = current.memberEpoch() == targetEpoch && current.partitions().equals(target)
                ? current : new ShareGroupRecord.MemberAssignment(targetEpoch, current.memberEpoch(), (byte) 0, target);
        if (isNew || !nextAssignment.equals(current)) {
            records.add(new ShareGroupRecord.CurrentAssignment(groupId, memberId, nextAssignment));
        }

        // Then the subscribed partitions without share state start initializing.
        Map<UUID, Set<Integer>> toInitialize = partitionsToInitialize(group, subscribedNames);
        if (!toInitialize.isEmpty()) {
            records.add(new ShareGroupRecord.StatePartitionMetadata(groupId, withInitializing(group.statePartitions, toInitialize)));
        }

        int sessionTimeoutMs = config().sessionTimeoutMs(groupConfigs(groupId));
        writer.write(records, error -> {
            if (error == ErrorCode.NONE) {
                ShareGroup stored = groups.get(groupId);
                ShareGroupMember m = stored == null ? null : stored.member(memberId);
                if (m != null) {
                    scheduleSessionTimeout(groupId, m, sessionTimeoutMs);
                }
            }
        });
        boolean fullRequest = req.subscribedTopicNames() != null;
        Map<UUID, Set<Integer>> assignment = joining || fullRequest || !nextAssignment.partitions().equals(current.partitions())
                ? nextAssignment.partitions() : null;
        ShareGroupHeartbeatResult result = new ShareGroupHeartbeatResult(ErrorCode.NONE, null, memberId,
                nextAssignment.memberEpoch(), config().heartbeatIntervalMs(groupConfigs(groupId)), assignment);
        return new HeartbeatOutcome(result, groupEpoch, toInitialize);
    }

    /** Kafka 4.4: epoch 0 rejoins; a newer epoch, or an older one other than the previous, is fenced. */
    private static void throwIfEpochInvalid(ShareGroupMember member, int received) {
        if (received == 0) {
            return;
        }
        if (received > member.memberEpoch()) {
            throw new GroupException(ErrorCode.FENCED_MEMBER_EPOCH, "The share group member has a greater member epoch ("
                    + received + ") than the one known by the group coordinator (" + member.memberEpoch()
                    + "). The member must abandon all its partitions and rejoin.");
        }
        if (received < member.memberEpoch() && received != member.assignment.previousMemberEpoch()) {
            throw new GroupException(ErrorCode.FENCED_MEMBER_EPOCH, "The share group member has a smaller member epoch ("
                    + received + ") than the one known by the group coordinator (" + member.memberEpoch()
                    + "), and it does not match the previous member epoch (" + member.assignment.previousMemberEpoch()
                    + "). The member must abandon all its partitions and rejoin.");
        }
    }

    /**
     * Kafka's initializedAssignmentPending: the group's subscribed topics have initialized partitions the target
     * assignment does not cover yet (their initialization completed since the last assignment).
     */
    private boolean initializedAssignmentPending(ShareGroup group) {
        if (group.isEmpty() || group.statePartitions.initialized().isEmpty()) {
            return false;
        }
        Set<String> subscribed = group.subscribedTopicNames();
        Map<UUID, Set<Integer>> assigned = new HashMap<>();
        group.targetAssignment.values().forEach(a -> a.forEach((t, p) -> assigned.computeIfAbsent(t, x -> new HashSet<>()).addAll(p)));
        for (Map.Entry<UUID, ShareGroupRecord.TopicPartitions> e : group.statePartitions.initialized().entrySet()) {
            if (subscribed.contains(e.getValue().topicName()) && !e.getValue().partitions().equals(assigned.get(e.getKey()))) {
                return true;
            }
        }
        return false;
    }

    /** Every member's subscribed topic names, in join order. */
    private static Map<String, Set<String>> subscriptionsOf(ShareGroup group) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        group.members.forEach((id, m) -> out.put(id, new TreeSet<>(m.subscription.subscribedTopicNames())));
        return out;
    }

    private Map<String, Map<UUID, Set<Integer>>> computeTarget(ShareGroup group, Map<String, Set<String>> subscriptions) {
        Map<String, Set<UUID>> byId = new LinkedHashMap<>();
        Map<UUID, Set<Integer>> assignable = new HashMap<>();
        Map<UUID, Set<Integer>> initialized = group.initializedPartitions();
        subscriptions.forEach((member, names) -> {
            Set<UUID> ids = new TreeSet<>();
            for (String name : names) {
                TopicCatalog.Topic t = topics.topic(name);
                if (t != null) {
                    ids.add(t.id());
                    Set<Integer> parts = new TreeSet<>();
                    for (int p : initialized.getOrDefault(t.id(), Set.of())) {
                        if (p < t.partitions()) {
                            parts.add(p);
                        }
                    }
                    assignable.put(t.id(), parts);
                }
            }
            byId.put(member, ids);
        });
        Map<String, Map<UUID, Set<Integer>>> current = new HashMap<>();
        subscriptions.keySet().forEach(id -> current.put(id, group.target(id)));
        return assignor.assign(byId, assignable, current);
    }

    /**
     * Kafka's subscribedTopicsChangeMap: partitions of the subscribed topics neither initialized nor initializing
     * (an initialization older than {@code group.share.initialize.retry.interval.ms} is tried again).
     */
    private Map<UUID, Set<Integer>> partitionsToInitialize(ShareGroup group, Set<String> subscribedNames) {
        long now = scheduler.nowMs();
        Map<UUID, Long> since = initializingSince.getOrDefault(group.groupId, Map.of());
        Map<UUID, Set<Integer>> out = new TreeMap<>();
        for (String name : subscribedNames) {
            TopicCatalog.Topic t = topics.topic(name);
            if (t == null) {
                continue;
            }
            Set<Integer> known = new HashSet<>();
            ShareGroupRecord.TopicPartitions initialized = group.statePartitions.initialized().get(t.id());
            if (initialized != null) {
                known.addAll(initialized.partitions());
            }
            ShareGroupRecord.TopicPartitions initializing = group.statePartitions.initializing().get(t.id());
            if (initializing != null && now - since.getOrDefault(t.id(), now) < config().initializeRetryIntervalMs()) {
                known.addAll(initializing.partitions());
            }
            Set<Integer> missing = new TreeSet<>();
            for (int p = 0; p < t.partitions(); p++) {
                if (!known.contains(p)) {
                    missing.add(p);
                }
            }
            if (!missing.isEmpty()) {
                out.put(t.id(), missing);
            }
        }
        return out;
    }

    /** The state metadata with these partitions added to the initializing ones (and no longer deleting). */
    private ShareGroupRecord.StatePartitions withInitializing(ShareGroupRecord.StatePartitions state, Map<UUID, Set<Integer>> more) {
        Map<UUID, ShareGroupRecord.TopicPartitions> initializing = new HashMap<>(state.initializing());
        Map<UUID, String> deleting = new HashMap<>(state.deleting());
        more.forEach((id, parts) -> {
            Set<Integer> all = new TreeSet<>(parts);
            ShareGroupRecord.TopicPartitions before = initializing.get(id);
            if (before != null) {
                all.addAll(before.partitions());
            }
            initializing.put(id, new ShareGroupRecord.TopicPartitions(topicName(id, before), all));
            deleting.remove(id);
        });
        return new ShareGroupRecord.StatePartitions(initializing, state.initialized(), deleting);
    }

    private String topicName(UUID id, ShareGroupRecord.TopicPartitions known) {
        TopicCatalog.Topic t = topics.topic(id);
        return t != null ? t.name() : known != null ? known.topicName() : "UNKNOWN";
    }

    /** A hash of the subscribed topics' names, ids and partition counts: when it changes, the group rebalances. */
    private long hash(Set<String> names) {
        long h = 0xcbf29ce484222325L; // FNV-1a, 64 bits
        boolean any = false;
        for (String name : new TreeSet<>(names)) {
            TopicCatalog.Topic t = topics.topic(name);
            if (t == null) {
                continue;
            }
            any = true;
            ByteBuffer buf = ByteBuffer.allocate(20);
            buf.putLong(t.id().getMostSignificantBits()).putLong(t.id().getLeastSignificantBits()).putInt(t.partitions());
            for (byte b : t.name().getBytes(StandardCharsets.UTF_8)) {
                h = (h ^ (b & 0xff)) * 0x100000001b3L;
            }
            for (byte b : buf.array()) {
                h = (h ^ (b & 0xff)) * 0x100000001b3L;
            }
        }
        return !any ? 0 : h == 0 ? 1 : h;
    }

    // ------------------------------------------------------------------ share state initialization

    /**
     * The SharePersister initialized these partitions: they move from initializing to initialized, and the next
     * heartbeat assigns them (Kafka's initializeShareGroupState). Nothing when the group is gone.
     */
    void initialized(String groupId, Map<UUID, Set<Integer>> partitions) {
        settleInitialization(groupId, partitions, Map.of());
    }

    /** Initialization failed: the partitions are no longer initializing, so the next heartbeat tries them again. */
    void uninitialized(String groupId, Map<UUID, Set<Integer>> partitions) {
        settleInitialization(groupId, Map.of(), partitions);
    }

    /** Both at once, as one record (two records computed from the same state would undo each other). */
    void settleInitialization(String groupId, Map<UUID, Set<Integer>> succeeded, Map<UUID, Set<Integer>> failed) {
        ShareGroup group = groups.get(groupId);
        if (group == null || (succeeded.isEmpty() && failed.isEmpty())) {
            return;
        }
        ShareGroupRecord.StatePartitions state = group.statePartitions;
        Map<UUID, ShareGroupRecord.TopicPartitions> initialized = new HashMap<>(state.initialized());
        succeeded.forEach((id, parts) -> {
            ShareGroupRecord.TopicPartitions before = initialized.get(id);
            Set<Integer> all = new TreeSet<>(parts);
            if (before != null) {
                all.addAll(before.partitions());
            }
            initialized.put(id, new ShareGroupRecord.TopicPartitions(
                    topicName(id, before != null ? before : state.initializing().get(id)), all));
        });
        Map<UUID, ShareGroupRecord.TopicPartitions> initializing = without(without(state.initializing(), succeeded), failed);
        writer.write(List.of(new ShareGroupRecord.StatePartitionMetadata(groupId,
                new ShareGroupRecord.StatePartitions(initializing, initialized, state.deleting()))), null);
    }

    private static Map<UUID, ShareGroupRecord.TopicPartitions> without(Map<UUID, ShareGroupRecord.TopicPartitions> from,
            Map<UUID, Set<Integer>> partitions) {
        Map<UUID, ShareGroupRecord.TopicPartitions> out = new HashMap<>(from);
        partitions.forEach((id, parts) -> {
            ShareGroupRecord.TopicPartitions before = out.get(id);
            if (before != null) {
                Set<Integer> rest = new TreeSet<>(before.partitions());
                rest.removeAll(parts);
                if (rest.isEmpty()) {
                    out.remove(id);
                } else {
                    out.put(id, new ShareGroupRecord.TopicPartitions(before.topicName(), rest));
                }
            }
        });
        return out;
    }

    /** Every partition of the group with share state, initialized or initializing (what deletion must clear). */
    Map<UUID, Set<Integer>> statePartitions(String groupId) {
        ShareGroup group = groups.get(groupId);
        Map<UUID, Set<Integer>> out = new TreeMap<>();
        if (group != null) {
            group.statePartitions.initialized().forEach((id, t) -> out.computeIfAbsent(id, x -> new TreeSet<>()).addAll(t.partitions()));
            group.statePartitions.initializing().forEach((id, t) -> out.computeIfAbsent(id, x -> new TreeSet<>()).addAll(t.partitions()));
        }
        return out;
    }

    /** Topic id to initialized partitions (DescribeShareGroupOffsets without topics); empty for an unknown group. */
    Map<UUID, Set<Integer>> initializedPartitions(String groupId) {
        ShareGroup group = groups.get(groupId);
        return group == null ? Map.of() : new TreeMap<>(group.initializedPartitions());
    }

    // ------------------------------------------------------------------ AlterShareGroupOffsets / DeleteShareGroupOffsets

    /**
     * The check both offset-changing APIs make first (Kafka 4.4): the group must be a share group, and empty.
     *
     * @return null when the group may change; {@code allowUnknown}: a missing group is fine (Alter creates it)
     */
    GroupException offsetsChangeRefused(String groupId, boolean allowUnknown) {
        ShareGroup group = groups.get(groupId);
        if (group == null) {
            if (otherGroup.test(groupId)) {
                return new GroupException(ErrorCode.GROUP_ID_NOT_FOUND, "Group " + groupId + " is not a share group.");
            }
            return allowUnknown ? null : new GroupException(ErrorCode.GROUP_ID_NOT_FOUND, "Group " + groupId + " not found.");
        }
        if (!group.isEmpty()) {
            return new GroupException(ErrorCode.NON_EMPTY_GROUP, "The group is not empty.");
        }
        return null;
    }

    /**
     * AlterShareGroupOffsets, once checked: records the partitions as initializing and returns the state epoch to
     * initialize them under (the group epoch). An id nobody uses becomes an empty share group with epoch 0 by
     * replaying that record, as in Kafka 4.4.
     */
    int alterOffsets(String groupId, Map<UUID, Set<Integer>> partitions) {
        ShareGroup group = groups.get(groupId);
        ShareGroupRecord.StatePartitions state = group == null ? ShareGroupRecord.StatePartitions.EMPTY : group.statePartitions;
        writer.write(List.of(new ShareGroupRecord.StatePartitionMetadata(groupId, withInitializing(state, partitions))), null);
        return group == null ? 0 : group.groupEpoch;
    }

    /**
     * DeleteShareGroupOffsets, once checked: the group's initialized topics among {@code topicIds} are marked
     * deleting (Kafka's DeletingTopics); returns their partitions for the SharePersister to delete (those of a
     * topic still marked deleting are returned again). Topics left out have no share state in the group.
     */
    Map<UUID, Set<Integer>> startDeletingOffsets(String groupId, Set<UUID> topicIds) {
        ShareGroup group = groups.get(groupId);
        Map<UUID, Set<Integer>> out = new TreeMap<>();
        if (group == null) {
            return out;
        }
        ShareGroupRecord.StatePartitions state = group.statePartitions;
        Map<UUID, ShareGroupRecord.TopicPartitions> initialized = new HashMap<>(state.initialized());
        Map<UUID, ShareGroupRecord.TopicPartitions> initializing = new HashMap<>(state.initializing());
        Map<UUID, String> deleting = new HashMap<>(state.deleting());
        for (UUID id : topicIds) {
            ShareGroupRecord.TopicPartitions a = initialized.remove(id);
            ShareGroupRecord.TopicPartitions b = initializing.remove(id);
            if (a == null && b == null) {
                TopicCatalog.Topic t = topics.topic(id);
                if (deleting.containsKey(id) && t != null) {
                    // A deletion that did not complete before: tried again for every partition, as Kafka does.
                    Set<Integer> all = new TreeSet<>();
                    for (int p = 0; p < t.partitions(); p++) {
                        all.add(p);
                    }
                    out.put(id, all);
                }
                continue;
            }
            Set<Integer> parts = new TreeSet<>();
            if (a != null) {
                parts.addAll(a.partitions());
            }
            if (b != null) {
                parts.addAll(b.partitions());
            }
            out.put(id, parts);
            deleting.put(id, a != null ? a.topicName() : b.topicName());
        }
        if (!out.isEmpty()) {
            writer.write(List.of(new ShareGroupRecord.StatePartitionMetadata(groupId,
                    new ShareGroupRecord.StatePartitions(initializing, initialized, deleting))), null);
        }
        return out;
    }

    /** The share state of these topics is deleted: they leave the group's deleting topics. */
    void deletedOffsets(String groupId, Set<UUID> topicIds) {
        ShareGroup group = groups.get(groupId);
        if (group == null) {
            return;
        }
        ShareGroupRecord.StatePartitions state = group.statePartitions;
        Map<UUID, String> deleting = new HashMap<>(state.deleting());
        if (deleting.keySet().removeAll(topicIds)) {
            writer.write(List.of(new ShareGroupRecord.StatePartitionMetadata(groupId,
                    new ShareGroupRecord.StatePartitions(state.initializing(), state.initialized(), deleting))), null);
        }
    }

    /**
     * Deleted topics leave every share group's state metadata (Kafka's maybeCleanupShareGroupState), by the names
     * the metadata recorded: a topic created again later under that name starts its share state afresh.
     */
    List<OffsetsRecord> forgetDeletedTopics(Set<String> deletedTopics) {
        List<OffsetsRecord> out = new ArrayList<>();
        for (ShareGroup g : groups.values()) {
            ShareGroupRecord.StatePartitions state = g.statePartitions;
            Map<UUID, ShareGroupRecord.TopicPartitions> initializing = new HashMap<>(state.initializing());
            Map<UUID, ShareGroupRecord.TopicPartitions> initialized = new HashMap<>(state.initialized());
            Map<UUID, String> deleting = new HashMap<>(state.deleting());
            boolean changed = initializing.values().removeIf(t -> deletedTopics.contains(t.topicName()));
            changed |= initialized.values().removeIf(t -> deletedTopics.contains(t.topicName()));
            changed |= deleting.values().removeIf(deletedTopics::contains);
            if (changed) {
                out.add(new ShareGroupRecord.StatePartitionMetadata(g.groupId,
                        new ShareGroupRecord.StatePartitions(initializing, initialized, deleting)));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ leaving and fencing

    private ShareGroupHeartbeatResult leave(ShareGroupHeartbeatRequest req) {
        String groupId = req.groupId();
        ShareGroup group = groupFor(groupId, false);
        ShareGroupMember member = group.member(req.memberId());
        if (member == null) {
            throw new GroupException(ErrorCode.UNKNOWN_MEMBER_ID, "Member " + req.memberId() + " is not a member of group " + groupId + ".");
        }
        fence(group, member, "it left the group", null);
        return new ShareGroupHeartbeatResult(ErrorCode.NONE, null, req.memberId(), ShareGroupHeartbeatRequest.LEAVE_GROUP_MEMBER_EPOCH,
                0, null);
    }

    /** Removes the member and bumps the group epoch, so the others are reassigned. */
    private void fence(ShareGroup group, ShareGroupMember member, String reason, Runnable onFailure) {
        String groupId = group.groupId;
        List<OffsetsRecord> records = new ArrayList<>(removalRecords(groupId, member.memberId));
        Set<String> rest = new TreeSet<>();
        group.members.values().forEach(m -> {
            if (m != member) {
                rest.addAll(m.subscription.subscribedTopicNames());
            }
        });
        int epoch = group.groupEpoch + 1;
        records.add(new ShareGroupRecord.GroupMetadata(groupId, new ShareGroupRecord.GroupEpoch(epoch, hash(rest))));
        writer.write(records, error -> {
            if (error == ErrorCode.NONE) {
                LOG.log(System.Logger.Level.INFO, "member " + member + " removed from share group " + groupId + " because "
                        + reason + "; group epoch is now " + epoch);
            } else if (onFailure != null) {
                onFailure.run();
            }
        });
    }

    private static List<OffsetsRecord> removalRecords(String groupId, String memberId) {
        return List.of(new ShareGroupRecord.CurrentAssignment(groupId, memberId, null),
                new ShareGroupRecord.TargetAssignmentMember(groupId, memberId, null),
                new ShareGroupRecord.MemberMetadata(groupId, memberId, null));
    }

    private void scheduleSessionTimeout(String groupId, ShareGroupMember member, int timeoutMs) {
        member.cancelTimers();
        String memberId = member.memberId;
        member.sessionTimer = scheduler.schedule(timeoutMs, () -> {
            ShareGroup group = groups.get(groupId);
            ShareGroupMember m = group == null ? null : group.member(memberId);
            if (m == null) {
                return;
            }
            m.sessionTimer = null;
            fence(group, m, "its session timed out", () -> scheduleSessionTimeout(groupId, m, timeoutMs));
        });
    }

    // ------------------------------------------------------------------ loading and replay

    /** Applies one of its records: at load, and after each committed write. */
    void replay(ShareGroupRecord record) {
        String groupId = record.groupId();
        if (record instanceof ShareGroupRecord.GroupMetadata r) {
            if (r.value() != null) {
                ShareGroup g = getOrCreate(groupId);
                g.groupEpoch = r.value().epoch();
                g.metadataHash = r.value().metadataHash();
            } else {
                ShareGroup g = groups.remove(groupId);
                initializingSince.remove(groupId);
                if (g != null) {
                    g.members.values().forEach(ShareGroupMember::cancelTimers);
                }
            }
        } else if (record instanceof ShareGroupRecord.MemberMetadata r) {
            if (r.value() != null) {
                ShareGroup g = getOrCreate(groupId);
                g.members.computeIfAbsent(r.memberId(), ShareGroupMember::new).subscription = r.value();
            } else if (groups.containsKey(groupId)) {
                ShareGroupMember m = groups.get(groupId).members.remove(r.memberId());
                if (m != null) {
                    m.cancelTimers();
                }
            }
        } else if (record instanceof ShareGroupRecord.TargetAssignmentMetadata r) {
            if (r.assignmentEpoch() != null) {
                getOrCreate(groupId).assignmentEpoch = r.assignmentEpoch();
            }
        } else if (record instanceof ShareGroupRecord.TargetAssignmentMember r) {
            if (r.partitions() != null) {
                Map<UUID, Set<Integer>> copy = new TreeMap<>();
                r.partitions().forEach((t, p) -> copy.put(t, Set.copyOf(p)));
                getOrCreate(groupId).targetAssignment.put(r.memberId(), copy);
            } else if (groups.containsKey(groupId)) {
                groups.get(groupId).targetAssignment.remove(r.memberId());
            }
        } else if (record instanceof ShareGroupRecord.CurrentAssignment r) {
            ShareGroup g = r.value() != null ? getOrCreate(groupId) : groups.get(groupId);
            ShareGroupMember m = g == null ? null : r.value() != null ? g.members.computeIfAbsent(r.memberId(), ShareGroupMember::new)
                    : g.member(r.memberId());
            if (m != null) {
                m.assignment = r.value() != null ? r.value() : ShareGroupRecord.MemberAssignment.INITIAL;
            }
        } else if (record instanceof ShareGroupRecord.StatePartitionMetadata r) {
            if (r.value() != null) {
                ShareGroup g = getOrCreate(groupId);
                g.statePartitions = r.value();
                Map<UUID, Long> since = initializingSince.computeIfAbsent(groupId, id -> new HashMap<>());
                since.keySet().retainAll(r.value().initializing().keySet());
                r.value().initializing().keySet().forEach(id -> since.putIfAbsent(id, scheduler.nowMs()));
            } else if (groups.containsKey(groupId)) {
                groups.get(groupId).statePartitions = ShareGroupRecord.StatePartitions.EMPTY;
                initializingSince.remove(groupId);
            }
        }
    }

    private ShareGroup getOrCreate(String groupId) {
        return groups.computeIfAbsent(groupId, ShareGroup::new);
    }

    /** The log has been replayed: every member gets a fresh session. */
    void onLoaded() {
        for (ShareGroup g : groups.values()) {
            int timeoutMs = config().sessionTimeoutMs(groupConfigs(g.groupId));
            for (ShareGroupMember m : g.members.values()) {
                scheduleSessionTimeout(g.groupId, m, timeoutMs);
            }
        }
        if (!groups.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "loaded " + groups.size() + " share groups in " + OffsetsTopic.NAME + "-" + partition);
        }
    }

    /** Unloaded: stop timers. */
    void close() {
        groups.values().forEach(g -> g.members.values().forEach(ShareGroupMember::cancelTimers));
        groups.clear();
        initializingSince.clear();
    }

    // ------------------------------------------------------------------ administration

    List<GroupOverview> listGroups(Set<String> statesFilter, Set<String> typesFilter) {
        List<GroupOverview> out = new ArrayList<>();
        if (!typesFilter.isEmpty() && !typesFilter.contains("share")) {
            return out;
        }
        for (ShareGroup g : groups.values()) {
            ShareGroup.State state = g.state();
            if (statesFilter.isEmpty() || statesFilter.contains(state.kafkaName.toLowerCase(java.util.Locale.ROOT))) {
                out.add(new GroupOverview(g.groupId, "share", state.kafkaName, "share"));
            }
        }
        return out;
    }

    ShareGroupDescription describe(String groupId) {
        ShareGroup g = groupId == null ? null : groups.get(groupId);
        if (g == null) {
            boolean other = groupId != null && otherGroup.test(groupId);
            return ShareGroupDescription.error(groupId, ErrorCode.GROUP_ID_NOT_FOUND,
                    "Group " + groupId + (other ? " is not a share group." : " not found."));
        }
        List<ShareGroupDescription.Member> members = new ArrayList<>();
        for (ShareGroupMember m : g.members.values()) {
            ShareGroupRecord.MemberSubscription s = m.subscription;
            members.add(new ShareGroupDescription.Member(m.memberId, s.rackId(), m.memberEpoch(), s.clientId(), s.clientHost(),
                    s.subscribedTopicNames(), m.assignment.partitions()));
        }
        return new ShareGroupDescription(groupId, ErrorCode.NONE, null, g.state().kafkaName, g.groupEpoch, g.assignmentEpoch,
                SimpleAssignor.NAME, members);
    }

    /** DeleteGroups: NONE and the records that delete an empty share group, or why not. */
    ErrorCode deletionRefused(String groupId) {
        ShareGroup g = groups.get(groupId);
        if (g == null) {
            return ErrorCode.GROUP_ID_NOT_FOUND;
        }
        return g.isEmpty() ? ErrorCode.NONE : ErrorCode.NON_EMPTY_GROUP;
    }

    /** The tombstones that delete an empty share group, in Kafka's order. */
    static List<OffsetsRecord> deletionRecords(ShareGroup group) {
        List<OffsetsRecord> out = new ArrayList<>();
        for (String memberId : group.members.keySet()) {
            out.addAll(removalRecords(group.groupId, memberId));
        }
        out.add(new ShareGroupRecord.StatePartitionMetadata(group.groupId, null));
        out.add(new ShareGroupRecord.TargetAssignmentMetadata(group.groupId, null));
        out.add(new ShareGroupRecord.GroupMetadata(group.groupId, null));
        return out;
    }

    @Override
    public String toString() {
        return "share groups of " + OffsetsTopic.NAME + "-" + partition;
    }

    private static void requireNotBlank(String value, String message) {
        if (value != null && value.trim().isEmpty()) {
            throw invalid(message);
        }
    }

    private static GroupException invalid(String message) {
        return new GroupException(ErrorCode.INVALID_REQUEST, message);
    }
}
