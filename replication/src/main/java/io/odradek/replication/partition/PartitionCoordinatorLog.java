package io.odradek.replication.partition;

import io.odradek.coordinator.runtime.CoordinatorLog;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * A coordinator's internal partition ({@code __consumer_offsets}, next {@code __transaction_state}) written
 * through its {@link Partition}: the batch goes through the partition's writer like a producer's, wakes the
 * same waiting operations (consumers of the internal topic, delayed produces), and the coordinator's answer
 * waits until the high watermark passes it. Loads read up to the high watermark, never an uncommitted tail.
 */
public final class PartitionCoordinatorLog implements CoordinatorLog {
    private final Partition partition;

    public PartitionCoordinatorLog(Partition partition) {
        this.partition = partition;
    }

    @Override
    public CompletableFuture<Long> append(ByteBuffer batch) {
        return partition.appendRecordsAsCoordinator(batch).thenApply(appended -> appended.lastOffset() + 1);
    }

    @Override
    public CompletableFuture<Long> appendMarker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit) {
        return partition.appendMarker(producerId, producerEpoch, coordinatorEpoch, commit)
                .thenApply(appended -> appended.lastOffset() + 1);
    }

    /** DeleteRecords on the leader (the share coordinator's pruning of {@code __share_group_state}). */
    @Override
    public CompletableFuture<Void> deleteRecordsBefore(long offset) {
        return partition.deleteRecordsOnLeader(offset).thenApply(deleted -> null);
    }

    @Override
    public long startOffset() {
        return partition.logStartOffset();
    }

    @Override
    public long committedEndOffset() {
        return partition.highWatermark();
    }

    @Override
    public ByteBuffer read(long offset, int maxBytes) {
        return partition.read(offset, maxBytes, FetchIsolation.HIGH_WATERMARK).readIntoHeap();
    }
}
