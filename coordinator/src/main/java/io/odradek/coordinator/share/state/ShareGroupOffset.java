package io.odradek.coordinator.share.state;

import io.odradek.coordinator.share.StateBatch;
import java.util.List;

/**
 * A share partition's state as the share coordinator keeps it (Kafka's ShareGroupOffset): what a
 * ShareSnapshot record holds whole, and what a ShareUpdate record holds in part (its changed batches, a
 * start offset or -1, a leader epoch or -1; its state epoch and timestamps are not stored).
 *
 * @param snapshotEpoch         counts the snapshots written for the partition; an update carries its snapshot's
 * @param stateEpoch            the epoch InitializeShareGroupState set (fences older writers)
 * @param leaderEpoch           the epoch of the partition leader that last read the state
 * @param startOffset           the share-partition start offset, -1 when not known yet
 * @param deliveryCompleteCount offsets at or after the start offset whose delivery is complete (KIP-1226), -1 unknown
 * @param createTimestamp       when the snapshot was written from scratch (initialize, or a full rewrite)
 * @param writeTimestamp        when it was last written
 */
public record ShareGroupOffset(int snapshotEpoch, int stateEpoch, int leaderEpoch, long startOffset,
        int deliveryCompleteCount, long createTimestamp, long writeTimestamp, List<StateBatch> batches) {
    public ShareGroupOffset {
        batches = List.copyOf(batches);
    }

    ShareGroupOffset withSnapshotEpoch(int epoch, long nowMs) {
        return new ShareGroupOffset(epoch, stateEpoch, leaderEpoch, startOffset, deliveryCompleteCount, createTimestamp,
                nowMs, batches);
    }
}
