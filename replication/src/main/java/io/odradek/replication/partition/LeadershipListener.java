package io.odradek.replication.partition;

/**
 * Told when this broker becomes leader of a partition ({@code isLeader}) or stops leading it (it became a
 * follower, or its replica went away), with the leader epoch of the change: the group and transaction
 * coordinators load and unload their shards with it. Called on the metadata thread, in image order; keep it
 * short (hand work to your own threads).
 */
@FunctionalInterface
public interface LeadershipListener {
    void onLeadershipChange(String topic, int partition, int leaderEpoch, boolean isLeader);
}
