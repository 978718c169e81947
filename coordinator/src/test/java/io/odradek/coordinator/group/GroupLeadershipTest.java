package io.odradek.coordinator.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.runtime.CoordinatorLog;
import io.odradek.coordinator.runtime.ForwardingCoordinatorLog;
import io.odradek.coordinator.runtime.ManualScheduler;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group coordinators of a cluster: two brokers' coordinators over the same {@code __consumer_offsets}
 * partitions (as replicas hold the same records), each serving only the partitions it leads, loading on
 * election and dropping them on resignation.
 */
class GroupLeadershipTest {
    private static final int PARTITIONS = 3;
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);

    @TempDir
    Path dir;
    private final List<PartitionLog> logs = new ArrayList<>();
    private final ManualScheduler clock = new ManualScheduler();
    private final GroupCoordinatorConfig config = GroupCoordinatorConfig.from(Map.of(
            "offsets.topic.num.partitions", Integer.toString(PARTITIONS), "group.initial.rebalance.delay.ms", "0"));
    /** Until the test completes it, loads wait for the log's tail to be committed. */
    private CompletableFuture<Void> caughtUp = CompletableFuture.completedFuture(null);
    private GroupCoordinator broker1;
    private GroupCoordinator broker2;

    @BeforeEach
    void open() {
        for (int p = 0; p < PARTITIONS; p++) {
            logs.add(PartitionLog.open(dir, OffsetsTopic.NAME, p, LogConfig.defaults()));
        }
        broker1 = GroupCoordinator.createForElections(config, this::log, p -> clock, () -> CompletableFuture.completedFuture(PARTITIONS));
        broker2 = GroupCoordinator.createForElections(config, this::log, p -> clock, () -> CompletableFuture.completedFuture(PARTITIONS));
    }

    @AfterEach
    void close() {
        broker1.close();
        broker2.close();
        logs.forEach(PartitionLog::close);
    }

    private CoordinatorLog log(int p) {
        CoordinatorLog local = new PartitionLogCoordinatorLog(logs.get(p));
        CompletableFuture<Void> waitFor = caughtUp;
        return new ForwardingCoordinatorLog(local) {
            @Override
            public CompletableFuture<Void> whenCaughtUp() {
                return waitFor;
            }
        };
    }

    private static Map<TopicPartition, ErrorCode> commit(GroupCoordinator coordinator, String group, long offset) {
        return coordinator.commitOffsets(new OffsetCommitRequest(group, -1, "", null, -1,
                List.of(new OffsetCommitRequest.Partition(ORDERS_0, offset, 3, "m")), (short) 9)).join();
    }

    private static OffsetFetchResult fetch(GroupCoordinator coordinator, String group) {
        return coordinator.fetchOffsets(group, List.of(ORDERS_0)).join();
    }

    @Test
    void committedOffsetsFollowTheLeadershipOfTheGroupsPartition() {
        int partition = broker1.partitionFor("payments");
        broker1.onElection(partition, PARTITIONS).join();

        assertThat(commit(broker1, "payments", 42)).containsExactly(entry(ORDERS_0, ErrorCode.NONE));
        assertThat(fetch(broker2, "payments").error()).isEqualTo(ErrorCode.NOT_COORDINATOR);

        // Leadership moves to broker 2: broker 1 stops answering, broker 2 reads the group back from the log.
        broker1.onResignation(partition).join();
        broker2.onElection(partition, PARTITIONS).join();
        assertThat(commit(broker1, "payments", 43)).containsExactly(entry(ORDERS_0, ErrorCode.NOT_COORDINATOR));
        assertThat(fetch(broker2, "payments").offsets().get(ORDERS_0).offset()).isEqualTo(42L);
        assertThat(fetch(broker2, "payments").offsets().get(ORDERS_0).metadata()).isEqualTo("m");

        // And back: broker 1 replays what broker 2 wrote meanwhile.
        assertThat(commit(broker2, "payments", 44)).containsExactly(entry(ORDERS_0, ErrorCode.NONE));
        broker2.onResignation(partition).join();
        broker1.onElection(partition, PARTITIONS).join();
        assertThat(fetch(broker1, "payments").offsets().get(ORDERS_0).offset()).isEqualTo(44L);
        assertThat(fetch(broker2, "payments").error()).isEqualTo(ErrorCode.NOT_COORDINATOR);
    }

    @Test
    void aBrokerLedAgainUnderANewerEpochWithoutSeeingItsResignationReadsWhatTheOtherLeaderWrote() {
        int partition = broker1.partitionFor("payments");
        broker1.onElection(partition, PARTITIONS, 1).join();
        assertThat(commit(broker1, "payments", 42)).containsExactly(entry(ORDERS_0, ErrorCode.NONE));

        // Broker 2 led the partition under epoch 2 and wrote; broker 1 never heard it lost leadership.
        broker2.onElection(partition, PARTITIONS, 2).join();
        assertThat(commit(broker2, "payments", 43)).containsExactly(entry(ORDERS_0, ErrorCode.NONE));
        broker2.onResignation(partition).join();

        broker1.onElection(partition, PARTITIONS, 3).join();
        assertThat(fetch(broker1, "payments").offsets().get(ORDERS_0).offset()).isEqualTo(43L);
        // The same epoch again is the load there is (nothing read back).
        broker1.onElection(partition, PARTITIONS, 3).join();
        assertThat(fetch(broker1, "payments").offsets().get(ORDERS_0).offset()).isEqualTo(43L);
    }

    @Test
    void aPartitionResignedWhileItsReloadUnderANewerEpochWaitsStaysUnloaded() {
        int partition = broker1.partitionFor("payments");
        broker1.onElection(partition, PARTITIONS, 1).join();
        commit(broker1, "payments", 42);

        clock.hold(); // the partition's thread is busy: the unload before the reload waits
        CompletableFuture<Void> reloaded = broker1.onElection(partition, PARTITIONS, 2);
        CompletableFuture<Void> resigned = broker1.onResignation(partition);
        clock.release();
        reloaded.join();
        resigned.join();

        assertThat(fetch(broker1, "payments").error()).isEqualTo(ErrorCode.NOT_COORDINATOR);
        assertThat(commit(broker1, "payments", 43)).containsExactly(entry(ORDERS_0, ErrorCode.NOT_COORDINATOR));
    }

    @Test
    void aNewLeaderWhoseLogsTailNeverCommitsDoesNotLoadAndIsNotCoordinatorUntilElectedAgain() {
        int partition = broker1.partitionFor("payments");
        broker1.onElection(partition, PARTITIONS, 1).join();
        commit(broker1, "payments", 7);
        broker1.onResignation(partition).join();

        caughtUp = CompletableFuture.failedFuture(new IllegalStateException("no longer the leader"));
        CompletableFuture<Void> loaded = broker2.onElection(partition, PARTITIONS, 2);

        assertThat(loaded).isCompletedExceptionally();
        assertThat(fetch(broker2, "payments").error()).isEqualTo(ErrorCode.NOT_COORDINATOR);
        assertThat(commit(broker2, "payments", 8)).containsExactly(entry(ORDERS_0, ErrorCode.NOT_COORDINATOR));

        // Elected again, with the tail committed this time: everything is read.
        caughtUp = CompletableFuture.completedFuture(null);
        broker2.onElection(partition, PARTITIONS, 3).join();
        assertThat(fetch(broker2, "payments").offsets().get(ORDERS_0).offset()).isEqualTo(7L);
    }

    @Test
    void aGroupWhosePartitionIsLedByAnotherBrokerIsNotCoordinatedHere() {
        String here = "payments";
        String elsewhere = groupOnAnotherPartitionThan(broker1.partitionFor(here));
        broker1.onElection(broker1.partitionFor(here), PARTITIONS).join();

        assertThat(commit(broker1, here, 1)).containsExactly(entry(ORDERS_0, ErrorCode.NONE));
        assertThat(commit(broker1, elsewhere, 1)).containsExactly(entry(ORDERS_0, ErrorCode.NOT_COORDINATOR));
        assertThat(broker1.heartbeat(elsewhere, "m", null, 1).join()).isEqualTo(ErrorCode.NOT_COORDINATOR);
        // ListGroups lists the groups of the partitions led here only.
        assertThat(broker1.listGroups(List.of(), List.of()).join().groups()).extracting(GroupOverview::groupId)
                .containsExactly(here);
    }

    @Test
    void aNewLeaderAnswersLoadInProgressUntilItsLogsTailIsCommittedThenReadsAllOfIt() {
        int partition = broker1.partitionFor("payments");
        broker1.onElection(partition, PARTITIONS).join();
        commit(broker1, "payments", 7);
        broker1.onResignation(partition).join();

        caughtUp = new CompletableFuture<>();
        CompletableFuture<Void> loaded = broker2.onElection(partition, PARTITIONS);

        assertThat(loaded).isNotDone();
        assertThat(fetch(broker2, "payments").error()).isEqualTo(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
        assertThat(commit(broker2, "payments", 8)).containsExactly(entry(ORDERS_0, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS));

        caughtUp.complete(null);
        loaded.join();
        assertThat(fetch(broker2, "payments").offsets().get(ORDERS_0).offset()).isEqualTo(7L);
    }

    private String groupOnAnotherPartitionThan(int partition) {
        for (int i = 0; ; i++) {
            String group = "group-" + i;
            if (broker1.partitionFor(group) != partition) {
                return group;
            }
        }
    }
}
