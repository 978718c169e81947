package io.odradek.broker.coordinators;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.group.OffsetCommitRequest;
import io.odradek.coordinator.group.TopicCatalog;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.PartitionWriters;
import io.odradek.replication.partition.WaitingOperations;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new leader of an offsets partition over the replicated Partition: its log holds what the previous
 * leader wrote, above its high watermark until the other in-sync replica fetches; the groups load only then,
 * and then all of it.
 */
class LeaderCoordinatorLogTest {
    private static final UUID TOPIC_ID = new UUID(7, 7);
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final GroupCoordinatorConfig CONFIG = GroupCoordinatorConfig.from(Map.of("offsets.topic.num.partitions", "1"));

    @TempDir
    Path dir;
    private final PartitionWriters writers = new PartitionWriters(1);
    private final WaitingOperations<Partition> waiting = new WaitingOperations<>("test");
    private PartitionLog log;
    private GroupCoordinator coordinator;

    @AfterEach
    void stop() {
        if (coordinator != null) {
            coordinator.close();
        }
        writers.close();
        waiting.close();
        log.close();
    }

    private static OffsetCommitRequest commit(String group, long offset) {
        return new OffsetCommitRequest(group, -1, "", null, -1, List.of(new OffsetCommitRequest.Partition(ORDERS_0, offset, 0, "")),
                (short) 9);
    }

    @Test
    void theGroupsLoadOnceTheTailThePreviousLeaderWroteIsCommittedAndAllOfItIsRead() throws Exception {
        log = PartitionLog.open(dir.resolve("__consumer_offsets-0"), OffsetsTopic.NAME, 0, LogConfig.defaults(),
                PartitionLog.Options.defaults().withTopicId(TOPIC_ID));
        // What the previous leader wrote and this replica fetched: a committed offset of group "g".
        try (GroupCoordinator previous = GroupCoordinator.create(CONFIG, p -> new PartitionLogCoordinatorLog(log))) {
            previous.startup();
            awaitAnswer(() -> previous.commitOffsets(commit("g", 42)).join().get(ORDERS_0));
        }
        long logEnd = log.logEndOffset();
        assertThat(logEnd).isPositive();

        // Broker 2 becomes leader at epoch 1 with broker 1 in the ISR: nothing is committed under it yet.
        Partition partition = new Partition(log, TOPIC_ID, 2, new FakeCluster(2).controller().orElseThrow(), () -> 102L,
                writers.writerFor(OffsetsTopic.NAME, 0), waiting);
        partition.makeLeader(new PartitionRegistration(List.of(2, 1), List.of(2, 1), List.of(), List.of(), 2, 1, 1),
                System.currentTimeMillis());
        assertThat(partition.highWatermark()).isLessThan(logEnd);
        coordinator = GroupCoordinator.createForElections(CONFIG, p -> new LeaderCoordinatorLog(partition), TopicCatalog.EMPTY,
                () -> CompletableFuture.completedFuture(1));

        CompletableFuture<Void> loaded = coordinator.onElection(0, 1);
        assertThat(loaded).isNotDone();
        assertThat(coordinator.fetchOffsets("g", List.of(ORDERS_0)).join().error()).isEqualTo(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);

        partition.updateFollowerFetchState(1, 101L, logEnd, System.currentTimeMillis()); // broker 1 has it all

        loaded.get(10, TimeUnit.SECONDS);
        assertThat(coordinator.fetchOffsets("g", List.of(ORDERS_0)).join().offsets().get(ORDERS_0).offset()).isEqualTo(42L);
    }

    /** Retries a load-in-progress answer (the single-node coordinator loads on its own thread). */
    private static void awaitAnswer(Supplier<ErrorCode> call) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        ErrorCode error = call.get();
        while (error == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS && System.nanoTime() < deadline) {
            Thread.sleep(10);
            error = call.get();
        }
        assertThat(error).isEqualTo(ErrorCode.NONE);
    }
}
