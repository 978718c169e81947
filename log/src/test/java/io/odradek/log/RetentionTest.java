package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.LogFixture.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetentionTest {
    @TempDir
    Path logDir;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private PartitionLog open(Map<String, String> overrides) {
        return PartitionLog.open(logDir, "t", 0, config(overrides),
                PartitionLog.Options.defaults().withScheduler(scheduler));
    }

    /** Five segments of two one-record batches each: offsets 2i, 2i+1 at timestamps 1000*i. */
    private static void fill(PartitionLog log) {
        for (int i = 0; i < 10; i++) {
            log.append(batch(1_000L * (i / 2), "value-" + i), 0);
        }
    }

    @Test
    void segmentsOlderThanRetentionMsAreDeletedAndLogStartAdvances() throws Exception {
        int batchSize = batch(0L, "value-0").remaining();
        try (PartitionLog log = open(Map.of(LogConfig.SEGMENT_BYTES, Integer.toString(2 * batchSize),
                LogConfig.RETENTION_MS, "1500", LogConfig.FILE_DELETE_DELAY_MS, "0"))) {
            fill(log);
            assertThat(log.segmentBaseOffsets()).containsExactly(0L, 2L, 4L, 6L, 8L);

            // now = 4000: segments with largest timestamp 0, 1000, 2000 are older than 1500 ms
            assertThat(log.deleteOldSegments(4_000L)).isEqualTo(3);

            assertThat(log.segmentBaseOffsets()).containsExactly(6L, 8L);
            assertThat(log.logStartOffset()).isEqualTo(6L);
            assertThatThrownBy(() -> log.read(5L, 100)).isInstanceOf(OffsetOutOfRangeException.class);
            assertThat(log.read(6L, 100).firstOffset()).isEqualTo(6L);
            scheduler.submit(() -> { }).get(); // the delayed unlinks ran
            assertThat(logDir.resolve("t-0/00000000000000000000.log")).doesNotExist();
            assertThat(logDir.resolve("t-0/00000000000000000000.log.deleted")).doesNotExist();
        }
        try (PartitionLog reopened = open(Map.of())) {
            assertThat(reopened.logStartOffset()).isEqualTo(6L);
        }
    }

    @Test
    void everythingExpiredRollsFirstSoTheLogKeepsItsEndOffset() {
        int batchSize = batch(0L, "value-0").remaining();
        try (PartitionLog log = open(Map.of(LogConfig.SEGMENT_BYTES, Integer.toString(2 * batchSize),
                LogConfig.RETENTION_MS, "10"))) {
            fill(log);

            assertThat(log.deleteOldSegments(1_000_000L)).isEqualTo(5);

            assertThat(log.segmentBaseOffsets()).containsExactly(10L);
            assertThat(log.logStartOffset()).isEqualTo(10L);
            assertThat(log.logEndOffset()).isEqualTo(10L);
            assertThat(log.read(10L, 100).isEmpty()).isTrue();
            assertThat(log.append(batch(1L, "next"), 0).baseOffset()).isEqualTo(10L);
        }
    }

    @Test
    void retentionBytesDeletesOldestSegmentsBeyondTheLimit() throws Exception {
        int batchSize = batch(0L, "value-0").remaining();
        try (PartitionLog log = open(Map.of(LogConfig.SEGMENT_BYTES, Integer.toString(2 * batchSize),
                LogConfig.RETENTION_BYTES, Integer.toString(4 * batchSize), LogConfig.RETENTION_MS, "-1"))) {
            fill(log);

            assertThat(log.deleteOldSegments(Long.MAX_VALUE)).isEqualTo(3);

            assertThat(log.segmentBaseOffsets()).containsExactly(6L, 8L);
            assertThat(log.sizeInBytes()).isEqualTo(4L * batchSize);
            assertThat(log.logStartOffset()).isEqualTo(6L);
            // renamed now, unlinked after file.delete.delay.ms (60 s by default)
            assertThat(logDir.resolve("t-0/00000000000000000000.log.deleted")).exists();
            assertThat(logDir.resolve("t-0/00000000000000000000.index.deleted")).exists();
        }
    }

    @Test
    void activeSegmentIsKeptWhenOnlyOlderOnesExpire() throws Exception {
        try (PartitionLog log = open(Map.of(LogConfig.RETENTION_MS, "100"))) {
            log.append(batch(0L, "old"), 0);
            log.append(batch(10_000L, "new"), 0);

            assertThat(log.deleteOldSegments(10_050L)).isZero();
            assertThat(log.logStartOffset()).isZero();
            assertThat(Files.exists(logDir.resolve("t-0/00000000000000000000.log"))).isTrue();
        }
    }
}
