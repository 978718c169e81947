package io.odradek.replication.fetcher;

import io.odradek.log.EpochEndOffset;

/**
 * Where a follower truncates when the leader answers a fetch with a DivergingEpoch (Kafka's
 * AbstractFetcherThread.getOffsetTruncationState, the KIP-101/279 rules).
 */
final class Truncation {
    private Truncation() {
    }

    /**
     * @param leader       the leader's DivergingEpoch: the largest epoch it has at or below the follower's last
     *                     fetched epoch, and where that epoch ends in its log
     * @param follower     the follower's own end of {@code leader.leaderEpoch()} (endOffsetForEpoch)
     * @param replicaEnd   the follower's log end
     * @param highWatermark the follower's high watermark
     * @return the offset to truncate to; fetching continues from there, and when the follower did not know
     *     the leader's epoch another DivergingEpoch may follow (one step per fetch)
     */
    static long offsetFor(EpochEndOffset leader, EpochEndOffset follower, long replicaEnd, long highWatermark) {
        if (leader.endOffset() < 0) {
            // The leader knows nothing of that epoch or before: keep only what is committed.
            return Math.min(highWatermark, replicaEnd);
        }
        if (leader.leaderEpoch() < 0 || follower.endOffset() < 0) {
            return Math.min(leader.endOffset(), replicaEnd);
        }
        if (follower.leaderEpoch() != leader.leaderEpoch()) {
            // We never had the leader's epoch: cut back to the end of our largest epoch below it, then ask again.
            return Math.min(follower.endOffset(), replicaEnd);
        }
        return Math.min(Math.min(follower.endOffset(), leader.endOffset()), replicaEnd);
    }
}
