package io.odradek.coordinator.share.partition;

import static io.odradek.coordinator.share.StateBatch.ARCHIVED;
import static io.odradek.coordinator.share.StateBatch.AVAILABLE;
import static io.odradek.coordinator.share.partition.AcknowledgeType.ACCEPT;
import static io.odradek.coordinator.share.partition.AcknowledgeType.RELEASE;
import static io.odradek.coordinator.share.partition.ShareFixture.LOCK_MS;
import static io.odradek.coordinator.share.partition.ShareFixture.ack;
import static io.odradek.coordinator.share.partition.ShareFixture.acquired;
import static io.odradek.coordinator.share.partition.ShareFixture.state;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Acquisition locks timing out, and the delivery count limit. */
class SharePartitionLockTimeoutTest {
    @Test
    void unacknowledgedRecordsBecomeAvailableWhenTheLockExpires() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        int wakeupsBefore = f.wakeups.get();

        f.timers.advance(LOCK_MS - 1);
        assertThat(f.fetch("b", 100, 0, 9)).isEmpty();
        f.timers.advance(1);

        f.assertLastWrite(0, state(0, 9, AVAILABLE, 1));
        assertThat(f.wakeups.get()).isEqualTo(wakeupsBefore + 1);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(0);
        assertThat(f.fetch("b", 100, 0, 9)).containsExactly(acquired(0, 9, 2));
        assertThat(f.acknowledge("a", ack(0, 9, ACCEPT))).as("a's lock is gone").isEqualTo(ErrorCode.INVALID_RECORD_STATE);
    }

    @Test
    void acknowledgedRecordsCancelTheirLock() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.acknowledge("a", ack(0, 9, ACCEPT));

        assertThat(f.timers.pendingCount()).isZero();
        f.timers.advance(LOCK_MS);
        assertThat(f.persister.writes).hasSize(1);
    }

    @Test
    void onlyTheUnacknowledgedPartOfAnAcquisitionTimesOut() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.acknowledge("a", ack(0, 3, ACCEPT));

        f.timers.advance(LOCK_MS);

        f.assertLastWrite(4, state(4, 9, AVAILABLE, 1));
        assertThat(f.fetch("b", 100, 0, 9)).containsExactly(acquired(4, 9, 2));
    }

    @Test
    void aRecordTimingOutAtTheDeliveryLimitIsArchived() {
        ShareFixture f = ShareFixture.startedAt(0, ShareFixture.settings(2, 2000, "latest"));
        assertThat(f.fetch("a", 100, 0, 9)).containsExactly(acquired(0, 9, 1));
        f.timers.advance(LOCK_MS);
        assertThat(f.fetch("a", 100, 0, 9)).containsExactly(acquired(0, 9, 2));

        f.timers.advance(LOCK_MS);

        f.assertLastWrite(0, state(0, 9, ARCHIVED, 2));
        assertThat(f.partition.startOffset()).isEqualTo(10);
        assertThat(f.fetch("b", 100, 0, 9)).isEmpty();
    }

    @Test
    void aRecordReleasedAtTheDeliveryLimitIsArchived() {
        ShareFixture f = ShareFixture.startedAt(0, ShareFixture.settings(2, 2000, "latest"));
        f.fetch("a", 100, 0, 9);
        f.acknowledge("a", ack(0, 9, RELEASE));
        f.fetch("a", 100, 0, 9);

        assertThat(f.acknowledge("a", ack(0, 9, RELEASE))).isEqualTo(ErrorCode.NONE);

        f.assertLastWrite(0, state(0, 9, ARCHIVED, 2));
        assertThat(f.partition.startOffset()).isEqualTo(10);
    }

    @Test
    void aRecordIsDeliveredAtMostDeliveryCountLimitTimes() {
        ShareFixture f = ShareFixture.startedAt(0);
        for (int delivery = 1; delivery <= 5; delivery++) {
            assertThat(f.fetch("a", 100, 0, 0)).containsExactly(acquired(0, 0, delivery));
            f.timers.advance(LOCK_MS);
        }

        f.assertLastWrite(0, state(0, 0, ARCHIVED, 5));
        assertThat(f.partition.startOffset()).isEqualTo(1);
        assertThat(f.fetch("a", 100, 0, 0)).isEmpty();
    }

    @Test
    void recordsNearTheDeliveryLimitGoOutInSmallerGroupsAndTheLastAttemptAlone() {
        // Kafka 4.4 throttles records already delivered ceil(limit / 2) = 3 times: a batch then goes out in
        // groups halved per further delivery (8 >> 1 at the 4th), and a record on its last attempt goes alone.
        ShareFixture f = ShareFixture.startedAt(0);
        for (int delivery = 1; delivery <= 3; delivery++) {
            assertThat(f.fetch("a", 100, 0, 7)).containsExactly(acquired(0, 7, delivery));
            f.acknowledge("a", ack(0, 7, RELEASE));
        }

        assertThat(f.fetch("a", 100, 0, 7)).containsExactly(acquired(0, 3, 4));
        assertThat(f.fetch("b", 100, 0, 7)).containsExactly(acquired(4, 7, 4));
        f.acknowledge("a", ack(0, 3, RELEASE));

        assertThat(f.fetch("a", 100, 0, 7)).containsExactly(acquired(0, 0, 5));
        assertThat(f.fetch("a", 100, 0, 7)).containsExactly(acquired(1, 1, 5));
    }

    @Test
    void recordsBelowAMovedLogStartOffsetAreArchivedWhenTheirLockExpires() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.partition.updateLogStartOffset(5);
        assertThat(f.partition.startOffset()).isEqualTo(5);

        f.timers.advance(LOCK_MS);

        f.assertLastWrite(5, state(0, 4, ARCHIVED, 1), state(5, 9, AVAILABLE, 1));
        assertThat(f.fetch("b", 100, 0, 9)).containsExactly(acquired(5, 9, 2));
    }

    @Test
    void availableRecordsBelowAMovedLogStartOffsetAreArchivedAtOnce() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.acknowledge("a", ack(0, 9, RELEASE));
        int writes = f.persister.writes.size();

        f.partition.updateLogStartOffset(6);

        assertThat(f.persister.writes).as("written lazily, with the next write").hasSize(writes);
        assertThat(f.partition.startOffset()).isEqualTo(6);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(6);
        assertThat(f.fetch("b", 100, 6, 9)).containsExactly(acquired(6, 9, 2));
        f.acknowledge("b", ack(6, 9, ACCEPT));
        assertThat(f.persister.lastWrite().startOffset()).isEqualTo(6);
        assertThat(f.partition.startOffset()).isEqualTo(10);
    }

    @Test
    void aLogStartOffsetPastEverythingMovesTheNextFetch() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.acknowledge("a", ack(0, 9, ACCEPT));

        f.partition.updateLogStartOffset(50);

        assertThat(f.partition.startOffset()).isEqualTo(50);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(50);
        assertThat(f.fetch("a", 100, 50, 59)).containsExactly(acquired(50, 59, 1));
    }

    @Test
    void closingCancelsTheLocks() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);

        f.partition.close();
        f.timers.advance(LOCK_MS);

        assertThat(f.persister.writes).isEmpty();
        assertThat(f.acknowledge("a", ack(0, 9, ACCEPT))).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER);
    }

    @Test
    void aLogStartOffsetMovingIntoABatchWhoseReleaseIsBeingWrittenKeepsBothChanges() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);
        f.persister.holdWrites = true;
        CompletableFuture<ErrorCode> released = f.partition.acknowledge("a", List.of(ack(0, 9, RELEASE)));

        f.partition.updateLogStartOffset(4);
        f.persister.held.get(0).complete(ErrorCode.NONE);

        assertThat(released).isCompletedWithValue(ErrorCode.NONE);
        assertThat(f.partition.startOffset()).isEqualTo(4);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(4);
        f.persister.holdWrites = false;
        assertThat(f.fetch("b", 100, 0, 9)).containsExactly(acquired(4, 9, 2));
        assertThat(f.acknowledge("b", ack(4, 9, ACCEPT))).isEqualTo(ErrorCode.NONE);
        assertThat(f.partition.startOffset()).isEqualTo(10);
    }
}
