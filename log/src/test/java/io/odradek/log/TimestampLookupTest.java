package io.odradek.log;

import static io.odradek.log.LogFixture.config;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ListOffsets by timestamp and max timestamp answer per record, as Kafka does, in every codec. */
class TimestampLookupTest {
    /** An index entry after every batch, so the time index hint takes part in the lookups. */
    private static final LogConfig DENSE_INDEX = config(Map.of(LogConfig.INDEX_INTERVAL_BYTES, "1"));

    @TempDir
    Path logDir;

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void offsetForTimestampIsTheFirstRecordAtOrAfterIt(String codec) {
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, DENSE_INDEX)) {
            log.append(batch(codec, 1_000L, 1_400L, 1_200L, 1_300L), 0); // offsets 0-3
            log.append(batch(codec, 2_000L, 2_100L, 2_600L, 2_200L), 0); // offsets 4-7
            log.append(batch(codec, 3_000L, 3_300L, 3_100L, 3_200L), 0); // offsets 8-11

            assertThat(log.offsetForTimestamp(0L)).contains(at(0, 1_000L));
            assertThat(log.offsetForTimestamp(1_000L)).contains(at(0, 1_000L));
            assertThat(log.offsetForTimestamp(1_250L)).contains(at(1, 1_400L));
            // the first record in offset order at or after it, not the one with that very timestamp
            assertThat(log.offsetForTimestamp(1_200L)).contains(at(1, 1_400L));
            assertThat(log.offsetForTimestamp(1_401L)).contains(at(4, 2_000L));
            assertThat(log.offsetForTimestamp(2_100L)).contains(at(5, 2_100L));
            assertThat(log.offsetForTimestamp(2_150L)).contains(at(6, 2_600L));
            assertThat(log.offsetForTimestamp(3_150L)).contains(at(9, 3_300L));
            assertThat(log.offsetForTimestamp(3_300L)).contains(at(9, 3_300L));
            assertThat(log.offsetForTimestamp(3_301L)).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void maxTimestampOffsetIsTheFirstRecordCarryingIt(String codec) {
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, DENSE_INDEX)) {
            log.append(batch(codec, 1_000L, 1_100L, 1_200L, 1_300L), 0); // offsets 0-3
            log.append(batch(codec, 2_000L, 9_000L, 2_600L, 2_200L), 0); // offsets 4-7
            log.append(batch(codec, 3_000L, 9_000L, 3_100L), 0); // offsets 8-10: the same max, later

            assertThat(log.maxTimestampOffset()).contains(at(5, 9_000L));
        }
    }

    @Test
    void lookupsSpanSegmentsAndSurviveAReopen() {
        LogConfig small = config(Map.of(LogConfig.SEGMENT_BYTES, "300", LogConfig.INDEX_INTERVAL_BYTES, "1"));
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, small)) {
            for (int i = 0; i < 6; i++) {
                long base = 10_000L * (i + 1);
                log.append(batch("lz4", base + 500L, base + 900L, base + 100L), 0); // offsets 3i .. 3i+2
            }
            assertThat(log.numberOfSegments()).isGreaterThan(2);
        }
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, small,
                PartitionLog.Options.defaults().withCleanShutdown(true))) {
            assertThat(log.offsetForTimestamp(40_600L)).contains(at(10, 40_900L));
            assertThat(log.offsetForTimestamp(40_901L)).contains(at(12, 50_500L));
            assertThat(log.maxTimestampOffset()).contains(at(16, 60_900L));
        }
    }

    @Test
    void recordsBelowTheLogStartOffsetAreNotAnswers() {
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, DENSE_INDEX)) {
            log.append(batch("zstd", 1_000L, 1_400L, 1_200L, 1_300L), 0); // offsets 0-3
            log.append(batch("zstd", 2_000L, 2_100L), 0); // offsets 4-5
        }
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, DENSE_INDEX,
                PartitionLog.Options.defaults().withCleanShutdown(true).withCheckpoints(6L, 2L))) {
            assertThat(log.logStartOffset()).isEqualTo(2L);
            assertThat(log.offsetForTimestamp(0L)).contains(at(2, 1_200L));
            assertThat(log.offsetForTimestamp(1_350L)).contains(at(4, 2_000L));
        }
    }

    @Test
    void logAppendTimeBatchesAnswerWithTheirFirstRecord() {
        LogFixture.ManualClock clock = new LogFixture.ManualClock(50_000L);
        LogConfig cfg = config(Map.of(LogConfig.MESSAGE_TIMESTAMP_TYPE, LogConfig.LOG_APPEND_TIME,
                LogConfig.INDEX_INTERVAL_BYTES, "1"));
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg, PartitionLog.Options.defaults().withClock(clock))) {
            log.append(batch("snappy", 1L, 9L, 5L), 0); // offsets 0-2 at 50000
            clock.set(60_000L);
            log.append(batch("snappy", 3L, 2L), 0); // offsets 3-4 at 60000
            clock.set(55_000L);
            log.append(batch("snappy", 7L), 0); // offset 5 at 55000

            assertThat(log.offsetForTimestamp(50_001L)).contains(at(3, 60_000L));
            assertThat(log.offsetForTimestamp(0L)).contains(at(0, 50_000L));
            assertThat(log.maxTimestampOffset()).contains(at(3, 60_000L));
        }
    }

    /** A producer's batch (base offset 0) of records with these timestamps, in {@code codec}. */
    private static ByteBuffer batch(String codec, long... timestamps) {
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(4096), RecordBatch.MAGIC_VALUE_V2,
                Compression.of(codec).build(), TimestampType.CREATE_TIME, 0L);
        for (long ts : timestamps) {
            b.append(new SimpleRecord(ts, ("k" + ts).getBytes(StandardCharsets.UTF_8),
                    ("value at " + ts).getBytes(StandardCharsets.UTF_8)));
        }
        return b.build().buffer();
    }

    private static OffsetAndTimestamp at(long offset, long timestamp) {
        return new OffsetAndTimestamp(offset, timestamp);
    }
}
