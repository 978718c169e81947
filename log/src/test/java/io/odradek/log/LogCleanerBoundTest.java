package io.odradek.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.segment.Segment;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.wire.batch.EndTxnMarker;
import io.odradek.wire.batch.RecordBatchBuilder;
import io.odradek.wire.batch.RecordBatchHeader;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cleaner pass on bare segments: the stable end the log passes in (its high watermark) bounds what
 * counts as a completed transaction, and each cleaned segment reports the aborted transactions whose
 * markers it kept (the entries its transaction index needs).
 */
class LogCleanerBoundTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final long P1 = 1000L;
    private static final long P2 = 2000L;
    private static final LogConfig CONFIG = LogFixture.config(Map.of(LogConfig.CLEANUP_POLICY, "compact"));

    @TempDir
    Path dir;

    private static ByteBuffer at(long offset, ByteBuffer batch) {
        new RecordBatchHeader(batch, 0).setBaseOffset(offset);
        return batch;
    }

    private static ByteBuffer txn(long pid, int seq, String key, String value) {
        return new RecordBatchBuilder(T0).producer(pid, (short) 0, seq).transactional()
                .append(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)).build();
    }

    private static ByteBuffer plain(String key, String value) {
        return new RecordBatchBuilder(T0)
                .append(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)).build();
    }

    /**
     * Offsets 0 P1 txn k=a, 1 P2 txn k=b, 2 ABORT P2, 3 plain k=c | active segment: 4 COMMIT P1, 5 plain z.
     */
    private List<Segment> log() throws Exception {
        Segment first = Segment.create(dir, 0, CONFIG, T0);
        first.append(at(0, txn(P1, 0, "k", "a")));
        first.append(at(1, txn(P2, 0, "k", "b")));
        first.append(at(2, new EndTxnMarker(false, 0).toBatch(P2, (short) 0, T0)));
        first.append(at(3, plain("k", "c")));
        first.onBecomeInactive();
        Segment active = Segment.create(dir, 4, CONFIG, T0);
        active.append(at(4, new EndTxnMarker(true, 0).toBatch(P1, (short) 0, T0)));
        active.append(at(5, plain("z", "z")));
        return List.of(first, active);
    }

    @Test
    void aTransactionWhoseMarkerIsAtOrPastTheHighWatermarkIsStillOpenForTheCleaner() throws Exception {
        List<Segment> segments = log();
        Segment active = segments.get(1);
        LogCleaner cleaner = LogCleaner.begin(segments, active, active.size(), 4, pid -> true);
        assertThat(cleaner.firstUncleanableOffset()).isZero(); // P1's transaction from offset 0 is not decided yet
        assertThat(cleaner.cleans(segments.get(0))).isFalse();
        for (Segment s : segments) {
            s.close();
        }
    }

    @Test
    void aCleanedSegmentReportsTheAbortedTransactionsWhoseMarkersItKept() throws Exception {
        List<Segment> segments = log();
        Segment active = segments.get(1);
        LogCleaner cleaner = LogCleaner.begin(segments, active, active.size(), 6, pid -> true);
        assertThat(cleaner.firstUncleanableOffset()).isEqualTo(4); // the active segment's base

        LogCleaner.Rewritten r = cleaner.rewrite(segments.get(0), dir, CONFIG, T0);

        // P2's transaction was aborted while P1's (from offset 0) was open: last stable offset 0
        assertThat(r.abortedTxns()).containsExactly(new AbortedTxn(P2, 1, 2, 0));
        List<String> batches = new ArrayList<>();
        try (FileRecords records = FileRecords.open(new File(r.cleaned().logFile().toString()), false)) {
            for (RecordBatch b : records.batches()) {
                b.ensureValid();
                batches.add(b.baseOffset() + "-" + b.lastOffset() + " pid " + b.producerId() + " records "
                        + b.countOrNull() + (b.isTransactional() ? " txn" : "") + (b.isControlBatch() ? " control" : ""));
            }
        }
        assertThat(batches).containsExactly(
                "0-0 pid 1000 records 0 txn",          // committed, superseded by k=c, kept empty: P1's last data
                "1-1 pid 2000 records 0 txn",          // aborted, kept empty: P2's last data
                "2-2 pid 2000 records 1 txn control",  // its transaction had data in this pass
                "3-3 pid -1 records 1");
        r.cleaned().closeAndDeleteFiles();
        for (Segment s : segments) {
            s.close();
        }
    }
}
