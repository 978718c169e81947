package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.Batches.idempotent;
import static io.odradek.log.Batches.offsetsAndValues;
import static io.odradek.log.LogFixture.readSlice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.wire.ErrorCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A partition's log moved to another log dir of the broker (AlterReplicaLogDirs). */
class LogMoveTest {
    @TempDir
    Path dirA;
    @TempDir
    Path dirB;
    @TempDir
    Path elsewhere;

    private LogManager open() {
        return LogManager.open(List.of(dirA, dirB), LogConfig.defaults(), topic -> Map.of(), 300_000L,
                Clock.systemUTC());
    }

    @Test
    void aMovedLogKeepsItsRecordsLogStartAndProducerStateInItsNewDir() throws Exception {
        UUID id = UUID.randomUUID();
        try (LogManager manager = open()) {
            PartitionLog log = manager.create("orders", 0, id, Map.of(LogConfig.SEGMENT_BYTES, "200"));
            assertThat(log.dir().getParent()).isEqualTo(dirA);
            log.append(idempotent(7L, (short) 0, 0, 1_000L, "a", "b"), 0);
            log.append(batch(2_000L, "c"), 0);
            log.append(batch(3_000L, "d"), 0);
            log.maybeIncrementLogStartOffset(1L);

            PartitionLog moved = manager.moveLog("orders", 0, dirB);

            assertThat(moved).isNotSameAs(log);
            assertThat(moved.dir()).isEqualTo(dirB.resolve("orders-0"));
            assertThat(dirA.resolve("orders-0")).doesNotExist();
            assertThat(moved.topicId()).isEqualTo(id);
            assertThat(moved.config().segmentBytes()).isEqualTo(200);
            assertThat(moved.logStartOffset()).isEqualTo(1L);
            assertThat(moved.logEndOffset()).isEqualTo(4L);
            assertThat(offsetsAndValues(readSlice(moved.read(1L, 1000)))).startsWith("0:a", "1:b", "2:c");
            // The producer's sequence state came along: its retry is a duplicate, not a new append.
            assertThat(moved.append(idempotent(7L, (short) 0, 0, 1_000L, "a", "b"), 0).duplicate()).isTrue();
            assertThat(manager.get("orders", 0)).containsSame(moved);
            assertThat(Files.readString(dirB.resolve("log-start-offset-checkpoint"))).contains("orders 0 1\n");
            assertThat(Files.readString(dirA.resolve("log-start-offset-checkpoint"))).doesNotContain("orders");
        }
        try (LogManager manager = open()) {
            PartitionLog reopened = manager.get("orders", 0).orElseThrow();
            assertThat(reopened.dir()).isEqualTo(dirB.resolve("orders-0"));
            assertThat(reopened.logStartOffset()).isEqualTo(1L);
            assertThat(reopened.logEndOffset()).isEqualTo(4L);
        }
    }

    @Test
    void movingToTheDirItIsInChangesNothing() {
        try (LogManager manager = open()) {
            PartitionLog log = manager.create("orders", 0, null, Map.of());
            log.append(batch(1L, "a"), 0);

            assertThat(manager.moveLog("orders", 0, dirA)).isSameAs(log);
            assertThat(log.logEndOffset()).isEqualTo(1L);
        }
    }

    @Test
    void aDirNotInLogDirsIsNotFoundAndAnUnknownPartitionIsNotAvailable() {
        try (LogManager manager = open()) {
            manager.create("orders", 0, null, Map.of());

            assertThatThrownBy(() -> manager.moveLog("orders", 0, elsewhere)).isInstanceOf(LogException.class)
                    .extracting(e -> ((LogException) e).errorCode()).isEqualTo(ErrorCode.LOG_DIR_NOT_FOUND);
            assertThatThrownBy(() -> manager.moveLog("orders", 1, dirB)).isInstanceOf(LogException.class)
                    .extracting(e -> ((LogException) e).errorCode()).isEqualTo(ErrorCode.REPLICA_NOT_AVAILABLE);
            assertThat(dirA.resolve("orders-0")).isDirectory();
        }
    }

    @Test
    void leftoversOfAnInterruptedMoveAreRemovedAtStart() throws Exception {
        try (LogManager manager = open()) {
            manager.create("orders", 0, null, Map.of()).append(batch(1L, "a"), 0);
        }
        Files.createDirectories(dirB.resolve("orders-0.0123456789abcdef0123456789abcdef" + LogManager.FUTURE_SUFFIX));
        Files.createDirectories(dirB.resolve("other-0.0123456789abcdef0123456789abcdef" + LogManager.MOVED_SUFFIX));

        try (LogManager manager = open()) {
            assertThat(manager.get("orders", 0).orElseThrow().dir()).isEqualTo(dirA.resolve("orders-0"));
            try (var children = Files.list(dirB)) {
                assertThat(children.filter(Files::isDirectory).toList()).isEmpty();
            }
        }
    }
}
