package io.odradek.log;

import static io.odradek.log.Batches.idempotent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.wire.ErrorCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdempotentProducerTest {
    private static final long PID = 1000L;
    private static final short EPOCH = 2;

    @TempDir
    Path logDir;

    private PartitionLog open() {
        return PartitionLog.open(logDir, "t", 0, LogConfig.defaults());
    }

    private static ErrorCode errorOf(Runnable r) {
        try {
            r.run();
        } catch (LogException e) {
            return e.errorCode();
        }
        return ErrorCode.NONE;
    }

    @Test
    void retriedBatchIsNotAppendedTwiceAndGetsItsOriginalOffsets() {
        try (PartitionLog log = open()) {
            log.append(idempotent(PID, EPOCH, 0, 1L, "a", "b"), 0);
            log.append(idempotent(PID, EPOCH, 2, 1L, "c"), 0);

            AppendResult retry = log.append(idempotent(PID, EPOCH, 0, 1L, "a", "b"), 0);

            assertThat(retry).isEqualTo(new AppendResult(0L, 1L, 0L, -1L, true));
            assertThat(log.logEndOffset()).isEqualTo(3L);
        }
    }

    @Test
    void sequenceGapIsOutOfOrder() {
        try (PartitionLog log = open()) {
            log.append(idempotent(PID, EPOCH, 0, 1L, "a"), 0);

            assertThat(errorOf(() -> log.append(idempotent(PID, EPOCH, 2, 1L, "c"), 0)))
                    .isEqualTo(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
            assertThat(log.logEndOffset()).isEqualTo(1L);
        }
    }

    @Test
    void olderEpochIsFencedAndNewEpochMustStartAtZero() {
        try (PartitionLog log = open()) {
            log.append(idempotent(PID, EPOCH, 0, 1L, "a"), 0);

            assertThat(errorOf(() -> log.append(idempotent(PID, (short) 1, 1, 1L, "b"), 0)))
                    .isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH);
            assertThat(errorOf(() -> log.append(idempotent(PID, (short) 3, 5, 1L, "b"), 0)))
                    .isEqualTo(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
            assertThat(log.append(idempotent(PID, (short) 3, 0, 1L, "b"), 0).baseOffset()).isEqualTo(1L);
        }
    }

    @Test
    void unknownProducerMayStartAtAnySequenceAndSequencesWrap() {
        try (PartitionLog log = open()) {
            log.append(idempotent(PID, EPOCH, Integer.MAX_VALUE - 1, 1L, "a", "b"), 0);

            assertThat(log.append(idempotent(PID, EPOCH, 0, 1L, "c"), 0).baseOffset()).isEqualTo(2L);
        }
    }

    @Test
    void gapWithinOneRequestRejectsTheWholeRequest() {
        try (PartitionLog log = open()) {
            log.append(idempotent(PID, EPOCH, 0, 1L, "a"), 0);

            assertThat(errorOf(() -> log.append(Batches.concat(idempotent(PID, EPOCH, 1, 1L, "b"),
                    idempotent(PID, EPOCH, 3, 1L, "d")), 0))).isEqualTo(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
            // the first batch of the rejected request was not recorded either
            assertThat(log.append(idempotent(PID, EPOCH, 1, 1L, "b"), 0).duplicate()).isFalse();
        }
    }

    @Test
    void producerStateSurvivesACleanRestart() {
        try (PartitionLog log = open()) {
            log.append(idempotent(PID, EPOCH, 0, 1L, "a", "b"), 0);
        }
        assertThat(logDir.resolve("t-0/00000000000000000002.snapshot")).exists();
        try (PartitionLog log = open()) {
            assertThat(log.append(idempotent(PID, EPOCH, 0, 1L, "a", "b"), 0))
                    .isEqualTo(new AppendResult(0L, 1L, 0L, -1L, true));
            assertThat(errorOf(() -> log.append(idempotent(PID, EPOCH, 5, 1L, "x"), 0)))
                    .isEqualTo(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
            assertThat(log.append(idempotent(PID, EPOCH, 2, 1L, "c"), 0).baseOffset()).isEqualTo(2L);
        }
    }

    @Test
    void producerStateIsRebuiltFromTheLogAfterACrashWithoutSnapshot() throws Exception {
        PartitionLog crashed = open();
        crashed.append(idempotent(PID, EPOCH, 0, 1L, "a"), 0);
        crashed.append(idempotent(PID, EPOCH, 1, 1L, "b", "c"), 0);
        crashed.flush(); // no close(): no snapshot is written
        try (Stream<Path> files = Files.list(logDir.resolve("t-0"))) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".snapshot"));
        }

        try (PartitionLog log = open()) {
            assertThat(log.append(idempotent(PID, EPOCH, 0, 1L, "a"), 0).duplicate()).isTrue();
            assertThat(log.append(idempotent(PID, EPOCH, 1, 1L, "b", "c"), 0))
                    .isEqualTo(new AppendResult(1L, 2L, 0L, -1L, true));
            assertThat(errorOf(() -> log.append(idempotent(PID, (short) 1, 3, 1L, "d"), 0)))
                    .isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH);
        }
    }
}
