package io.odradek.replication.cluster;

import java.util.List;

/**
 * The metadata quorum as Kafka's DescribeQuorum reports it: leader, its epoch (the Raft term), high
 * watermark (commit index) and each voter's and observer's replication state, and the voters' endpoints.
 */
public record QuorumInfo(int leaderId, int leaderEpoch, long highWatermark, List<ReplicaState> voters,
        List<ReplicaState> observers, List<Endpoint> voterEndpoints) {
    /** One replica of the metadata log; timestamps -1 when unknown. {@code endpoints.get(i)} belongs to voter i. */
    public record ReplicaState(int replicaId, long logEndOffset, long lastFetchTimestamp, long lastCaughtUpTimestamp) {
    }
}
