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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The groups of one {@code __consumer_offsets} partition and Kafka's classic group protocol over them.
 * Every method runs on the partition's {@link Scheduler} thread, so a group's state changes are
 * serialised without locks; parked JoinGroup and SyncGroup requests are futures completed later from
 * here, and every delay (initial rebalance delay, rebalance timeout, session timeouts, pending syncs)
 * is a timer on that same thread.
 *
 * <p>State is changed only after the records describing it are in the log: offset commits, a leader's
 * assignment, a group emptied, deleted or with a static member replaced. Appends are synchronous on this
 * thread, so a request that follows sees the outcome.
 */
final class GroupShard {
    private static final System.Logger LOG = System.getLogger(GroupShard.class.getName());

    final int partition;
    private final GroupCoordinatorConfig config;
    private final Scheduler scheduler;
    private final OffsetsLog log;
    private final Map<String, ClassicGroup> groups = new HashMap<>();
    private volatile boolean loaded;
    private volatile boolean closed;
    private Scheduler.Timer expirationTimer;

    GroupShard(int partition, GroupCoordinatorConfig config, Scheduler scheduler, OffsetsLog log) {
        this.partition = partition;
        this.config = config;
        this.scheduler = scheduler;
        this.log = log;
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
                rescheduleHeartbeat(group, m, m.sessionTimeoutMs);
            }
        }
        scheduleExpiration();
        loaded = true;
        LOG.log(System.Logger.Level.INFO, "loaded " + OffsetsTopic.NAME + "-" + partition + ": " + groups.size()
                + " groups from " + records + " records in " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }

    private void replay(OffsetsRecord record) {
        String id = record.groupId();
        if (record instanceof OffsetsRecord.OffsetCommit c) {
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
        }
    }

    /** Stops timers; parked requests are answered so no connection waits on a closed coordinator. */
    void close() {
        closed = true;
        loaded = false;
        cancel(expirationTimer);
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

    // ------------------------------------------------------------------ JoinGroup

    void joinGroup(JoinGroupRequest req, CompletableFuture<JoinGroupResult> future) {
        String memberId = req.memberId();
        boolean unknownMember = memberId.isEmpty();
        ClassicGroup group = groups.get(req.groupId());
        if (group == null) {
            if (!unknownMember) {
                future.complete(JoinGroupResult.error(memberId, ErrorCode.UNKNOWN_MEMBER_ID));
                return;
            }
            group = new ClassicGroup(req.groupId(), now());
            groups.put(req.groupId(), group);
        }
        if (!acceptJoiningMember(group, memberId)) {
            GroupMember member = group.member(memberId);
            if (member != null) {
                group.completeJoin(member, JoinGroupResult.error(memberId, ErrorCode.GROUP_MAX_SIZE_REACHED));
            }
            group.remove(memberId);
            future.complete(JoinGroupResult.error("", ErrorCode.GROUP_MAX_SIZE_REACHED));
        } else if (unknownMember) {
            joinNewMember(req, group, future);
        } else {
            joinExistingMember(req, group, future);
        }
    }

    private boolean acceptJoiningMember(ClassicGroup group, String memberId) {
        return switch (group.state) {
            case EMPTY, DEAD -> true;
            // Counting parked joins (not members) lets the last rejoiners of an oversized group be turned away.
            case PREPARING_REBALANCE -> (group.has(memberId) && group.member(memberId).isAwaitingJoin())
                    || group.numAwaitingJoin() < config.maxGroupSize();
            case COMPLETING_REBALANCE, STABLE -> group.has(memberId) || group.members.size() < config.maxGroupSize();
        };
    }

    private void joinNewMember(JoinGroupRequest req, ClassicGroup group, CompletableFuture<JoinGroupResult> future) {
        if (group.is(GroupState.DEAD)) {
            future.complete(JoinGroupResult.error("", ErrorCode.COORDINATOR_NOT_AVAILABLE));
            return;
        }
        if (!group.supportsProtocols(req.protocolType(), protocolNames(req.protocols()))) {
            future.complete(JoinGroupResult.error("", ErrorCode.INCONSISTENT_GROUP_PROTOCOL));
            return;
        }
        String instanceId = req.groupInstanceId();
        String newMemberId = (instanceId != null ? instanceId : req.clientId()) + "-" + UUID.randomUUID();
        if (instanceId != null) {
            String existing = group.staticMemberId(instanceId);
            if (existing != null) {
                LOG.log(System.Logger.Level.INFO, "static member " + instanceId + " rejoins " + group + " as "
                        + newMemberId + ", replacing " + existing);
                updateStaticMemberThenRebalanceOrCompleteJoin(req, group, existing, newMemberId, future);
            } else {
                addMemberThenRebalanceOrCompleteJoin(req, group, newMemberId, future);
            }
        } else if (req.apiVersion() >= 4) {
            // KIP-394: hand out the id first, so a member whose JoinGroup times out rejoins as itself.
            String groupId = group.groupId;
            group.pendingJoinMembers.put(newMemberId, scheduler.schedule(req.sessionTimeoutMs(),
                    () -> expireHeartbeat(groupId, newMemberId)));
            future.complete(JoinGroupResult.error(newMemberId, ErrorCode.MEMBER_ID_REQUIRED));
        } else {
            addMemberThenRebalanceOrCompleteJoin(req, group, newMemberId, future);
        }
    }

    private void joinExistingMember(JoinGroupRequest req, ClassicGroup group, CompletableFuture<JoinGroupResult> future) {
        String memberId = req.memberId();
        if (group.is(GroupState.DEAD)) {
            future.complete(JoinGroupResult.error(memberId, ErrorCode.COORDINATOR_NOT_AVAILABLE));
            return;
        }
        if (!group.supportsProtocols(req.protocolType(), protocolNames(req.protocols()))) {
            future.complete(JoinGroupResult.error(memberId, ErrorCode.INCONSISTENT_GROUP_PROTOCOL));
            return;
        }
        if (group.isPending(memberId)) {
            if (req.groupInstanceId() != null) {
                future.complete(JoinGroupResult.error(memberId, ErrorCode.UNKNOWN_MEMBER_ID));
                return;
            }
            addMemberThenRebalanceOrCompleteJoin(req, group, memberId, future);
            return;
        }
        ErrorCode invalid = group.validateMember(memberId, req.groupInstanceId());
        if (invalid != ErrorCode.NONE) {
            future.complete(JoinGroupResult.error(memberId, invalid));
            return;
        }
        GroupMember member = group.member(memberId);
        switch (group.state) {
            case PREPARING_REBALANCE -> updateMemberThenRebalanceOrCompleteJoin(req, group, member,
                    "member " + memberId + " rejoins during PreparingRebalance", future);
            case COMPLETING_REBALANCE -> {
                if (member.matches(req.protocols())) {
                    // The member missed its JoinGroup response: send it again.
                    future.complete(new JoinGroupResult(ErrorCode.NONE, group.generationId, group.protocolType,
                            group.protocolName, group.leaderId, false, memberId,
                            group.isLeader(memberId) ? group.currentMembers() : List.of()));
                } else {
                    updateMemberThenRebalanceOrCompleteJoin(req, group, member,
                            "member " + memberId + " changed its metadata during CompletingRebalance", future);
                }
            }
            case STABLE -> {
                if (group.isLeader(memberId)) {
                    // The leader rejoins to make the group reassign (e.g. topic metadata changed).
                    updateMemberThenRebalanceOrCompleteJoin(req, group, member, "leader " + memberId + " rejoins", future);
                } else if (!member.matches(req.protocols())) {
                    updateMemberThenRebalanceOrCompleteJoin(req, group, member,
                            "member " + memberId + " changed its metadata", future);
                } else {
                    future.complete(new JoinGroupResult(ErrorCode.NONE, group.generationId, group.protocolType,
                            group.protocolName, group.leaderId, false, memberId, List.of()));
                }
            }
            default -> future.complete(JoinGroupResult.error(memberId, ErrorCode.UNKNOWN_MEMBER_ID));
        }
    }

    private void addMemberThenRebalanceOrCompleteJoin(JoinGroupRequest req, ClassicGroup group, String memberId,
            CompletableFuture<JoinGroupResult> future) {
        GroupMember member = new GroupMember(memberId, req.groupInstanceId(), req.clientId(), req.clientHost(),
                req.rebalanceTimeoutMs(), req.sessionTimeoutMs(), req.protocolType(), req.protocols());
        member.isNew = true;
        if (group.is(GroupState.PREPARING_REBALANCE) && group.previousState == GroupState.EMPTY) {
            group.newMemberAdded = true;
        }
        group.add(member, future);
        // A new member cannot heartbeat while parked, and a client that gave up on its JoinGroup would
        // leave a defunct member behind: time parked new members out after a generous bound.
        rescheduleHeartbeat(group, member, config.newMemberJoinTimeoutMs());
        maybePrepareRebalanceOrCompleteJoin(group, "new member " + member + " joins");
    }

    private void updateMemberThenRebalanceOrCompleteJoin(JoinGroupRequest req, ClassicGroup group, GroupMember member,
            String reason, CompletableFuture<JoinGroupResult> future) {
        group.updateMember(member, req.protocols(), req.rebalanceTimeoutMs(), req.sessionTimeoutMs(), future);
        maybePrepareRebalanceOrCompleteJoin(group, reason);
    }

    /**
     * KIP-345: a static member restarting under its instance id takes over its old member id's place and
     * assignment. A Stable group whose selected protocol does not change just records the new member id:
     * no rebalance.
     */
    private void updateStaticMemberThenRebalanceOrCompleteJoin(JoinGroupRequest req, ClassicGroup group,
            String oldMemberId, String newMemberId, CompletableFuture<JoinGroupResult> future) {
        String currentLeader = group.leaderId;
        GroupMember member = group.replaceStaticMember(req.groupInstanceId(), oldMemberId, newMemberId);
        rescheduleHeartbeat(group, member, member.sessionTimeoutMs);
        List<Protocol> oldProtocols = member.protocols;
        int oldRebalanceTimeout = member.rebalanceTimeoutMs;
        int oldSessionTimeout = member.sessionTimeoutMs;
        group.updateMember(member, req.protocols(), req.rebalanceTimeoutMs(), req.sessionTimeoutMs(), future);

        switch (group.state) {
            case STABLE -> {
                if (!group.selectProtocol().equals(group.protocolName)) {
                    maybePrepareRebalanceOrCompleteJoin(group, "static member " + member + " changes the group's protocol");
                    return;
                }
                try {
                    append(List.of(new OffsetsRecord.GroupMetadata(group.groupId,
                            group.toStored(group.currentAssignments()))));
                } catch (LogException e) {
                    // Undo: the old member id stays the group's view of this instance.
                    group.updateMember(member, oldProtocols, oldRebalanceTimeout, oldSessionTimeout, null);
                    GroupMember old = group.replaceStaticMember(req.groupInstanceId(), newMemberId, oldMemberId);
                    rescheduleHeartbeat(group, old, old.sessionTimeoutMs);
                    future.complete(new JoinGroupResult(appendError(e), group.generationId, group.protocolType,
                            group.protocolName, currentLeader, false, "", List.of()));
                    return;
                }
                boolean leader = group.isLeader(newMemberId);
                JoinGroupResult result;
                if (req.apiVersion() >= 9) {
                    // KIP-814: the leader learns the members (it may need their subscriptions) but must not
                    // reassign: a Stable group would not pass a new assignment on.
                    result = new JoinGroupResult(ErrorCode.NONE, group.generationId, group.protocolType,
                            group.protocolName, group.leaderId, leader, newMemberId,
                            leader ? group.currentMembers() : List.of());
                } else {
                    // Older clients: name the old leader id so that no one believes it must assign.
                    result = new JoinGroupResult(ErrorCode.NONE, group.generationId, group.protocolType,
                            group.protocolName, currentLeader, false, newMemberId, List.of());
                }
                group.completeJoin(member, result);
            }
            // The old member id may already be in the leader's assignment: rebalance so the new id gets one.
            case COMPLETING_REBALANCE -> prepareRebalance(group, "static member " + member + " rejoins during CompletingRebalance");
            case PREPARING_REBALANCE -> maybeCompleteJoinPhase(group);
            default -> throw new IllegalStateException("static member rejoins " + group);
        }
    }

    private void maybePrepareRebalanceOrCompleteJoin(ClassicGroup group, String reason) {
        if (group.canRebalance()) {
            prepareRebalance(group, reason);
        } else {
            maybeCompleteJoinPhase(group);
        }
    }

    /** Completes the join phase once everyone has rejoined, except during a new group's initial delay. */
    private void maybeCompleteJoinPhase(ClassicGroup group) {
        if (group.is(GroupState.PREPARING_REBALANCE) && group.previousState != GroupState.EMPTY
                && group.hasAllMembersJoined()) {
            completeJoin(group);
        }
    }

    private void prepareRebalance(ClassicGroup group, String reason) {
        if (group.is(GroupState.COMPLETING_REBALANCE)) {
            // Members parked in SyncGroup must rejoin for the new generation.
            resetAndPropagateAssignmentWithError(group, ErrorCode.REBALANCE_IN_PROGRESS);
        }
        group.pendingSyncMembers.clear();
        cancel(group.syncTimer);
        group.syncTimer = null;

        boolean initial = group.is(GroupState.EMPTY);
        if (initial) {
            int delay = config.initialRebalanceDelayMs();
            int remaining = Math.max(group.rebalanceTimeoutMs() - delay, 0);
            scheduleJoin(group, delay, () -> tryCompleteInitialRebalance(group.groupId, delay, remaining));
        }
        if (group.rebalanceStartMs < 0) {
            group.rebalanceStartMs = now(); // kept through back-to-back rebalances until the group is Stable
        }
        GroupState from = group.state;
        group.transitionTo(GroupState.PREPARING_REBALANCE, now());
        LOG.log(System.Logger.Level.INFO, "preparing to rebalance group " + group.groupId + " in state "
                + from.kafkaName() + " with old generation " + group.generationId + " (" + reason + ")");
        if (!initial) {
            if (group.hasAllMembersJoined()) {
                completeJoin(group);
            } else {
                scheduleJoin(group, group.rebalanceTimeoutMs(), () -> completeJoin(group.groupId));
            }
        }
    }

    /** The initial delay passed: wait once more (up to the rebalance timeout) if someone joined meanwhile. */
    private void tryCompleteInitialRebalance(String groupId, int delayMs, int remainingMs) {
        ClassicGroup group = groups.get(groupId);
        if (group == null) {
            return;
        }
        if (group.newMemberAdded && remainingMs != 0) {
            group.newMemberAdded = false;
            int nextDelay = Math.min(config.initialRebalanceDelayMs(), remainingMs);
            int nextRemaining = Math.max(remainingMs - delayMs, 0);
            scheduleJoin(group, nextDelay, () -> tryCompleteInitialRebalance(groupId, nextDelay, nextRemaining));
        } else {
            completeJoin(group);
        }
    }

    private void completeJoin(String groupId) {
        ClassicGroup group = groups.get(groupId);
        if (group != null) {
            completeJoin(group);
        }
    }

    /**
     * Ends the join phase: dynamic members that did not rejoin are dropped, the generation advances and
     * every parked JoinGroup is answered (the leader with all members' metadata). Members then have a
     * rebalance timeout to send SyncGroup.
     */
    private void completeJoin(ClassicGroup group) {
        cancel(group.joinTimer);
        group.joinTimer = null;
        if (!group.is(GroupState.PREPARING_REBALANCE)) {
            return;
        }
        List<String> dropped = new ArrayList<>();
        for (GroupMember m : group.notYetRejoined()) {
            if (!m.isStatic()) {
                group.completeSync(m, SyncGroupResult.error(ErrorCode.UNKNOWN_MEMBER_ID));
                group.remove(m.memberId);
                dropped.add(m.memberId);
            }
        }
        if (!dropped.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "group " + group.groupId + " removed members that did not rejoin: " + dropped);
        }
        if (!group.maybeElectNewJoinedLeader() && !group.members.isEmpty()) {
            // Only static members that have not rejoined: wait for them (or their session timeouts).
            LOG.log(System.Logger.Level.WARNING, "group " + group.groupId + " cannot complete its rebalance: no member rejoined");
            scheduleJoin(group, group.rebalanceTimeoutMs(), () -> completeJoin(group.groupId));
            return;
        }
        group.initNextGeneration(now());
        if (group.is(GroupState.EMPTY)) {
            group.rebalanceStartMs = -1;
            LOG.log(System.Logger.Level.INFO, "group " + group.groupId + " with generation " + group.generationId + " is now empty");
            try {
                append(List.of(new OffsetsRecord.GroupMetadata(group.groupId, group.toStored(Map.of()))));
            } catch (LogException e) {
                // No member depends on it; the previous generation in the log would only time out after a restart.
                LOG.log(System.Logger.Level.WARNING, "failed to store empty group " + group.groupId + ": " + e.getMessage());
            }
            return;
        }
        LOG.log(System.Logger.Level.INFO, "group " + group.groupId + " joined generation " + group.generationId
                + " with " + group.members.size() + " members, protocol " + group.protocolName + ", leader " + group.leaderId);
        for (GroupMember m : group.members.values()) {
            JoinGroupResult result = new JoinGroupResult(ErrorCode.NONE, group.generationId, group.protocolType,
                    group.protocolName, group.leaderId, false, m.memberId,
                    group.isLeader(m.memberId) ? group.currentMembers() : List.of());
            group.completeJoin(m, result);
            rescheduleHeartbeat(group, m, m.sessionTimeoutMs);
            m.isNew = false;
            group.pendingSyncMembers.add(m.memberId);
        }
        int generation = group.generationId;
        cancel(group.syncTimer);
        group.syncTimer = scheduler.schedule(group.rebalanceTimeoutMs(), () -> expirePendingSync(group.groupId, generation));
    }

    /** Members that got their JoinGroup answer but never sent SyncGroup are removed, and the group rebalances. */
    private void expirePendingSync(String groupId, int generation) {
        ClassicGroup group = groups.get(groupId);
        if (group == null || group.generationId != generation) {
            return;
        }
        group.syncTimer = null;
        if ((group.is(GroupState.COMPLETING_REBALANCE) || group.is(GroupState.STABLE)) && !group.pendingSyncMembers.isEmpty()) {
            List<String> pending = new ArrayList<>(group.pendingSyncMembers);
            for (String id : pending) {
                group.remove(id);
            }
            prepareRebalance(group, "members " + pending + " did not send SyncGroup in time");
        }
    }

    // ------------------------------------------------------------------ SyncGroup

    void syncGroup(SyncGroupRequest req, CompletableFuture<SyncGroupResult> future) {
        ClassicGroup group = groups.get(req.groupId());
        if (group == null || group.is(GroupState.EMPTY)) {
            future.complete(SyncGroupResult.error(ErrorCode.UNKNOWN_MEMBER_ID));
            return;
        }
        if (group.is(GroupState.DEAD)) {
            future.complete(SyncGroupResult.error(ErrorCode.COORDINATOR_NOT_AVAILABLE));
            return;
        }
        ErrorCode invalid = group.validateMember(req.memberId(), req.groupInstanceId());
        if (invalid == ErrorCode.NONE && req.generationId() != group.generationId) {
            invalid = ErrorCode.ILLEGAL_GENERATION;
        }
        if (invalid == ErrorCode.NONE && (inconsistent(req.protocolType(), group.protocolType)
                || inconsistent(req.protocolName(), group.protocolName))) {
            invalid = ErrorCode.INCONSISTENT_GROUP_PROTOCOL;
        }
        if (invalid != ErrorCode.NONE) {
            future.complete(SyncGroupResult.error(invalid));
            return;
        }
        GroupMember member = group.member(req.memberId());
        switch (group.state) {
            case PREPARING_REBALANCE -> future.complete(SyncGroupResult.error(ErrorCode.REBALANCE_IN_PROGRESS));
            case COMPLETING_REBALANCE -> {
                if (member.syncFuture != null) {
                    member.syncFuture.complete(SyncGroupResult.error(ErrorCode.REBALANCE_IN_PROGRESS));
                }
                member.syncFuture = future;
                removePendingSyncMember(group, member.memberId);
                if (group.isLeader(member.memberId)) {
                    completeAssignment(group, req.assignments());
                }
            }
            case STABLE -> {
                removePendingSyncMember(group, member.memberId);
                future.complete(new SyncGroupResult(ErrorCode.NONE, group.protocolType, group.protocolName, member.assignment));
            }
            default -> future.complete(SyncGroupResult.error(ErrorCode.UNKNOWN_MEMBER_ID));
        }
    }

    /** The leader's assignment: store it, then hand every parked follower its part; the group is Stable. */
    private void completeAssignment(ClassicGroup group, Map<String, byte[]> fromLeader) {
        Map<String, byte[]> assignment = new HashMap<>();
        for (GroupMember m : group.members.values()) {
            byte[] a = fromLeader.get(m.memberId);
            assignment.put(m.memberId, a != null ? a : GroupMember.EMPTY_ASSIGNMENT);
        }
        try {
            append(List.of(new OffsetsRecord.GroupMetadata(group.groupId, group.toStored(assignment))));
        } catch (LogException e) {
            ErrorCode error = appendError(e);
            LOG.log(System.Logger.Level.WARNING, "failed to store the assignment of group " + group.groupId + ": " + e.getMessage());
            resetAndPropagateAssignmentWithError(group, error);
            maybePrepareRebalanceOrCompleteJoin(group, "storing the assignment failed with " + error);
            return;
        }
        for (GroupMember m : group.members.values()) {
            m.assignment = assignment.get(m.memberId);
        }
        propagateAssignment(group, ErrorCode.NONE);
        group.transitionTo(GroupState.STABLE, now());
        long took = group.rebalanceStartMs >= 0 ? now() - group.rebalanceStartMs : -1;
        group.rebalanceStartMs = -1;
        LOG.log(System.Logger.Level.INFO, "group " + group.groupId + " is stable at generation " + group.generationId
                + " with " + group.members.size() + " members; the rebalance took " + took + " ms");
    }

    private void resetAndPropagateAssignmentWithError(ClassicGroup group, ErrorCode error) {
        for (GroupMember m : group.members.values()) {
            m.assignment = GroupMember.EMPTY_ASSIGNMENT;
        }
        propagateAssignment(group, error);
    }

    private void propagateAssignment(ClassicGroup group, ErrorCode error) {
        boolean ok = error == ErrorCode.NONE;
        for (GroupMember m : group.members.values()) {
            SyncGroupResult result = ok
                    ? new SyncGroupResult(ErrorCode.NONE, group.protocolType, group.protocolName, m.assignment)
                    : SyncGroupResult.error(error);
            if (group.completeSync(m, result)) {
                // Its session may have lapsed while it waited for the leader: start it afresh.
                rescheduleHeartbeat(group, m, m.sessionTimeoutMs);
            }
        }
    }

    private void removePendingSyncMember(ClassicGroup group, String memberId) {
        group.pendingSyncMembers.remove(memberId);
        boolean waiting = (group.is(GroupState.COMPLETING_REBALANCE) || group.is(GroupState.STABLE))
                && !group.pendingSyncMembers.isEmpty();
        if (!waiting) {
            cancel(group.syncTimer);
            group.syncTimer = null;
        }
    }

    private static boolean inconsistent(String fromRequest, String ofGroup) {
        return fromRequest != null && ofGroup != null && !fromRequest.equals(ofGroup);
    }

    // ------------------------------------------------------------------ Heartbeat and session timeouts

    ErrorCode heartbeat(String groupId, String memberId, String groupInstanceId, int generationId) {
        ClassicGroup group = groups.get(groupId);
        if (group == null) {
            return ErrorCode.UNKNOWN_MEMBER_ID;
        }
        if (group.is(GroupState.DEAD)) {
            return ErrorCode.COORDINATOR_NOT_AVAILABLE;
        }
        ErrorCode invalid = group.validateMember(memberId, groupInstanceId);
        if (invalid != ErrorCode.NONE) {
            return invalid;
        }
        if (generationId != group.generationId) {
            return ErrorCode.ILLEGAL_GENERATION;
        }
        return switch (group.state) {
            case EMPTY -> ErrorCode.UNKNOWN_MEMBER_ID;
            case PREPARING_REBALANCE -> {
                rescheduleHeartbeat(group, group.member(memberId), group.member(memberId).sessionTimeoutMs);
                yield ErrorCode.REBALANCE_IN_PROGRESS;
            }
            default -> {
                // CompletingRebalance too: followers heartbeat while the leader computes the assignment.
                rescheduleHeartbeat(group, group.member(memberId), group.member(memberId).sessionTimeoutMs);
                yield ErrorCode.NONE;
            }
        };
    }

    private void rescheduleHeartbeat(ClassicGroup group, GroupMember member, long timeoutMs) {
        cancel(member.heartbeatTimer);
        String groupId = group.groupId;
        String memberId = member.memberId;
        member.heartbeatTimer = scheduler.schedule(timeoutMs, () -> expireHeartbeat(groupId, memberId));
    }

    private void expireHeartbeat(String groupId, String memberId) {
        ClassicGroup group = groups.get(groupId);
        if (group == null || group.is(GroupState.DEAD)) {
            return;
        }
        if (group.isPending(memberId)) {
            LOG.log(System.Logger.Level.INFO, "pending member " + memberId + " of group " + groupId
                    + " did not rejoin within its session timeout");
            group.remove(memberId);
            if (group.is(GroupState.PREPARING_REBALANCE) && group.hasAllMembersJoined()) {
                completeJoin(group);
            }
            return;
        }
        GroupMember member = group.member(memberId);
        if (member == null) {
            return;
        }
        member.heartbeatTimer = null;
        if (!member.hasSatisfiedHeartbeat()) {
            LOG.log(System.Logger.Level.INFO, "member " + member + " of group " + groupId + " failed: session timed out");
            removeMemberAndUpdateGroup(group, member, "member " + memberId + " session timed out");
        }
    }

    private void removeMemberAndUpdateGroup(ClassicGroup group, GroupMember member, String reason) {
        // A new member may time out while parked in JoinGroup: tell it, so it retries if it is still there.
        group.completeJoin(member, JoinGroupResult.error("", ErrorCode.UNKNOWN_MEMBER_ID));
        group.completeSync(member, SyncGroupResult.error(ErrorCode.UNKNOWN_MEMBER_ID));
        group.remove(member.memberId);
        if (group.is(GroupState.STABLE) || group.is(GroupState.COMPLETING_REBALANCE)) {
            maybePrepareRebalanceOrCompleteJoin(group, reason);
        } else if (group.is(GroupState.PREPARING_REBALANCE) && group.hasAllMembersJoined()) {
            completeJoin(group);
        }
    }

    // ------------------------------------------------------------------ LeaveGroup

    LeaveGroupResult leaveGroup(String groupId, List<LeaveGroupResult.Member> leaving) {
        ClassicGroup group = groups.get(groupId);
        if (group == null) {
            return LeaveGroupResult.error(ErrorCode.UNKNOWN_MEMBER_ID);
        }
        if (group.is(GroupState.DEAD)) {
            return LeaveGroupResult.error(ErrorCode.COORDINATOR_NOT_AVAILABLE);
        }
        List<LeaveGroupResult.Member> results = new ArrayList<>(leaving.size());
        List<String> left = new ArrayList<>();
        for (LeaveGroupResult.Member m : leaving) {
            String memberId = m.memberId() == null ? "" : m.memberId();
            ErrorCode error;
            if (memberId.isEmpty()) {
                // An admin removing a static member by instance id.
                String current = m.groupInstanceId() == null ? null : group.staticMemberId(m.groupInstanceId());
                if (current != null) {
                    removeLeavingMember(group, current);
                    left.add(current);
                    error = ErrorCode.NONE;
                } else {
                    error = ErrorCode.UNKNOWN_MEMBER_ID;
                }
            } else if (group.isPending(memberId)) {
                group.remove(memberId);
                left.add(memberId);
                error = ErrorCode.NONE;
            } else {
                error = group.validateMember(memberId, m.groupInstanceId());
                if (error == ErrorCode.NONE) {
                    removeLeavingMember(group, memberId);
                    left.add(memberId);
                }
            }
            results.add(new LeaveGroupResult.Member(memberId, m.groupInstanceId(), error));
        }
        if (!left.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "members " + left + " left group " + groupId);
            switch (group.state) {
                case STABLE, COMPLETING_REBALANCE -> maybePrepareRebalanceOrCompleteJoin(group, "members " + left + " left");
                case PREPARING_REBALANCE -> maybeCompleteJoinPhase(group);
                default -> {
                }
            }
        }
        return new LeaveGroupResult(ErrorCode.NONE, results);
    }

    private void removeLeavingMember(ClassicGroup group, String memberId) {
        GroupMember member = group.member(memberId);
        group.completeJoin(member, JoinGroupResult.error("", ErrorCode.UNKNOWN_MEMBER_ID));
        group.completeSync(member, SyncGroupResult.error(ErrorCode.UNKNOWN_MEMBER_ID));
        group.remove(memberId);
    }

    // ------------------------------------------------------------------ offsets

    Map<TopicPartition, ErrorCode> commitOffsets(OffsetCommitRequest req) {
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
            rescheduleHeartbeat(group, member, member.sessionTimeoutMs); // a commit keeps the session alive
        }
        long now = now();
        long expireTimestamp = req.retentionTimeMs() >= 0 ? now + req.retentionTimeMs() : OffsetAndMetadata.NO_EXPIRE_TIMESTAMP;
        Map<TopicPartition, ErrorCode> results = new LinkedHashMap<>();
        List<OffsetsRecord.OffsetCommit> records = new ArrayList<>();
        for (OffsetCommitRequest.Partition p : req.partitions()) {
            String metadata = p.metadata() == null ? "" : p.metadata();
            if (metadata.length() > config.offsetMetadataMaxBytes()) {
                results.put(p.partition(), ErrorCode.OFFSET_METADATA_TOO_LARGE);
                continue;
            }
            results.put(p.partition(), ErrorCode.NONE);
            records.add(new OffsetsRecord.OffsetCommit(group.groupId, p.partition(),
                    new OffsetAndMetadata(p.offset(), p.leaderEpoch(), metadata, now, expireTimestamp)));
        }
        try {
            append(records);
        } catch (LogException e) {
            ErrorCode error = appendError(e);
            records.forEach(r -> results.put(r.partition(), error));
            return results;
        }
        if (created) {
            groups.put(group.groupId, group);
        }
        records.forEach(r -> results.put(r.partition(), ErrorCode.NONE));
        for (OffsetsRecord.OffsetCommit r : records) {
            group.offsets.put(r.partition(), r.value());
        }
        return results;
    }

    private static Map<TopicPartition, ErrorCode> allPartitions(OffsetCommitRequest req, ErrorCode error) {
        Map<TopicPartition, ErrorCode> out = new LinkedHashMap<>();
        req.partitions().forEach(p -> out.put(p.partition(), error));
        return out;
    }

    /** Offsets of the partitions asked for (null: every committed partition); unknown ones map to null. */
    OffsetFetchResult fetchOffsets(String groupId, List<TopicPartition> partitions) {
        ClassicGroup group = groups.get(groupId);
        Map<TopicPartition, OffsetAndMetadata> offsets = group == null || group.is(GroupState.DEAD) ? Map.of() : group.offsets;
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
        ClassicGroup group = groups.get(groupId);
        if (group == null || group.is(GroupState.DEAD)) {
            return OffsetDeleteResult.error(ErrorCode.GROUP_ID_NOT_FOUND);
        }
        if (!group.is(GroupState.EMPTY) && !group.usesConsumerProtocol()) {
            return OffsetDeleteResult.error(ErrorCode.NON_EMPTY_GROUP);
        }
        Map<TopicPartition, ErrorCode> results = new LinkedHashMap<>();
        List<OffsetsRecord> tombstones = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            if (group.isSubscribedToTopic(tp.topic())) {
                results.put(tp, ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC);
            } else {
                results.put(tp, ErrorCode.NONE);
                if (group.offsets.containsKey(tp)) {
                    tombstones.add(new OffsetsRecord.OffsetCommit(groupId, tp, null));
                }
            }
        }
        try {
            append(tombstones);
        } catch (LogException e) {
            return OffsetDeleteResult.error(appendError(e));
        }
        tombstones.forEach(t -> group.offsets.remove(((OffsetsRecord.OffsetCommit) t).partition()));
        return new OffsetDeleteResult(ErrorCode.NONE, results);
    }

    /** A deleted topic's committed offsets go with it, as in Kafka, so a topic re-created later starts afresh. */
    int deleteOffsetsOfTopics(Set<String> deletedTopics) {
        List<OffsetsRecord.OffsetCommit> tombstones = new ArrayList<>();
        for (ClassicGroup g : groups.values()) {
            for (TopicPartition tp : new TreeMap<>(g.offsets).keySet()) {
                if (deletedTopics.contains(tp.topic())) {
                    tombstones.add(new OffsetsRecord.OffsetCommit(g.groupId, tp, null));
                }
            }
        }
        try {
            append(tombstones);
        } catch (LogException e) {
            LOG.log(System.Logger.Level.WARNING, "failed to delete the offsets of deleted topics " + deletedTopics
                    + " in " + OffsetsTopic.NAME + "-" + partition + ": " + e.getMessage());
            return 0;
        }
        for (OffsetsRecord.OffsetCommit t : tombstones) {
            ClassicGroup g = groups.get(t.groupId());
            if (g != null) {
                g.offsets.remove(t.partition());
            }
        }
        return tombstones.size();
    }

    // ------------------------------------------------------------------ groups: list, describe, delete

    List<GroupOverview> listGroups(Set<String> statesFilter, Set<String> typesFilter) {
        List<GroupOverview> out = new ArrayList<>();
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
        ClassicGroup group = groups.get(groupId);
        if (group == null || group.is(GroupState.DEAD)) {
            return ErrorCode.GROUP_ID_NOT_FOUND;
        }
        if (!group.is(GroupState.EMPTY)) {
            return ErrorCode.NON_EMPTY_GROUP;
        }
        List<OffsetsRecord> tombstones = new ArrayList<>();
        for (TopicPartition tp : new TreeMap<>(group.offsets).keySet()) {
            tombstones.add(new OffsetsRecord.OffsetCommit(groupId, tp, null));
        }
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
     * simple group's offsets, that long after their commit. A group left empty without offsets is deleted.
     */
    void expireOffsets() {
        long now = now();
        long retention = config.offsetsRetentionMs();
        List<OffsetsRecord> records = new ArrayList<>();
        List<ClassicGroup> deleted = new ArrayList<>();
        for (ClassicGroup g : groups.values()) {
            Boolean fromStateChange = expiryBase(g);
            if (fromStateChange == null) {
                continue;
            }
            boolean allExpired = true;
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e : new TreeMap<>(g.offsets).entrySet()) {
                OffsetAndMetadata o = e.getValue();
                boolean expired;
                if (g.isSubscribedToTopic(e.getKey().topic())) {
                    expired = false;
                } else if (o.hasExpireTimestamp()) {
                    expired = now >= o.expireTimestampMs();
                } else {
                    long base = fromStateChange ? g.currentStateTimestamp : o.commitTimestampMs();
                    expired = now - base >= retention;
                }
                if (expired) {
                    records.add(new OffsetsRecord.OffsetCommit(g.groupId, e.getKey(), null));
                } else {
                    allExpired = false;
                }
            }
            if (allExpired && g.is(GroupState.EMPTY) && g.pendingJoinMembers.isEmpty()) {
                records.add(new OffsetsRecord.GroupMetadata(g.groupId, null));
                deleted.add(g);
            }
        }
        if (records.isEmpty()) {
            return;
        }
        try {
            append(records);
        } catch (LogException e) {
            LOG.log(System.Logger.Level.WARNING, "failed to expire offsets in " + OffsetsTopic.NAME + "-" + partition + ": " + e.getMessage());
            return;
        }
        int expired = 0;
        for (OffsetsRecord r : records) {
            if (r instanceof OffsetsRecord.OffsetCommit c) {
                ClassicGroup g = groups.get(c.groupId());
                if (g != null && g.offsets.remove(c.partition()) != null) {
                    expired++;
                }
            }
        }
        deleted.forEach(this::removeGroup);
        LOG.log(System.Logger.Level.INFO, "expired " + expired + " offsets and removed " + deleted.size()
                + " empty groups in " + OffsetsTopic.NAME + "-" + partition);
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

    Collection<String> groupIds() {
        return List.copyOf(groups.keySet());
    }

    private void scheduleJoin(ClassicGroup group, long delayMs, Runnable action) {
        cancel(group.joinTimer);
        group.joinTimer = scheduler.schedule(delayMs, action);
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

    private static List<String> protocolNames(List<Protocol> protocols) {
        List<String> names = new ArrayList<>(protocols.size());
        protocols.forEach(p -> names.add(p.name()));
        return names;
    }

    private static void cancel(Scheduler.Timer timer) {
        if (timer != null) {
            timer.cancel();
        }
    }
}
