package io.odradek.coordinator.share.state;

import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link SharePersister} of a broker whose own share coordinator serves every {@code __share_group_state}
 * partition (one node): each call goes straight to the {@link ShareCoordinator}, with its errors as Kafka's
 * share coordinator answers them (NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS / COORDINATOR_NOT_AVAILABLE
 * while a partition is not served yet, which the caller retries).
 */
public final class LocalSharePersister implements SharePersister {
    private final ShareCoordinator coordinator;

    public LocalSharePersister(ShareCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletableFuture<ErrorCode> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
        return coordinator.initialize(key, stateEpoch, startOffset).thenApply(ShareStateResult::error);
    }

    @Override
    public CompletableFuture<PersistedShareState> read(SharePartitionKey key, int leaderEpoch) {
        return coordinator.read(key, leaderEpoch);
    }

    @Override
    public CompletableFuture<ErrorCode> write(SharePartitionKey key, int stateEpoch, int leaderEpoch, long startOffset,
            int deliveryCompleteCount, List<StateBatch> batches) {
        return coordinator.write(key, stateEpoch, leaderEpoch, startOffset, deliveryCompleteCount, batches)
                .thenApply(ShareStateResult::error);
    }

    /** The leader epoch is not checked by Kafka's summary read; it is not sent further. */
    @Override
    public CompletableFuture<ShareStateSummary> readSummary(SharePartitionKey key, int leaderEpoch) {
        return coordinator.readSummary(key);
    }

    @Override
    public CompletableFuture<ErrorCode> delete(SharePartitionKey key) {
        return coordinator.delete(key).thenApply(ShareStateResult::error);
    }
}
