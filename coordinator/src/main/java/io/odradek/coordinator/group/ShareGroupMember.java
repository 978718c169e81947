package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.ShareGroupRecord;
import io.odradek.coordinator.runtime.Scheduler;
import java.util.List;

/** A member of a share group: its subscription and current assignment as its records say, and its session timer. */
final class ShareGroupMember {
    final String memberId;
    ShareGroupRecord.MemberSubscription subscription = new ShareGroupRecord.MemberSubscription(null, "", "", List.of());
    ShareGroupRecord.MemberAssignment assignment = ShareGroupRecord.MemberAssignment.INITIAL;
    Scheduler.Timer sessionTimer;

    ShareGroupMember(String memberId) {
        this.memberId = memberId;
    }

    int memberEpoch() {
        return assignment.memberEpoch();
    }

    void cancelTimers() {
        if (sessionTimer != null) {
            sessionTimer.cancel();
            sessionTimer = null;
        }
    }

    @Override
    public String toString() {
        return memberId;
    }
}
