package io.odradek.wire.batch;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Builds one uncompressed magic-v2 record batch, for records the broker writes itself (the coordinators'
 * internal topics, transaction markers). Base offset 0 and leader epoch -1 are placeholders the log
 * stamps on append. No producer id and no sequence unless {@link #producer} sets them; transactional and
 * control flags only when asked. Records carry a key, a value (null for a tombstone) and no headers.
 *
 * <p>Record layout (Kafka's {@code DefaultRecord}): length varint, attributes int8, timestampDelta
 * varlong, offsetDelta varint, key (varint length, -1 for null), value (likewise), header count varint.
 */
public final class RecordBatchBuilder {
    private final long baseTimestamp;
    private final ByteArrayOutputStream records = new ByteArrayOutputStream();
    private final ByteArrayOutputStream scratch = new ByteArrayOutputStream();
    private int count;
    private long maxTimestamp;
    private long producerId = RecordBatchHeader.NO_PRODUCER_ID;
    private short producerEpoch = RecordBatchHeader.NO_PRODUCER_EPOCH;
    private int baseSequence = RecordBatchHeader.NO_SEQUENCE;
    private short attributes;

    public RecordBatchBuilder(long baseTimestamp) {
        this.baseTimestamp = baseTimestamp;
        this.maxTimestamp = baseTimestamp;
    }

    /** The producer the batch is written for (a transactional offset commit, a transaction marker). */
    public RecordBatchBuilder producer(long id, short epoch, int firstSequence) {
        this.producerId = id;
        this.producerEpoch = epoch;
        this.baseSequence = firstSequence;
        return this;
    }

    /** Sets the transactional attribute: the records belong to the producer's open transaction. */
    public RecordBatchBuilder transactional() {
        attributes |= RecordBatchHeader.TRANSACTIONAL_FLAG;
        return this;
    }

    /** Sets the control attribute (and transactional, which control batches always carry). */
    public RecordBatchBuilder control() {
        attributes |= RecordBatchHeader.TRANSACTIONAL_FLAG | RecordBatchHeader.CONTROL_FLAG;
        return this;
    }

    public RecordBatchBuilder append(byte[] key, byte[] value) {
        return append(baseTimestamp, key, value);
    }

    public RecordBatchBuilder append(long timestamp, byte[] key, byte[] value) {
        scratch.reset();
        scratch.write(0); // attributes
        writeVarlong(scratch, timestamp - baseTimestamp);
        writeVarint(scratch, count);
        writeBytes(scratch, key);
        writeBytes(scratch, value);
        writeVarint(scratch, 0); // headers
        writeVarint(records, scratch.size());
        records.write(scratch.toByteArray(), 0, scratch.size());
        count++;
        maxTimestamp = Math.max(maxTimestamp, timestamp);
        return this;
    }

    public int count() {
        return count;
    }

    /** The batch, positioned at 0 and ready for {@code PartitionLog.append}. */
    public ByteBuffer build() {
        if (count == 0) {
            throw new IllegalStateException("a record batch needs at least one record");
        }
        int size = RecordBatchHeader.HEADER_SIZE + records.size();
        ByteBuffer buf = ByteBuffer.allocate(size);
        buf.putLong(0L)
                .putInt(size - RecordBatchHeader.LOG_OVERHEAD)
                .putInt(RecordBatchHeader.NO_PARTITION_LEADER_EPOCH)
                .put(RecordBatchHeader.MAGIC_V2)
                .putInt(0) // crc, below
                .putShort(attributes) // no compression, CreateTime; transactional/control as asked
                .putInt(count - 1)
                .putLong(baseTimestamp)
                .putLong(maxTimestamp)
                .putLong(producerId)
                .putShort(producerEpoch)
                .putInt(baseSequence)
                .putInt(count)
                .put(records.toByteArray());
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), RecordBatchHeader.ATTRIBUTES_OFFSET, size - RecordBatchHeader.ATTRIBUTES_OFFSET);
        buf.putInt(RecordBatchHeader.CRC_OFFSET, (int) crc.getValue());
        return buf.flip();
    }

    private static void writeBytes(ByteArrayOutputStream out, byte[] bytes) {
        if (bytes == null) {
            writeVarint(out, -1);
        } else {
            writeVarint(out, bytes.length);
            out.write(bytes, 0, bytes.length);
        }
    }

    static void writeVarint(ByteArrayOutputStream out, int value) {
        int v = (value << 1) ^ (value >> 31);
        while ((v & 0xffffff80) != 0) {
            out.write((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    static void writeVarlong(ByteArrayOutputStream out, long value) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & 0xffffffffffffff80L) != 0L) {
            out.write(((int) v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
    }
}
