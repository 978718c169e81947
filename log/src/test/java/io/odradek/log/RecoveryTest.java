package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.Batches.offsetsAndValues;
import static io.odradek.log.LogFixture.config;
import static io.odradek.log.LogFixture.readSlice;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecoveryTest {
    @TempDir
    Path logDir;

    private Path segmentFile() {
        return logDir.resolve("t-0/00000000000000000000.log");
    }

    /** Writes three batches (offsets 0-1, 2, 3) and "crashes": flushed but never closed. */
    private long crashAfterThreeBatches() throws Exception {
        PartitionLog log = PartitionLog.open(logDir, "t", 0, LogConfig.defaults());
        log.append(batch(1L, "a", "b"), 0);
        log.append(batch(2L, "c"), 0);
        long sizeBeforeLast = log.sizeInBytes();
        log.append(batch(3L, "d"), 0);
        log.flush();
        return sizeBeforeLast;
    }

    @Test
    void tailCutMidBatchIsTruncatedAndEarlierBatchesSurvive() throws Exception {
        long sizeBeforeLast = crashAfterThreeBatches();
        try (FileChannel ch = FileChannel.open(segmentFile(), StandardOpenOption.WRITE)) {
            ch.truncate(sizeBeforeLast + 30);
        }

        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, LogConfig.defaults())) {
            assertThat(log.logEndOffset()).isEqualTo(3L);
            assertThat(Files.size(segmentFile())).isEqualTo(sizeBeforeLast);
            assertThat(offsetsAndValues(readSlice(log.read(0L, 1 << 20)))).containsExactly("0:a", "1:b", "2:c");
            assertThat(log.append(batch(4L, "e"), 0).baseOffset()).isEqualTo(3L);
        }
    }

    @Test
    void tailWithAFlippedByteIsTruncated() throws Exception {
        long sizeBeforeLast = crashAfterThreeBatches();
        try (FileChannel ch = FileChannel.open(segmentFile(), StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            long pos = ch.size() - 2;
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, pos);
            ch.write(ByteBuffer.wrap(new byte[] {(byte) (one.get(0) ^ 0x01)}), pos);
        }

        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, LogConfig.defaults())) {
            assertThat(log.logEndOffset()).isEqualTo(3L);
            assertThat(log.sizeInBytes()).isEqualTo(sizeBeforeLast);
            assertThat(offsetsAndValues(readSlice(log.read(2L, 1 << 20)))).containsExactly("2:c");
        }
    }

    @Test
    void deletedIndexesAreRebuilt() throws Exception {
        LogConfig cfg = config(Map.of(LogConfig.INDEX_INTERVAL_BYTES, "1"));
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg)) {
            for (int i = 0; i < 10; i++) {
                log.append(batch(100L + i, "v" + i), 0);
            }
        }
        Path index = logDir.resolve("t-0/00000000000000000000.index");
        Path timeIndex = logDir.resolve("t-0/00000000000000000000.timeindex");
        byte[] indexBefore = Files.readAllBytes(index);
        byte[] timeIndexBefore = Files.readAllBytes(timeIndex);
        assertThat(indexBefore).hasSize(9 * 8);
        Files.delete(index);
        Files.delete(timeIndex);

        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg,
                PartitionLog.Options.defaults().withCleanShutdown(true))) {
            assertThat(log.logEndOffset()).isEqualTo(10L);
            assertThat(log.read(7L, 1).firstOffset()).isEqualTo(7L);
            assertThat(log.offsetForTimestamp(105L)).contains(new OffsetAndTimestamp(5L, 105L));
        }
        assertThat(Files.readAllBytes(index)).isEqualTo(indexBefore);
        assertThat(Files.readAllBytes(timeIndex)).isEqualTo(timeIndexBefore);
    }

    @Test
    void crashedActiveSegmentWithPreallocatedIndexesRecoversToTheSameEntries() throws Exception {
        LogConfig cfg = config(Map.of(LogConfig.INDEX_INTERVAL_BYTES, "1"));
        PartitionLog crashed = PartitionLog.open(logDir, "t", 0, cfg);
        for (int i = 0; i < 5; i++) {
            crashed.append(batch(100L + i, "v" + i), 0);
        }
        crashed.flush();
        assertThat(Files.size(logDir.resolve("t-0/00000000000000000000.index"))).isEqualTo(10485760L);

        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg)) {
            assertThat(log.logEndOffset()).isEqualTo(5L);
            assertThat(log.read(3L, 1).firstOffset()).isEqualTo(3L);
            assertThat(log.maxTimestampOffset()).contains(new OffsetAndTimestamp(4L, 104L));
        }
        assertThat(Files.size(logDir.resolve("t-0/00000000000000000000.index"))).isEqualTo(4 * 8L);
    }

    @Test
    void cleanReopenKeepsEverything() throws Exception {
        LogConfig cfg = config(Map.of(LogConfig.SEGMENT_BYTES, "250"));
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg)) {
            for (int i = 0; i < 8; i++) {
                log.append(batch(1_000L + i, "value" + i), 1);
            }
        }
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg,
                PartitionLog.Options.defaults().withCleanShutdown(true))) {
            assertThat(log.numberOfSegments()).isGreaterThan(1);
            assertThat(log.logEndOffset()).isEqualTo(8L);
            StringBuilder all = new StringBuilder();
            long offset = 0;
            while (offset < log.logEndOffset()) {
                for (String s : offsetsAndValues(readSlice(log.read(offset, 1 << 20)))) {
                    all.append(s).append(' ');
                    offset++;
                }
            }
            assertThat(all.toString().trim()).isEqualTo("0:value0 1:value1 2:value2 3:value3 4:value4 5:value5 6:value6 7:value7");
            assertThat(log.maxTimestampOffset()).contains(new OffsetAndTimestamp(7L, 1_007L));
            assertThat(log.append(batch(2_000L, "more"), 1).baseOffset()).isEqualTo(8L);
        }
    }

    @Test
    void kafkasFileRecordsReadsTheSegmentFile() throws Exception {
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, LogConfig.defaults())) {
            log.append(batch(1L, "a", "b"), 5);
            log.append(batch(2L, "c"), 5);
        }
        try (org.apache.kafka.common.record.internal.FileRecords records =
                     org.apache.kafka.common.record.internal.FileRecords.open(segmentFile().toFile())) {
            java.util.List<String> seen = new java.util.ArrayList<>();
            for (var b : records.batches()) {
                b.ensureValid();
                seen.add(b.baseOffset() + "-" + b.lastOffset() + "@" + b.partitionLeaderEpoch());
            }
            assertThat(seen).containsExactly("0-1@5", "2-2@5");
        }
    }
}
