package io.odradek.wire.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;

class RecordBatchBuilderTest {

    @Test
    void kafkaReadsTheBatchWeBuildIncludingATombstone() {
        ByteBuffer batch = new RecordBatchBuilder(1_000L)
                .append(bytes("k1"), bytes("v1"))
                .append(1_500L, bytes("k2"), null)
                .build();

        MemoryRecords records = MemoryRecords.readableRecords(batch.duplicate());
        List<RecordBatch> batches = new ArrayList<>();
        records.batches().forEach(batches::add);
        assertThat(batches).hasSize(1);
        RecordBatch b = batches.get(0);
        b.ensureValid(); // CRC32C and sizes as Kafka checks them
        assertThat(b.magic()).isEqualTo(RecordBatch.MAGIC_VALUE_V2);
        assertThat(b.baseOffset()).isZero();
        assertThat(b.lastOffset()).isEqualTo(1L);
        assertThat(b.maxTimestamp()).isEqualTo(1_500L);
        assertThat(b.producerId()).isEqualTo(-1L);
        assertThat(b.isControlBatch()).isFalse();

        List<Record> recs = new ArrayList<>();
        b.forEach(recs::add);
        assertThat(recs).extracting(Record::offset).containsExactly(0L, 1L);
        assertThat(recs).extracting(Record::timestamp).containsExactly(1_000L, 1_500L);
        assertThat(text(recs.get(0).key())).isEqualTo("k1");
        assertThat(text(recs.get(0).value())).isEqualTo("v1");
        assertThat(recs.get(1).hasValue()).isFalse();
    }

    @Test
    void theReaderReadsBackWhatKafkaWrites() {
        MemoryRecords kafka = MemoryRecords.withRecords(7L, Compression.NONE,
                new SimpleRecord(2_000L, bytes("a"), bytes("alpha")),
                new SimpleRecord(2_001L, bytes("b"), null));
        ByteBuffer buf = kafka.buffer();
        List<RecordBatchReader.Record> read = RecordBatchReader.records(new RecordBatchHeader(buf, buf.position()));
        assertThat(read).extracting(RecordBatchReader.Record::offset).containsExactly(7L, 8L);
        assertThat(read).extracting(RecordBatchReader.Record::timestamp).containsExactly(2_000L, 2_001L);
        assertThat(new String(read.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("a");
        assertThat(new String(read.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("alpha");
        assertThat(read.get(1).value()).isNull();
    }

    @Test
    void anEmptyBatchIsRefusedAndACompressedOneCannotBeRead() {
        assertThatThrownBy(() -> new RecordBatchBuilder(0L).build()).isInstanceOf(IllegalStateException.class);
        MemoryRecords gzip = MemoryRecords.withRecords(Compression.gzip().build(), new SimpleRecord(bytes("x")));
        assertThatThrownBy(() -> RecordBatchReader.records(new RecordBatchHeader(gzip.buffer(), 0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("compressed");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return new String(out, StandardCharsets.UTF_8);
    }
}
