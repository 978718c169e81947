package io.odradek.coordinator.share.partition;

import static io.odradek.coordinator.share.StateBatch.ACKNOWLEDGED;
import static io.odradek.coordinator.share.StateBatch.ARCHIVED;
import static io.odradek.coordinator.share.StateBatch.AVAILABLE;
import static io.odradek.coordinator.share.partition.AcknowledgeType.ACCEPT;
import static io.odradek.coordinator.share.partition.ShareFixture.ack;
import static io.odradek.coordinator.share.partition.ShareFixture.acquired;
import static io.odradek.coordinator.share.partition.ShareFixture.state;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Starting a share partition on a (new) leader: from persisted state, or from share.auto.offset.reset. */
class SharePartitionInitializeTest {
    @Test
    void persistedStateIsRebuiltWithDeliveryCountsAndNothingAcquired() {
        ShareFixture f = new ShareFixture();
        f.persister.readAnswer = new PersistedShareState(ErrorCode.NONE, null, 4, 10, 2, List.of(
                state(10, 14, ACKNOWLEDGED, 1), state(15, 19, AVAILABLE, 2), state(25, 29, ARCHIVED, 5)));

        assertThat(f.start(ShareFixture.settings(5, 2000, "latest"))).isEqualTo(ErrorCode.NONE);

        assertThat(f.partition.startOffset()).as("past the leading acknowledged records").isEqualTo(15);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(15);
        assertThat(f.fetch("a", 100, 15, 19, 20, 24, 25, 29, 30, 34))
                .as("20-24 were acquired when the last leader stopped: delivered again, count unknown")
                .containsExactly(acquired(15, 19, 3), acquired(20, 24, 1), acquired(30, 34, 1));
        assertThat(f.resetLookups).isEmpty();
        assertThat(f.persister.writes).isEmpty();
    }

    @Test
    void writesAfterARestartCarryTheReadStateEpoch() {
        ShareFixture f = new ShareFixture();
        f.persister.readAnswer = new PersistedShareState(ErrorCode.NONE, null, 4, 10, 2, List.of());
        f.start(ShareFixture.settings(5, 2000, "latest"));
        f.fetch("a", 100, 10, 19);

        f.acknowledge("a", ack(10, 19, ACCEPT));

        RecordingPersister.Write w = f.persister.lastWrite();
        assertThat(w.stateEpoch()).isEqualTo(4);
        assertThat(w.leaderEpoch()).isEqualTo(3);
        assertThat(w.batches()).containsExactly(state(10, 19, ACKNOWLEDGED, 1));
    }

    @Test
    void aPartitionWithoutAStartOffsetStartsAtLatestAndWritesIt() {
        ShareFixture f = new ShareFixture();
        f.persister.readAnswer = new PersistedShareState(ErrorCode.NONE, null, 1, -1, -1, List.of());

        assertThat(f.start(ShareFixture.settings(5, 2000, "latest"))).isEqualTo(ErrorCode.NONE);

        assertThat(f.resetLookups).containsExactly(AutoOffsetReset.LATEST);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(ShareFixture.LATEST);
        f.assertLastWrite(ShareFixture.LATEST);
        assertThat(f.persister.lastWrite().stateEpoch()).isEqualTo(1);
    }

    @Test
    void earliestResetStartsAtTheLogStart() {
        ShareFixture f = new ShareFixture();
        f.persister.readAnswer = new PersistedShareState(ErrorCode.NONE, null, 1, -1, -1, List.of());

        f.start(ShareFixture.settings(5, 2000, "earliest"));

        assertThat(f.resetLookups).containsExactly(AutoOffsetReset.EARLIEST);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(ShareFixture.EARLIEST);
    }

    @Test
    void byDurationResetLooksUpTheTimestampThatLongAgo() {
        ShareFixture f = new ShareFixture();
        f.persister.readAnswer = new PersistedShareState(ErrorCode.NONE, null, 1, -1, -1, List.of());

        f.start(ShareFixture.settings(5, 2000, "by_duration:PT1H"));

        assertThat(f.resetLookups).containsExactly(ShareFixture.NOW - 3_600_000);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(42);
    }

    @Test
    void aPartitionTheShareCoordinatorDoesNotKnowIsInitializedAtTheResetOffset() {
        ShareFixture f = new ShareFixture();
        f.persister.readAnswer = PersistedShareState.error(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null);

        assertThat(f.start(ShareFixture.settings(5, 2000, "earliest"))).isEqualTo(ErrorCode.NONE);

        assertThat(f.persister.inits).containsExactly(new RecordingPersister.Init(0, ShareFixture.EARLIEST));
        assertThat(f.fetch("a", 100, 0, 4)).containsExactly(acquired(0, 4, 1));
    }

    @Test
    void aFailedReadAnswersThePartitionErrorAndIsRetriedOnTheNextCall() {
        ShareFixture f = new ShareFixture();
        f.persister.readAnswer = PersistedShareState.error(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, null);
        assertThat(f.start(ShareFixture.settings(5, 2000, "latest"))).isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE);
        assertThat(f.partition.acknowledge("a", List.of(ack(0, 1, ACCEPT))).join()).isEqualTo(ErrorCode.UNKNOWN_SERVER_ERROR);

        f.persister.readAnswer = new PersistedShareState(ErrorCode.NONE, null, 1, 7, 0, List.of());

        assertThat(f.partition.initialize(3).join()).isEqualTo(ErrorCode.NONE);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(7);
    }

    @Test
    void aFencedReadAnswersNotLeader() {
        ShareFixture f = new ShareFixture();
        f.persister.readAnswer = PersistedShareState.error(ErrorCode.FENCED_LEADER_EPOCH, null);

        assertThat(f.start(ShareFixture.settings(5, 2000, "latest"))).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER);
    }

    @Test
    void laterCallsShareTheFirstInitialization() {
        ShareFixture f = ShareFixture.startedAt(3);

        CompletableFuture<ErrorCode> again = f.partition.initialize(3);

        assertThat(again).isCompletedWithValue(ErrorCode.NONE);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(3);
    }
}
