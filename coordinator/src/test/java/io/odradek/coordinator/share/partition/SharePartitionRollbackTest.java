package io.odradek.coordinator.share.partition;

import static io.odradek.coordinator.share.partition.ShareFixture.LOCK_MS;
import static io.odradek.coordinator.share.partition.ShareFixture.ack;
import static io.odradek.coordinator.share.partition.ShareFixture.acquired;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class SharePartitionRollbackTest {
    @Test
    void aFailedReleaseOfRecordsBelowTheStartWhoseLockExpiredArchivesThemSoTheStartMovesOn() {
        ShareFixture f = ShareFixture.startedAt(0);
        assertThat(f.fetch("a", 500, 0, 9)).containsExactly(acquired(0, 9, 1));
        f.partition.updateLogStartOffset(20);

        f.persister.holdWrites = true;
        CompletableFuture<ErrorCode> released = f.partition.releaseAcquiredRecords("a");
        f.timers.advance(LOCK_MS + 1); // the lock runs out while the write is out
        f.persister.holdWrites = false;
        f.persister.held.forEach(write -> write.complete(ErrorCode.UNKNOWN_SERVER_ERROR));
        released.join();

        assertThat(f.fetch("b", 500, 20, 29)).containsExactly(acquired(20, 29, 1));
        assertThat(f.acknowledge("b", ack(20, 29, AcknowledgeType.ACCEPT))).isEqualTo(ErrorCode.NONE);
        assertThat(f.partition.startOffset()).isEqualTo(30);
    }
}
