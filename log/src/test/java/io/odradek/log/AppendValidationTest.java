package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.LogFixture.config;
import static io.odradek.log.LogFixture.snapshotFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.RecordBatchHeader;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppendValidationTest {
    @TempDir
    Path logDir;

    /** Appends a good batch, then {@code bad} (a valid batch followed by the damaged one), and checks nothing changed. */
    private void assertRejected(UnaryOperator<ByteBuffer> damage, ErrorCode expected, LogConfig cfg) throws Exception {
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg)) {
            log.append(batch(1L, "ok"), 0);
            log.flush();
            Map<String, byte[]> before = snapshotFiles(logDir.resolve("t-0"));
            ByteBuffer bad = Batches.concat(batch(1L, "first"), damage.apply(batch(1L, "second", "third")));

            assertThatThrownBy(() -> log.append(bad, 0))
                    .isInstanceOf(LogAppendException.class)
                    .extracting(e -> ((LogException) e).errorCode()).isEqualTo(expected);

            assertThat(log.logEndOffset()).isEqualTo(1L);
            Map<String, byte[]> after = snapshotFiles(logDir.resolve("t-0"));
            assertThat(after.keySet()).isEqualTo(before.keySet());
            after.forEach((name, content) -> assertThat(content).as(name).isEqualTo(before.get(name)));
        }
    }

    private void assertRejected(UnaryOperator<ByteBuffer> damage, ErrorCode expected) throws Exception {
        assertRejected(damage, expected, LogConfig.defaults());
    }

    @Test
    void flippedByteIsCorruptMessage() throws Exception {
        assertRejected(b -> {
            b.put(b.limit() - 1, (byte) (b.get(b.limit() - 1) ^ 0x10));
            return b;
        }, ErrorCode.CORRUPT_MESSAGE);
    }

    @Test
    void oldMagicIsUnsupportedForMessageFormat() throws Exception {
        assertRejected(b -> b.put(RecordBatchHeader.MAGIC_OFFSET, (byte) 1), ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT);
    }

    @Test
    void garbageMagicIsCorruptMessage() throws Exception {
        assertRejected(b -> b.put(RecordBatchHeader.MAGIC_OFFSET, (byte) 7), ErrorCode.CORRUPT_MESSAGE);
    }

    @Test
    void lengthPastTheBufferIsCorruptMessage() throws Exception {
        assertRejected(b -> b.limit(b.limit() - 3), ErrorCode.CORRUPT_MESSAGE);
    }

    @Test
    void lengthBelowTheHeaderIsCorruptMessage() throws Exception {
        assertRejected(b -> b.putInt(RecordBatchHeader.BATCH_LENGTH_OFFSET, 20), ErrorCode.CORRUPT_MESSAGE);
    }

    @Test
    void countNotMatchingTheOffsetDeltaIsInvalidRecord() throws Exception {
        assertRejected(b -> {
            b.putInt(RecordBatchHeader.RECORDS_COUNT_OFFSET, 5);
            b.putInt(RecordBatchHeader.CRC_OFFSET, (int) new RecordBatchHeader(b, 0).computeCrc());
            return b;
        }, ErrorCode.INVALID_RECORD);
    }

    @Test
    void batchAboveMaxMessageBytesIsMessageTooLarge() throws Exception {
        assertRejected(b -> Batches.sized(1L, 300), ErrorCode.MESSAGE_TOO_LARGE,
                config(Map.of(LogConfig.MAX_MESSAGE_BYTES, "200")));
    }

    @Test
    void emptyRecordsAreRejected() {
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, LogConfig.defaults())) {
            assertThatThrownBy(() -> log.append(ByteBuffer.allocate(0), 0)).isInstanceOf(LogAppendException.class);
        }
    }
}
