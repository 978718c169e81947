package io.odradek.replication.partition;

import java.util.ArrayList;
import java.util.List;

/**
 * A partition's replication state as this broker knows it, swapped whole so that readers see one consistent
 * version without locks: its role here, the leader, the leader epoch (bumped by every leader change) and
 * partition epoch (bumped by every change at all), the replicas and the committed ISR.
 *
 * <p>{@code pendingIsr} is an ISR this leader has asked the controller for and not yet seen in the image
 * (null when none; one in flight at a time). While it is pending the high watermark waits for the
 * <em>maximal</em> ISR, the committed one plus any pending additions, as Kafka does: a follower being added
 * may already count, one being removed still does. {@code leaderEpochStartOffset} is the log end when this
 * broker became leader at this epoch: a follower joins the ISR only once it has reached it.
 */
public record PartitionState(Role role, int leaderId, int leaderEpoch, int partitionEpoch, List<Integer> replicas,
        List<Integer> isr, List<Integer> pendingIsr, long leaderEpochStartOffset) {

    /** What this broker is for the partition. A follower whose leader is unknown has leaderId -1. */
    public enum Role { LEADER, FOLLOWER }

    public PartitionState {
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
        pendingIsr = pendingIsr == null ? null : List.copyOf(pendingIsr);
    }

    public boolean isLeader() {
        return role == Role.LEADER;
    }

    /** The committed ISR plus pending additions: the replicas the high watermark waits for. */
    public List<Integer> maximalIsr() {
        if (pendingIsr == null) {
            return isr;
        }
        List<Integer> all = new ArrayList<>(isr);
        for (int r : pendingIsr) {
            if (!all.contains(r)) {
                all.add(r);
            }
        }
        return all;
    }

    PartitionState withPendingIsr(List<Integer> proposed) {
        return new PartitionState(role, leaderId, leaderEpoch, partitionEpoch, replicas, isr, proposed,
                leaderEpochStartOffset);
    }
}
