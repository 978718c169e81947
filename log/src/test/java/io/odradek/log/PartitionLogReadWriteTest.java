package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.Batches.bytes;
import static io.odradek.log.Batches.offsetsAndValues;
import static io.odradek.log.Batches.sized;
import static io.odradek.log.LogFixture.config;
import static io.odradek.log.LogFixture.readSlice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.segment.OffsetIndex;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.RecordBatchHeader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionLogReadWriteTest {
    @TempDir
    Path logDir;

    @Test
    void appendedBatchReadsBackByteForByteExceptStampedOffsetAndEpoch() throws Exception {
        try (PartitionLog log = PartitionLog.open(logDir, "orders", 0, LogConfig.defaults())) {
            log.append(batch(1_000L, "a", "b"), 3);
            ByteBuffer second = batch(2_000L, "c");
            byte[] sent = bytes(second);

            AppendResult result = log.append(second, 3);

            assertThat(result).isEqualTo(new AppendResult(2L, 2L, 0L, -1L, false));
            FileSlice slice = log.read(2L, 1 << 20);
            byte[] stored = bytes(readSlice(slice));
            assertThat(stored).hasSize(sent.length);
            RecordBatchHeader h = new RecordBatchHeader(ByteBuffer.wrap(stored), 0);
            assertThat(h.baseOffset()).isEqualTo(2L);
            assertThat(h.partitionLeaderEpoch()).isEqualTo(3);
            assertThat(h.isValidCrc()).isTrue();
            // everything after the offset (8 bytes), length (4) and leader epoch (4) is what the producer sent
            assertThat(java.util.Arrays.copyOfRange(stored, 8, 12)).isEqualTo(java.util.Arrays.copyOfRange(sent, 8, 12));
            assertThat(java.util.Arrays.copyOfRange(stored, 16, stored.length))
                    .isEqualTo(java.util.Arrays.copyOfRange(sent, 16, sent.length));
            assertThat(log.logEndOffset()).isEqualTo(3L);
            assertThat(log.highWatermark()).isEqualTo(3L);
        }
    }

    @Test
    void kafkaReadsTheSliceWithTheRightOffsetsAndValues() throws Exception {
        try (PartitionLog log = PartitionLog.open(logDir, "orders", 0, LogConfig.defaults())) {
            log.append(Batches.concat(batch(1L, "a", "b"), batch(2L, "c")), 0);
            log.append(batch(3L, "d", "e", "f"), 0);

            assertThat(offsetsAndValues(readSlice(log.read(0L, 1 << 20))))
                    .containsExactly("0:a", "1:b", "2:c", "3:d", "4:e", "5:f");
        }
    }

    @Test
    void readFromTheMiddleOfABatchReturnsThatWholeBatch() throws Exception {
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, LogConfig.defaults())) {
            log.append(batch(1L, "a", "b"), 0);
            log.append(batch(1L, "c", "d", "e"), 0);
            log.append(batch(1L, "f"), 0);

            FileSlice slice = log.read(3L, 1 << 20);

            assertThat(slice.firstOffset()).isEqualTo(2L);
            assertThat(offsetsAndValues(readSlice(slice))).startsWith("2:c", "3:d", "4:e", "5:f");
        }
    }

    @Test
    void oversizedFirstBatchIsReturnedWholeAndMaxBytesLimitsTheRest() throws Exception {
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, LogConfig.defaults())) {
            ByteBuffer big = sized(1L, 500);
            int bigSize = big.remaining();
            log.append(big, 0);
            log.append(batch(1L, "small"), 0);

            FileSlice kip74 = log.read(0L, 10);
            assertThat(kip74.size()).isEqualTo(bigSize);
            assertThat(kip74.position()).isZero();

            FileSlice limited = log.read(0L, bigSize + 20);
            assertThat(limited.size()).isEqualTo(bigSize + 20);
            assertThat(offsetsAndValues(readSlice(limited))).hasSize(1); // the cut second batch is skipped by readers
        }
    }

    @Test
    void readAtTheLogEndIsEmptyAndBeyondIsOutOfRange() {
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, LogConfig.defaults())) {
            log.append(batch(1L, "a"), 0);

            assertThat(log.read(1L, 100).isEmpty()).isTrue();
            assertThatThrownBy(() -> log.read(2L, 100))
                    .isInstanceOf(OffsetOutOfRangeException.class)
                    .extracting(e -> ((LogException) e).errorCode()).isEqualTo(ErrorCode.OFFSET_OUT_OF_RANGE);
            assertThatThrownBy(() -> log.read(-1L, 100)).isInstanceOf(OffsetOutOfRangeException.class);
        }
    }

    @Test
    void rollsBySizeAndServesEachReadFromOneSegment() throws Exception {
        LogConfig cfg = config(Map.of(LogConfig.SEGMENT_BYTES, "300"));
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg)) {
            List<Integer> sizes = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                ByteBuffer b = batch(1L, "value-" + i);
                sizes.add(b.remaining());
                log.append(b, 0);
            }
            int perSegment = 300 / sizes.get(0);

            assertThat(log.numberOfSegments()).isEqualTo((6 + perSegment - 1) / perSegment);
            assertThat(log.segmentBaseOffsets()).startsWith(0L, (long) perSegment);
            Path dir = logDir.resolve("t-0");
            assertThat(dir.resolve("00000000000000000000.log")).exists();
            assertThat(Files.size(dir.resolve(String.format("%020d.log", perSegment))))
                    .isLessThanOrEqualTo(300);
            // the rolled segment's indexes were trimmed to their entries like Kafka's
            assertThat(Files.size(dir.resolve("00000000000000000000.index"))).isZero();
            assertThat(dir.resolve(String.format("%020d.snapshot", perSegment))).exists();

            FileSlice slice = log.read(0L, 1 << 20);
            assertThat(offsetsAndValues(readSlice(slice))).hasSize(perSegment);
            assertThat(offsetsAndValues(readSlice(log.read(perSegment, 1 << 20)))).first()
                    .isEqualTo(perSegment + ":value-" + perSegment);
        }
    }

    @Test
    void offsetIndexEntriesPointAtTheBatchesTheyName() throws Exception {
        LogConfig cfg = config(Map.of(LogConfig.INDEX_INTERVAL_BYTES, "100"));
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg)) {
            for (int i = 0; i < 20; i++) {
                log.append(batch(1_000L + i, "v" + i, "w" + i), 0);
            }
            log.flush();
            OffsetIndex index = new OffsetIndex(logDir.resolve("t-0/00000000000000000000.index"), 0L, 1024, false);

            assertThat(index.entries()).isGreaterThan(3);
            for (int n = 0; n < 40; n++) {
                OffsetIndex.Entry e = index.lookup(n);
                ByteBuffer at = readSlice(new FileSlice(log.read(0L, 1).channel(), e.position(), 61, 0));
                RecordBatchHeader h = new RecordBatchHeader(at, 0);
                // Kafka's rule: an entry names the last offset of the batch starting at its position
                if (e.position() > 0) {
                    assertThat(h.lastOffset()).isEqualTo(e.offset());
                }
                assertThat(h.baseOffset()).isLessThanOrEqualTo(n);
            }
            for (long offset = 0; offset < 40; offset++) {
                assertThat(log.read(offset, 1).firstOffset()).isEqualTo(offset - offset % 2);
            }
        }
    }

    @Test
    void logAppendTimeTopicsStampTheBrokerTime() throws Exception {
        LogFixture.ManualClock clock = new LogFixture.ManualClock(42_000L);
        LogConfig cfg = config(Map.of(LogConfig.MESSAGE_TIMESTAMP_TYPE, "LogAppendTime"));
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg,
                PartitionLog.Options.defaults().withClock(clock))) {
            AppendResult r = log.append(batch(1L, "a"), 0);

            assertThat(r.logAppendTime()).isEqualTo(42_000L);
            RecordBatchHeader h = new RecordBatchHeader(readSlice(log.read(0L, 1000)), 0);
            assertThat(h.isLogAppendTime()).isTrue();
            assertThat(h.maxTimestamp()).isEqualTo(42_000L);
            assertThat(h.isValidCrc()).isTrue();
        }
    }

    @Test
    void offsetForTimestampFindsTheFirstBatchAtOrAfterIt() {
        LogConfig cfg = config(Map.of(LogConfig.SEGMENT_BYTES, "400", LogConfig.INDEX_INTERVAL_BYTES, "1"));
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg)) {
            for (int i = 0; i < 10; i++) {
                log.append(batch(1_000L * (i + 1), "a" + i, "b" + i), 0); // offsets 2i, 2i+1 at ts 1000(i+1)
            }
            assertThat(log.numberOfSegments()).isGreaterThan(1);

            assertThat(log.offsetForTimestamp(0L)).contains(new OffsetAndTimestamp(0L, 1_000L));
            assertThat(log.offsetForTimestamp(4_500L)).contains(new OffsetAndTimestamp(8L, 5_000L));
            assertThat(log.offsetForTimestamp(7_000L)).contains(new OffsetAndTimestamp(12L, 7_000L));
            assertThat(log.offsetForTimestamp(10_001L)).isEmpty();
            assertThat(log.maxTimestampOffset()).contains(new OffsetAndTimestamp(18L, 10_000L));
        }
    }

    @Test
    void maxTimestampOffsetIsTheEarliestBatchWithTheLargestTimestamp() {
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, LogConfig.defaults())) {
            assertThat(log.maxTimestampOffset()).isEmpty();
            log.append(batch(5_000L, "a"), 0);
            log.append(batch(9_000L, "b", "c"), 0);
            log.append(batch(2_000L, "d"), 0);

            assertThat(log.maxTimestampOffset()).contains(new OffsetAndTimestamp(1L, 9_000L));
        }
    }

    @Test
    void newLogWritesKafkasMetadataFiles() throws Exception {
        java.util.UUID id = java.util.UUID.fromString("6e2b3e1a-9b0c-4e3e-8f35-2f5f2f3c4d5e");
        try (PartitionLog log = PartitionLog.open(logDir, "my.topic_with-dash", 7, LogConfig.defaults(),
                PartitionLog.Options.defaults().withTopicId(id))) {
            log.append(batch(1L, "a"), 4);
            log.append(batch(1L, "b"), 4);
            log.append(batch(1L, "c"), 6);
        }
        Path dir = logDir.resolve("my.topic_with-dash-7");
        assertThat(Files.readString(dir.resolve("partition.metadata")))
                .isEqualTo("version: 0\ntopic_id: "
                        + new org.apache.kafka.common.Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits()) + "\n");
        assertThat(Files.readString(dir.resolve("leader-epoch-checkpoint"))).isEqualTo("0\n2\n4 0\n6 2\n");
        try (PartitionLog reopened = PartitionLog.open(logDir, "my.topic_with-dash", 7, LogConfig.defaults())) {
            assertThat(reopened.topicId()).isEqualTo(id);
        }
    }
}
