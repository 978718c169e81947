package io.odradek.broker.share;

import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * issue 12 share fetch: the persister the broker wires until the share coordinator's (BrokerServices
 * sharePersister, part "sharestate") is merged: every call answers COORDINATOR_NOT_AVAILABLE, so share
 * partitions cannot initialize and share fetches answer that error. Remove once the real one is wired.
 */
public final class UnavailableSharePersister implements SharePersister {
    private static final String WHY = "no share coordinator on this broker yet";

    @Override
    public CompletableFuture<ErrorCode> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
        return CompletableFuture.completedFuture(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    }

    @Override
    public CompletableFuture<PersistedShareState> read(SharePartitionKey key, int leaderEpoch) {
        return CompletableFuture.completedFuture(PersistedShareState.error(ErrorCode.COORDINATOR_NOT_AVAILABLE, WHY));
    }

    @Override
    public CompletableFuture<ErrorCode> write(SharePartitionKey key, int stateEpoch, int leaderEpoch, long startOffset,
            int deliveryCompleteCount, List<StateBatch> batches) {
        return CompletableFuture.completedFuture(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    }

    @Override
    public CompletableFuture<ShareStateSummary> readSummary(SharePartitionKey key, int leaderEpoch) {
        return CompletableFuture.completedFuture(ShareStateSummary.error(ErrorCode.COORDINATOR_NOT_AVAILABLE, WHY));
    }

    @Override
    public CompletableFuture<ErrorCode> delete(SharePartitionKey key) {
        return CompletableFuture.completedFuture(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    }
}
