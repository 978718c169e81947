package io.odradek.wire.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RecordBatchReaderTest {
    private static final Header[] HEADERS = {new RecordHeader("trace", bytes("abc")), new RecordHeader("empty", null)};

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void readsOffsetsTimestampsKeysAndValuesOfKafkasBatchesInEveryCodec(String codec) throws IOException {
        ByteBuffer buf = kafkaBatch(codec, TimestampType.CREATE_TIME, 100L,
                new SimpleRecord(5_000L, bytes("k0"), bytes("v0"), HEADERS),
                new SimpleRecord(4_000L, null, bytes("v1")),
                new SimpleRecord(7_000L, bytes("k2"), null, HEADERS));

        List<String> seen = new ArrayList<>();
        try (RecordBatchReader r = RecordBatchReader.open(new RecordBatchHeader(buf, 0))) {
            while (r.next()) {
                seen.add(r.offsetDelta() + "/" + r.offset() + "@" + r.timestamp() + " " + text(r.key()) + "=" + text(r.value()));
            }
        }

        assertThat(seen).containsExactly("0/100@5000 k0=v0", "1/101@4000 null=v1", "2/102@7000 k2=null");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "snappy", "lz4", "zstd"})
    void stopsEarlyInALargeCompressedBatchAndSkipsWhatItDoesNotAskFor(String codec) throws IOException {
        SimpleRecord[] records = new SimpleRecord[5_000];
        for (int i = 0; i < records.length; i++) {
            records[i] = new SimpleRecord(1_000L + i, bytes("key-" + i), bytes("value-" + i + "-" + "x".repeat(200)), HEADERS);
        }
        ByteBuffer buf = kafkaBatch(codec, TimestampType.CREATE_TIME, 0L, records);

        try (RecordBatchReader r = RecordBatchReader.open(new RecordBatchHeader(buf, 0))) {
            for (int i = 0; i < 4_000; i++) {
                assertThat(r.next()).isTrue(); // key and value skipped
            }
            assertThat(r.next()).isTrue();
            assertThat(r.offset()).isEqualTo(4_000L);
            assertThat(r.timestampDelta()).isEqualTo(4_000L);
            assertThat(text(r.value())).startsWith("value-4000-x"); // the key is skipped on the way
        }
    }

    @Test
    void everyRecordOfALogAppendTimeBatchHasTheBatchTimestamp() throws IOException {
        ByteBuffer buf = kafkaBatch("lz4", TimestampType.LOG_APPEND_TIME, 0L,
                new SimpleRecord(1L, bytes("a")), new SimpleRecord(2L, bytes("b")));
        new RecordBatchHeader(buf, 0).setLogAppendTime(99_000L);

        List<Long> timestamps = new ArrayList<>();
        try (RecordBatchReader r = RecordBatchReader.open(new RecordBatchHeader(buf, 0))) {
            while (r.next()) {
                timestamps.add(r.timestamp());
            }
        }

        assertThat(timestamps).containsExactly(99_000L, 99_000L);
    }

    @Test
    void truncatedOrCorruptRecordsAreAnIOException() throws IOException {
        ByteBuffer plain = kafkaBatch("none", TimestampType.CREATE_TIME, 0L,
                new SimpleRecord(1L, bytes("a"), bytes("alpha")), new SimpleRecord(2L, bytes("b"), bytes("beta")));
        RecordBatchHeader h = new RecordBatchHeader(plain, 0);
        plain.putInt(RecordBatchHeader.RECORDS_COUNT_OFFSET, 3); // claims one record more than there is
        try (RecordBatchReader r = RecordBatchReader.open(h)) {
            assertThat(r.next()).isTrue();
            assertThat(r.next()).isTrue();
            assertThatThrownBy(r::next).isInstanceOf(IOException.class);
        }

        ByteBuffer gzip = kafkaBatch("gzip", TimestampType.CREATE_TIME, 0L, new SimpleRecord(1L, bytes("a")));
        gzip.put(RecordBatchHeader.HEADER_SIZE + 12, (byte) 0x5a); // inside the deflate stream
        assertThatThrownBy(() -> {
            try (RecordBatchReader r = RecordBatchReader.open(new RecordBatchHeader(gzip, 0))) {
                while (r.next()) {
                    r.value();
                }
            }
        }).isInstanceOf(IOException.class);
    }

    private static ByteBuffer kafkaBatch(String codec, TimestampType type, long baseOffset, SimpleRecord... records) {
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(1 << 16), RecordBatch.MAGIC_VALUE_V2,
                Compression.of(codec).build(), type, baseOffset);
        for (SimpleRecord r : records) {
            b.append(r);
        }
        return b.build().buffer();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return b == null ? "null" : new String(b, StandardCharsets.UTF_8);
    }
}
