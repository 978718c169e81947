package io.odradek.coordinator.runtime;

import io.odradek.log.PartitionLog;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link CoordinatorLog} straight over a local {@link PartitionLog} (the coordinator's own tests; the
 * broker goes through its replicated Partition instead): the append runs on the caller's thread (the shard's) and its future is complete
 * when this returns; on one node an appended record is committed. Leader epoch 0, as before leader epochs
 * come from metadata.
 */
public final class PartitionLogCoordinatorLog implements CoordinatorLog {
    private final PartitionLog log;

    public PartitionLogCoordinatorLog(PartitionLog log) {
        this.log = log;
    }

    @Override
    public CompletableFuture<Long> append(ByteBuffer batch) {
        try {
            // As a coordinator's (Kafka's AppendOrigin.COORDINATOR): a transactional offset commit has no sequence.
            return CompletableFuture.completedFuture(log.appendAsCoordinator(batch, 0).lastOffset() + 1);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<Long> appendMarker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit) {
        try {
            return CompletableFuture.completedFuture(
                    log.appendMarker(producerId, producerEpoch, coordinatorEpoch, commit, 0).lastOffset() + 1);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<Void> deleteRecordsBefore(long offset) {
        try {
            log.maybeIncrementLogStartOffset(offset);
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public long startOffset() {
        return log.logStartOffset();
    }

    @Override
    public long committedEndOffset() {
        return log.highWatermark();
    }

    @Override
    public ByteBuffer read(long offset, int maxBytes) {
        return log.read(offset, maxBytes).readIntoHeap();
    }
}
