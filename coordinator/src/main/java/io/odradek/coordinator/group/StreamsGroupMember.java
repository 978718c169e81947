package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.StreamsGroupRecord;
import io.odradek.coordinator.runtime.Scheduler;
import java.util.HashMap;
import java.util.Map;

/** A member of a streams group: its metadata and current tasks as replayed from its records, and its timers. */
final class StreamsGroupMember {
    final String memberId;
    StreamsGroupRecord.Member metadata;
    StreamsGroupRecord.MemberAssignment assignment = StreamsGroupRecord.MemberAssignment.INITIAL;
    /**
     * The member epoch at which each active task it holds or revokes (subtopology, partition) was assigned to it,
     * for fencing zombie commits as Kafka's AssignmentEpochs do. Derived while replaying its current-assignment
     * records (our record keeps no per-task epochs); null before the first one.
     */
    Map<String, Map<Integer, Integer>> activeTaskEpochs;
    Scheduler.Timer sessionTimer;
    Scheduler.Timer rebalanceTimer;

    StreamsGroupMember(String memberId) {
        this.memberId = memberId;
    }

    int memberEpoch() {
        return assignment.memberEpoch();
    }

    /**
     * Records the new assignment's per-task epochs: a task it already held keeps its epoch, a new one gets the
     * record's epoch. At load (no earlier record seen, or only the last one left after compaction) the tasks get
     * the previous epoch, which accepts what the member could commit before the restart.
     */
    void replayAssignment(StreamsGroupRecord.MemberAssignment next) {
        Map<String, Map<Integer, Integer>> before = activeTaskEpochs;
        int fresh = before == null && next.previousMemberEpoch() > 0 ? next.previousMemberEpoch() : next.memberEpoch();
        Map<String, Map<Integer, Integer>> epochs = new HashMap<>();
        for (Map<String, java.util.Set<Integer>> tasks : java.util.List.of(next.assigned().active(), next.pendingRevocation().active())) {
            tasks.forEach((subtopology, partitions) -> {
                Map<Integer, Integer> had = before == null ? Map.of() : before.getOrDefault(subtopology, Map.of());
                for (int p : partitions) {
                    epochs.computeIfAbsent(subtopology, x -> new HashMap<>()).put(p, had.getOrDefault(p, fresh));
                }
            });
        }
        assignment = next;
        activeTaskEpochs = epochs;
    }

    /** The epoch the active task was assigned at, or null when the member neither holds nor revokes it. */
    Integer activeTaskEpoch(String subtopologyId, int partition) {
        return activeTaskEpochs == null ? null : activeTaskEpochs.getOrDefault(subtopologyId, Map.of()).get(partition);
    }

    MemberState state() {
        return MemberState.of(assignment.state());
    }

    void cancelRebalanceTimer() {
        if (rebalanceTimer != null) {
            rebalanceTimer.cancel();
            rebalanceTimer = null;
        }
    }

    void cancelTimers() {
        cancelRebalanceTimer();
        if (sessionTimer != null) {
            sessionTimer.cancel();
            sessionTimer = null;
        }
    }

    @Override
    public String toString() {
        return memberId + (metadata == null || metadata.instanceId() == null ? "" : " (" + metadata.instanceId() + ")");
    }
}
