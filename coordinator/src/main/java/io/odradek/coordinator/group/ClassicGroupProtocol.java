package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.OffsetsRecord;
import io.odradek.coordinator.runtime.CoordinatorResult;
import io.odradek.coordinator.runtime.Scheduler;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Kafka's classic group protocol for the classic groups of one {@code __consumer_offsets} partition:
 * JoinGroup, SyncGroup, Heartbeat and LeaveGroup, with their delays and timeouts as timers on the
 * partition's thread. Parked JoinGroup and SyncGroup requests are futures completed later from here.
 * A leader's assignment and a replaced static member take effect, and their requests are answered, once
 * their record is committed (the callback given to the {@link Appender}); an emptied group is written
 * after the fact (through {@link GroupShard}, which also owns the groups' offsets). As in Kafka, the
 * records describe the group's state in memory: they are not replayed after a write, only at load.
 */
final class ClassicGroupProtocol {
    private static final System.Logger LOG = System.getLogger(ClassicGroupProtocol.class.getName());

    /** Appends records to the partition, with the operation running now. */
    interface Appender {
        /** {@code after} hears, on this thread, NONE once the records are committed, or the client's error. */
        void append(List<? extends OffsetsRecord> records, CoordinatorResult.AfterAppend after);
    }

    private final GroupCoordinatorConfig config;
    private final Scheduler scheduler;
    private final Map<String, ClassicGroup> groups;
    private final Appender log;

    ClassicGroupProtocol(GroupCoordinatorConfig config, Scheduler scheduler, Map<String, ClassicGroup> groups, Appender log) {
        this.config = config;
        this.scheduler = scheduler;
        this.groups = groups;
        this.log = log;
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
                append(List.of(new OffsetsRecord.GroupMetadata(group.groupId, group.toStored(group.currentAssignments()))), error -> {
                    if (error != ErrorCode.NONE) {
                        // Undo: the old member id stays the group's view of this instance.
                        group.updateMember(member, oldProtocols, oldRebalanceTimeout, oldSessionTimeout, null);
                        GroupMember old = group.replaceStaticMember(req.groupInstanceId(), newMemberId, oldMemberId);
                        rescheduleHeartbeat(group, old, old.sessionTimeoutMs);
                        future.complete(new JoinGroupResult(error, group.generationId, group.protocolType,
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
                });
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
            append(List.of(new OffsetsRecord.GroupMetadata(group.groupId, group.toStored(Map.of()))), error -> {
                if (error != ErrorCode.NONE) {
                    // No member depends on it; the previous generation in the log would only time out after a restart.
                    LOG.log(System.Logger.Level.WARNING, "failed to store empty group " + group.groupId + ": " + error);
                }
            });
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
        int generation = group.generationId;
        append(List.of(new OffsetsRecord.GroupMetadata(group.groupId, group.toStored(assignment))), error -> {
            if (groups.get(group.groupId) != group || group.generationId != generation || !group.is(GroupState.COMPLETING_REBALANCE)) {
                return; // no write runs while this one is in flight, but the partition may have been unloaded
            }
            if (error != ErrorCode.NONE) {
                LOG.log(System.Logger.Level.WARNING, "failed to store the assignment of group " + group.groupId + ": " + error);
                resetAndPropagateAssignmentWithError(group, error);
                maybePrepareRebalanceOrCompleteJoin(group, "storing the assignment failed with " + error);
                return;
            }
            setAndPropagateAssignment(group, assignment);
        });
    }

    private void setAndPropagateAssignment(ClassicGroup group, Map<String, byte[]> assignment) {
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

    void rescheduleHeartbeat(ClassicGroup group, GroupMember member, long timeoutMs) {
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

    private long now() {
        return scheduler.nowMs();
    }

    private void append(List<? extends OffsetsRecord> records, CoordinatorResult.AfterAppend after) {
        log.append(records, after);
    }

    private void scheduleJoin(ClassicGroup group, long delayMs, Runnable action) {
        cancel(group.joinTimer);
        group.joinTimer = scheduler.schedule(delayMs, action);
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
