package io.odradek.coordinator.transaction;

import static io.odradek.coordinator.transaction.TransactionFixture.tp;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The coordinator on its own threads, markers answered from another thread, as in the broker. */
class CoordinatorThreadsTest {
    @TempDir
    Path dir;

    @Test
    void transactionsOnManyIdsCommitWhileTheMarkersAnswerFromAnotherThread() throws Exception {
        TransactionCoordinatorConfig config = TransactionFixture.config(Map.of());
        List<PartitionLog> logs = new ArrayList<>();
        for (int p = 0; p < config.stateLogPartitions(); p++) {
            logs.add(PartitionLog.open(dir, TransactionCoordinator.TOPIC, p, LogConfig.defaults()));
        }
        ExecutorService brokers = Executors.newSingleThreadExecutor();
        TransactionMarkerWriter markers = new TransactionMarkerWriter() {
            @Override
            public CompletableFuture<Map<TopicPartition, ErrorCode>> writeMarkers(long producerId, short producerEpoch,
                    int coordinatorEpoch, boolean commit, Collection<TopicPartition> partitions) {
                return CompletableFuture.supplyAsync(() -> {
                    Map<TopicPartition, ErrorCode> out = new LinkedHashMap<>();
                    partitions.forEach(tp -> out.put(tp, ErrorCode.NONE));
                    return out;
                }, brokers);
            }
        };
        try (ProducerIdManager ids = ProducerIdManager.open(dir);
                TransactionCoordinator coordinator = TransactionCoordinator.create(config,
                        p -> new PartitionLogCoordinatorLog(logs.get(p)), ids, markers)) {
            coordinator.startup().get(10, TimeUnit.SECONDS);
            List<CompletableFuture<EndTxnResult>> ends = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String id = "tx-" + i;
                InitProducerIdResult p = coordinator.initProducerId(id, 60_000, -1, (short) -1, false, false).get(10, TimeUnit.SECONDS);
                assertThat(p.error()).isEqualTo(ErrorCode.NONE);
                assertThat(coordinator.addPartitions(id, p.producerId(), p.producerEpoch(), List.of(tp("orders", i % 3)))
                        .get(10, TimeUnit.SECONDS).values()).containsOnly(ErrorCode.NONE);
                ends.add(coordinator.endTransaction(id, p.producerId(), p.producerEpoch(), true, false));
            }
            for (CompletableFuture<EndTxnResult> end : ends) {
                assertThat(end.get(10, TimeUnit.SECONDS).error()).isEqualTo(ErrorCode.NONE);
            }
            for (int i = 0; i < 20; i++) {
                String id = "tx-" + i;
                // Completion follows the answer: wait for it (a hang guard, not a speed check).
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (coordinator.stateOf(id).get().state() != TransactionState.COMPLETE_COMMIT && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertThat(coordinator.stateOf(id).get().state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
            }
        } finally {
            brokers.shutdownNow();
            logs.forEach(PartitionLog::close);
        }
    }
}
