package io.odradek.replication.cluster;

import java.util.List;

/**
 * One partition's replication state (Kafka's PartitionRegistration): the replicas in preference order
 * (the first is the preferred leader), the in-sync replicas, the leader (-1: none, the partition is
 * offline), the leader epoch (bumped by every leader change) and the partition epoch (bumped by every
 * change at all, so an AlterPartition built on an older state is refused). During a reassignment
 * {@code replicas} holds old and new replicas together, {@code adding} and {@code removing} say which is which.
 */
public record PartitionRegistration(List<Integer> replicas, List<Integer> isr, List<Integer> adding,
        List<Integer> removing, int leader, int leaderEpoch, int partitionEpoch) {
    public static final int NO_LEADER = -1;

    public PartitionRegistration {
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
        adding = List.copyOf(adding);
        removing = List.copyOf(removing);
    }

    /** A new partition: led by its first replica, all replicas in sync, epochs 0. */
    public static PartitionRegistration initial(List<Integer> replicas) {
        return new PartitionRegistration(replicas, replicas, List.of(), List.of(),
                replicas.isEmpty() ? NO_LEADER : replicas.get(0), 0, 0);
    }

    public boolean hasLeader() {
        return leader != NO_LEADER;
    }

    public boolean isReassigning() {
        return !adding.isEmpty() || !removing.isEmpty();
    }
}
