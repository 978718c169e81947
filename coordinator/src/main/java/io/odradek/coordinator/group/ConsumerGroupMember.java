package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.ConsumerMemberAssignment;
import io.odradek.coordinator.offsets.ConsumerMemberSubscription;
import io.odradek.coordinator.runtime.Scheduler;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * A member of a consumer-protocol group: its subscription and its current assignment exactly as the last
 * records stored them, plus its timers. Confined to its coordinator partition's thread.
 */
final class ConsumerGroupMember {
    final String memberId;
    ConsumerMemberSubscription subscription = ConsumerMemberSubscription.EMPTY;
    ConsumerMemberAssignment assignment = ConsumerMemberAssignment.INITIAL;
    /**
     * The topics the member may DESCRIBE, from its last heartbeat's authorization (null: every topic; so
     * too before its first heartbeat after a load). Not stored in any record: like its timers, it lives
     * only in memory; its regex subscription resolves to these topics only.
     */
    Predicate<String> describableTopics;
    /** Fences the member when it stops heartbeating. */
    Scheduler.Timer sessionTimer;
    /** Fences the member when it does not revoke partitions within its rebalance timeout. */
    Scheduler.Timer rebalanceTimer;

    ConsumerGroupMember(String memberId) {
        this.memberId = memberId;
    }

    int memberEpoch() {
        return assignment.memberEpoch();
    }

    int previousMemberEpoch() {
        return assignment.previousMemberEpoch();
    }

    MemberState state() {
        return MemberState.of(assignment.state());
    }

    String instanceId() {
        return subscription.instanceId();
    }

    /** Holds the target assignment of this epoch, nothing pending. */
    boolean isReconciledTo(int assignmentEpoch) {
        return state() == MemberState.STABLE && memberEpoch() == assignmentEpoch;
    }

    /** The assigned partitions by topic id, without their assignment epochs. */
    Map<UUID, Set<Integer>> assignedPartitions() {
        return partitionsOf(assignment.assignedPartitions());
    }

    static Map<UUID, Set<Integer>> partitionsOf(Map<UUID, Map<Integer, Integer>> withEpochs) {
        Map<UUID, Set<Integer>> out = new TreeMap<>();
        withEpochs.forEach((topic, epochs) -> out.put(topic, new TreeSet<>(epochs.keySet())));
        return out;
    }

    void cancelTimers() {
        cancelRebalanceTimer();
        if (sessionTimer != null) {
            sessionTimer.cancel();
            sessionTimer = null;
        }
    }

    void cancelRebalanceTimer() {
        if (rebalanceTimer != null) {
            rebalanceTimer.cancel();
            rebalanceTimer = null;
        }
    }

    @Override
    public String toString() {
        return memberId + (instanceId() == null ? "" : " (instance " + instanceId() + ")");
    }
}
