package io.odradek.coordinator.share.partition;

import static io.odradek.coordinator.share.StateBatch.ACKNOWLEDGED;
import static io.odradek.coordinator.share.partition.AcknowledgeType.ACCEPT;
import static io.odradek.coordinator.share.partition.AcknowledgeType.GAP;
import static io.odradek.coordinator.share.partition.ShareFixture.ack;
import static io.odradek.coordinator.share.partition.ShareFixture.acquired;
import static io.odradek.coordinator.share.partition.ShareFixture.state;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.wire.ErrorCode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** share.isolation.level=read_committed: records of aborted transactions are archived, never delivered. */
class SharePartitionReadCommittedTest {
    private static final long PRODUCER = 4000;
    // 0-2 plain, 3-5 and 6-7 transactional (aborted by the marker at 8), 9 plain.
    private static final List<LogBatch> LOG = List.of(new LogBatch(0, 2), new LogBatch(3, 5, PRODUCER, true),
            new LogBatch(6, 7, PRODUCER, true), new LogBatch(8, 8, PRODUCER, true), new LogBatch(9, 9));
    private static final List<AbortedTxn> ABORTED = List.of(new AbortedTxn(PRODUCER, 3, 8, 9));

    private static ShareFixture started(boolean readCommitted) {
        ShareFixture f = new ShareFixture();
        f.persister.readAnswer = new PersistedShareState(ErrorCode.NONE, null, 1, 0, 0, List.of());
        f.start(new SharePartitionSettings(ShareFixture.LOCK_MS, 5, 2000, "latest", readCommitted));
        return f;
    }

    @Test
    void abortedRecordsAreLeftOutOfTheAcquiredRangesAndArchived() {
        ShareFixture f = started(true);

        assertThat(f.partition.acquire("a", 0, LOG, 100, 100, false, 10, ABORTED))
                .containsExactly(acquired(0, 2, 1), acquired(8, 9, 1));

        assertThat(f.acknowledge("a", ack(0, 2, ACCEPT), ack(8, 8, GAP), ack(9, 9, ACCEPT))).isEqualTo(ErrorCode.NONE);
        assertThat(f.partition.startOffset()).as("past the archived aborted records too").isEqualTo(10);
        assertThat(f.acknowledge("a", ack(3, 5, ACCEPT))).as("below the start offset: ignored").isEqualTo(ErrorCode.NONE);
    }

    @Test
    void readUncommittedDeliversAbortedRecords() {
        ShareFixture f = started(false);

        assertThat(f.partition.acquire("a", 0, LOG, 100, 100, false, 10, ABORTED)).containsExactly(acquired(0, 9, 1));
        f.acknowledge("a", ack(0, 9, ACCEPT));
        f.assertLastWrite(0, state(0, 9, ACKNOWLEDGED, 1));
    }
}
