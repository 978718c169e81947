package io.odradek.coordinator.group;

import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** A SharePersister in memory that remembers what the group coordinator asked of it; it can be told to fail. */
final class FakeSharePersister implements SharePersister {
    record Initialized(SharePartitionKey key, int stateEpoch, long startOffset) {
    }

    final List<Initialized> initialized = new ArrayList<>();
    final List<SharePartitionKey> deleted = new ArrayList<>();
    final Map<SharePartitionKey, ShareStateSummary> summaries = new ConcurrentHashMap<>();
    /** The error the next initialize calls answer (NONE: they succeed). */
    volatile ErrorCode initializeError = ErrorCode.NONE;
    /** Partitions whose initialize answers FENCED_STATE_EPOCH whatever {@link #initializeError} says. */
    final java.util.Set<Integer> failingPartitions = ConcurrentHashMap.newKeySet();
    /** While true, initialize calls stay pending until {@link #releaseHeld} (a share coordinator that is slow). */
    volatile boolean holdInitialize;
    private final List<Runnable> held = new ArrayList<>();

    @Override
    public synchronized CompletableFuture<ErrorCode> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
        if (holdInitialize) {
            CompletableFuture<ErrorCode> pending = new CompletableFuture<>();
            held.add(() -> {
                initialized.add(new Initialized(key, stateEpoch, startOffset));
                summaries.put(key, new ShareStateSummary(ErrorCode.NONE, null, stateEpoch, 0, startOffset, 0));
                pending.complete(ErrorCode.NONE);
            });
            return pending;
        }
        if (initializeError != ErrorCode.NONE) {
            return CompletableFuture.completedFuture(initializeError);
        }
        if (failingPartitions.contains(key.partition())) {
            return CompletableFuture.completedFuture(ErrorCode.FENCED_STATE_EPOCH);
        }
        initialized.add(new Initialized(key, stateEpoch, startOffset));
        summaries.put(key, new ShareStateSummary(ErrorCode.NONE, null, stateEpoch, 0, startOffset, 0));
        return CompletableFuture.completedFuture(ErrorCode.NONE);
    }

    /** Completes the held initialize calls successfully; how many there were. */
    int releaseHeld() {
        List<Runnable> now;
        synchronized (this) {
            holdInitialize = false;
            now = new ArrayList<>(held);
            held.clear();
        }
        now.forEach(Runnable::run);
        return now.size();
    }

    @Override
    public CompletableFuture<PersistedShareState> read(SharePartitionKey key, int leaderEpoch) {
        return CompletableFuture.completedFuture(new PersistedShareState(ErrorCode.NONE, null, 1, 0, leaderEpoch, List.<StateBatch>of()));
    }

    @Override
    public CompletableFuture<ErrorCode> write(SharePartitionKey key, int stateEpoch, int leaderEpoch, long startOffset,
            int deliveryCompleteCount, List<StateBatch> batches) {
        return CompletableFuture.completedFuture(ErrorCode.NONE);
    }

    @Override
    public CompletableFuture<ShareStateSummary> readSummary(SharePartitionKey key, int leaderEpoch) {
        ShareStateSummary s = summaries.get(key);
        // As Kafka 4.4's share coordinator: a partition never initialized (or deleted) is NONE with start offset -1.
        return CompletableFuture.completedFuture(s != null ? s : new ShareStateSummary(ErrorCode.NONE, null, -1, -1, -1, -1));
    }

    @Override
    public synchronized CompletableFuture<ErrorCode> delete(SharePartitionKey key) {
        deleted.add(key);
        summaries.remove(key);
        return CompletableFuture.completedFuture(ErrorCode.NONE);
    }
}
