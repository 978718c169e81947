package io.odradek.coordinator.share.partition;

import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A persister that answers reads with a given state and records every write (answering NONE unless told otherwise); writes may come from any thread. */
final class RecordingPersister implements SharePersister {
    record Write(int stateEpoch, int leaderEpoch, long startOffset, int deliveryCompleteCount, List<StateBatch> batches) {
    }

    record Init(int stateEpoch, long startOffset) {
    }

    final List<Write> writes = Collections.synchronizedList(new ArrayList<>());
    final List<Init> inits = Collections.synchronizedList(new ArrayList<>());
    PersistedShareState readAnswer = new PersistedShareState(ErrorCode.NONE, null, 0, -1, -1, List.of());
    ErrorCode writeAnswer = ErrorCode.NONE;
    /** When set, writes stay pending here until the test completes them. */
    boolean holdWrites;
    final List<CompletableFuture<ErrorCode>> held = new ArrayList<>();

    @Override
    public CompletableFuture<ErrorCode> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
        inits.add(new Init(stateEpoch, startOffset));
        return CompletableFuture.completedFuture(ErrorCode.NONE);
    }

    @Override
    public CompletableFuture<PersistedShareState> read(SharePartitionKey key, int leaderEpoch) {
        return CompletableFuture.completedFuture(readAnswer);
    }

    @Override
    public CompletableFuture<ErrorCode> write(SharePartitionKey key, int stateEpoch, int leaderEpoch, long startOffset,
            int deliveryCompleteCount, List<StateBatch> batches) {
        writes.add(new Write(stateEpoch, leaderEpoch, startOffset, deliveryCompleteCount, List.copyOf(batches)));
        if (holdWrites) {
            CompletableFuture<ErrorCode> f = new CompletableFuture<>();
            held.add(f);
            return f;
        }
        return CompletableFuture.completedFuture(writeAnswer);
    }

    @Override
    public CompletableFuture<ShareStateSummary> readSummary(SharePartitionKey key, int leaderEpoch) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<ErrorCode> delete(SharePartitionKey key) {
        throw new UnsupportedOperationException();
    }

    Write lastWrite() {
        return writes.get(writes.size() - 1);
    }
}
