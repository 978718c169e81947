package io.odradek.coordinator.share.partition;

import static io.odradek.coordinator.share.partition.ShareFixture.acquired;
import static io.odradek.coordinator.share.partition.ShareFixture.batches;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a ShareFetch gets: which offsets a member acquires from the fetched batch headers. */
class SharePartitionAcquireTest {
    @Test
    void firstFetchAcquiresTheFetchedBatchesWithDeliveryCountOne() {
        ShareFixture f = ShareFixture.startedAt(0);
        assertThat(f.partition.nextFetchOffset()).isEqualTo(0);

        assertThat(f.fetch("a", 500, 0, 4, 5, 9)).containsExactly(acquired(0, 9, 1));

        assertThat(f.partition.nextFetchOffset()).isEqualTo(10);
        assertThat(f.persister.writes).as("acquisition is not persisted").isEmpty();
    }

    @Test
    void maxRecordsEndsAtTheEndOfTheBatchHoldingTheLastRecordAllowed() {
        ShareFixture f = ShareFixture.startedAt(0);

        assertThat(f.fetch("a", 7, 0, 4, 5, 9, 10, 14)).containsExactly(acquired(0, 9, 1));

        assertThat(f.partition.nextFetchOffset()).isEqualTo(10);
        assertThat(f.fetch("b", 7, 10, 14)).containsExactly(acquired(10, 14, 1));
    }

    @Test
    void recordsAtOrPastTheHighWatermarkAreNotAcquired() {
        ShareFixture f = ShareFixture.startedAt(0);

        assertThat(f.partition.acquire("a", batches(0, 4, 5, 9), 100, 7)).containsExactly(acquired(0, 6, 1));
        assertThat(f.partition.nextFetchOffset()).isEqualTo(7);
    }

    @Test
    void recordsAcquiredByOneMemberAreNotHandedToAnother() {
        ShareFixture f = ShareFixture.startedAt(0);
        f.fetch("a", 100, 0, 9);

        assertThat(f.fetch("b", 100, 0, 9)).isEmpty();
        assertThat(f.fetch("b", 100, 0, 9, 10, 19)).containsExactly(acquired(10, 19, 1));
    }

    @Test
    void theInFlightLimitStopsAcquisitionUntilRecordsAreDone() {
        ShareFixture f = ShareFixture.startedAt(0, ShareFixture.settings(5, 10, "latest"));
        assertThat(f.fetch("a", 100, 0, 9)).containsExactly(acquired(0, 9, 1));

        assertThat(f.partition.canAcquireRecords()).isFalse();
        assertThat(f.fetch("b", 100, 10, 19)).isEmpty();

        f.acknowledge("a", ShareFixture.ack(0, 9, AcknowledgeType.ACCEPT));
        assertThat(f.partition.canAcquireRecords()).isTrue();
        assertThat(f.fetch("b", 100, 10, 19)).containsExactly(acquired(10, 19, 1));
    }

    @Test
    void theInFlightLimitCutsANewAcquisitionAtABatchEnd() {
        ShareFixture f = ShareFixture.startedAt(0, ShareFixture.settings(5, 12, "latest"));

        assertThat(f.fetch("a", 100, 0, 4, 5, 9, 10, 14, 15, 19)).containsExactly(acquired(0, 14, 1));
    }

    @Test
    void batchSizeCutsNewRecordsIntoRangesAtLogBatchBoundaries() {
        ShareFixture f = ShareFixture.startedAt(0);

        assertThat(f.partition.acquire("a", 0, batches(0, 2, 3, 5, 6, 8, 9, 11), 100, 5, false, Long.MAX_VALUE))
                .containsExactly(acquired(0, 5, 1), acquired(6, 11, 1));
    }

    @Test
    void recordLimitModeAcquiresExactlyMaxRecordsAndLeavesTheRestOfTheBatchAvailable() {
        ShareFixture f = ShareFixture.startedAt(0);

        assertThat(f.partition.acquire("a", 0, batches(0, 9), 3, 100, true, Long.MAX_VALUE)).containsExactly(acquired(0, 2, 1));
        assertThat(f.partition.nextFetchOffset()).isEqualTo(3);
        assertThat(f.partition.acquire("b", 3, batches(0, 9), 100, 100, true, Long.MAX_VALUE)).containsExactly(acquired(3, 9, 1));
    }

    @Test
    void aFetchStartingBelowTheStartOffsetAcquiresFromTheStartOffset() {
        ShareFixture f = ShareFixture.startedAt(5);

        assertThat(f.fetch("a", 100, 0, 9)).containsExactly(acquired(5, 9, 1));
    }

    @Test
    void nothingIsAcquiredBeforeInitialization() {
        ShareFixture f = new ShareFixture();
        f.persister.holdWrites = true;
        SharePartition p = new SharePartition(ShareFixture.KEY, ShareFixture.settings(5, 100, "latest"), f.persister, f.timers,
                ts -> 0, () -> { });

        assertThat(p.acquire("a", batches(0, 9), 100, Long.MAX_VALUE)).isEmpty();
        assertThat(p.canAcquireRecords()).isFalse();
    }
}
