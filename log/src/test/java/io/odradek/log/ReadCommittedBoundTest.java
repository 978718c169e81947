package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.Batches.transactional;
import static io.odradek.log.LogFixture.config;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a read_committed fetch gets from the log: the slice's upper bound offset for the aborted list (found
 * without reading the file) and data stopping exactly at the first unstable offset, whose position the log
 * remembers from the append that opened the transaction, across segment rolls and a restart.
 */
class ReadCommittedBoundTest {
    private static final long P1 = 1000L;
    private static final long P2 = 2000L;
    private static final short EPOCH = 3;
    private static final long NOW = 1_000_000L;
    /** An offset-index entry for every batch but a segment's first. */
    private static final Map<String, String> DENSE_INDEX = Map.of(LogConfig.INDEX_INTERVAL_BYTES, "0");
    /** Two small batches per segment at most. */
    private static final Map<String, String> SMALL_SEGMENTS = Map.of(LogConfig.SEGMENT_BYTES, "200");

    @TempDir
    Path logDir;

    private PartitionLog open(Map<String, String> overrides) {
        return PartitionLog.open(logDir, "t", 0, config(overrides),
                PartitionLog.Options.defaults().withClock(new LogFixture.ManualClock(NOW)));
    }

    @Test
    void theUpperBoundInsideASegmentIsTheOffsetAfterAWholeBatchOrTheNextIndexEntryAfterACutOne() throws IOException {
        try (PartitionLog log = open(DENSE_INDEX)) {
            int first = batch(NOW, "a", "b").remaining();
            log.append(batch(NOW, "a", "b"), 0);                             // 0-1
            log.append(batch(NOW, "c"), 0);                                  // 2
            int third = batch(NOW, "d", "e", "f").remaining();
            log.append(batch(NOW, "d", "e", "f"), 0);                        // 3-5
            log.append(batch(NOW, "g", "h"), 0);                             // 6-7

            // One whole batch (KIP-74: a limit of 1 byte still returns it): exactly the offset after it.
            FileSlice one = log.read(2, 1);
            assertThat(one.upperBoundOffset()).isEqualTo(3L);
            // Cut in the middle of 3-5: the index entry of the batch after it (its last offset, as Kafka's).
            FileSlice cut = log.read(0, first + batch(NOW, "c").remaining() + third / 2);
            assertThat(offsets(cut)).containsExactly(0L, 1L, 2L);
            assertThat(cut.upperBoundOffset()).isEqualTo(7L);
            // Cut inside the last batch: no index entry after it, so the log end.
            FileSlice cutLast = log.read(0, log.read(0, 1 << 20).size() - 5);
            assertThat(offsets(cutLast)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
            assertThat(cutLast.upperBoundOffset()).isEqualTo(8L);
        }
    }

    @Test
    void theUpperBoundAtASegmentEndIsTheNextSegmentsBaseAndAtTheLogEndTheLogEnd() throws IOException {
        try (PartitionLog log = open(SMALL_SEGMENTS)) {
            for (int i = 0; i < 6; i++) {
                log.append(batch(NOW, "v" + i), 0);
            }
            FileSlice firstSegment = log.read(0, 1 << 20);
            long lastInFirst = offsets(firstSegment).get(offsets(firstSegment).size() - 1);
            assertThat(lastInFirst).isLessThan(5L); // the log rolled
            assertThat(firstSegment.upperBoundOffset()).isEqualTo(lastInFirst + 1);

            FileSlice atEnd = log.read(5, 1 << 20);
            assertThat(offsets(atEnd)).containsExactly(5L);
            assertThat(atEnd.upperBoundOffset()).isEqualTo(6L);
            assertThat(log.read(6, 1 << 20).upperBoundOffset()).isEqualTo(6L); // empty, at the log end
        }
    }

    @Test
    void aReadCommittedSliceEndsAtTheFirstUnstableOffsetWithThatAsItsUpperBound() throws IOException {
        try (PartitionLog log = open(DENSE_INDEX)) {
            log.append(batch(NOW, "p0"), 0);                                 // 0
            log.append(transactional(P1, EPOCH, 0, NOW, "t0"), 0);           // 1, open
            log.append(batch(NOW, "p1"), 0);                                 // 2

            FileSlice committed = log.read(0, 1 << 20, Long.MAX_VALUE, true);
            assertThat(values(committed)).containsExactly("0:p0");
            assertThat(committed.upperBoundOffset()).isEqualTo(1L);
        }
    }

    @Test
    void readCommittedReturnsExactlyTheBytesBelowTheFirstUnstableOffsetAsTransactionsOpenAndEndAcrossRolls()
            throws IOException {
        try (PartitionLog log = open(SMALL_SEGMENTS)) {
            log.append(batch(NOW, "p0"), 0);                                 // 0
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0);           // 1: P1 opens
            log.append(batch(NOW, "p1"), 0);                                 // 2
            log.append(transactional(P2, EPOCH, 0, NOW, "b0"), 0);           // 3: P2 opens
            log.append(batch(NOW, "p2"), 0);                                 // 4
            log.append(transactional(P1, EPOCH, 1, NOW, "a1"), 0);           // 5
            assertThat((long) log.read(0, 1 << 20).size()).isLessThan(bytesUpTo(log, 6)); // several segments

            assertCommittedReadIsTheLogUpTo(log, 1L);
            assertThat(readAllCommitted(log, 0)).containsExactly("0:p0");

            log.appendMarker(P1, EPOCH, 0, true, 0);                         // 6: P1 commits, P2 holds the LSO
            assertCommittedReadIsTheLogUpTo(log, 3L);
            assertThat(readAllCommitted(log, 0)).containsExactly("0:p0", "1:a0", "2:p1");

            log.append(batch(NOW, "p3"), 0);                                 // 7
            log.append(transactional(P1, EPOCH, 2, NOW, "a2"), 0);           // 8: P1 opens again
            log.appendMarker(P2, EPOCH, 0, false, 0);                        // 9: P2 aborts, P1 holds the LSO
            assertCommittedReadIsTheLogUpTo(log, 8L);
            assertThat(readAllCommitted(log, 0)).containsExactly("0:p0", "1:a0", "2:p1", "3:b0", "4:p2", "5:a1",
                    "6:MARKER", "7:p3");

            log.appendMarker(P1, EPOCH, 0, true, 0);                         // 10: nothing open
            assertThat(log.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);
            assertCommittedReadIsTheLogUpTo(log, 11L);
        }
    }

    @Test
    void afterARestartReadCommittedStillStopsAtATransactionLeftOpen() throws IOException {
        try (PartitionLog log = open(SMALL_SEGMENTS)) {
            log.append(batch(NOW, "p0"), 0);                                 // 0
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0);           // 1, open, mid-segment
            log.append(batch(NOW, "p1"), 0);                                 // 2
            log.append(batch(NOW, "p2"), 0);                                 // 3
        }
        try (PartitionLog log = open(SMALL_SEGMENTS)) {
            assertCommittedReadIsTheLogUpTo(log, 1L);
            log.append(batch(NOW, "p3"), 0);                                 // 4: the bound stays put
            assertCommittedReadIsTheLogUpTo(log, 1L);
            log.appendMarker(P1, EPOCH, 0, true, 0);                         // 5
            assertCommittedReadIsTheLogUpTo(log, 6L);
        }
    }

    /**
     * Every read_committed read, from each offset below {@code lso}, returns the same bytes as a plain read
     * bounded at {@code lso}; from {@code lso} on it returns nothing.
     */
    private static void assertCommittedReadIsTheLogUpTo(PartitionLog log, long lso) throws IOException {
        for (long offset = 0; offset < log.logEndOffset(); offset++) {
            FileSlice committed = log.read(offset, 1 << 20, Long.MAX_VALUE, true);
            if (offset >= lso) {
                assertThat(committed.size()).as("read_committed from %d", offset).isZero();
                continue;
            }
            FileSlice plain = log.read(offset, 1 << 20, lso);
            assertThat(LogFixture.readSlice(committed)).as("read_committed from %d", offset)
                    .isEqualTo(LogFixture.readSlice(plain));
            assertThat(committed.upperBoundOffset()).isEqualTo(plain.upperBoundOffset());
            List<Long> got = offsets(committed);
            assertThat(got.get(got.size() - 1)).isLessThan(lso);
        }
    }

    /** The log's bytes from offset 0 up to {@code offset} across segments. */
    private static long bytesUpTo(PartitionLog log, long offset) {
        long total = 0;
        long at = 0;
        while (at < offset) {
            FileSlice s = log.read(at, 1 << 20, offset);
            total += s.size();
            at = s.upperBoundOffset();
        }
        return total;
    }

    /** "offset:value" of every record read_committed reads from {@code offset}, slice after slice. */
    private static List<String> readAllCommitted(PartitionLog log, long offset) throws IOException {
        List<String> out = new ArrayList<>();
        long at = offset;
        while (true) {
            FileSlice s = log.read(at, 1 << 20, Long.MAX_VALUE, true);
            if (s.isEmpty()) {
                return out;
            }
            out.addAll(values(s));
            List<Long> offsets = offsets(s);
            at = offsets.get(offsets.size() - 1) + 1;
        }
    }

    private static List<Long> offsets(FileSlice slice) throws IOException {
        List<Long> out = new ArrayList<>();
        for (RecordBatch batch : MemoryRecords.readableRecords(LogFixture.readSlice(slice)).batches()) {
            for (Record r : batch) {
                out.add(r.offset());
            }
        }
        return out;
    }

    private static List<String> values(FileSlice slice) throws IOException {
        List<String> out = new ArrayList<>();
        ByteBuffer read = LogFixture.readSlice(slice);
        for (RecordBatch batch : MemoryRecords.readableRecords(read).batches()) {
            batch.ensureValid();
            for (Record r : batch) {
                out.add(r.offset() + ":" + (batch.isControlBatch() ? "MARKER"
                        : StandardCharsets.UTF_8.decode(r.value()).toString()));
            }
        }
        return out;
    }
}
