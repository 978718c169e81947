package io.odradek.replication.partition;

import static io.odradek.replication.partition.PartitionTestData.await;
import static io.odradek.replication.partition.PartitionTestData.batch;
import static io.odradek.replication.partition.PartitionTestData.TOPIC_ID;
import static io.odradek.replication.partition.PartitionTestData.onThreeBrokers;
import static io.odradek.replication.partition.PartitionTestData.openOrdersLog;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.AppendResult;
import io.odradek.log.EpochEndOffset;
import io.odradek.log.LogAppendException;
import io.odradek.log.LogConfig;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader of a three-replica partition with min.insync.replicas=2 (one broker's Partition over a real log, a
 * recording controller): acks=all and coordinator writes are committed only while it still leads at the epoch
 * they were appended at, and only with enough in-sync replicas.
 */
class LeaderSafetyTest {
    private static final int L = 1;
    private static final int F2 = 2;
    private static final int F3 = 3;
    private static final long BROKER_EPOCH = 42;
    private static final long T0 = 1_000_000;

    @TempDir
    Path dir;
    PartitionWriters writers;
    WaitingOperations<Partition> waiting;
    RecordingController controller;
    PartitionLog log;
    Partition p;

    @BeforeEach
    void setUp() {
        writers = new PartitionWriters(2);
        waiting = new WaitingOperations<>("test");
        controller = new RecordingController();
        log = openOrdersLog(dir, "b1", Map.of("min.insync.replicas", "2"));
        p = new Partition(log, TOPIC_ID, L, controller, () -> BROKER_EPOCH, writers.writerFor("orders", 0), waiting);
    }

    @AfterEach
    void tearDown() {
        writers.close();
        waiting.close();
        log.close();
    }

    private static PartitionRegistration reg(int leader, List<Integer> isr, int leaderEpoch, int partitionEpoch) {
        return onThreeBrokers(leader, isr, leaderEpoch, partitionEpoch);
    }

    private static ErrorCode errorOf(CompletableFuture<?> f) {
        try {
            await(f);
            return ErrorCode.NONE;
        } catch (CompletionException e) {
            return e.getCause() instanceof LogAppendException refused ? refused.errorCode() : ErrorCode.UNKNOWN_SERVER_ERROR;
        }
    }

    @Test
    void appendCarriesTheLeaderEpochItWasWrittenAt() {
        p.makeLeader(reg(L, List.of(L, F2, F3), 5, 7), T0);
        AppendResult a = await(p.appendAsLeader(batch("a", "b"), (short) -1));
        assertThat(a.leaderEpoch()).isEqualTo(5);
        assertThat(a.lastOffset()).isEqualTo(1L);
    }

    @Test
    void demotedLeadersWaitingWriteFailsWithNotLeaderInsteadOfCompletingFromTheNewLeadersHwm() {
        p.makeLeader(reg(L, List.of(L, F2, F3), 5, 7), T0);
        AppendResult a = await(p.appendAsLeader(batch("a", "b"), (short) -1));
        CompletableFuture<AppendResult> committed = p.whenCommitted(a);
        assertThat(committed).isNotDone();
        assertThat(p.checkEnoughReplicasReachOffset(2, 5)).isEmpty();

        p.makeFollower(reg(F2, List.of(F2, F3), 6, 8));
        p.updateFollowerHighWatermark(10); // the new leader's HWM, over its own records at offsets 0-1

        assertThat(errorOf(committed)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        assertThat(p.checkEnoughReplicasReachOffset(2, 5)).contains(ErrorCode.NOT_LEADER_OR_FOLLOWER);
    }

    @Test
    void writeAppendedAtAnOlderEpochIsNotCommittedByTheHwmOfALaterLeadership() {
        p.makeLeader(reg(L, List.of(L, F2, F3), 5, 7), T0);
        AppendResult a = await(p.appendAsLeader(batch("a", "b"), (short) -1));
        p.makeFollower(reg(F2, List.of(F2, F3), 6, 8));
        p.makeLeader(reg(L, List.of(L, F2, F3), 7, 9), T0 + 1); // leader again, at a newer epoch
        p.updateFollowerFetchState(F2, BROKER_EPOCH, 2, T0 + 2);
        p.updateFollowerFetchState(F3, BROKER_EPOCH, 2, T0 + 2);
        assertThat(p.highWatermark()).isEqualTo(2L);

        assertThat(p.checkEnoughReplicasReachOffset(2, 5)).contains(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        assertThat(errorOf(p.whenCommitted(a))).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        assertThat(p.checkEnoughReplicasReachOffset(2, 7)).contains(ErrorCode.NONE);
    }

    @Test
    void writeCommittedWhileStillLeadingAtItsEpochCompletes() {
        p.makeLeader(reg(L, List.of(L, F2, F3), 5, 7), T0);
        AppendResult a = await(p.appendAsLeader(batch("a", "b"), (short) -1));
        CompletableFuture<AppendResult> committed = p.whenCommitted(a);
        p.updateFollowerFetchState(F2, BROKER_EPOCH, 2, T0 + 1);
        assertThat(committed).isNotDone();
        p.updateFollowerFetchState(F3, BROKER_EPOCH, 2, T0 + 1);

        assertThat(await(committed)).isEqualTo(a);
        assertThat(p.checkEnoughReplicasReachOffset(2, 5)).contains(ErrorCode.NONE);
    }

    @Test
    void removedPartitionsWaitingWriteFailsWithNotLeader() {
        p.makeLeader(reg(L, List.of(L, F2, F3), 5, 7), T0);
        CompletableFuture<AppendResult> committed = p.appendRecordsAsCoordinator(batch("offsets"));
        assertThat(waitForParked()).isEqualTo(1);

        p.markRemoved();

        assertThat(errorOf(committed)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        assertThat(waiting.watching(p)).isZero();
    }

    @Test
    void acksAllWriteWaitsWhileTheIsrIsBelowMinInsyncAndCompletesWhenAFollowerRejoins() {
        p.makeLeader(reg(L, List.of(L, F2, F3), 5, 7), T0);
        AppendResult a = await(p.appendAsLeader(batch("a", "b"), (short) -1));
        CompletableFuture<AppendResult> committed = p.whenCommitted(a);

        p.makeLeader(reg(L, List.of(L), 5, 8), T0 + 40_000); // both followers dropped; min.insync.replicas=2

        assertThat(committed).isNotDone();
        assertThat(p.highWatermark()).isZero();
        assertThat(p.fetchableEnd(FetchIsolation.HIGH_WATERMARK)).isZero();
        assertThat(p.checkEnoughReplicasReachOffset(2, 5)).isEmpty();

        p.updateFollowerFetchState(F2, BROKER_EPOCH, 2, T0 + 40_001); // F2 caught up: proposed back into the ISR
        assertThat(controller.alterPartitions()).hasSize(1);
        assertThat(controller.alterPartitions().get(0).newIsr()).containsExactly(L, F2);
        assertThat(p.highWatermark()).isZero(); // the committed ISR is still below min.insync.replicas

        p.makeLeader(reg(L, List.of(L, F2), 5, 9), T0 + 40_002);
        assertThat(p.highWatermark()).isEqualTo(2L);
        assertThat(await(committed)).isEqualTo(a);
    }

    @Test
    void writeWhoseHwmPassedBeforeTheIsrShrankBelowMinInsyncIsNotEnoughReplicasAfterAppend() {
        p.makeLeader(reg(L, List.of(L, F2, F3), 5, 7), T0);
        await(p.appendAsLeader(batch("a", "b"), (short) -1));
        p.updateFollowerFetchState(F2, BROKER_EPOCH, 2, T0 + 1);
        p.updateFollowerFetchState(F3, BROKER_EPOCH, 2, T0 + 1);

        p.makeLeader(reg(L, List.of(L), 5, 8), T0 + 40_000);

        assertThat(p.highWatermark()).isEqualTo(2L);
        assertThat(p.checkEnoughReplicasReachOffset(2, 5)).contains(ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND);
    }

    @Test
    void leaderAloneInItsIsrWithMinInsyncOneCommitsAtItsLogEnd() {
        log.updateConfig(LogConfig.defaults().with(Map.of("min.insync.replicas", "1")));
        p.makeLeader(reg(L, List.of(L), 5, 7), T0);
        AppendResult a = await(p.appendAsLeader(batch("a", "b"), (short) -1));

        assertThat(p.highWatermark()).isEqualTo(2L);
        assertThat(await(p.whenCommitted(a))).isEqualTo(a);
    }

    @Test
    void isrExpansionThatTimedOutStaysPendingSoTheHwmWaitsForTheAddedReplicaAndIsSentAgain() {
        p.makeLeader(reg(L, List.of(L, F2), 5, 7), T0);
        await(p.appendAsLeader(batch("a", "b"), (short) -1));
        p.updateFollowerFetchState(F2, BROKER_EPOCH, 2, T0 + 1);
        assertThat(p.highWatermark()).isEqualTo(2L);
        CompletableFuture<CommandResult> held = new CompletableFuture<>();
        controller.answer = () -> controller.alterPartitions().size() == 1
                ? CompletableFuture.failedFuture(new TimeoutException("ratis slow")) : held;

        p.updateFollowerFetchState(F3, BROKER_EPOCH, 2, T0 + 2); // proposes {1,2,3}; the controller times out

        assertThat(p.state().pendingIsr()).containsExactly(L, F2, F3);
        await(p.appendAsLeader(batch("c", "d"), (short) -1));
        p.updateFollowerFetchState(F2, BROKER_EPOCH, 4, T0 + 3);
        assertThat(p.highWatermark()).isEqualTo(2L); // waits for F3, which the controller may still add
        assertThat(waitForAlterPartitions(2)).hasSize(2);
        assertThat(controller.alterPartitions().get(1)).isEqualTo(controller.alterPartitions().get(0));

        p.makeLeader(reg(L, List.of(L, F2, F3), 5, 8), T0 + 4); // the retry was committed after all
        assertThat(p.inSyncReplicas()).containsExactly(L, F2, F3);
        assertThat(p.state().pendingIsr()).isNull();
        assertThat(p.highWatermark()).isEqualTo(2L);
        p.updateFollowerFetchState(F3, BROKER_EPOCH, 4, T0 + 5);
        assertThat(p.highWatermark()).isEqualTo(4L);
    }

    @Test
    void isrExpansionRefusedAsIneligibleIsDroppedAndProposedAgainByTheNextFetch() {
        p.makeLeader(reg(L, List.of(L, F2), 5, 7), T0);
        controller.answer = () -> CompletableFuture.completedFuture(
                CommandResult.failed(1, ErrorCode.INELIGIBLE_REPLICA, "broker 3 is fenced"));

        p.updateFollowerFetchState(F3, BROKER_EPOCH, 0, T0 + 1);
        assertThat(p.state().pendingIsr()).isNull();
        p.updateFollowerFetchState(F3, BROKER_EPOCH, 0, T0 + 2);

        assertThat(controller.alterPartitions()).hasSize(2);
        assertThat(controller.alterPartitions().get(1).newIsr()).containsExactly(L, F2, F3);
    }

    @Test
    void isrExpansionFencedByANewerEpochStaysPendingUntilTheImageShowsTheOutcome() {
        p.makeLeader(reg(L, List.of(L, F2), 5, 7), T0);
        controller.answer = () -> CompletableFuture.completedFuture(
                CommandResult.failed(1, ErrorCode.INVALID_UPDATE_VERSION, "partition epoch 7 is not current"));

        p.updateFollowerFetchState(F3, BROKER_EPOCH, 0, T0 + 1);
        p.updateFollowerFetchState(F3, BROKER_EPOCH, 0, T0 + 2);

        assertThat(p.state().pendingIsr()).containsExactly(L, F2, F3);
        assertThat(controller.alterPartitions()).hasSize(1);
        p.makeLeader(reg(L, List.of(L, F2), 5, 9), T0 + 3); // the newer image: F3 was not added
        assertThat(p.state().pendingIsr()).isNull();
    }

    private List<AlterPartition> waitForAlterPartitions(int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (controller.alterPartitions().size() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        return controller.alterPartitions();
    }

    @Test
    void followerTruncationQueuedBeforeTheBrokerBecameLeaderDoesNotCutTheLeadersLog() throws Exception {
        p.makeLeader(reg(L, List.of(L), 5, 7), T0);
        await(p.appendAsLeader(batch("a", "b"), (short) 1));
        p.makeFollower(reg(F2, List.of(L, F2), 6, 8));
        CountDownLatch writerBusy = new CountDownLatch(1);
        writers.writerFor("orders", 0).execute(() -> {
            try {
                writerBusy.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        CompletableFuture<Void> truncation = p.truncateTo(0); // queued behind the busy writer
        CompletableFuture<AppendResult> followerAppend = p.appendAsFollower(batch("x"));

        p.makeLeader(reg(L, List.of(L), 7, 9), T0 + 1);
        writerBusy.countDown();

        assertThat(errorOf(truncation)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        assertThat(errorOf(followerAppend)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        assertThat(p.logEndOffset()).isEqualTo(2L);
    }

    @Test
    void fetchFromAFollowersPreviousIncarnationIsIgnored() {
        p.makeLeader(reg(L, List.of(L, F2), 5, 7), T0);
        await(p.appendAsLeader(batch("a", "b"), (short) -1));
        p.updateFollowerFetchState(F2, BROKER_EPOCH, 2, T0 + 1);
        assertThat(p.highWatermark()).isEqualTo(2L);

        p.updateFollowerFetchState(F2, BROKER_EPOCH - 1, 0, T0 + 2); // the old incarnation's fetch, late

        // F2 still counts as at the leader's log end: no shrink however long after.
        assertThat(p.maybeShrinkIsr(T0 + 120_000, 30_000)).isEmpty();
        assertThat(controller.alterPartitions()).isEmpty();
    }

    @Test
    void newLeaderAnswersThePreviousEpochsEndSoAFollowerAheadInEpochsTruncates() {
        p.makeLeader(reg(L, List.of(L), 5, 7), T0);
        await(p.appendAsLeader(batch("a", "b"), (short) 1));
        p.makeFollower(reg(F2, List.of(L, F2), 6, 8));
        p.makeLeader(reg(L, List.of(L, F2), 7, 9), T0 + 1);

        // A follower that got epoch-6 records from broker 2 fetches with lastFetchedEpoch 6 at offset 4:
        // it must truncate to the end of epoch 5 here, offset 2 (Kafka answers (5, 2)).
        assertThat(p.divergingEpoch(6, 4)).contains(new EpochEndOffset(5, 2));
        assertThat(p.endOffsetForEpoch(7)).isEqualTo(new EpochEndOffset(7, 2));
        assertThat(p.endOffsetForEpoch(6)).isEqualTo(new EpochEndOffset(5, 2));
    }

    private int waitForParked() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (waiting.watching(p) == 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        return waiting.watching(p);
    }

}
