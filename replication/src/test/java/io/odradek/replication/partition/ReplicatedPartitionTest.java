package io.odradek.replication.partition;

import static io.odradek.replication.partition.PartitionTestData.await;
import static io.odradek.replication.partition.PartitionTestData.batch;
import static io.odradek.replication.partition.PartitionTestData.TOPIC_ID;
import static io.odradek.replication.partition.PartitionTestData.onThreeBrokers;
import static io.odradek.replication.partition.PartitionTestData.openOrdersLog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.AppendResult;
import io.odradek.log.LogAppendException;
import io.odradek.log.PartitionLog;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerCommand.AlterPartition;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A leader and two followers of one partition over real logs, with a controller that records AlterPartition. */
class ReplicatedPartitionTest {
    private static final int LEADER = 1;
    private static final int F2 = 2;
    private static final int F3 = 3;
    private static final long BROKER_EPOCH = 42;
    private static final long LAG_MS = 30_000;
    private static final long T0 = 1_000_000;

    @TempDir
    Path dir;
    PartitionWriters writers;
    WaitingOperations<Partition> waiting;
    RecordingController controller;
    PartitionLog leaderLog;
    PartitionLog followerLog;
    Partition leader;
    Partition follower;

    @BeforeEach
    void setUp() {
        writers = new PartitionWriters(2);
        waiting = new WaitingOperations<>("test");
        controller = new RecordingController();
        leaderLog = open("broker-1", Map.of());
        followerLog = open("broker-2", Map.of());
        leader = new Partition(leaderLog, TOPIC_ID, LEADER, controller, () -> BROKER_EPOCH,
                writers.writerFor("orders", 0), waiting);
        follower = new Partition(followerLog, TOPIC_ID, F2, controller, () -> BROKER_EPOCH,
                writers.writerFor("orders", 0), waiting);
    }

    @AfterEach
    void tearDown() {
        writers.close();
        waiting.close();
        leaderLog.close();
        followerLog.close();
    }

    private PartitionLog open(String broker, Map<String, String> topicConfig) {
        return openOrdersLog(dir, broker, topicConfig);
    }

    private static PartitionRegistration registration(int leaderId, List<Integer> isr, int leaderEpoch,
            int partitionEpoch) {
        return onThreeBrokers(leaderId, isr, leaderEpoch, partitionEpoch);
    }

    /** The leader of epoch 5 with all three replicas in sync and four records (offsets 0-3) in its log. */
    private void leaderWithFourRecords() {
        assertThat(leader.makeLeader(registration(LEADER, List.of(LEADER, F2, F3), 5, 7), T0)).isTrue();
        await(leader.appendAsLeader(batch("a", "b"), (short) -1));
        await(leader.appendAsLeader(batch("c", "d"), (short) -1));
    }

    @Test
    void highWatermarkAdvancesOnlyOnceBothFollowersHaveFetched() {
        leaderWithFourRecords();
        assertThat(leader.logEndOffset()).isEqualTo(4L);
        assertThat(leader.highWatermark()).isZero();

        leader.updateFollowerFetchState(F2, BROKER_EPOCH, 4, T0 + 10);
        assertThat(leader.highWatermark()).isZero();

        leader.updateFollowerFetchState(F3, BROKER_EPOCH, 2, T0 + 20);
        assertThat(leader.highWatermark()).isEqualTo(2L);
        assertThat(leader.lastStableOffset()).isEqualTo(2L);

        leader.updateFollowerFetchState(F3, BROKER_EPOCH, 4, T0 + 30);
        assertThat(leader.highWatermark()).isEqualTo(4L);
        assertThat(controller.submitted).isEmpty();
    }

    @Test
    void anAcksAllWriteIsCommittedWhenEveryInSyncReplicaHasIt() {
        leaderWithFourRecords();
        AppendResult appended = await(leader.appendAsLeader(batch("e"), (short) -1));
        CompletableFuture<AppendResult> committed = leader.whenCommitted(appended);
        leader.updateFollowerFetchState(F2, BROKER_EPOCH, 5, T0 + 10);
        assertThat(committed).isNotDone();

        leader.updateFollowerFetchState(F3, BROKER_EPOCH, 5, T0 + 10);

        assertThat(await(committed).baseOffset()).isEqualTo(4L);
        assertThat(leader.highWatermark()).isEqualTo(5L);
    }

    @Test
    void theHighWatermarkNeverMovesBack() {
        leaderWithFourRecords();
        leader.updateFollowerFetchState(F2, BROKER_EPOCH, 4, T0 + 10);
        leader.updateFollowerFetchState(F3, BROKER_EPOCH, 4, T0 + 10);
        // A follower restarting from an older offset does not take back what was committed.
        leader.updateFollowerFetchState(F3, BROKER_EPOCH, 1, T0 + 20);
        assertThat(leader.highWatermark()).isEqualTo(4L);
    }

    @Test
    void aFollowerLaggingLongerThanTheLagTimeIsProposedOutOfTheIsr() {
        leaderWithFourRecords();
        leader.updateFollowerFetchState(F2, BROKER_EPOCH, 4, T0 + 10);
        leader.updateFollowerFetchState(F3, BROKER_EPOCH, 0, T0 + 10);

        assertThat(leader.maybeShrinkIsr(T0 + LAG_MS, LAG_MS)).isEmpty();
        assertThat(leader.maybeShrinkIsr(T0 + LAG_MS + 1, LAG_MS)).containsExactly(F3);

        assertThat(controller.alterPartitions()).containsExactly(
                new AlterPartition(LEADER, BROKER_EPOCH, TOPIC_ID, 0, 5, 7, List.of(LEADER, F2)));
        // While the shrink is pending the old ISR still counts, and no second change is sent.
        assertThat(leader.highWatermark()).isZero();
        assertThat(leader.maybeShrinkIsr(T0 + LAG_MS + 2, LAG_MS)).isEmpty();
        assertThat(controller.alterPartitions()).hasSize(1);

        // The image shows the change: follower 2 alone holds the high watermark now.
        assertThat(leader.makeLeader(registration(LEADER, List.of(LEADER, F2), 5, 8), T0 + LAG_MS + 3)).isFalse();
        assertThat(leader.inSyncReplicas()).containsExactly(LEADER, F2);
        assertThat(leader.state().pendingIsr()).isNull();
        assertThat(leader.highWatermark()).isEqualTo(4L);
    }

    @Test
    void aShrunkFollowerRejoinsTheIsrOnceItReachesTheHighWatermark() {
        leaderWithFourRecords();
        leader.makeLeader(registration(LEADER, List.of(LEADER, F2), 5, 8), T0);
        leader.updateFollowerFetchState(F2, BROKER_EPOCH, 4, T0 + 10);
        assertThat(leader.highWatermark()).isEqualTo(4L);

        leader.updateFollowerFetchState(F3, BROKER_EPOCH, 2, T0 + 20);
        assertThat(controller.alterPartitions()).isEmpty();

        leader.updateFollowerFetchState(F3, BROKER_EPOCH, 4, T0 + 30);
        assertThat(controller.alterPartitions()).containsExactly(
                new AlterPartition(LEADER, BROKER_EPOCH, TOPIC_ID, 0, 5, 8, List.of(LEADER, F2, F3)));

        // Pending, the joining follower already counts for the high watermark (the maximal ISR).
        await(leader.appendAsLeader(batch("e"), (short) -1));
        leader.updateFollowerFetchState(F2, BROKER_EPOCH, 5, T0 + 40);
        assertThat(leader.highWatermark()).isEqualTo(4L);
        leader.updateFollowerFetchState(F3, BROKER_EPOCH, 5, T0 + 40);
        assertThat(leader.highWatermark()).isEqualTo(5L);

        leader.makeLeader(registration(LEADER, List.of(LEADER, F2, F3), 5, 9), T0 + 50);
        assertThat(leader.inSyncReplicas()).containsExactly(LEADER, F2, F3);
    }

    @Test
    void aFollowerBehindTheStartOfTheLeadersEpochDoesNotJoinTheIsr() {
        leaderWithFourRecords();
        // Re-elected at epoch 6 with the log at 4: joining needs offset 4, even if the high watermark is lower.
        leader.makeLeader(registration(LEADER, List.of(LEADER), 6, 9), T0);
        leader.updateFollowerFetchState(F2, BROKER_EPOCH, 3, T0 + 10);
        assertThat(controller.alterPartitions()).isEmpty();
        leader.updateFollowerFetchState(F2, BROKER_EPOCH, 4, T0 + 20);
        assertThat(controller.alterPartitions()).extracting(AlterPartition::newIsr).containsExactly(List.of(LEADER, F2));
    }

    @Test
    void aRefusedIsrChangeIsProposedAgainByTheNextCheck() {
        leaderWithFourRecords();
        controller.answer = () -> CompletableFuture.completedFuture(
                CommandResult.failed(9, ErrorCode.OPERATION_NOT_ATTEMPTED, "not attempted"));
        assertThat(leader.maybeShrinkIsr(T0 + LAG_MS + 1, LAG_MS)).containsExactly(F2, F3);
        assertThat(leader.state().pendingIsr()).isNull();

        CompletableFuture<CommandResult> held = new CompletableFuture<>();
        controller.answer = () -> held;
        assertThat(leader.maybeShrinkIsr(T0 + LAG_MS + 2, LAG_MS)).containsExactly(F2, F3);
        assertThat(leader.state().pendingIsr()).containsExactly(LEADER);
        assertThat(controller.alterPartitions()).hasSize(2);
    }

    @Test
    void leaderChecksAnswerFencedAndUnknownEpochsAndNotLeaderOnAFollower() {
        leaderWithFourRecords();
        assertThat(leader.checkLeader(5)).isEqualTo(ErrorCode.NONE);
        assertThat(leader.checkLeader(-1)).isEqualTo(ErrorCode.NONE);
        assertThat(leader.checkLeader(4)).isEqualTo(ErrorCode.FENCED_LEADER_EPOCH);
        assertThat(leader.checkLeader(6)).isEqualTo(ErrorCode.UNKNOWN_LEADER_EPOCH);
        assertThat(leader.leaderId()).isEqualTo(LEADER);
        assertThat(leader.isLeader()).isTrue();

        assertThat(follower.makeFollower(registration(LEADER, List.of(LEADER, F2, F3), 5, 7))).isTrue();
        assertThat(follower.isLeader()).isFalse();
        assertThat(follower.leaderId()).isEqualTo(LEADER);
        assertThat(follower.checkLeader(5)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        assertThat(follower.checkLeader(-1)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        assertThat(follower.checkLeader(4)).isEqualTo(ErrorCode.FENCED_LEADER_EPOCH);
    }

    @Test
    void aFollowerRefusesProducedRecords() {
        follower.makeFollower(registration(LEADER, List.of(LEADER, F2, F3), 5, 7));
        assertThatThrownBy(() -> await(follower.appendAsLeader(batch("x"), (short) 1)))
                .isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER));
        assertThat(followerLog.logEndOffset()).isZero();
    }

    @Test
    void aLeaderThatLosesLeadershipRefusesAppendsAndStopsTrackingFollowers() {
        leaderWithFourRecords();
        assertThat(leader.makeFollower(registration(F2, List.of(F2, F3), 6, 8))).isTrue();
        assertThat(leader.leaderId()).isEqualTo(F2);
        assertThat(leader.leaderEpoch()).isEqualTo(6);
        assertThatThrownBy(() -> await(leader.appendAsLeader(batch("x"), (short) 1)))
                .cause().isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER));
        leader.updateFollowerFetchState(F3, BROKER_EPOCH, 4, T0);
        assertThat(controller.submitted).isEmpty();
        // An older registration arriving late changes nothing.
        assertThat(leader.makeLeader(registration(LEADER, List.of(LEADER, F2, F3), 5, 7), T0)).isFalse();
        assertThat(leader.isLeader()).isFalse();
    }

    @Test
    void acksAllIsRefusedWhileTheIsrIsBelowMinInsyncReplicas() {
        PartitionLog strictLog = open("broker-1-strict", Map.of("min.insync.replicas", "2"));
        try {
            Partition strict = new Partition(strictLog, TOPIC_ID, LEADER, controller, () -> BROKER_EPOCH,
                    writers.writerFor("orders", 0), waiting);
            strict.makeLeader(registration(LEADER, List.of(LEADER), 5, 7), T0);

            assertThat(strict.checkEnoughReplicas((short) -1)).isEqualTo(ErrorCode.NOT_ENOUGH_REPLICAS);
            assertThat(strict.checkEnoughReplicas((short) 1)).isEqualTo(ErrorCode.NONE);
            assertThatThrownBy(() -> await(strict.appendAsLeader(batch("x"), (short) -1)))
                    .cause().isInstanceOfSatisfying(LogAppendException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_ENOUGH_REPLICAS);
                        assertThat(e.getMessage()).isEqualTo("The size of the current ISR [1] is insufficient to "
                                + "satisfy the min.isr requirement of 2 for partition orders-0");
                    });
            assertThat(await(strict.appendAsLeader(batch("y"), (short) 1)).baseOffset()).isZero();

            strict.makeLeader(registration(LEADER, List.of(LEADER, F2), 5, 8), T0);
            assertThat(strict.checkEnoughReplicas((short) -1)).isEqualTo(ErrorCode.NONE);
        } finally {
            strictLog.close();
        }
    }

    @Test
    void aFollowersHighWatermarkIsTheLeadersClampedToItsLogEnd() {
        follower.makeFollower(registration(LEADER, List.of(LEADER, F2, F3), 5, 7));
        follower.updateFollowerHighWatermark(10);
        assertThat(follower.highWatermark()).isZero(); // the follower's log is still empty
    }

    @Test
    void aLeaderAloneInTheIsrCommitsAtItsLogEnd() {
        leader.makeLeader(new PartitionRegistration(List.of(LEADER), List.of(LEADER), List.of(), List.of(),
                LEADER, 0, 0), T0);
        AppendResult appended = await(leader.appendAsLeader(batch("a", "b"), (short) -1));
        assertThat(leader.highWatermark()).isEqualTo(2L);
        assertThat(leader.whenCommitted(appended)).isCompleted();
    }

    @Test
    void aFollowerJoiningALeaderAloneHoldsTheHighWatermarkFromTheMomentItIsProposed() {
        leader.makeLeader(registration(LEADER, List.of(LEADER), 5, 7), T0);
        await(leader.appendAsLeader(batch("a", "b"), (short) -1));
        assertThat(leader.highWatermark()).isEqualTo(2L);

        leader.updateFollowerFetchState(F2, BROKER_EPOCH, 2, T0 + 10);
        assertThat(controller.alterPartitions()).extracting(AlterPartition::newIsr).containsExactly(List.of(LEADER, F2));

        await(leader.appendAsLeader(batch("c"), (short) -1));
        assertThat(leader.highWatermark()).isEqualTo(2L);
        leader.updateFollowerFetchState(F2, BROKER_EPOCH, 3, T0 + 20);
        assertThat(leader.highWatermark()).isEqualTo(3L);
    }

    @Test
    void aFencedOrRestartedFollowerIsNotProposedForTheIsr() {
        leaderWithFourRecords();
        leader.makeLeader(registration(LEADER, List.of(LEADER, F2), 5, 8), T0);
        controller.image = RecordingController.imageWithBrokers(true);
        leader.updateFollowerFetchState(F3, BROKER_EPOCH, 4, T0 + 10);
        assertThat(controller.alterPartitions()).isEmpty();

        controller.image = RecordingController.imageWithBrokers(false);
        leader.updateFollowerFetchState(F3, 41, 4, T0 + 20); // fetching with a stale broker epoch
        assertThat(controller.alterPartitions()).isEmpty();

        leader.updateFollowerFetchState(F3, BROKER_EPOCH, 4, T0 + 30);
        assertThat(controller.alterPartitions()).extracting(AlterPartition::newIsr)
                .containsExactly(List.of(LEADER, F2, F3));
    }
}
