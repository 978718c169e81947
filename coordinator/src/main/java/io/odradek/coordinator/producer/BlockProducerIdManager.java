package io.odradek.coordinator.producer;

import io.odradek.coordinator.runtime.CoordinatorException;
import io.odradek.wire.ErrorCode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Producer ids in a cluster (Kafka's RPCProducerIdManager): blocks of {@code blockSize} ids handed out by
 * the controller, which never gives the same block twice, so no two brokers share an id. The first block is
 * asked for on first need; the next one once 90% of the current block is used (Kafka's prefetch threshold),
 * so callers normally get an id at once. A caller that finds both blocks drained waits for the next one
 * (completed on the thread that delivers it). A failed request fails those waiting with
 * COORDINATOR_LOAD_IN_PROGRESS, as Kafka answers while it has no block; the next call asks again.
 * The unused rest of a block is lost at restart, as in Kafka. Thread-safe.
 */
public final class BlockProducerIdManager implements ProducerIdManager {
    /** Kafka's ProducerIdManager.PID_PREFETCH_THRESHOLD. */
    static final double PREFETCH_THRESHOLD = 0.90;

    /** Asks the controller for a block: completes with its first id (the block is {@code blockSize} long). */
    @FunctionalInterface
    public interface BlockSource {
        CompletableFuture<Long> nextBlock();
    }

    private final BlockSource source;
    private final int blockSize;
    private final ArrayDeque<CompletableFuture<Long>> waiters = new ArrayDeque<>();
    /** Ids in [next, end) are ours to hand out. */
    private long next;
    private long end;
    /** Where the next block is asked for: 90% into the current one. */
    private long prefetchAt;
    /** The first id of a block that arrived before the current one ran out; -1 when none. */
    private long nextBlockStart = -1;
    private boolean requesting;
    private boolean closed;

    public BlockProducerIdManager(BlockSource source, int blockSize) {
        if (blockSize <= 0) {
            throw new IllegalArgumentException("block size must be positive: " + blockSize);
        }
        this.source = source;
        this.blockSize = blockSize;
    }

    @Override
    public CompletableFuture<Long> nextProducerId() {
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(new IllegalStateException("producer id manager is closed"));
            }
            CompletableFuture<Long> result;
            if (waiters.isEmpty() && takeNextBlockIfDrained()) {
                result = CompletableFuture.completedFuture(next++);
            } else {
                result = new CompletableFuture<>();
                waiters.add(result);
            }
            maybeRequest();
            return result;
        }
    }

    /** Caller holds the lock. True if an id is ready in the current block (switching to the next if needed). */
    private boolean takeNextBlockIfDrained() {
        if (next < end) {
            return true;
        }
        if (nextBlockStart < 0) {
            return false;
        }
        use(nextBlockStart);
        nextBlockStart = -1;
        return true;
    }

    private void use(long first) {
        next = first;
        end = first + blockSize;
        prefetchAt = first + (long) (blockSize * PREFETCH_THRESHOLD);
    }

    /** Caller holds the lock: asks for a block when none is coming and the current one is (nearly) used up. */
    private void maybeRequest() {
        if (requesting || closed || nextBlockStart >= 0 || (next < end && next < prefetchAt)) {
            return;
        }
        requesting = true;
        CompletableFuture<Long> block;
        try {
            block = source.nextBlock();
        } catch (RuntimeException e) {
            block = CompletableFuture.failedFuture(e);
        }
        block.whenComplete(this::onBlock);
    }

    private void onBlock(Long first, Throwable failure) {
        List<CompletableFuture<Long>> failed = List.of();
        List<CompletableFuture<Long>> served = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        synchronized (this) {
            requesting = false;
            if (failure != null || first == null || first < 0) {
                failed = List.copyOf(waiters);
                waiters.clear();
            } else if (!closed) {
                nextBlockStart = first;
                while (!waiters.isEmpty() && takeNextBlockIfDrained()) {
                    served.add(waiters.poll());
                    ids.add(next++);
                }
                maybeRequest();
            }
        }
        // Completed outside the lock: a waiter's continuation may ask for the next id at once.
        for (int i = 0; i < served.size(); i++) {
            served.get(i).complete(ids.get(i));
        }
        if (!failed.isEmpty()) {
            // Kafka's RPCProducerIdManager answers this while it has no block; clients retry.
            CoordinatorException noBlock = new CoordinatorException(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
                    "no producer id block from the controller: " + (failure != null ? failure : "none given"));
            for (CompletableFuture<Long> waiter : failed) {
                waiter.completeExceptionally(noBlock);
            }
        }
    }

    @Override
    public void close() {
        List<CompletableFuture<Long>> pending;
        synchronized (this) {
            closed = true;
            pending = List.copyOf(waiters);
            waiters.clear();
        }
        for (CompletableFuture<Long> waiter : pending) {
            waiter.completeExceptionally(new IllegalStateException("producer id manager is closed"));
        }
    }
}
