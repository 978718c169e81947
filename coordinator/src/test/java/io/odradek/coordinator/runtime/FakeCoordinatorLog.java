package io.odradek.coordinator.runtime;

import io.odradek.log.LogException;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.EndTxnMarker;
import io.odradek.wire.batch.RecordBatchHeader;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link CoordinatorLog} whose appends wait until the test commits or fails them, as a replicated
 * partition's do until the high watermark passes; only committed batches are read back.
 */
final class FakeCoordinatorLog implements CoordinatorLog {
    private record Pending(ByteBuffer batch, CompletableFuture<Long> future) {
    }

    private final List<ByteBuffer> committed = new ArrayList<>();
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private long end;

    @Override
    public synchronized CompletableFuture<Long> append(ByteBuffer batch) {
        CompletableFuture<Long> future = new CompletableFuture<>();
        ByteBuffer copy = ByteBuffer.allocate(batch.remaining()).put(batch.duplicate()).flip();
        pending.add(new Pending(copy, future));
        return future;
    }

    /** The marker's control batch, waiting like any append. */
    @Override
    public CompletableFuture<Long> appendMarker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit) {
        return append(new EndTxnMarker(commit, coordinatorEpoch).toBatch(producerId, producerEpoch, 0));
    }

    /** How many appends wait for the test. */
    synchronized int inFlight() {
        return pending.size();
    }

    /** Commits the oldest waiting append: its records get the next offsets and its future completes. */
    void commitNext() {
        Pending p;
        long newEnd;
        synchronized (this) {
            p = pending.poll();
            RecordBatchHeader h = new RecordBatchHeader(p.batch(), 0);
            p.batch().putLong(RecordBatchHeader.BASE_OFFSET_OFFSET, end);
            end += h.lastOffsetDelta() + 1;
            newEnd = end;
            committed.add(p.batch());
        }
        p.future().complete(newEnd); // outside the lock: the runtime may append again from here
    }

    /** Fails the oldest waiting append with the log's error; nothing is written. */
    void failNext(ErrorCode error) {
        Pending p;
        synchronized (this) {
            p = pending.poll();
        }
        p.future().completeExceptionally(new LogException(error, "test says " + error));
    }

    @Override
    public long startOffset() {
        return 0;
    }

    @Override
    public synchronized long committedEndOffset() {
        return end;
    }

    @Override
    public synchronized ByteBuffer read(long offset, int maxBytes) {
        List<ByteBuffer> from = new ArrayList<>();
        int size = 0;
        for (ByteBuffer b : committed) {
            RecordBatchHeader h = new RecordBatchHeader(b, 0);
            if (h.lastOffset() >= offset) {
                from.add(b.duplicate());
                size += b.remaining();
            }
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        from.forEach(out::put);
        return out.flip();
    }
}
