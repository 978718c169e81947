package io.odradek.log;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;

/** Test batches built by Kafka's own MemoryRecordsBuilder, as a producer would send them (base offset 0). */
final class Batches {
    private Batches() {
    }

    /** A plain (non-idempotent) batch of {@code values}, all with timestamp {@code ts}. */
    static ByteBuffer batch(long ts, String... values) {
        return idempotent(-1L, (short) -1, -1, ts, values);
    }

    static ByteBuffer idempotent(long producerId, short epoch, int baseSequence, long ts, String... values) {
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(256 + 64 * values.length
                        + totalLength(values)), RecordBatch.MAGIC_VALUE_V2, Compression.NONE, TimestampType.CREATE_TIME,
                0L, ts, producerId, epoch, baseSequence, false, RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (String v : values) {
            b.append(new SimpleRecord(ts, ("k-" + v).getBytes(StandardCharsets.UTF_8), v.getBytes(StandardCharsets.UTF_8)));
        }
        return b.build().buffer();
    }

    /** A transactional producer's batch (the transactional attribute set), as Kafka's producer builds it. */
    static ByteBuffer transactional(long producerId, short epoch, int baseSequence, long ts, String... values) {
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(256 + 64 * values.length
                        + totalLength(values)), RecordBatch.MAGIC_VALUE_V2, Compression.NONE, TimestampType.CREATE_TIME,
                0L, ts, producerId, epoch, baseSequence, true, RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (String v : values) {
            b.append(new SimpleRecord(ts, ("k-" + v).getBytes(StandardCharsets.UTF_8), v.getBytes(StandardCharsets.UTF_8)));
        }
        return b.build().buffer();
    }

    private static int totalLength(String... values) {
        int n = 0;
        for (String v : values) {
            n += 2 * v.length() + 8;
        }
        return n;
    }

    /** A batch with one value of {@code size} bytes. */
    static ByteBuffer sized(long ts, int size) {
        return batch(ts, "x".repeat(size));
    }

    static ByteBuffer concat(ByteBuffer... buffers) {
        int total = 0;
        for (ByteBuffer b : buffers) {
            total += b.remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(total);
        for (ByteBuffer b : buffers) {
            out.put(b.duplicate());
        }
        return out.flip();
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** Offset and value of each record Kafka reads from {@code buffer}. */
    static List<String> offsetsAndValues(ByteBuffer buffer) {
        List<String> out = new ArrayList<>();
        for (RecordBatch batch : MemoryRecords.readableRecords(buffer).batches()) {
            batch.ensureValid();
            for (Record r : batch) {
                out.add(r.offset() + ":" + StandardCharsets.UTF_8.decode(r.value()));
            }
        }
        return out;
    }
}
