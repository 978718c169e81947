package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.Batches.offsetsAndValues;
import static io.odradek.log.LogFixture.readSlice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.checkpoint.AtomicFile;
import io.odradek.wire.ErrorCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's LogDirFailureChannel: an I/O error takes its log dir offline, the other dirs keep serving, a restart recovers. */
class LogDirFailureTest {
    /** Roll on every second batch, so the next append has to create a segment file. */
    private static final Map<String, String> SMALL_SEGMENTS = Map.of(LogConfig.SEGMENT_BYTES, "100");

    @TempDir
    Path dirA;
    @TempDir
    Path dirB;

    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final Logger logManagerLog = Logger.getLogger(LogManager.class.getName());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            errors.add(record.getLevel() + " " + record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        logManagerLog.addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        logManagerLog.removeHandler(capture);
    }

    private LogManager open() {
        return LogManager.open(List.of(dirA, dirB), LogConfig.defaults(), topic -> SMALL_SEGMENTS, 300_000L,
                Clock.systemUTC());
    }

    @Test
    void anIoErrorTakesItsDirOfflineOnceWhileTheOtherDirKeepsServingAndARestartRecoversIt() throws Exception {
        Path obstacle;
        try (LogManager manager = open()) {
            PartitionLog failing = manager.create("a", 0, null, SMALL_SEGMENTS); // dirA
            PartitionLog healthy = manager.create("b", 0, null, SMALL_SEGMENTS); // dirB
            assertThat(failing.dir().getParent()).isEqualTo(dirA);
            failing.append(batch(1L, "a0"), 0);
            healthy.append(batch(1L, "b0"), 0);
            // A non-empty directory where the next segment file must go: creating it fails with an IOException.
            obstacle = failing.dir().resolve("00000000000000000001.log");
            Files.createDirectories(obstacle);
            Files.writeString(obstacle.resolve("x"), "x");

            assertThatThrownBy(() -> failing.append(batch(2L, "a1"), 0))
                    .isInstanceOfSatisfying(LogException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.KAFKA_STORAGE_ERROR));

            assertThat(manager.offlineDirs()).containsExactly(dirA);
            assertThat(manager.isOffline("a", 0)).isTrue();
            assertThat(manager.isOffline("b", 0)).isFalse();
            for (Runnable use : List.<Runnable>of(() -> failing.read(0L, 1_000), failing::logEndOffset,
                    failing::highWatermark, () -> failing.append(batch(3L, "a2"), 0))) {
                assertThatThrownBy(use::run).isInstanceOfSatisfying(LogException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.KAFKA_STORAGE_ERROR);
                    assertThat(e.getMessage()).contains("offline log dir").contains(dirA.toString());
                });
            }
            assertThat(errors).hasSize(1);
            assertThat(errors.get(0)).startsWith("SEVERE Log directory " + dirA + " is offline: append on a-0 failed: ")
                    .contains("00000000000000000001.log")
                    .contains("Its 1 partition(s) answer KAFKA_STORAGE_ERROR; the other log dirs keep serving");

            healthy.append(batch(2L, "b1"), 0);
            assertThat(offsetsAndValues(readSlice(healthy.read(0L, 10_000)))).containsExactly("0:b0");
            assertThat(offsetsAndValues(readSlice(healthy.read(1L, 10_000)))).containsExactly("1:b1");
            // New partitions avoid the offline dir.
            assertThat(manager.create("c", 0, null, Map.of()).dir().getParent()).isEqualTo(dirB);
        }
        // The disk is fixed; the next start loads the dir normally, with what was acknowledged.
        Files.delete(obstacle.resolve("x"));
        Files.delete(obstacle);
        try (LogManager manager = open()) {
            assertThat(manager.offlineDirs()).isEmpty();
            PartitionLog recovered = manager.get("a", 0).orElseThrow();
            assertThat(offsetsAndValues(readSlice(recovered.read(0L, 10_000)))).containsExactly("0:a0");
            recovered.append(batch(4L, "a1"), 0);
            assertThat(offsetsAndValues(readSlice(recovered.read(1L, 10_000)))).containsExactly("1:a1");
        }
    }

    @Test
    void aFailedAtomicWriteLeavesTheOldFileAndNoTmp() throws Exception {
        Path target = dirA.resolve("checkpoint");
        AtomicFile.write(target, "old\n");
        // A directory named like the temp file's rename target's sibling cannot be replaced: the move fails.
        Path blocked = dirA.resolve("blocked");
        Files.createDirectories(blocked.resolve("inside"));

        assertThatThrownBy(() -> AtomicFile.write(blocked, "new\n")).isInstanceOf(java.io.IOException.class);

        assertThat(dirA.resolve("blocked.tmp")).doesNotExist();
        assertThat(Files.readString(target)).isEqualTo("old\n");
    }
}
