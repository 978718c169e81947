package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.StreamsGroupRecord;
import io.odradek.coordinator.runtime.Scheduler;

/** A member of a streams group: its metadata and current tasks as replayed from its records, and its timers. */
final class StreamsGroupMember {
    final String memberId;
    StreamsGroupRecord.Member metadata;
    StreamsGroupRecord.MemberAssignment assignment = StreamsGroupRecord.MemberAssignment.INITIAL;
    Scheduler.Timer sessionTimer;
    Scheduler.Timer rebalanceTimer;

    StreamsGroupMember(String memberId) {
        this.memberId = memberId;
    }

    int memberEpoch() {
        return assignment.memberEpoch();
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
