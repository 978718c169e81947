package io.odradek.coordinator.share.state;

import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The {@link SharePersister} of a broker whose own share coordinator serves every {@code __share_group_state}
 * partition (one node): each call goes straight to the {@link ShareCoordinator}, with its errors as Kafka's
 * share coordinator answers them (NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS / COORDINATOR_NOT_AVAILABLE
 * while a partition is not served yet, which the caller retries). A broker whose {@code __share_group_state}
 * does not exist yet gives a {@code ready} step that creates and loads it first, as Kafka's persister finds
 * (and so creates) the coordinator before each call; while that fails calls answer COORDINATOR_NOT_AVAILABLE.
 */
public final class LocalSharePersister implements SharePersister {
    private final ShareCoordinator coordinator;
    private final Supplier<CompletableFuture<Void>> ready;

    /** Over a coordinator whose partitions are loaded (or answer NOT_COORDINATOR until they are). */
    public LocalSharePersister(ShareCoordinator coordinator) {
        this(coordinator, () -> CompletableFuture.completedFuture(null));
    }

    /** @param ready completes once the coordinator's partitions exist and are loaded (fails: COORDINATOR_NOT_AVAILABLE) */
    public LocalSharePersister(ShareCoordinator coordinator, Supplier<CompletableFuture<Void>> ready) {
        this.coordinator = coordinator;
        this.ready = ready;
    }

    /** {@code call} once ready; {@code unavailable} when the coordinator cannot be made ready. */
    private <T> CompletableFuture<T> whenReady(Supplier<CompletableFuture<T>> call, Function<String, T> unavailable) {
        CompletableFuture<Void> r;
        try {
            r = ready.get();
        } catch (RuntimeException e) {
            r = CompletableFuture.failedFuture(e);
        }
        return r.handle((v, e) -> e).thenCompose(e -> e == null ? call.get()
                : CompletableFuture.completedFuture(unavailable.apply("The coordinator is not available.")));
    }

    @Override
    public CompletableFuture<ErrorCode> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
        return whenReady(() -> coordinator.initialize(key, stateEpoch, startOffset).thenApply(ShareStateResult::error),
                m -> ErrorCode.COORDINATOR_NOT_AVAILABLE);
    }

    @Override
    public CompletableFuture<PersistedShareState> read(SharePartitionKey key, int leaderEpoch) {
        return whenReady(() -> coordinator.read(key, leaderEpoch),
                m -> PersistedShareState.error(ErrorCode.COORDINATOR_NOT_AVAILABLE, m));
    }

    @Override
    public CompletableFuture<ErrorCode> write(SharePartitionKey key, int stateEpoch, int leaderEpoch, long startOffset,
            int deliveryCompleteCount, List<StateBatch> batches) {
        return whenReady(() -> coordinator.write(key, stateEpoch, leaderEpoch, startOffset, deliveryCompleteCount, batches)
                .thenApply(ShareStateResult::error), m -> ErrorCode.COORDINATOR_NOT_AVAILABLE);
    }

    /** The leader epoch is not checked by Kafka's summary read; it is not sent further. */
    @Override
    public CompletableFuture<ShareStateSummary> readSummary(SharePartitionKey key, int leaderEpoch) {
        return whenReady(() -> coordinator.readSummary(key), m -> ShareStateSummary.error(ErrorCode.COORDINATOR_NOT_AVAILABLE, m));
    }

    @Override
    public CompletableFuture<ErrorCode> delete(SharePartitionKey key) {
        return whenReady(() -> coordinator.delete(key).thenApply(ShareStateResult::error), m -> ErrorCode.COORDINATOR_NOT_AVAILABLE);
    }
}
