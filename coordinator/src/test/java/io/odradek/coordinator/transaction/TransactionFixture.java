package io.odradek.coordinator.transaction;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.coordinator.runtime.CoordinatorLoader;
import io.odradek.coordinator.runtime.ManualScheduler;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A transaction coordinator over real {@code __transaction_state} partition logs in a temp dir, on a
 * manual clock, with a marker writer that records every call and answers as the test says.
 */
final class TransactionFixture implements AutoCloseable {
    static final int PARTITIONS = 3;
    static final int TIMEOUT_MS = 60_000;

    final Path dir;
    final TransactionCoordinatorConfig config;
    final ManualScheduler clock = new ManualScheduler();
    final RecordingMarkerWriter markers = new RecordingMarkerWriter();
    final List<PartitionLog> logs = new ArrayList<>();
    ProducerIdManager producerIds;
    TransactionCoordinator coordinator;
    /** The coordinator epoch each partition is loaded with. */
    int coordinatorEpoch;

    TransactionFixture(Path dir) {
        this(dir, config(Map.of()));
    }

    TransactionFixture(Path dir, TransactionCoordinatorConfig config) {
        this.dir = dir;
        this.config = config;
        open();
    }

    static TransactionCoordinatorConfig config(Map<String, String> overrides) {
        Map<String, String> props = new HashMap<>(overrides);
        props.putIfAbsent("transaction.state.log.num.partitions", Integer.toString(PARTITIONS));
        props.putIfAbsent("offsets.topic.num.partitions", "50");
        return TransactionCoordinatorConfig.from(props);
    }

    private void open() {
        logs.clear();
        for (int p = 0; p < config.stateLogPartitions(); p++) {
            logs.add(PartitionLog.open(dir, TransactionCoordinator.TOPIC, p, LogConfig.defaults()));
        }
        producerIds = ProducerIdManager.open(dir, 10);
        coordinator = TransactionCoordinator.create(config, p -> new PartitionLogCoordinatorLog(logs.get(p)), producerIds,
                markers, p -> clock);
        for (int p = 0; p < config.stateLogPartitions(); p++) {
            coordinator.onElection(p, coordinatorEpoch).join();
        }
        clock.advance(0); // what a loaded partition does first (complete prepared transactions) runs now
    }

    /** Stops the coordinator and closes its logs, then opens both again: what a broker restart does. */
    void restart() {
        closeAll();
        open();
    }

    private void closeAll() {
        coordinator.close();
        producerIds.close();
        logs.forEach(PartitionLog::close);
    }

    @Override
    public void close() {
        closeAll();
    }

    /** Every record of the id's partition, in log order, as the coordinator reads them back. */
    List<TransactionRecord> records(String transactionalId) {
        List<TransactionRecord> out = new ArrayList<>();
        CoordinatorLoader.replay(new PartitionLogCoordinatorLog(logs.get(coordinator.partitionFor(transactionalId))),
                new TransactionLogCodec((short) 2), r -> {
                    if (r.transactionalId().equals(transactionalId)) {
                        out.add(r);
                    }
                }, "test");
        return out;
    }

    /** Appends a record to the id's partition as if an earlier coordinator (or Kafka) had written it. */
    void seed(String transactionalId, TransactionMetadata metadata) {
        new PartitionLogCoordinatorLog(logs.get(coordinator.partitionFor(transactionalId)))
                .append(CoordinatorLoader.batch(new TransactionLogCodec((short) 2),
                        List.of(new TransactionRecord(transactionalId, metadata)), clock.nowMs())).join();
    }

    TransactionMetadata state(String transactionalId) {
        return coordinator.stateOf(transactionalId).join();
    }

    // ------------------------------------------------------------------ producer-side helpers

    InitProducerIdResult init(String transactionalId) {
        return coordinator.initProducerId(transactionalId, TIMEOUT_MS, -1L, (short) -1, false, false).join();
    }

    ErrorCode add(String transactionalId, InitProducerIdResult producer, TopicPartition... partitions) {
        Map<TopicPartition, ErrorCode> errors = coordinator.addPartitions(transactionalId, producer.producerId(),
                producer.producerEpoch(), List.of(partitions)).join();
        return errors.values().iterator().next();
    }

    EndTxnResult end(String transactionalId, InitProducerIdResult producer, boolean commit) {
        return coordinator.endTransaction(transactionalId, producer.producerId(), producer.producerEpoch(), commit, false).join();
    }

    static TopicPartition tp(String topic, int partition) {
        return new TopicPartition(topic, partition);
    }

    /** One writeMarkers call. */
    record MarkerCall(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit, Set<TopicPartition> partitions) {
    }

    /**
     * Records every call. Answers NONE for every partition at once, unless the test queued other answers
     * ({@link #answerNext}) or holds them ({@link #hold}) to answer later ({@link #release}).
     */
    static final class RecordingMarkerWriter implements TransactionMarkerWriter {
        final List<MarkerCall> calls = new ArrayList<>();
        private final ArrayDeque<Map<TopicPartition, ErrorCode>> scripted = new ArrayDeque<>();
        private final ArrayDeque<Runnable> held = new ArrayDeque<>();
        private boolean holding;

        @Override
        public synchronized CompletableFuture<Map<TopicPartition, ErrorCode>> writeMarkers(long producerId, short producerEpoch,
                int coordinatorEpoch, boolean commit, Collection<TopicPartition> partitions) {
            calls.add(new MarkerCall(producerId, producerEpoch, coordinatorEpoch, commit, Set.copyOf(partitions)));
            Map<TopicPartition, ErrorCode> answer = new LinkedHashMap<>();
            Map<TopicPartition, ErrorCode> script = scripted.poll();
            for (TopicPartition tp : partitions) {
                answer.put(tp, script == null ? ErrorCode.NONE : script.getOrDefault(tp, ErrorCode.NONE));
            }
            CompletableFuture<Map<TopicPartition, ErrorCode>> f = new CompletableFuture<>();
            if (holding) {
                held.add(() -> f.complete(answer));
            } else {
                f.complete(answer);
            }
            return f;
        }

        /** The next call answers these errors (NONE for partitions not named). */
        void answerNext(Map<TopicPartition, ErrorCode> errors) {
            scripted.add(errors);
        }

        /** Calls from now on wait for {@link #release}. */
        void hold() {
            holding = true;
        }

        /** Answers the held calls and answers at once again. */
        void release() {
            holding = false;
            while (!held.isEmpty()) {
                held.poll().run();
            }
        }

        MarkerCall last() {
            return calls.get(calls.size() - 1);
        }
    }
}
