package io.odradek.coordinator.share.partition;

import static io.odradek.coordinator.share.StateBatch.ACKNOWLEDGED;
import static io.odradek.coordinator.share.StateBatch.ARCHIVED;
import static io.odradek.coordinator.share.StateBatch.AVAILABLE;
import static io.odradek.coordinator.share.partition.AcknowledgeType.ACCEPT;
import static io.odradek.coordinator.share.partition.AcknowledgeType.GAP;
import static io.odradek.coordinator.share.partition.AcknowledgeType.REJECT;
import static io.odradek.coordinator.share.partition.AcknowledgeType.RELEASE;
import static io.odradek.coordinator.share.partition.AcknowledgeType.RENEW;
import static io.odradek.coordinator.share.partition.ShareFixture.ack;
import static io.odradek.coordinator.share.partition.ShareFixture.acquired;
import static io.odradek.coordinator.share.partition.ShareFixture.state;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** ShareAcknowledge (and acks piggybacked on ShareFetch): state changes, their writes, and Kafka's errors. */
class SharePartitionAcknowledgeTest {
    @Test
    void acceptedRecordsArePersistedAndTheStartOffsetMovesPastThem() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);

        assertThat(f.acknowledge("a", ack(0, 9, ACCEPT))).isEqualTo(ErrorCode.NONE);

        RecordingPersister.Write w = f.persister.lastWrite();
        assertThat(w.startOffset()).as("written with the start offset before the move, as Kafka").isEqualTo(0);
        assertThat(w.batches()).containsExactly(state(0, 9, ACKNOWLEDGED, 1));
        assertThat(w.deliveryCompleteCount()).isEqualTo(10);
        assertThat(w.stateEpoch()).isEqualTo(1);
        assertThat(w.leaderEpoch()).isEqualTo(3);
        assertThat(f.partition.startOffset()).isEqualTo(10);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(10);
    }

    @Test
    void theNextWriteCarriesTheMovedStartOffset() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.acknowledge("a", ack(0, 4, ACCEPT));
        f.acknowledge("a", ack(5, 9, ACCEPT));

        f.assertLastWrite(5, state(5, 9, ACKNOWLEDGED, 1));
        assertThat(f.partition.startOffset()).isEqualTo(10);
    }

    @Test
    void releasedRecordsGoToTheNextFetchWithTheirDeliveryCountKept() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);

        assertThat(f.acknowledge("a", ack(0, 4, RELEASE))).isEqualTo(ErrorCode.NONE);

        f.assertLastWrite(0, state(0, 4, AVAILABLE, 1));
        assertThat(f.wakeups.get()).as("parked fetches woken").isEqualTo(2);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(0);
        assertThat(f.fetch("b", 100, 0, 9)).containsExactly(acquired(0, 4, 2));
        assertThat(f.partition.nextFetchOffset()).isEqualTo(10);
    }

    @Test
    void rejectedRecordsAreArchivedAndNeverRedelivered() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);

        assertThat(f.acknowledge("a", ack(0, 9, REJECT))).isEqualTo(ErrorCode.NONE);

        f.assertLastWrite(0, state(0, 9, ARCHIVED, 1));
        assertThat(f.partition.startOffset()).isEqualTo(10);
        assertThat(f.fetch("b", 100, 0, 9)).isEmpty();
    }

    @Test
    void perOffsetTypesSplitTheBatchAndWriteEachRange() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);

        assertThat(f.acknowledge("a", ack(0, 4, ACCEPT, GAP, REJECT, RELEASE, ACCEPT))).isEqualTo(ErrorCode.NONE);

        f.assertLastWrite(0, state(0, 0, ACKNOWLEDGED, 1), state(1, 2, ARCHIVED, 1), state(3, 3, AVAILABLE, 1),
                state(4, 4, ACKNOWLEDGED, 1));
        assertThat(f.partition.startOffset()).isEqualTo(3);
        assertThat(f.fetch("b", 100, 0, 9)).containsExactly(acquired(3, 3, 2));
        assertThat(f.acknowledge("a", ack(5, 9, ACCEPT))).isEqualTo(ErrorCode.NONE);
        assertThat(f.acknowledge("b", ack(3, 3, ACCEPT))).isEqualTo(ErrorCode.NONE);
        assertThat(f.partition.startOffset()).isEqualTo(10);
    }

    @Test
    void oneAcknowledgementMaySpanSeveralAcquisitions() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 4);
        f.fetch("a", 100, 5, 9);

        assertThat(f.acknowledge("a", ack(0, 9, ACCEPT))).isEqualTo(ErrorCode.NONE);

        f.assertLastWrite(0, state(0, 9, ACKNOWLEDGED, 1));
        assertThat(f.partition.startOffset()).isEqualTo(10);
    }

    @Test
    void recordsHeldByAnotherMemberAnswerInvalidRecordState() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);

        assertThat(f.acknowledge("b", ack(0, 9, ACCEPT))).isEqualTo(ErrorCode.INVALID_RECORD_STATE);
        assertThat(f.acknowledge("b", ack(2, 3, ACCEPT))).isEqualTo(ErrorCode.INVALID_RECORD_STATE);
        assertThat(f.persister.writes).isEmpty();
    }

    @Test
    void recordsNotAcquiredAnswerInvalidRecordState() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.acknowledge("a", ack(0, 4, RELEASE));

        assertThat(f.acknowledge("a", ack(0, 4, ACCEPT))).isEqualTo(ErrorCode.INVALID_RECORD_STATE);
        assertThat(f.acknowledge("a", ack(3, 6, ACCEPT))).isEqualTo(ErrorCode.INVALID_RECORD_STATE);
        assertThat(f.persister.writes).hasSize(1);
    }

    @Test
    void offsetsPastWhatWasAcquiredAnswerInvalidRequest() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);

        assertThat(f.acknowledge("a", ack(5, 12, ACCEPT))).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(f.acknowledge("a", ack(20, 25, ACCEPT))).isEqualTo(ErrorCode.INVALID_REQUEST);
    }

    @Test
    void offsetsBeforeAnythingCachedAnswerInvalidRecordState() {
        ShareFixture f = ShareFixture.startedAt(10);
        f.fetch("a", 100, 10, 19);

        assertThat(f.acknowledge("a", ack(0, 5, ACCEPT))).as("below the start offset: already done, ignored").isEqualTo(ErrorCode.NONE);
        assertThat(f.persister.writes).isEmpty();
    }

    @Test
    void malformedBatchesAnswerInvalidRequest() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);

        assertThat(f.acknowledge("a", ack(5, 4, ACCEPT))).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(f.acknowledge("a", ack(0, 4, ACCEPT, ACCEPT))).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(f.acknowledge("a", ack(0, 4))).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(f.acknowledge("a", ack(0, 4, ACCEPT), ack(3, 6, ACCEPT))).as("overlapping").isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(f.acknowledge("a", ack(5, 6, ACCEPT), ack(0, 4, ACCEPT))).as("out of order").isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(f.persister.writes).isEmpty();
    }

    @Test
    void aFailingBatchUndoesTheWholeRequest() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.fetch("b", 100, 10, 19);

        assertThat(f.acknowledge("a", ack(0, 9, ACCEPT), ack(10, 12, ACCEPT))).isEqualTo(ErrorCode.INVALID_RECORD_STATE);

        assertThat(f.persister.writes).isEmpty();
        assertThat(f.acknowledge("a", ack(0, 9, REJECT))).as("still acquired by a").isEqualTo(ErrorCode.NONE);
        f.assertLastWrite(0, state(0, 9, ARCHIVED, 1));
    }

    @Test
    void aFailedWriteRollsBackAndAnswersThePartitionError() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.persister.writeAnswer = ErrorCode.FENCED_STATE_EPOCH;

        assertThat(f.acknowledge("a", ack(0, 9, ACCEPT))).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        assertThat(f.partition.startOffset()).isEqualTo(0);

        f.persister.writeAnswer = ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
        assertThat(f.acknowledge("a", ack(0, 9, ACCEPT))).isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE);

        f.persister.writeAnswer = ErrorCode.NONE;
        assertThat(f.acknowledge("a", ack(0, 9, ACCEPT))).as("records acquired by a again").isEqualTo(ErrorCode.NONE);
        assertThat(f.partition.startOffset()).isEqualTo(10);
    }

    @Test
    void theAcknowledgementCompletesOnlyOnceWritten() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.persister.holdWrites = true;

        CompletableFuture<ErrorCode> done = f.partition.acknowledge("a", List.of(ack(0, 9, ACCEPT)));

        assertThat(done).isNotDone();
        assertThat(f.partition.startOffset()).isEqualTo(0);
        assertThat(f.acknowledge("a", ack(0, 9, REJECT))).as("in transition").isEqualTo(ErrorCode.INVALID_RECORD_STATE);
        f.persister.held.get(0).complete(ErrorCode.NONE);
        assertThat(done).isCompletedWithValue(ErrorCode.NONE);
        assertThat(f.partition.startOffset()).isEqualTo(10);
    }

    @Test
    void aLockExpiringDuringAFailedWriteLeavesTheRecordsAvailable() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.persister.holdWrites = true;
        CompletableFuture<ErrorCode> done = f.partition.acknowledge("a", List.of(ack(0, 9, ACCEPT)));

        f.timers.advance(ShareFixture.LOCK_MS);
        f.persister.held.get(0).complete(ErrorCode.COORDINATOR_NOT_AVAILABLE);

        assertThat(done).isCompletedWithValue(ErrorCode.COORDINATOR_NOT_AVAILABLE);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(0);
        assertThat(f.fetch("b", 100, 0, 9)).containsExactly(acquired(0, 9, 2));
    }

    @Test
    void renewRestartsTheLockWithoutWriting() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.timers.advance(20_000);

        assertThat(f.acknowledge("a", ack(0, 9, RENEW))).isEqualTo(ErrorCode.NONE);
        f.timers.advance(20_000);

        assertThat(f.persister.writes).isEmpty();
        assertThat(f.fetch("b", 100, 0, 9)).as("still held by a").isEmpty();
        f.timers.advance(10_000);
        assertThat(f.fetch("b", 100, 0, 9)).containsExactly(acquired(0, 9, 2));
    }

    @Test
    void renewOfSomeOffsetsKeepsOnlyThoseLocked() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.timers.advance(20_000);

        assertThat(f.acknowledge("a", ack(0, 2, RENEW))).isEqualTo(ErrorCode.NONE);
        f.timers.advance(10_000);

        f.assertLastWrite(0, state(3, 9, AVAILABLE, 1));
        assertThat(f.fetch("b", 100, 0, 9)).containsExactly(acquired(3, 9, 2));
        assertThat(f.acknowledge("a", ack(0, 2, ACCEPT))).isEqualTo(ErrorCode.NONE);
    }

    @Test
    void releaseAcquiredRecordsFreesOnlyThatMembersRecords() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 4);
        f.fetch("b", 100, 5, 9);

        assertThat(f.partition.releaseAcquiredRecords("a").join()).isEqualTo(ErrorCode.NONE);

        f.assertLastWrite(0, state(0, 4, AVAILABLE, 1));
        assertThat(f.fetch("c", 100, 0, 9)).containsExactly(acquired(0, 4, 2));
        assertThat(f.acknowledge("b", ack(5, 9, ACCEPT))).isEqualTo(ErrorCode.NONE);
    }

    @Test
    void releaseOfAMemberHoldingNothingWritesNothing() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 4);

        assertThat(f.partition.releaseAcquiredRecords("z").join()).isEqualTo(ErrorCode.NONE);
        assertThat(f.persister.writes).isEmpty();
    }

    @Test
    void theStartOffsetWaitsForTheLowestUnfinishedRecord() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 4);
        f.fetch("b", 100, 5, 9);

        f.acknowledge("b", ack(5, 9, ACCEPT));
        assertThat(f.partition.startOffset()).isEqualTo(0);
        f.acknowledge("a", ack(0, 4, ACCEPT));
        assertThat(f.partition.startOffset()).isEqualTo(10);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(10);
    }

    @Test
    void releasingAMemberWhosePartOfABatchIsDoneWritesOnlyTheRest() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.acknowledge("a", ack(0, 4, ACCEPT));

        assertThat(f.partition.releaseAcquiredRecords("a").join()).isEqualTo(ErrorCode.NONE);

        f.assertLastWrite(5, state(5, 9, AVAILABLE, 1));
        assertThat(f.fetch("b", 100, 0, 9)).containsExactly(acquired(5, 9, 2));
    }

    @Test
    void releasingAMemberAtTheDeliveryLimitArchivesItsRecords() {
        ShareFixture f = ShareFixture.startedAt(0, ShareFixture.settings(1, 2000, "latest"));
        f.fetch("a", 100, 0, 9);

        assertThat(f.partition.releaseAcquiredRecords("a").join()).isEqualTo(ErrorCode.NONE);

        f.assertLastWrite(0, state(0, 9, ARCHIVED, 1));
        assertThat(f.partition.startOffset()).isEqualTo(10);
    }

    @Test
    void cachedRecordsTheLogNoLongerHasAreArchivedWhenAFetchSkipsThem() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.acknowledge("a", ack(0, 9, RELEASE));

        // Compaction removed 0-4: reading at 0 returns the batch 5-9.
        assertThat(f.partition.acquire("b", 0, ShareFixture.batches(5, 9), 100, 100, false, Long.MAX_VALUE))
                .containsExactly(acquired(5, 9, 2));
        assertThat(f.acknowledge("b", ack(5, 9, ACCEPT))).isEqualTo(ErrorCode.NONE);

        f.assertLastWrite(0, state(5, 9, ACKNOWLEDGED, 2));
        assertThat(f.persister.lastWrite().deliveryCompleteCount()).as("0-4 archived, 5-9 acknowledged").isEqualTo(10);
        assertThat(f.partition.startOffset()).isEqualTo(10);
    }
}
