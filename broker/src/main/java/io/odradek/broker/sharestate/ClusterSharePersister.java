package io.odradek.broker.sharestate;

import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.txn.InterBrokerSender;
import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.coordinator.share.state.LocalSharePersister;
import io.odradek.coordinator.share.state.ShareCoordinator;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The {@link SharePersister} of a broker in a cluster (Kafka's DefaultStatePersister): a share partition's state
 * is kept by the share coordinator of its key, the leader of the key's {@code __share_group_state} partition in
 * the newest metadata image ({@code abs(coordinatorKey.hashCode()) % partitions}, by the topic's partition count
 * there). Led here: this broker's {@link ShareCoordinator} answers. Elsewhere: the share-state request
 * (InitializeShareGroupState v0, ReadShareGroupState v0, WriteShareGroupState v1, DeleteShareGroupState v0,
 * ReadShareGroupStateSummary v1) for that one share partition goes to that broker over the inter-broker sender.
 *
 * <p>Retries, as Kafka's PersisterStateManager: an answer of NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE or
 * COORDINATOR_LOAD_IN_PROGRESS, a coordinator partition without a leader, a broker that cannot be reached, or a
 * topic still being created are tried again with the newest image after a backoff (50 ms doubling to 1 s), up to
 * {@value #MAX_ATTEMPTS} attempts; the last error is then the answer (NETWORK_EXCEPTION for an unreachable broker).
 * A topic that does not exist yet is created first, as FindCoordinator would.
 */
public final class ClusterSharePersister implements SharePersister {
    static final int MAX_ATTEMPTS = 10;
    private static final long FIRST_BACKOFF_MS = 50;
    private static final long MAX_BACKOFF_MS = 1000;

    private final ClusterView cluster;
    private final ShareCoordinator local;
    private final SharePersister localPersister;
    private final InterBrokerSender sender;
    private final Supplier<CompletableFuture<Integer>> createTopic;
    /** Runs a retry after its backoff (tests: at once). */
    private final IntFunction<Executor> after;

    /**
     * @param createTopic creates {@code __share_group_state} through the controller if it does not exist (its
     *                    partition count once it does)
     */
    public ClusterSharePersister(ClusterView cluster, ShareCoordinator local, InterBrokerSender sender,
            Supplier<CompletableFuture<Integer>> createTopic) {
        this(cluster, local, sender, createTopic, attempt -> CompletableFuture.delayedExecutor(backoffMs(attempt), TimeUnit.MILLISECONDS));
    }

    ClusterSharePersister(ClusterView cluster, ShareCoordinator local, InterBrokerSender sender,
            Supplier<CompletableFuture<Integer>> createTopic, IntFunction<Executor> after) {
        this.cluster = cluster;
        this.local = local;
        this.localPersister = new LocalSharePersister(local);
        this.sender = sender;
        this.createTopic = createTopic;
        this.after = after;
    }

    static long backoffMs(int attempt) {
        return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS << Math.min(attempt, 10));
    }

    @Override
    public CompletableFuture<ErrorCode> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
        return call(key, (e, m) -> e, e -> e, () -> localPersister.initialize(key, stateEpoch, startOffset),
                broker -> sender.send(broker, ShareStateMessages.INITIALIZE.spec(), ShareStateMessages.INITIALIZE.version(),
                        ShareStateMessages.initializeRequest(key, stateEpoch, startOffset)).thenApply(ShareStateMessages::initializeError));
    }

    @Override
    public CompletableFuture<PersistedShareState> read(SharePartitionKey key, int leaderEpoch) {
        return call(key, PersistedShareState::error, s -> s.error(), () -> localPersister.read(key, leaderEpoch),
                broker -> sender.send(broker, ShareStateMessages.READ.spec(), ShareStateMessages.READ.version(),
                        ShareStateMessages.readRequest(key, leaderEpoch)).thenApply(ShareStateMessages::readState));
    }

    @Override
    public CompletableFuture<ErrorCode> write(SharePartitionKey key, int stateEpoch, int leaderEpoch, long startOffset,
            int deliveryCompleteCount, List<StateBatch> batches) {
        List<StateBatch> copy = List.copyOf(batches);
        return call(key, (e, m) -> e, e -> e,
                () -> localPersister.write(key, stateEpoch, leaderEpoch, startOffset, deliveryCompleteCount, copy),
                broker -> sender.send(broker, ShareStateMessages.WRITE.spec(), ShareStateMessages.WRITE.version(),
                        ShareStateMessages.writeRequest(key, stateEpoch, leaderEpoch, startOffset, deliveryCompleteCount, copy))
                        .thenApply(ShareStateMessages::writeError));
    }

    @Override
    public CompletableFuture<ShareStateSummary> readSummary(SharePartitionKey key, int leaderEpoch) {
        return call(key, ShareStateSummary::error, s -> s.error(), () -> localPersister.readSummary(key, leaderEpoch),
                broker -> sender.send(broker, ShareStateMessages.SUMMARY.spec(), ShareStateMessages.SUMMARY.version(),
                        ShareStateMessages.summaryRequest(key, leaderEpoch)).thenApply(ShareStateMessages::summary));
    }

    @Override
    public CompletableFuture<ErrorCode> delete(SharePartitionKey key) {
        return call(key, (e, m) -> e, e -> e, () -> localPersister.delete(key),
                broker -> sender.send(broker, ShareStateMessages.DELETE.spec(), ShareStateMessages.DELETE.version(),
                        ShareStateMessages.deleteRequest(key)).thenApply(ShareStateMessages::deleteError));
    }

    /** An answer that is just an error, with Kafka's message. */
    @FunctionalInterface
    private interface ErrorAnswer<T> {
        T of(ErrorCode error, String message);
    }

    /**
     * One share-state call, retried as the class comment says.
     *
     * @param locally  the call on this broker's coordinator
     * @param remotely the call sent to broker n
     */
    private <T> CompletableFuture<T> call(SharePartitionKey key, ErrorAnswer<T> errorAnswer, Function<T, ErrorCode> errorOf,
            Supplier<CompletableFuture<T>> locally, Function<Integer, CompletableFuture<T>> remotely) {
        if (key.groupId() == null || key.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(errorAnswer.of(ErrorCode.INVALID_REQUEST, "Group id must be specified and non-empty"));
        }
        return attempt(key, errorAnswer, errorOf, locally, remotely, 0);
    }

    private <T> CompletableFuture<T> attempt(SharePartitionKey key, ErrorAnswer<T> errorAnswer, Function<T, ErrorCode> errorOf,
            Supplier<CompletableFuture<T>> locally, Function<Integer, CompletableFuture<T>> remotely, int attempt) {
        CompletableFuture<T> answer;
        try {
            answer = coordinatorOf(key).thenCompose(leader -> leader == null
                    ? CompletableFuture.completedFuture(errorAnswer.of(ErrorCode.COORDINATOR_NOT_AVAILABLE, "The coordinator is not available."))
                    : leader == cluster.localBrokerId() ? locally.get()
                    : remotely.apply(leader).exceptionally(e -> errorAnswer.of(ErrorCode.NETWORK_EXCEPTION,
                            "The server disconnected before a response was received.")));
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        return answer.exceptionally(e -> errorAnswer.of(ErrorCode.COORDINATOR_NOT_AVAILABLE, "The coordinator is not available."))
                .thenCompose(a -> {
                    if (!retriable(errorOf.apply(a)) || attempt + 1 >= MAX_ATTEMPTS) {
                        return CompletableFuture.completedFuture(a);
                    }
                    return CompletableFuture.supplyAsync(() -> null, after.apply(attempt))
                            .thenCompose(v -> attempt(key, errorAnswer, errorOf, locally, remotely, attempt + 1));
                });
    }

    /** Errors after which the coordinator is looked up again (Kafka's persister retries these). */
    static boolean retriable(ErrorCode error) {
        return error == ErrorCode.NOT_COORDINATOR || error == ErrorCode.COORDINATOR_NOT_AVAILABLE
                || error == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS || error == ErrorCode.NETWORK_EXCEPTION;
    }

    /** The broker leading the key's {@code __share_group_state} partition (creating the topic first); null: none now. */
    private CompletableFuture<Integer> coordinatorOf(SharePartitionKey key) {
        TopicImage topic = cluster.image().topic(ShareStateTopic.NAME).orElse(null);
        CompletableFuture<Integer> count = topic != null && !topic.partitions().isEmpty()
                ? CompletableFuture.completedFuture(topic.partitions().size())
                : createTopic.get();
        return count.thenApply(partitions -> {
            local.useStateTopicPartitions(partitions);
            PartitionRegistration p = cluster.image().partition(ShareStateTopic.NAME, local.partitionFor(key)).orElse(null);
            return p == null || !p.hasLeader() ? null : p.leader();
        });
    }
}
