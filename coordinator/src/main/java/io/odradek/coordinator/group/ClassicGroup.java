package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.StoredGroup;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.runtime.Scheduler;
import io.odradek.wire.ErrorCode;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * One classic group: its state, generation, members and committed offsets. It keeps the bookkeeping
 * (who has rejoined, who is pending, which protocols all members share); the protocol itself — when to
 * rebalance, what to answer — lives in {@link GroupShard}. Confined to its coordinator partition's thread.
 */
final class ClassicGroup {
    static final String CONSUMER_PROTOCOL_TYPE = "consumer";

    final String groupId;
    GroupState state = GroupState.EMPTY;
    GroupState previousState;
    long currentStateTimestamp;
    int generationId;
    /** null until a member joins (and for simple groups, which only commit offsets). */
    String protocolType;
    String protocolName;
    String leaderId;
    /** Insertion order: when the leader leaves, the oldest member takes over, as in Kafka. */
    final LinkedHashMap<String, GroupMember> members = new LinkedHashMap<>();
    final Map<String, String> staticMembers = new HashMap<>();
    /** Member ids handed out with MEMBER_ID_REQUIRED that have not joined with them yet, and their expiry. */
    final Map<String, Scheduler.Timer> pendingJoinMembers = new LinkedHashMap<>();
    final Set<String> pendingSyncMembers = new LinkedHashSet<>();
    private final Map<String, Integer> supportedProtocols = new HashMap<>();
    private int numAwaitingJoin;
    /** A member joined during the initial rebalance delay: extend it once more. */
    boolean newMemberAdded;
    /** Topics the members subscribe to (consumer protocol), or null when unknown. */
    Set<String> subscribedTopics;
    final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    Scheduler.Timer joinTimer;
    Scheduler.Timer syncTimer;
    /** When the current rebalance began, for the log line reporting how long it took. */
    long rebalanceStartMs = -1;

    ClassicGroup(String groupId, long nowMs) {
        this.groupId = groupId;
        this.currentStateTimestamp = nowMs;
    }

    boolean is(GroupState s) {
        return state == s;
    }

    void transitionTo(GroupState next, long nowMs) {
        if (!next.validPrevious().contains(state)) {
            throw new IllegalStateException("group " + groupId + " cannot go from " + state + " to " + next);
        }
        previousState = state;
        state = next;
        currentStateTimestamp = nowMs;
    }

    boolean canRebalance() {
        return GroupState.PREPARING_REBALANCE.validPrevious().contains(state);
    }

    GroupMember member(String memberId) {
        return members.get(memberId);
    }

    boolean has(String memberId) {
        return members.containsKey(memberId);
    }

    boolean isLeader(String memberId) {
        return memberId.equals(leaderId);
    }

    boolean isPending(String memberId) {
        return pendingJoinMembers.containsKey(memberId);
    }

    String staticMemberId(String groupInstanceId) {
        return staticMembers.get(groupInstanceId);
    }

    boolean usesConsumerProtocol() {
        return CONSUMER_PROTOCOL_TYPE.equals(protocolType);
    }

    void add(GroupMember member, CompletableFuture<JoinGroupResult> joinFuture) {
        if (member.groupInstanceId != null) {
            if (staticMembers.containsKey(member.groupInstanceId)) {
                throw new IllegalStateException("static member " + member.groupInstanceId + " is already in " + groupId);
            }
            staticMembers.put(member.groupInstanceId, member.memberId);
        }
        if (members.isEmpty()) {
            protocolType = member.protocolType;
        }
        if (leaderId == null) {
            leaderId = member.memberId;
        }
        members.put(member.memberId, member);
        countProtocols(member, 1);
        member.joinFuture = joinFuture;
        if (joinFuture != null) {
            numAwaitingJoin++;
        }
        Scheduler.Timer pending = pendingJoinMembers.remove(member.memberId);
        if (pending != null) {
            pending.cancel();
        }
    }

    /** Removes a member or a pending member id; the caller completes its parked futures first. */
    void remove(String memberId) {
        GroupMember removed = members.remove(memberId);
        if (removed != null) {
            countProtocols(removed, -1);
            if (removed.isAwaitingJoin()) {
                numAwaitingJoin--;
            }
            if (removed.groupInstanceId != null) {
                staticMembers.remove(removed.groupInstanceId);
            }
            if (removed.heartbeatTimer != null) {
                removed.heartbeatTimer.cancel();
                removed.heartbeatTimer = null;
            }
        }
        if (isLeader(memberId)) {
            Iterator<String> next = members.keySet().iterator();
            leaderId = next.hasNext() ? next.next() : null;
        }
        Scheduler.Timer pending = pendingJoinMembers.remove(memberId);
        if (pending != null) {
            pending.cancel();
        }
        pendingSyncMembers.remove(memberId);
    }

    /** Replaces a static member's id by a new one, keeping its assignment; fences the old id's parked requests. */
    GroupMember replaceStaticMember(String groupInstanceId, String oldMemberId, String newMemberId) {
        GroupMember old = members.remove(oldMemberId);
        if (old == null) {
            throw new IllegalArgumentException("no member " + oldMemberId + " to replace in " + groupId);
        }
        completeJoin(old, JoinGroupResult.error(oldMemberId, ErrorCode.FENCED_INSTANCE_ID));
        completeSync(old, SyncGroupResult.error(ErrorCode.FENCED_INSTANCE_ID));
        if (old.heartbeatTimer != null) {
            old.heartbeatTimer.cancel();
        }
        GroupMember replacement = new GroupMember(newMemberId, old.groupInstanceId, old.clientId, old.clientHost,
                old.rebalanceTimeoutMs, old.sessionTimeoutMs, old.protocolType, old.protocols);
        replacement.assignment = old.assignment;
        members.put(newMemberId, replacement);
        if (isLeader(oldMemberId)) {
            leaderId = newMemberId;
        }
        if (pendingSyncMembers.remove(oldMemberId)) {
            pendingSyncMembers.add(newMemberId);
        }
        staticMembers.put(groupInstanceId, newMemberId);
        return replacement;
    }

    /** New protocols and timeouts from a rejoin; a non-null future parks the member's JoinGroup. */
    void updateMember(GroupMember member, List<Protocol> protocols, int rebalanceTimeoutMs, int sessionTimeoutMs,
            CompletableFuture<JoinGroupResult> joinFuture) {
        countProtocols(member, -1);
        member.protocols = List.copyOf(protocols);
        countProtocols(member, 1);
        member.rebalanceTimeoutMs = rebalanceTimeoutMs;
        member.sessionTimeoutMs = sessionTimeoutMs;
        if (member.joinFuture != null && joinFuture != null) {
            // A second JoinGroup while one is parked (a retry on a new connection): answer the old one
            // so its connection's later responses are not held up behind it.
            member.joinFuture.complete(JoinGroupResult.error(member.memberId, ErrorCode.REBALANCE_IN_PROGRESS));
        } else if (joinFuture != null) {
            numAwaitingJoin++;
        } else if (member.joinFuture != null) {
            numAwaitingJoin--;
        }
        member.joinFuture = joinFuture;
    }

    boolean completeJoin(GroupMember member, JoinGroupResult result) {
        if (member.joinFuture == null) {
            return false;
        }
        CompletableFuture<JoinGroupResult> f = member.joinFuture;
        member.joinFuture = null;
        numAwaitingJoin--;
        f.complete(result);
        return true;
    }

    boolean completeSync(GroupMember member, SyncGroupResult result) {
        if (member.syncFuture == null) {
            return false;
        }
        CompletableFuture<SyncGroupResult> f = member.syncFuture;
        member.syncFuture = null;
        f.complete(result);
        return true;
    }

    private void countProtocols(GroupMember member, int delta) {
        for (Protocol p : member.protocols) {
            supportedProtocols.merge(p.name(), delta, Integer::sum);
        }
    }

    int numAwaitingJoin() {
        return numAwaitingJoin;
    }

    boolean hasAllMembersJoined() {
        return members.size() == numAwaitingJoin && pendingJoinMembers.isEmpty();
    }

    List<GroupMember> notYetRejoined() {
        List<GroupMember> out = new ArrayList<>();
        for (GroupMember m : members.values()) {
            if (!m.isAwaitingJoin()) {
                out.add(m);
            }
        }
        return out;
    }

    /** The longest rebalance timeout among members: how long a join phase may wait. */
    int rebalanceTimeoutMs() {
        int max = 0;
        for (GroupMember m : members.values()) {
            max = Math.max(max, m.rebalanceTimeoutMs);
        }
        return max;
    }

    /** Keeps the leader if it rejoined, else picks a member that did; false when none did. */
    boolean maybeElectNewJoinedLeader() {
        if (leaderId == null) {
            return false;
        }
        GroupMember leader = members.get(leaderId);
        if (leader != null && leader.isAwaitingJoin()) {
            return true;
        }
        for (GroupMember m : members.values()) {
            if (m.isAwaitingJoin()) {
                leaderId = m.memberId;
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a member with these protocols may join: an empty group takes any non-empty protocol type
     * and list; otherwise the type must match and one protocol must be supported by every member.
     */
    boolean supportsProtocols(String memberProtocolType, List<String> memberProtocols) {
        if (is(GroupState.EMPTY)) {
            return memberProtocolType != null && !memberProtocolType.isEmpty() && !memberProtocols.isEmpty();
        }
        if (protocolType == null || !protocolType.equals(memberProtocolType)) {
            return false;
        }
        for (String name : memberProtocols) {
            if (supportedProtocols.getOrDefault(name, 0) == members.size()) {
                return true;
            }
        }
        return false;
    }

    /** The protocol supported by all members that most members prefer (a vote, as in Kafka). */
    String selectProtocol() {
        if (members.isEmpty()) {
            throw new IllegalStateException("cannot select a protocol for empty group " + groupId);
        }
        Set<String> candidates = new HashSet<>();
        supportedProtocols.forEach((name, count) -> {
            if (count == members.size()) {
                candidates.add(name);
            }
        });
        Map<String, Integer> votes = new LinkedHashMap<>();
        for (GroupMember m : members.values()) {
            votes.merge(m.vote(candidates), 1, Integer::sum);
        }
        String best = null;
        int most = -1;
        for (Map.Entry<String, Integer> e : votes.entrySet()) {
            if (e.getValue() > most) {
                best = e.getKey();
                most = e.getValue();
            }
        }
        return best;
    }

    /** Starts the next generation: CompletingRebalance with a protocol, or Empty when no member is left. */
    void initNextGeneration(long nowMs) {
        generationId++;
        if (!members.isEmpty()) {
            protocolName = selectProtocol();
            subscribedTopics = computeSubscribedTopics();
            transitionTo(GroupState.COMPLETING_REBALANCE, nowMs);
        } else {
            protocolName = null;
            subscribedTopics = computeSubscribedTopics();
            transitionTo(GroupState.EMPTY, nowMs);
        }
        pendingSyncMembers.clear();
    }

    /** Every member with its metadata for the selected protocol: what the leader assigns from. */
    List<JoinGroupResult.Member> currentMembers() {
        List<JoinGroupResult.Member> out = new ArrayList<>(members.size());
        for (GroupMember m : members.values()) {
            out.add(new JoinGroupResult.Member(m.memberId, m.groupInstanceId, m.metadata(protocolName)));
        }
        return out;
    }

    /**
     * UNKNOWN_MEMBER_ID for an id not in the group, FENCED_INSTANCE_ID when the instance id now belongs
     * to another member id; NONE otherwise.
     */
    ErrorCode validateMember(String memberId, String groupInstanceId) {
        if (groupInstanceId != null) {
            String current = staticMembers.get(groupInstanceId);
            if (current == null) {
                return ErrorCode.UNKNOWN_MEMBER_ID;
            }
            if (!current.equals(memberId)) {
                return ErrorCode.FENCED_INSTANCE_ID;
            }
        }
        return has(memberId) ? ErrorCode.NONE : ErrorCode.UNKNOWN_MEMBER_ID;
    }

    /** Kafka's rules for who may commit offsets to this group, in which state. */
    ErrorCode validateOffsetCommit(String memberId, String groupInstanceId, int generation) {
        if (is(GroupState.DEAD)) {
            return ErrorCode.COORDINATOR_NOT_AVAILABLE;
        }
        if (generation < 0 && is(GroupState.EMPTY)) {
            return ErrorCode.NONE; // outside group management (assign(), admin), while no member holds partitions
        }
        if (generation >= 0 || !memberId.isEmpty() || groupInstanceId != null) {
            ErrorCode e = validateMember(memberId, groupInstanceId);
            if (e != ErrorCode.NONE) {
                return e;
            }
            if (generation != generationId) {
                return ErrorCode.ILLEGAL_GENERATION;
            }
        } else if (!is(GroupState.EMPTY)) {
            return ErrorCode.UNKNOWN_MEMBER_ID;
        }
        if (is(GroupState.COMPLETING_REBALANCE)) {
            // The member has the new generation from its JoinGroup but not yet its assignment.
            return ErrorCode.REBALANCE_IN_PROGRESS;
        }
        return ErrorCode.NONE;
    }

    /**
     * A TxnOffsetCommit's check (Kafka's validateOffsetCommit for a transactional commit): as an
     * OffsetCommit's, except that commits without member information (v0-2) are taken whatever the state,
     * and a group completing its rebalance takes them too.
     */
    ErrorCode validateTxnOffsetCommit(String memberId, String groupInstanceId, int generation) {
        if (is(GroupState.DEAD)) {
            return ErrorCode.COORDINATOR_NOT_AVAILABLE;
        }
        if (generation < 0 && is(GroupState.EMPTY)) {
            return ErrorCode.NONE;
        }
        if (generation >= 0 || !memberId.isEmpty() || groupInstanceId != null) {
            ErrorCode e = validateMember(memberId, groupInstanceId);
            if (e != ErrorCode.NONE) {
                return e;
            }
            if (generation != generationId) {
                return ErrorCode.ILLEGAL_GENERATION;
            }
        }
        return ErrorCode.NONE;
    }

    boolean isSubscribedToTopic(String topic) {
        return subscribedTopics != null ? subscribedTopics.contains(topic) : usesConsumerProtocol();
    }

    /**
     * The union of the members' subscribed topics, parsed from the consumer protocol's subscription
     * (int16 version, then in every version an array of topic names); null when not a consumer group
     * or a subscription does not parse.
     */
    Set<String> computeSubscribedTopics() {
        if (!usesConsumerProtocol()) {
            return null;
        }
        Set<String> topics = new HashSet<>();
        if (members.isEmpty() || protocolName == null) {
            return members.isEmpty() ? topics : null;
        }
        try {
            for (GroupMember m : members.values()) {
                ByteBuffer buf = ByteBuffer.wrap(m.metadata(protocolName));
                buf.getShort();
                int count = buf.getInt();
                for (int i = 0; i < count; i++) {
                    short len = buf.getShort();
                    byte[] name = new byte[len];
                    buf.get(name);
                    topics.add(new String(name, StandardCharsets.UTF_8));
                }
            }
        } catch (BufferUnderflowException | NegativeArraySizeException e) {
            return null;
        }
        return topics;
    }

    /** The group as a group metadata record stores it, with the given assignments. */
    StoredGroup toStored(Map<String, byte[]> assignments) {
        List<StoredGroup.StoredMember> stored = new ArrayList<>(members.size());
        for (GroupMember m : members.values()) {
            byte[] assignment = assignments.getOrDefault(m.memberId, GroupMember.EMPTY_ASSIGNMENT);
            stored.add(new StoredGroup.StoredMember(m.memberId, m.groupInstanceId, m.clientId, m.clientHost,
                    m.rebalanceTimeoutMs, m.sessionTimeoutMs, m.metadata(protocolName), assignment));
        }
        return new StoredGroup(protocolType == null ? "" : protocolType, generationId, protocolName, leaderId,
                currentStateTimestamp, stored);
    }

    Map<String, byte[]> currentAssignments() {
        Map<String, byte[]> out = new HashMap<>();
        members.values().forEach(m -> out.put(m.memberId, m.assignment));
        return out;
    }

    /** Restores a group from its last metadata record: Stable with its members, or Empty. */
    static ClassicGroup fromStored(String groupId, StoredGroup stored, long nowMs) {
        ClassicGroup g = new ClassicGroup(groupId, stored.currentStateTimestamp() >= 0 ? stored.currentStateTimestamp() : nowMs);
        g.state = stored.members().isEmpty() ? GroupState.EMPTY : GroupState.STABLE;
        g.generationId = stored.generation();
        g.protocolType = stored.protocolType().isEmpty() ? null : stored.protocolType();
        g.protocolName = stored.protocol();
        for (StoredGroup.StoredMember sm : stored.members()) {
            List<Protocol> protocols = List.of(new Protocol(stored.protocol() == null ? "" : stored.protocol(),
                    sm.subscription()));
            GroupMember m = new GroupMember(sm.memberId(), sm.groupInstanceId(), sm.clientId(), sm.clientHost(),
                    sm.rebalanceTimeoutMs() > 0 ? sm.rebalanceTimeoutMs() : sm.sessionTimeoutMs(), sm.sessionTimeoutMs(),
                    g.protocolType, protocols);
            m.assignment = sm.assignment();
            g.add(m, null);
        }
        g.leaderId = stored.leader() != null && g.has(stored.leader()) ? stored.leader() : g.leaderId;
        g.subscribedTopics = g.computeSubscribedTopics();
        return g;
    }

    @Override
    public String toString() {
        return "group " + groupId + " (" + state.kafkaName() + ", generation " + generationId + ", "
                + members.size() + " members)";
    }
}
