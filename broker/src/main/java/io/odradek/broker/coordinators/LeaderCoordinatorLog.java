package io.odradek.broker.coordinators;

import io.odradek.coordinator.runtime.CoordinatorLog;
import io.odradek.log.AppendResult;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.PartitionCoordinatorLog;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * A coordinator partition of a cluster: {@link PartitionCoordinatorLog}, plus the wait a new leader needs
 * before it loads. The records its predecessor wrote may be in its log but not yet under its high watermark
 * (the followers have not fetched from it yet); they will be committed (a leader never truncates its own
 * log), so the load waits until the high watermark reaches the log end seen at election, and reads them all.
 */
public final class LeaderCoordinatorLog implements CoordinatorLog {
    private final Partition partition;
    private final PartitionCoordinatorLog log;

    public LeaderCoordinatorLog(Partition partition) {
        this.partition = partition;
        this.log = new PartitionCoordinatorLog(partition);
    }

    @Override
    public CompletableFuture<Void> whenCaughtUp() {
        long end = partition.logEndOffset();
        if (partition.highWatermark() >= end) {
            return CompletableFuture.completedFuture(null);
        }
        // whenCommitted waits for the high watermark to pass the given last offset: here the last record held.
        return partition.whenCommitted(new AppendResult(end - 1, end - 1, partition.logStartOffset(), -1, false))
                .thenApply(committed -> null);
    }

    @Override
    public CompletableFuture<Long> append(ByteBuffer batch) {
        return log.append(batch);
    }

    @Override
    public CompletableFuture<Long> appendMarker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit) {
        return log.appendMarker(producerId, producerEpoch, coordinatorEpoch, commit);
    }

    @Override
    public CompletableFuture<Void> deleteRecordsBefore(long offset) {
        return log.deleteRecordsBefore(offset);
    }

    @Override
    public long startOffset() {
        return log.startOffset();
    }

    @Override
    public long committedEndOffset() {
        return log.committedEndOffset();
    }

    @Override
    public ByteBuffer read(long offset, int maxBytes) {
        return log.read(offset, maxBytes);
    }
}
