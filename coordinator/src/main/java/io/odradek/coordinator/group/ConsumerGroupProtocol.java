package io.odradek.coordinator.group;

import io.odradek.coordinator.group.assignor.AssignmentSpec;
import io.odradek.coordinator.group.assignor.PartitionAssignor;
import io.odradek.coordinator.group.assignor.RangeAssignor;
import io.odradek.coordinator.group.assignor.UniformAssignor;
import io.odradek.coordinator.offsets.ConsumerGroupEpoch;
import io.odradek.coordinator.offsets.ConsumerMemberAssignment;
import io.odradek.coordinator.offsets.ConsumerMemberSubscription;
import io.odradek.coordinator.offsets.OffsetsRecord;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.runtime.CoordinatorResult;
import io.odradek.coordinator.runtime.Scheduler;
import io.odradek.wire.ErrorCode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Kafka's consumer group protocol (KIP-848) for the groups of one {@code __consumer_offsets} partition:
 * ConsumerGroupHeartbeat (join, heartbeat, leave), session and rebalance timeouts, and what offsets,
 * listing, describing and deleting need to know about these groups.
 *
 * <p>Each heartbeat runs Kafka's three steps: (1) create or update the member; a changed subscription,
 * a changed assignor preference or a change in the subscribed topics (their ids and partition counts,
 * looked up in the {@link TopicCatalog} at each heartbeat) bumps the group epoch; (2) when the group epoch
 * is past the target assignment's, the server-side assignor computes a new target for every member;
 * (3) the member's current assignment moves towards its target ({@link AssignmentReconciler}: revoke
 * first, then assign what is free). Each step yields records; they are written, then applied by replaying
 * them ({@link #replay}) once committed, exactly as on load: what is in memory is what the log says.
 * What follows a write (timers of the member) runs in its callback, after the replay.
 *
 * <p>Simplifications, against Kafka 4.4: a classic group with members is not converted (its id answers
 * GROUP_ID_NOT_FOUND, "not a consumer group"), only an empty one is; classic members cannot join a
 * consumer group (JoinGroup gets INCONSISTENT_GROUP_PROTOCOL while it has members); a SubscribedTopicRegex
 * is a java.util.regex pattern (RE2/J's syntax for common patterns), matched in full against every
 * non-internal topic at each heartbeat rather than resolved asynchronously, and its resolution is not
 * stored (Kafka's record type 16); no rack-aware assignment; per-group config overrides are not supported.
 *
 * <p>A regex resolves only to the topics the member may DESCRIBE (Kafka's TopicRegexResolver filters with
 * the authorizer). Kafka resolves each regex once per group, in the context of whichever member's heartbeat
 * triggered the refresh, and shares the result among the members using that regex; here each member's
 * regex is filtered by that member's own authorization, as of its last heartbeat (kept in memory only;
 * after a load, a member counts as allowed every topic until its first heartbeat, which rebalances the
 * group if that changes what its regex resolves to, before the member is answered).
 */
final class ConsumerGroupProtocol {
    private static final System.Logger LOG = System.getLogger(ConsumerGroupProtocol.class.getName());

    /** Writes records with the operation running now; once committed they are applied through the shard's replay. */
    interface RecordWriter {
        /**
         * {@code after} hears, on this thread, NONE once the records are committed and applied, or the
         * client's error (nothing applied; the operation's response becomes that error).
         */
        void write(List<OffsetsRecord> records, CoordinatorResult.AfterAppend after);
    }

    private final int partition;
    private final ConsumerGroupConfig config;
    private final Scheduler scheduler;
    private final TopicCatalog topics;
    private final Map<String, ClassicGroup> classicGroups;
    private final RecordWriter writer;
    private final Map<String, ConsumerGroup> groups = new HashMap<>();
    private final Map<String, PartitionAssignor> assignors = new LinkedHashMap<>();
    private final Map<String, Pattern> patterns = new HashMap<>();

    ConsumerGroupProtocol(int partition, ConsumerGroupConfig config, Scheduler scheduler, TopicCatalog topics,
            Map<String, ClassicGroup> classicGroups, RecordWriter writer) {
        this.partition = partition;
        this.config = config;
        this.scheduler = scheduler;
        this.topics = topics;
        this.classicGroups = classicGroups;
        this.writer = writer;
        for (String name : config.assignors()) {
            assignors.put(name, name.equals(RangeAssignor.NAME) ? new RangeAssignor() : new UniformAssignor());
        }
    }

    ConsumerGroup group(String groupId) {
        return groups.get(groupId);
    }

    Collection<ConsumerGroup> groups() {
        return groups.values();
    }

    private String defaultAssignor() {
        return config.assignors().get(0);
    }

    // ------------------------------------------------------------------ ConsumerGroupHeartbeat

    ConsumerGroupHeartbeatResult heartbeat(ConsumerGroupHeartbeatRequest req) {
        try {
            validate(req);
            if (req.memberEpoch() == ConsumerGroupHeartbeatRequest.LEAVE_GROUP_MEMBER_EPOCH
                    || req.memberEpoch() == ConsumerGroupHeartbeatRequest.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
                return leave(req);
            }
            return joinOrHeartbeat(req);
        } catch (GroupException e) {
            return ConsumerGroupHeartbeatResult.error(e.error, e.getMessage());
        }
    }

    /** Kafka 4.4's checks, with its messages (INVALID_REQUEST unless said otherwise). */
    private void validate(ConsumerGroupHeartbeatRequest req) {
        int epoch = req.memberEpoch();
        if (req.apiVersion() >= 1 || epoch > 0 || epoch == ConsumerGroupHeartbeatRequest.LEAVE_GROUP_MEMBER_EPOCH) {
            requireNotBlank(req.memberId(), "MemberId can't be empty.");
        }
        requireNotBlank(req.groupId(), "GroupId can't be empty.");
        requireNotBlank(req.instanceId(), "InstanceId can't be empty.");
        requireNotBlank(req.rackId(), "RackId can't be empty.");
        if (epoch == 0) {
            if (req.rebalanceTimeoutMs() == -1) {
                throw invalid("RebalanceTimeoutMs must be provided in first request.");
            }
            if (req.ownedPartitions() == null || !req.ownedPartitions().isEmpty()) {
                throw invalid("TopicPartitions must be empty when (re-)joining.");
            }
            if (req.subscribedTopicNames() == null && req.subscribedTopicRegex() == null) {
                throw invalid("Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.");
            }
        } else if (epoch == ConsumerGroupHeartbeatRequest.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
            if (req.instanceId() == null) {
                throw invalid("InstanceId can't be null.");
            }
        } else if (epoch < ConsumerGroupHeartbeatRequest.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
            throw invalid("MemberEpoch is invalid.");
        }
        if (req.serverAssignor() != null && !assignors.containsKey(req.serverAssignor())) {
            throw new GroupException(ErrorCode.UNSUPPORTED_ASSIGNOR, "ServerAssignor " + req.serverAssignor()
                    + " is not supported. Supported assignors: " + String.join(", ", assignors.keySet()) + ".");
        }
        if (req.subscribedTopicRegex() != null && !req.subscribedTopicRegex().isEmpty()) {
            pattern(req.subscribedTopicRegex());
        }
    }

    private ConsumerGroupHeartbeatResult joinOrHeartbeat(ConsumerGroupHeartbeatRequest req) {
        String groupId = req.groupId();
        boolean joining = req.memberEpoch() == 0;
        List<OffsetsRecord> records = new ArrayList<>();
        ConsumerGroup group = groups.get(groupId);
        if (group == null) {
            ClassicGroup classic = classicGroups.get(groupId);
            if (classic != null && !(joining && isEmpty(classic))) {
                throw new GroupException(ErrorCode.GROUP_ID_NOT_FOUND, "Group " + groupId + " is not a consumer group.");
            }
            if (classic == null && !joining) {
                throw new GroupException(ErrorCode.GROUP_ID_NOT_FOUND, "Consumer group " + groupId + " not found.");
            }
            if (classic != null) {
                // An empty classic group (or one holding only offsets) becomes a consumer group; offsets stay.
                records.add(new OffsetsRecord.GroupMetadata(groupId, null));
                LOG.log(System.Logger.Level.INFO, "converting empty classic group " + groupId + " to a consumer group");
            }
            group = new ConsumerGroup(groupId); // made real by replaying the records below
        }
        String memberId = req.memberId().isEmpty() ? newMemberId() : req.memberId();
        throwIfFull(group, memberId, req.instanceId());

        // 1. The member, created or updated.
        ConsumerGroupMember member;
        String replaced = null;
        if (req.instanceId() == null) {
            member = group.member(memberId);
            if (member == null) {
                if (!joining) {
                    throw new GroupException(ErrorCode.UNKNOWN_MEMBER_ID, "Member " + memberId + " is not a member of group " + groupId + ".");
                }
                member = new ConsumerGroupMember(memberId);
            } else {
                throwIfEpochInvalid(member, req);
            }
        } else {
            ConsumerGroupMember existing = group.staticMember(req.instanceId());
            if (joining) {
                if (existing == null) {
                    member = group.member(memberId) != null ? group.member(memberId) : new ConsumerGroupMember(memberId);
                } else {
                    if (existing.memberEpoch() != ConsumerGroupHeartbeatRequest.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
                        throw new GroupException(ErrorCode.UNRELEASED_INSTANCE_ID, "Static member " + memberId
                                + " with instance id " + req.instanceId() + " cannot join the group because the instance id is"
                                + " owned by " + existing.memberId + " member.");
                    }
                    // KIP-345 for KIP-848: the new member takes the old one's place, assignment included.
                    member = new ConsumerGroupMember(memberId);
                    member.subscription = existing.subscription;
                    ConsumerMemberAssignment a = existing.assignment;
                    member.assignment = new ConsumerMemberAssignment(0, 0, a.state(), a.assignedPartitions(), a.partitionsPendingRevocation());
                    if (!existing.memberId.equals(memberId)) {
                        replaced = existing.memberId;
                        records.addAll(removalRecords(groupId, replaced));
                        records.add(new OffsetsRecord.ConsumerMemberMetadata(groupId, memberId, member.subscription));
                        records.add(new OffsetsRecord.ConsumerTargetAssignmentMember(groupId, memberId, group.target(replaced)));
                    }
                    records.add(new OffsetsRecord.ConsumerCurrentAssignment(groupId, memberId, member.assignment));
                    LOG.log(System.Logger.Level.INFO, "static member " + req.instanceId() + " rejoins consumer group "
                            + groupId + " as " + memberId + ", replacing " + existing.memberId);
                }
            } else {
                if (existing == null) {
                    throw new GroupException(ErrorCode.UNKNOWN_MEMBER_ID, "Instance id " + req.instanceId() + " is unknown.");
                }
                if (!existing.memberId.equals(memberId)) {
                    throw new GroupException(ErrorCode.FENCED_INSTANCE_ID, "Static member " + memberId + " with instance id "
                            + req.instanceId() + " was fenced by member " + existing.memberId + ".");
                }
                throwIfEpochInvalid(existing, req);
                member = existing;
            }
        }
        boolean isNew = group.member(memberId) == null;
        if (isNew && replaced == null) {
            LOG.log(System.Logger.Level.INFO, "member " + memberId + " joins consumer group " + groupId);
        }
        ConsumerMemberSubscription old = member.subscription;
        ConsumerMemberSubscription sub = updated(old, req);
        if (isNew || !sub.equals(old)) {
            records.add(new OffsetsRecord.ConsumerMemberMetadata(groupId, memberId, sub));
        }
        boolean subscriptionChanged = !sub.subscribedTopicNames().equals(old.subscribedTopicNames())
                || !Objects.equals(sub.subscribedTopicRegex(), old.subscribedTopicRegex());

        // What the member may DESCRIBE, as of this heartbeat: what its regex resolves to may change with it.
        Predicate<String> describable = req.describableTopics();
        Predicate<String> describableBefore = isNew ? describable : member.describableTopics;
        if (!subscriptionChanged && sub.subscribedTopicRegex() != null && describable != describableBefore
                && !regexTopics(sub.subscribedTopicRegex(), describableBefore).equals(regexTopics(sub.subscribedTopicRegex(), describable))) {
            subscriptionChanged = true;
        }
        ConsumerGroup groupNow = group;
        Function<String, Predicate<String>> describableOf = id -> id.equals(memberId) ? describable : describableTopics(groupNow, id);

        Map<String, ConsumerMemberSubscription> subscriptions = subscriptionsOf(group, replaced);
        String assignorBefore = preferredAssignor(subscriptions.values());
        subscriptions.put(memberId, sub);
        Map<String, TopicCatalog.Topic> subscribed = subscribedTopics(subscriptions, describableOf);
        long hash = hash(subscribed);
        String assignor = preferredAssignor(subscriptions.values());
        int groupEpoch = group.groupEpoch;
        if (subscriptionChanged || hash != group.metadataHash || !assignor.equals(assignorBefore)) {
            groupEpoch++;
            records.add(new OffsetsRecord.ConsumerGroupMetadata(groupId, new ConsumerGroupEpoch(groupEpoch, hash)));
            LOG.log(System.Logger.Level.INFO, "bumped consumer group " + groupId + " to epoch " + groupEpoch
                    + (subscriptionChanged ? " (member " + memberId + " subscribes to " + describe(sub) + ")"
                    : hash != group.metadataHash ? " (subscribed topics changed)" : " (assignor is now " + assignor + ")"));
        }

        // 2. A new target assignment when the group epoch moved past the last one.
        int targetEpoch;
        Map<UUID, Set<Integer>> target;
        if (groupEpoch > group.assignmentEpoch) {
            Map<String, Map<UUID, Set<Integer>>> next = computeTarget(group, subscriptions, subscribed, describableOf, assignor,
                    memberId, replaced);
            for (Map.Entry<String, Map<UUID, Set<Integer>>> e : next.entrySet()) {
                String id = e.getKey();
                Map<UUID, Set<Integer>> before = id.equals(memberId) && replaced != null ? group.target(replaced) : group.target(id);
                if (!e.getValue().equals(before)) {
                    records.add(new OffsetsRecord.ConsumerTargetAssignmentMember(groupId, id, e.getValue()));
                }
            }
            records.add(new OffsetsRecord.ConsumerTargetAssignmentMetadata(groupId, groupEpoch));
            LOG.log(System.Logger.Level.INFO, "consumer group " + groupId + " has a new target assignment for epoch "
                    + groupEpoch + " with the " + assignor + " assignor: " + next);
            targetEpoch = groupEpoch;
            target = next.getOrDefault(memberId, Map.of());
        } else {
            targetEpoch = group.assignmentEpoch;
            target = replaced != null ? group.target(replaced) : group.target(memberId);
        }

        // 3. The member's current assignment, one step towards the target.
        ConsumerMemberAssignment current = member.assignment;
        ConsumerGroup g = group;
        String replacedId = replaced;
        ConsumerMemberAssignment next = member.isReconciledTo(targetEpoch) ? current
                : new AssignmentReconciler(current, targetEpoch, target, req.ownedPartitions(), (topic, p) -> {
                    String owner = g.owner(topic, p);
                    return owner != null && !owner.equals(memberId) && !owner.equals(replacedId);
                }).next();
        if (isNew || !next.equals(current)) {
            records.add(new OffsetsRecord.ConsumerCurrentAssignment(groupId, memberId, next));
        }

        writer.write(records, error -> {
            if (error != ErrorCode.NONE) {
                return;
            }
            ConsumerGroupMember stored = groups.get(groupId).member(memberId);
            stored.describableTopics = describable;
            scheduleSessionTimeout(groupId, stored);
            if (next.state() != MemberState.UNREVOKED_PARTITIONS.value) {
                stored.cancelRebalanceTimer();
            } else if (!next.equals(current) || stored.rebalanceTimer == null) {
                scheduleRebalanceTimeout(groupId, stored);
            }
        });

        Map<UUID, Set<Integer>> assigned = ConsumerGroupMember.partitionsOf(next.assignedPartitions());
        boolean fullRequest = joining || (req.rebalanceTimeoutMs() != -1
                && (req.subscribedTopicNames() != null || req.subscribedTopicRegex() != null) && req.ownedPartitions() != null);
        boolean changed = !assigned.equals(ConsumerGroupMember.partitionsOf(current.assignedPartitions()));
        return new ConsumerGroupHeartbeatResult(ErrorCode.NONE, null, memberId, next.memberEpoch(),
                config.heartbeatIntervalMs(), fullRequest || changed ? assigned : null);
    }

    private static boolean isEmpty(ClassicGroup classic) {
        return classic.is(GroupState.EMPTY) && classic.members.isEmpty() && classic.pendingJoinMembers.isEmpty();
    }

    private void throwIfFull(ConsumerGroup group, String memberId, String instanceId) {
        if (group.members.size() >= config.maxSize() && group.member(memberId) == null && group.staticMember(instanceId) == null) {
            throw new GroupException(ErrorCode.GROUP_MAX_SIZE_REACHED, "The consumer group has reached its maximum capacity of "
                    + config.maxSize() + " members.");
        }
    }

    /** Kafka 4.4: epoch 0 rejoins; a newer epoch, or an older one other than a lost bump's, is fenced. */
    private static void throwIfEpochInvalid(ConsumerGroupMember member, ConsumerGroupHeartbeatRequest req) {
        int received = req.memberEpoch();
        if (received == 0) {
            return;
        }
        if (received > member.memberEpoch()) {
            throw new GroupException(ErrorCode.FENCED_MEMBER_EPOCH, "The consumer group member has a greater member epoch ("
                    + received + ") than the one known by the group coordinator (" + member.memberEpoch()
                    + "). The member must abandon all its partitions and rejoin.");
        }
        if (received < member.memberEpoch()
                && (received != member.previousMemberEpoch() || !isSubset(req.ownedPartitions(), member.assignedPartitions()))) {
            // The previous epoch is accepted when the response that bumped it may have been lost.
            throw new GroupException(ErrorCode.FENCED_MEMBER_EPOCH, "The consumer group member has a smaller member epoch ("
                    + received + ") than the one known by the group coordinator (" + member.memberEpoch()
                    + "). The member must abandon all its partitions and rejoin.");
        }
    }

    private static boolean isSubset(Map<UUID, List<Integer>> owned, Map<UUID, Set<Integer>> assigned) {
        if (owned == null) {
            return false;
        }
        for (Map.Entry<UUID, List<Integer>> e : owned.entrySet()) {
            Set<Integer> mine = assigned.get(e.getKey());
            if (mine == null || !mine.containsAll(e.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** The member's subscription with what this heartbeat changed; names are kept sorted so order is no change. */
    private static ConsumerMemberSubscription updated(ConsumerMemberSubscription old, ConsumerGroupHeartbeatRequest req) {
        List<String> names = req.subscribedTopicNames() == null ? old.subscribedTopicNames()
                : List.copyOf(new TreeSet<>(req.subscribedTopicNames()));
        String regex = req.subscribedTopicRegex() == null ? old.subscribedTopicRegex()
                : req.subscribedTopicRegex().isEmpty() ? null : req.subscribedTopicRegex();
        return new ConsumerMemberSubscription(
                req.instanceId() != null ? req.instanceId() : old.instanceId(),
                req.rackId() != null ? req.rackId() : old.rackId(),
                req.clientId(), req.clientHost(), names, regex,
                req.rebalanceTimeoutMs() != -1 ? req.rebalanceTimeoutMs() : old.rebalanceTimeoutMs(),
                req.serverAssignor() != null ? req.serverAssignor() : old.serverAssignor());
    }

    /** Every member's subscription, in join order, without the member being replaced. */
    private static Map<String, ConsumerMemberSubscription> subscriptionsOf(ConsumerGroup group, String without) {
        Map<String, ConsumerMemberSubscription> out = new LinkedHashMap<>();
        group.members.forEach((id, m) -> {
            if (!id.equals(without)) {
                out.put(id, m.subscription);
            }
        });
        return out;
    }

    /** The assignor most members ask for (ties: the first by name), or the default when none asks. */
    private String preferredAssignor(Collection<ConsumerMemberSubscription> subscriptions) {
        Map<String, Integer> votes = new TreeMap<>();
        subscriptions.forEach(s -> {
            if (s.serverAssignor() != null) {
                votes.merge(s.serverAssignor(), 1, Integer::sum);
            }
        });
        String best = defaultAssignor();
        int most = 0;
        for (Map.Entry<String, Integer> e : votes.entrySet()) {
            if (e.getValue() > most) {
                best = e.getKey();
                most = e.getValue();
            }
        }
        return best;
    }

    /**
     * The existing topics any of these subscriptions (by member id) covers, by name; a regex covers only
     * the topics its member may DESCRIBE.
     */
    private Map<String, TopicCatalog.Topic> subscribedTopics(Map<String, ConsumerMemberSubscription> subscriptions,
            Function<String, Predicate<String>> describableOf) {
        Map<String, TopicCatalog.Topic> out = new TreeMap<>();
        // Each regex with the distinct authorizations of its members (null, every topic, when no authorizer).
        Map<String, Set<Predicate<String>>> regexes = new TreeMap<>();
        for (Map.Entry<String, ConsumerMemberSubscription> member : subscriptions.entrySet()) {
            ConsumerMemberSubscription s = member.getValue();
            for (String name : s.subscribedTopicNames()) {
                if (!out.containsKey(name)) {
                    TopicCatalog.Topic t = topics.topic(name);
                    if (t != null) {
                        out.put(name, t);
                    }
                }
            }
            if (s.subscribedTopicRegex() != null) {
                regexes.computeIfAbsent(s.subscribedTopicRegex(), r -> new HashSet<>()).add(describableOf.apply(member.getKey()));
            }
        }
        if (!regexes.isEmpty()) {
            for (String name : topics.topicNames()) {
                if (!out.containsKey(name) && regexes.entrySet().stream().anyMatch(r -> matches(r.getKey(), name)
                        && r.getValue().stream().anyMatch(d -> d == null || d.test(name)))) {
                    TopicCatalog.Topic t = topics.topic(name);
                    if (t != null) {
                        out.put(name, t);
                    }
                }
            }
        }
        return out;
    }

    /** The topic ids one subscription covers; its regex only those its member may DESCRIBE (null: all). */
    private Set<UUID> topicIdsOf(ConsumerMemberSubscription s, Map<String, TopicCatalog.Topic> subscribed,
            Predicate<String> describable) {
        Set<UUID> ids = new TreeSet<>();
        for (String name : s.subscribedTopicNames()) {
            TopicCatalog.Topic t = subscribed.get(name);
            if (t != null) {
                ids.add(t.id());
            }
        }
        if (s.subscribedTopicRegex() != null) {
            subscribed.forEach((name, t) -> {
                if (matches(s.subscribedTopicRegex(), name) && (describable == null || describable.test(name))) {
                    ids.add(t.id());
                }
            });
        }
        return ids;
    }

    /** The existing topics a regex resolves to for a member that may DESCRIBE {@code describable} (null: all). */
    private Set<String> regexTopics(String regex, Predicate<String> describable) {
        Set<String> out = new TreeSet<>();
        for (String name : topics.topicNames()) {
            if (matches(regex, name) && (describable == null || describable.test(name))) {
                out.add(name);
            }
        }
        return out;
    }

    /** What a stored member may DESCRIBE, as of its last heartbeat (null: every topic). */
    private static Predicate<String> describableTopics(ConsumerGroup group, String memberId) {
        ConsumerGroupMember m = group.member(memberId);
        return m == null ? null : m.describableTopics;
    }

    /**
     * Whether the regex matches the whole topic name. A stored regex Java cannot compile (one Kafka's RE2/J
     * accepted) matches nothing rather than failing every heartbeat of the group.
     */
    private boolean matches(String regex, String topic) {
        try {
            return pattern(regex).matcher(topic).matches();
        } catch (GroupException e) {
            return false;
        }
    }

    private Pattern pattern(String regex) {
        Pattern p = patterns.get(regex);
        if (p == null) {
            try {
                p = Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw new GroupException(ErrorCode.INVALID_REGULAR_EXPRESSION, "SubscribedTopicRegex `" + regex
                        + "` is not a valid regular expression: " + e.getDescription() + ".");
            }
            if (patterns.size() > 1000) {
                patterns.clear(); // a bound, not a cache policy: regexes are few in practice
            }
            patterns.put(regex, p);
        }
        return p;
    }

    /** A hash of the subscribed topics' names, ids and partition counts: when it changes, the group rebalances. */
    private static long hash(Map<String, TopicCatalog.Topic> subscribed) {
        if (subscribed.isEmpty()) {
            return 0;
        }
        long h = 0xcbf29ce484222325L; // FNV-1a, 64 bits
        for (TopicCatalog.Topic t : subscribed.values()) {
            ByteBuffer buf = ByteBuffer.allocate(20);
            buf.putLong(t.id().getMostSignificantBits()).putLong(t.id().getLeastSignificantBits()).putInt(t.partitions());
            for (byte b : t.name().getBytes(StandardCharsets.UTF_8)) {
                h = (h ^ (b & 0xff)) * 0x100000001b3L;
            }
            for (byte b : buf.array()) {
                h = (h ^ (b & 0xff)) * 0x100000001b3L;
            }
        }
        return h == 0 ? 1 : h;
    }

    private Map<String, Map<UUID, Set<Integer>>> computeTarget(ConsumerGroup group,
            Map<String, ConsumerMemberSubscription> subscriptions, Map<String, TopicCatalog.Topic> subscribed,
            Function<String, Predicate<String>> describableOf, String assignorName, String memberId, String replaced) {
        Map<UUID, Integer> partitionCounts = new HashMap<>();
        subscribed.values().forEach(t -> partitionCounts.put(t.id(), t.partitions()));
        Map<String, AssignmentSpec.Member> members = new LinkedHashMap<>();
        subscriptions.forEach((id, s) -> {
            Map<UUID, Set<Integer>> current = id.equals(memberId) && replaced != null ? group.target(replaced) : group.target(id);
            members.put(id, new AssignmentSpec.Member(s.instanceId(), topicIdsOf(s, subscribed, describableOf.apply(id)), current));
        });
        Map<String, Map<UUID, Set<Integer>>> result = assignors.get(assignorName)
                .assign(new AssignmentSpec(members, partitionCounts));
        Map<String, Map<UUID, Set<Integer>>> out = new TreeMap<>();
        members.keySet().forEach(id -> out.put(id, result.getOrDefault(id, Map.of())));
        return out;
    }

    private static String describe(ConsumerMemberSubscription s) {
        return s.subscribedTopicNames() + (s.subscribedTopicRegex() == null ? "" : " and /" + s.subscribedTopicRegex() + "/");
    }

    /** A member id as Kafka's v0 coordinator makes one: a random UUID in Kafka's base64 form. */
    private static String newMemberId() {
        UUID u = UUID.randomUUID();
        ByteBuffer b = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
    }

    // ------------------------------------------------------------------ leaving and fencing

    private ConsumerGroupHeartbeatResult leave(ConsumerGroupHeartbeatRequest req) {
        String groupId = req.groupId();
        ConsumerGroup group = groups.get(groupId);
        if (group == null) {
            throw new GroupException(ErrorCode.GROUP_ID_NOT_FOUND, classicGroups.containsKey(groupId)
                    ? "Group " + groupId + " is not a consumer group." : "Consumer group " + groupId + " not found.");
        }
        String memberId = req.memberId();
        if (req.instanceId() == null) {
            ConsumerGroupMember member = group.member(memberId);
            if (member == null) {
                throw new GroupException(ErrorCode.UNKNOWN_MEMBER_ID, "Member " + memberId + " is not a member of group " + groupId + ".");
            }
            fence(group, member, "it left the group", null);
        } else {
            ConsumerGroupMember member = group.staticMember(req.instanceId());
            if (member == null) {
                throw new GroupException(ErrorCode.UNKNOWN_MEMBER_ID, "Instance id " + req.instanceId() + " is unknown.");
            }
            if (!member.memberId.equals(memberId)) {
                throw new GroupException(ErrorCode.FENCED_INSTANCE_ID, "Static member " + memberId + " with instance id "
                        + req.instanceId() + " was fenced by member " + member.memberId + ".");
            }
            if (req.memberEpoch() == ConsumerGroupHeartbeatRequest.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
                // It keeps its place and partitions until its session times out: it is expected back.
                ConsumerMemberAssignment a = member.assignment;
                writer.write(List.of(new OffsetsRecord.ConsumerCurrentAssignment(groupId, memberId, new ConsumerMemberAssignment(
                        ConsumerGroupHeartbeatRequest.LEAVE_GROUP_STATIC_MEMBER_EPOCH, a.previousMemberEpoch(), a.state(),
                        a.assignedPartitions(), Map.of()))), error -> {
                            if (error == ErrorCode.NONE) {
                                member.cancelRebalanceTimer();
                                LOG.log(System.Logger.Level.INFO, "static member " + member + " of consumer group " + groupId + " left for now");
                            }
                        });
            } else {
                fence(group, member, "it left the group", null);
            }
        }
        return new ConsumerGroupHeartbeatResult(ErrorCode.NONE, null, memberId, req.memberEpoch(), 0, null);
    }

    /**
     * Removes the member and bumps the group epoch, so the others are reassigned its partitions.
     *
     * @param onFailure what to do when the write fails (null: the request's answer is the error)
     */
    private void fence(ConsumerGroup group, ConsumerGroupMember member, String reason, Runnable onFailure) {
        String groupId = group.groupId;
        List<OffsetsRecord> records = new ArrayList<>(removalRecords(groupId, member.memberId));
        Map<String, ConsumerMemberSubscription> rest = subscriptionsOf(group, member.memberId);
        int epoch = group.groupEpoch + 1;
        Map<String, TopicCatalog.Topic> subscribed = subscribedTopics(rest, id -> describableTopics(group, id));
        records.add(new OffsetsRecord.ConsumerGroupMetadata(groupId, new ConsumerGroupEpoch(epoch, hash(subscribed))));
        writer.write(records, error -> {
            if (error == ErrorCode.NONE) {
                LOG.log(System.Logger.Level.INFO, "member " + member + " removed from consumer group " + groupId + " because "
                        + reason + "; group epoch is now " + epoch);
            } else if (onFailure != null) {
                LOG.log(System.Logger.Level.WARNING, "failed to fence member " + member.memberId + " of consumer group "
                        + groupId + " (" + reason + "): " + error);
                onFailure.run();
            }
        });
    }

    /** The tombstones that remove a member, in Kafka's order. */
    private static List<OffsetsRecord> removalRecords(String groupId, String memberId) {
        return List.of(new OffsetsRecord.ConsumerCurrentAssignment(groupId, memberId, null),
                new OffsetsRecord.ConsumerTargetAssignmentMember(groupId, memberId, null),
                new OffsetsRecord.ConsumerMemberMetadata(groupId, memberId, null));
    }

    private void scheduleSessionTimeout(String groupId, ConsumerGroupMember member) {
        if (member.sessionTimer != null) {
            member.sessionTimer.cancel();
        }
        String memberId = member.memberId;
        member.sessionTimer = scheduler.schedule(config.sessionTimeoutMs(), () -> {
            ConsumerGroup group = groups.get(groupId);
            ConsumerGroupMember m = group == null ? null : group.member(memberId);
            if (m == null) {
                return;
            }
            m.sessionTimer = null;
            // Retried after another session timeout if the write fails.
            fence(group, m, "its session timed out", () -> scheduleSessionTimeout(groupId, m));
        });
    }

    /** A member still revoking at the same epoch after its rebalance timeout is fenced. */
    private void scheduleRebalanceTimeout(String groupId, ConsumerGroupMember member) {
        member.cancelRebalanceTimer();
        String memberId = member.memberId;
        int epoch = member.memberEpoch();
        int timeoutMs = member.subscription.rebalanceTimeoutMs() > 0 ? member.subscription.rebalanceTimeoutMs()
                : config.sessionTimeoutMs();
        member.rebalanceTimer = scheduler.schedule(timeoutMs, () -> {
            ConsumerGroup group = groups.get(groupId);
            ConsumerGroupMember m = group == null ? null : group.member(memberId);
            if (m == null || m.memberEpoch() != epoch) {
                return;
            }
            m.rebalanceTimer = null;
            fence(group, m, "it did not revoke its partitions within " + timeoutMs + " ms", () -> { });
        });
    }

    // ------------------------------------------------------------------ loading and replay

    /** Applies one consumer group record: on load, and after every write. */
    void replay(OffsetsRecord record) {
        String groupId = record.groupId();
        if (record instanceof OffsetsRecord.ConsumerGroupMetadata r) {
            if (r.value() != null) {
                ConsumerGroup g = getOrCreate(groupId);
                g.groupEpoch = r.value().epoch();
                g.metadataHash = r.value().metadataHash();
            } else {
                ConsumerGroup g = groups.remove(groupId);
                if (g != null) {
                    g.members.values().forEach(ConsumerGroupMember::cancelTimers);
                    if (!g.offsets.isEmpty()) {
                        // Offsets outlive the group (it became a classic one, or its members are gone).
                        ClassicGroup simple = new ClassicGroup(groupId, scheduler.nowMs());
                        simple.offsets.putAll(g.offsets);
                        classicGroups.put(groupId, simple);
                    }
                }
            }
        } else if (record instanceof OffsetsRecord.ConsumerMemberMetadata r) {
            if (r.value() != null) {
                getOrCreate(groupId).updateSubscription(r.memberId(), r.value());
            } else if (groups.containsKey(groupId)) {
                ConsumerGroupMember m = groups.get(groupId).removeMember(r.memberId());
                if (m != null) {
                    m.cancelTimers();
                }
            }
        } else if (record instanceof OffsetsRecord.ConsumerTargetAssignmentMetadata r) {
            if (r.assignmentEpoch() != null) {
                getOrCreate(groupId).assignmentEpoch = r.assignmentEpoch();
            }
        } else if (record instanceof OffsetsRecord.ConsumerTargetAssignmentMember r) {
            if (r.partitions() != null) {
                Map<UUID, Set<Integer>> copy = new TreeMap<>();
                r.partitions().forEach((t, p) -> copy.put(t, Set.copyOf(new TreeSet<>(p))));
                getOrCreate(groupId).targetAssignment.put(r.memberId(), copy);
            } else if (groups.containsKey(groupId)) {
                groups.get(groupId).targetAssignment.remove(r.memberId());
            }
        } else if (record instanceof OffsetsRecord.ConsumerCurrentAssignment r) {
            if (r.value() != null) {
                getOrCreate(groupId).updateAssignment(r.memberId(), r.value());
            } else if (groups.containsKey(groupId) && groups.get(groupId).member(r.memberId()) != null) {
                groups.get(groupId).updateAssignment(r.memberId(), ConsumerMemberAssignment.INITIAL);
            }
        }
    }

    /** The group a record belongs to; a new one takes over the offsets of an empty classic group of that id. */
    private ConsumerGroup getOrCreate(String groupId) {
        ConsumerGroup g = groups.get(groupId);
        if (g == null) {
            g = new ConsumerGroup(groupId);
            ClassicGroup classic = classicGroups.remove(groupId);
            if (classic != null) {
                g.offsets.putAll(classic.offsets);
            }
            groups.put(groupId, g);
        }
        return g;
    }

    /** After load: every member gets a fresh session, and one still revoking its rebalance timeout. */
    void onLoaded() {
        for (ConsumerGroup g : groups.values()) {
            for (ConsumerGroupMember m : g.members.values()) {
                scheduleSessionTimeout(g.groupId, m);
                if (m.state() == MemberState.UNREVOKED_PARTITIONS) {
                    scheduleRebalanceTimeout(g.groupId, m);
                }
            }
        }
    }

    void close() {
        groups.values().forEach(g -> g.members.values().forEach(ConsumerGroupMember::cancelTimers));
        groups.clear();
    }

    // ------------------------------------------------------------------ offsets

    /**
     * Who may commit to a consumer group (Kafka 4.4): anyone with a negative epoch while it is empty (admin,
     * assign()); otherwise a member at its current epoch, or at an older epoch for partitions it already
     * held then. A newer epoch is STALE_MEMBER_EPOCH. Returns the per-partition check.
     *
     * @throws GroupException with the error for every partition
     */
    Function<TopicPartition, ErrorCode> validateOffsetCommit(ConsumerGroup group, String memberId, int epoch, short apiVersion) {
        if (epoch < 0 && group.isEmpty()) {
            return tp -> ErrorCode.NONE;
        }
        ConsumerGroupMember member = group.member(memberId);
        if (member == null) {
            throw new GroupException(ErrorCode.UNKNOWN_MEMBER_ID, "Member " + memberId + " is not a member of group " + group.groupId + ".");
        }
        if (apiVersion < 9) {
            throw new GroupException(ErrorCode.UNSUPPORTED_VERSION,
                    "OffsetCommit version 9 or above must be used by members using the consumer group protocol");
        }
        if (epoch == member.memberEpoch()) {
            return tp -> ErrorCode.NONE;
        }
        if (epoch > member.memberEpoch()) {
            throw new GroupException(ErrorCode.STALE_MEMBER_EPOCH, "Received member epoch " + epoch
                    + " is newer than current member epoch " + member.memberEpoch() + ".");
        }
        ConsumerMemberAssignment a = member.assignment;
        return tp -> {
            TopicCatalog.Topic t = topics.topic(tp.topic());
            Integer assignedAt = null;
            if (t != null) {
                assignedAt = a.assignedPartitions().getOrDefault(t.id(), Map.of()).get(tp.partition());
                if (assignedAt == null) {
                    assignedAt = a.partitionsPendingRevocation().getOrDefault(t.id(), Map.of()).get(tp.partition());
                }
            }
            return assignedAt == null || epoch < assignedAt ? ErrorCode.STALE_MEMBER_EPOCH : ErrorCode.NONE;
        };
    }

    /** OffsetFetch v9+ from a member: it must be one, at its current epoch; null id and -1 is anyone. */
    static ErrorCode validateOffsetFetch(ConsumerGroup group, String memberId, int epoch) {
        if (memberId == null && epoch < 0) {
            return ErrorCode.NONE;
        }
        ConsumerGroupMember member = memberId == null ? null : group.member(memberId);
        if (member == null) {
            return ErrorCode.UNKNOWN_MEMBER_ID;
        }
        return epoch == member.memberEpoch() ? ErrorCode.NONE : ErrorCode.STALE_MEMBER_EPOCH;
    }

    /**
     * Whether some member subscribes to the topic, by name or by a regex resolving to it (only topics the
     * member may DESCRIBE): its offsets neither expire nor may be deleted.
     */
    boolean isSubscribedToTopic(ConsumerGroup group, String topic) {
        for (ConsumerGroupMember m : group.members.values()) {
            if (m.subscription.subscribedTopicNames().contains(topic)) {
                return true;
            }
            String regex = m.subscription.subscribedTopicRegex();
            if (regex != null && matches(regex, topic) && (m.describableTopics == null || m.describableTopics.test(topic))) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ administration

    /** The records that delete an empty group (its offsets' tombstones come first, from the caller). */
    static List<OffsetsRecord> deletionRecords(ConsumerGroup group) {
        List<OffsetsRecord> out = new ArrayList<>();
        for (String memberId : group.members.keySet()) {
            out.addAll(removalRecords(group.groupId, memberId));
        }
        out.add(new OffsetsRecord.ConsumerTargetAssignmentMetadata(group.groupId, null));
        out.add(new OffsetsRecord.ConsumerGroupMetadata(group.groupId, null));
        return out;
    }

    /** The tombstones that turn an empty consumer group back into a classic one on JoinGroup; offsets stay. */
    List<OffsetsRecord> conversionToClassicRecords(ConsumerGroup group) {
        LOG.log(System.Logger.Level.INFO, "converting empty consumer group " + group.groupId + " to a classic group");
        return deletionRecords(group);
    }

    List<GroupOverview> listGroups(Set<String> statesFilter, Set<String> typesFilter) {
        List<GroupOverview> out = new ArrayList<>();
        if (!typesFilter.isEmpty() && !typesFilter.contains("consumer")) {
            return out;
        }
        for (ConsumerGroup g : groups.values()) {
            ConsumerGroupState state = g.state();
            if (statesFilter.isEmpty() || statesFilter.contains(state.lowerCaseName())) {
                out.add(new GroupOverview(g.groupId, ClassicGroup.CONSUMER_PROTOCOL_TYPE, state.kafkaName(), "consumer"));
            }
        }
        return out;
    }

    ConsumerGroupDescription describe(String groupId) {
        ConsumerGroup g = groupId == null ? null : groups.get(groupId);
        if (g == null) {
            boolean classic = groupId != null && classicGroups.containsKey(groupId);
            return ConsumerGroupDescription.error(groupId, ErrorCode.GROUP_ID_NOT_FOUND,
                    "Group " + groupId + (classic ? " is not a consumer group." : " not found."));
        }
        List<ConsumerGroupDescription.Member> members = new ArrayList<>();
        for (ConsumerGroupMember m : g.members.values()) {
            ConsumerMemberSubscription s = m.subscription;
            members.add(new ConsumerGroupDescription.Member(m.memberId, s.instanceId(), s.rackId(), m.memberEpoch(),
                    s.clientId(), s.clientHost(), s.subscribedTopicNames(), s.subscribedTopicRegex(),
                    m.assignedPartitions(), new TreeMap<>(g.target(m.memberId))));
        }
        List<ConsumerMemberSubscription> subscriptions = new ArrayList<>();
        g.members.values().forEach(m -> subscriptions.add(m.subscription));
        return new ConsumerGroupDescription(groupId, ErrorCode.NONE, null, g.state().kafkaName(), g.groupEpoch,
                g.assignmentEpoch, preferredAssignor(subscriptions), members);
    }

    @Override
    public String toString() {
        return "consumer groups of " + OffsetsTopic.NAME + "-" + partition;
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
