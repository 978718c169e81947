package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.Batches.offsetsAndValues;
import static io.odradek.log.LogFixture.config;
import static io.odradek.log.LogFixture.readSlice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.checkpoint.LeaderEpochFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DeleteRecords on the log: the log start offset moved forward (Kafka's maybeIncrementLogStartOffset). */
class LogStartOffsetTest {
    @TempDir
    Path logDir;
    @TempDir
    Path crashCopy;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private static Map<String, String> twoBatchSegments() {
        int batchSize = batch(0L, "value-0").remaining();
        return Map.of(LogConfig.SEGMENT_BYTES, Integer.toString(2 * batchSize), LogConfig.FILE_DELETE_DELAY_MS, "0");
    }

    private PartitionLog open(Map<String, String> overrides) {
        return PartitionLog.open(logDir, "t", 0, config(overrides),
                PartitionLog.Options.defaults().withScheduler(scheduler));
    }

    /** Ten one-record batches, two per segment: segments at 0, 2, 4, 6, 8; leader epoch 0 up to 3, then 1. */
    private static void fill(PartitionLog log) {
        for (int i = 0; i < 10; i++) {
            log.append(batch(1_000L * i, "value-" + i), i < 4 ? 0 : 1);
        }
    }

    @Test
    void readsBelowTheNewStartAreOutOfRangeAndSegmentsWhollyBelowItGo() throws Exception {
        try (PartitionLog log = open(twoBatchSegments())) {
            fill(log);

            assertThat(log.maybeIncrementLogStartOffset(5L)).isTrue();

            assertThat(log.logStartOffset()).isEqualTo(5L);
            // 4-5 holds the new start, so it stays; 0-1 and 2-3 are gone.
            assertThat(log.segmentBaseOffsets()).containsExactly(4L, 6L, 8L);
            assertThatThrownBy(() -> log.read(4L, 1000)).isInstanceOf(OffsetOutOfRangeException.class);
            assertThat(offsetsAndValues(readSlice(log.read(5L, 1000)))).containsExactly("5:value-5");
            assertThat(offsetsAndValues(readSlice(log.read(6L, 1000)))).containsExactly("6:value-6", "7:value-7");
            assertThat(log.offsetForTimestamp(0L).orElseThrow().offset()).isEqualTo(5L);
            scheduler.submit(() -> { }).get(); // the delayed unlinks ran
            assertThat(logDir.resolve("t-0/00000000000000000000.log")).doesNotExist();
            assertThat(logDir.resolve("t-0/00000000000000000002.log")).doesNotExist();
            assertThat(logDir.resolve("t-0/00000000000000000004.log")).exists();
        }
    }

    @Test
    void theEpochCacheStartsAtTheNewLogStart() {
        try (PartitionLog log = open(twoBatchSegments())) {
            fill(log);

            log.maybeIncrementLogStartOffset(5L);

            assertThat(log.leaderEpochs()).containsExactly(new LeaderEpochFile.EpochEntry(1, 5L));
            assertThat(log.endOffsetForEpoch(0).endOffset()).isEqualTo(5L); // below the first epoch kept: its start
        }
    }

    @Test
    void anOffsetAboveTheHighWatermarkIsRefusedAndNothingMoves() {
        try (PartitionLog log = open(twoBatchSegments())) {
            fill(log);
            log.updateHighWatermark(7L); // a replicated partition whose followers have 7 offsets

            assertThatThrownBy(() -> log.maybeIncrementLogStartOffset(8L))
                    .isInstanceOf(OffsetOutOfRangeException.class)
                    .hasMessage("Cannot increment the log start offset to 8 of partition t-0 since it is larger"
                            + " than the high watermark 7");
            assertThat(log.logStartOffset()).isZero();
            assertThat(log.segmentBaseOffsets()).containsExactly(0L, 2L, 4L, 6L, 8L);

            assertThat(log.maybeIncrementLogStartOffset(7L)).isTrue();
            assertThat(log.logStartOffset()).isEqualTo(7L);
        }
    }

    @Test
    void theLogEndIsTheLimitAndAnOffsetAtOrBelowTheStartChangesNothing() {
        try (PartitionLog log = open(twoBatchSegments())) {
            fill(log);

            assertThat(log.maybeIncrementLogStartOffset(10L)).isTrue();
            assertThat(log.maybeIncrementLogStartOffset(3L)).isFalse();
            assertThat(log.maybeIncrementLogStartOffset(10L)).isFalse();

            assertThat(log.logStartOffset()).isEqualTo(10L);
            assertThat(log.segmentBaseOffsets()).containsExactly(8L);
            assertThat(log.read(10L, 1000).isEmpty()).isTrue();
            assertThat(log.append(batch(1L, "next"), 1).baseOffset()).isEqualTo(10L);
            assertThatThrownBy(() -> log.maybeIncrementLogStartOffset(12L)).isInstanceOf(OffsetOutOfRangeException.class);
        }
    }

    @Test
    void aTransactionOpenBelowTheNewStartHoldsTheLastStableOffsetAtTheStartUntilItEnds() throws Exception {
        try (PartitionLog log = open(Map.of())) {
            log.append(batch(1L, "a", "b"), 0);                                          // 0-1
            log.append(Batches.transactional(9L, (short) 0, 0, 1L, "t1", "t2"), 0);      // 2-3, open
            log.append(batch(1L, "c"), 0);                                               // 4

            log.maybeIncrementLogStartOffset(3L);

            assertThat(log.firstUnstableOffset()).isEqualTo(3L); // Kafka: never below the log start
            assertThat(log.read(3L, 1000, Long.MAX_VALUE, true).isEmpty()).isTrue();
            log.appendMarker(9L, (short) 0, 0, true, 0);                                   // 5: commit
            assertThat(log.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);
            assertThat(offsetsAndValues(readSlice(log.read(3L, 1000, Long.MAX_VALUE, true))))
                    .startsWith("2:t1", "3:t2", "4:c");
        }
    }

    @Test
    void retentionDeletesSegmentsBelowARestoredLogStartEvenWhenCompacted() {
        Map<String, String> compacted = new java.util.HashMap<>(twoBatchSegments());
        compacted.put(LogConfig.CLEANUP_POLICY, "compact");
        try (PartitionLog log = open(compacted)) {
            fill(log);
        }
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, config(compacted),
                PartitionLog.Options.defaults().withScheduler(scheduler).withCleanShutdown(true).withCheckpoints(10L, 7L))) {
            assertThat(log.logStartOffset()).isEqualTo(7L);
            assertThat(log.segmentBaseOffsets()).containsExactly(0L, 2L, 4L, 6L, 8L);

            assertThat(log.deleteOldSegments(System.currentTimeMillis())).isEqualTo(3);

            assertThat(log.segmentBaseOffsets()).containsExactly(6L, 8L);
            assertThat(log.logStartOffset()).isEqualTo(7L);
        }
    }

    @Test
    void theLogStartSurvivesACleanRestartThroughTheCheckpoint() throws Exception {
        try (LogManager manager = openManager(logDir)) {
            PartitionLog log = manager.create("t", 0, null, twoBatchSegments());
            fill(log);
            log.maybeIncrementLogStartOffset(5L);
        }
        assertThat(Files.readString(logDir.resolve("log-start-offset-checkpoint"))).isEqualTo("0\n1\nt 0 5\n");
        try (LogManager manager = openManager(logDir)) {
            PartitionLog log = manager.get("t", 0).orElseThrow();
            assertThat(log.logStartOffset()).isEqualTo(5L);
            assertThatThrownBy(() -> log.read(4L, 1000)).isInstanceOf(OffsetOutOfRangeException.class);
            assertThat(offsetsAndValues(readSlice(log.read(5L, 1000)))).startsWith("5:value-5");
        }
    }

    @Test
    void theLogStartIsCheckpointedBeforeTheIncrementReturnsSoACrashKeepsIt() throws Exception {
        try (LogManager manager = openManager(logDir)) {
            PartitionLog log = manager.create("t", 0, null, twoBatchSegments());
            fill(log);
            log.maybeIncrementLogStartOffset(5L);
            copyTree(logDir, crashCopy); // the disk as a crash right now would leave it: no clean-shutdown marker
        }
        assertThat(crashCopy.resolve(LogManager.CLEAN_SHUTDOWN_FILE)).doesNotExist();
        try (LogManager manager = openManager(crashCopy)) {
            PartitionLog log = manager.get("t", 0).orElseThrow();
            assertThat(log.logStartOffset()).isEqualTo(5L);
            assertThat(log.logEndOffset()).isEqualTo(10L);
            assertThatThrownBy(() -> log.read(4L, 1000)).isInstanceOf(OffsetOutOfRangeException.class);
        }
    }

    private static LogManager openManager(Path dir) {
        return LogManager.open(List.of(dir), LogConfig.defaults(), topic -> twoBatchSegments(), 300_000L,
                Clock.systemUTC());
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
