package io.odradek.coordinator.transaction;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.coordinator.runtime.CoordinatorLog;
import io.odradek.coordinator.runtime.Scheduler;
import io.odradek.wire.ErrorCode;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

/**
 * The transaction coordinator (API only; implementation follows).
 */
public final class TransactionCoordinator implements TransactionVerifier, AutoCloseable {
    /** The internal topic that holds transaction state. */
    public static final String TOPIC = "__transaction_state";

    private final TransactionCoordinatorConfig config;

    private TransactionCoordinator(TransactionCoordinatorConfig config) {
        this.config = config;
    }

    /** A coordinator on its own threads; call {@link #startup()} (or {@link #onElection} per partition). */
    public static TransactionCoordinator create(TransactionCoordinatorConfig config, IntFunction<CoordinatorLog> logs,
            ProducerIdManager producerIds, TransactionMarkerWriter markers) {
        return new TransactionCoordinator(config);
    }

    /** A coordinator whose partitions run on the given schedulers (tests: a manual clock). */
    public static TransactionCoordinator create(TransactionCoordinatorConfig config, IntFunction<CoordinatorLog> logs,
            ProducerIdManager producerIds, TransactionMarkerWriter markers, IntFunction<Scheduler> schedulers) {
        return new TransactionCoordinator(config);
    }

    public TransactionCoordinatorConfig config() {
        return config;
    }

    /** Loads every partition (one node leads them all), coordinator epoch 0. */
    public void startup() {
    }

    /** Kafka's rule: {@code Utils.abs(transactionalId.hashCode()) % transaction.state.log.num.partitions}. */
    public int partitionFor(String transactionalId) {
        int hash = transactionalId.hashCode();
        return (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % config.stateLogPartitions();
    }

    /** Whether every partition has been loaded. */
    public boolean isLoaded() {
        return false;
    }

    public CompletableFuture<Void> onElection(int partition) {
        return onElection(partition, 0);
    }

    /** @param coordinatorEpoch the partition's leader epoch: stamped into the markers this coordinator writes */
    public CompletableFuture<Void> onElection(int partition, int coordinatorEpoch) {
        throw new UnsupportedOperationException();
    }

    public CompletableFuture<Void> onResignation(int partition) {
        throw new UnsupportedOperationException();
    }

    public CompletableFuture<InitProducerIdResult> initProducerId(String transactionalId, int transactionTimeoutMs,
            long expectedProducerId, short expectedProducerEpoch, boolean enable2Pc, boolean keepPreparedTxn) {
        throw new UnsupportedOperationException();
    }

    public CompletableFuture<Map<TopicPartition, ErrorCode>> addPartitions(String transactionalId, long producerId,
            short producerEpoch, Collection<TopicPartition> partitions) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Map<TopicPartition, ErrorCode>> verify(String transactionalId, long producerId,
            short producerEpoch, Collection<TopicPartition> partitions, boolean addIfMissing) {
        throw new UnsupportedOperationException();
    }

    public CompletableFuture<ErrorCode> addOffsets(String transactionalId, long producerId, short producerEpoch, String groupId) {
        throw new UnsupportedOperationException();
    }

    public CompletableFuture<EndTxnResult> endTransaction(String transactionalId, long producerId, short producerEpoch,
            boolean commit, boolean transactionV2) {
        throw new UnsupportedOperationException();
    }

    public CompletableFuture<ListTransactionsResult> listTransactions(Set<String> states, Set<Long> producerIds,
            long minDurationMs, String transactionalIdPattern) {
        throw new UnsupportedOperationException();
    }

    public CompletableFuture<List<TransactionDescription>> describeTransactions(Collection<String> transactionalIds) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
    }
}
