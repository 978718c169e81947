package io.odradek.wire.batch;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * A zero-allocation view over the header of a magic-v2 record batch, at a fixed position of a
 * {@link ByteBuffer}. Every access is an absolute get/put, so the buffer's position and limit never move;
 * one instance can be re-pointed with {@link #wrap} to walk many batches without allocating.
 *
 * <p>Layout (Kafka's {@code DefaultRecordBatch}): baseOffset int64 @0, batchLength int32 @8 (bytes after
 * this field), partitionLeaderEpoch int32 @12, magic int8 @16, crc uint32 @17 (CRC32C of bytes @21 to
 * the end of the batch), attributes int16 @21, lastOffsetDelta int32 @23, baseTimestamp int64 @27,
 * maxTimestamp int64 @35, producerId int64 @43, producerEpoch int16 @51, baseSequence int32 @53,
 * recordsCount int32 @57, then the records. baseOffset and partitionLeaderEpoch lie outside the CRC so a
 * broker can stamp them without re-computing it.
 */
public final class RecordBatchHeader {
    public static final int BASE_OFFSET_OFFSET = 0;
    public static final int BATCH_LENGTH_OFFSET = 8;
    public static final int PARTITION_LEADER_EPOCH_OFFSET = 12;
    public static final int MAGIC_OFFSET = 16;
    public static final int CRC_OFFSET = 17;
    public static final int ATTRIBUTES_OFFSET = 21;
    public static final int LAST_OFFSET_DELTA_OFFSET = 23;
    public static final int BASE_TIMESTAMP_OFFSET = 27;
    public static final int MAX_TIMESTAMP_OFFSET = 35;
    public static final int PRODUCER_ID_OFFSET = 43;
    public static final int PRODUCER_EPOCH_OFFSET = 51;
    public static final int BASE_SEQUENCE_OFFSET = 53;
    public static final int RECORDS_COUNT_OFFSET = 57;

    /** Size of a v2 batch header, records excluded. */
    public static final int HEADER_SIZE = 61;
    /** baseOffset + batchLength: the bytes not counted by batchLength. */
    public static final int LOG_OVERHEAD = 12;
    /** The smallest batchLength a well-formed header can declare. */
    public static final int MIN_BATCH_LENGTH = HEADER_SIZE - LOG_OVERHEAD;

    public static final byte MAGIC_V2 = 2;
    public static final long NO_PRODUCER_ID = -1L;
    public static final short NO_PRODUCER_EPOCH = -1;
    public static final int NO_SEQUENCE = -1;
    public static final int NO_PARTITION_LEADER_EPOCH = -1;
    public static final long NO_TIMESTAMP = -1L;

    private static final int COMPRESSION_MASK = 0x07;
    private static final int TIMESTAMP_TYPE_MASK = 0x08;
    /** Attribute bit: the batch belongs to a transaction. */
    public static final short TRANSACTIONAL_FLAG = 0x10;
    /** Attribute bit: the batch holds control records (transaction markers). */
    public static final short CONTROL_FLAG = 0x20;
    private static final int TRANSACTIONAL_MASK = TRANSACTIONAL_FLAG;
    private static final int CONTROL_MASK = CONTROL_FLAG;
    private static final int DELETE_HORIZON_MASK = 0x40;

    private ByteBuffer buffer;
    private int position;

    public RecordBatchHeader(ByteBuffer buffer, int position) {
        wrap(buffer, position);
    }

    /** Re-points this view at another batch; returns {@code this} for chaining. */
    public RecordBatchHeader wrap(ByteBuffer buffer, int position) {
        this.buffer = buffer;
        this.position = position;
        return this;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public int position() {
        return position;
    }

    public long baseOffset() {
        return buffer.getLong(position + BASE_OFFSET_OFFSET);
    }

    public int batchLength() {
        return buffer.getInt(position + BATCH_LENGTH_OFFSET);
    }

    public int partitionLeaderEpoch() {
        return buffer.getInt(position + PARTITION_LEADER_EPOCH_OFFSET);
    }

    public byte magic() {
        return buffer.get(position + MAGIC_OFFSET);
    }

    /** The stored CRC as an unsigned 32-bit value. */
    public long crc() {
        return buffer.getInt(position + CRC_OFFSET) & 0xFFFFFFFFL;
    }

    public short attributes() {
        return buffer.getShort(position + ATTRIBUTES_OFFSET);
    }

    /** 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd. */
    public int compressionType() {
        return attributes() & COMPRESSION_MASK;
    }

    public boolean isLogAppendTime() {
        return (attributes() & TIMESTAMP_TYPE_MASK) != 0;
    }

    public boolean isTransactional() {
        return (attributes() & TRANSACTIONAL_MASK) != 0;
    }

    public boolean isControlBatch() {
        return (attributes() & CONTROL_MASK) != 0;
    }

    public boolean hasDeleteHorizonMs() {
        return (attributes() & DELETE_HORIZON_MASK) != 0;
    }

    public int lastOffsetDelta() {
        return buffer.getInt(position + LAST_OFFSET_DELTA_OFFSET);
    }

    public long baseTimestamp() {
        return buffer.getLong(position + BASE_TIMESTAMP_OFFSET);
    }

    public long maxTimestamp() {
        return buffer.getLong(position + MAX_TIMESTAMP_OFFSET);
    }

    public long producerId() {
        return buffer.getLong(position + PRODUCER_ID_OFFSET);
    }

    public short producerEpoch() {
        return buffer.getShort(position + PRODUCER_EPOCH_OFFSET);
    }

    public int baseSequence() {
        return buffer.getInt(position + BASE_SEQUENCE_OFFSET);
    }

    public int recordsCount() {
        return buffer.getInt(position + RECORDS_COUNT_OFFSET);
    }

    public long lastOffset() {
        return baseOffset() + lastOffsetDelta();
    }

    /** The whole batch on the wire or on disk: batchLength plus the 12 bytes before it. */
    public int totalSize() {
        return batchLength() + LOG_OVERHEAD;
    }

    /** Sequence of the last record; wraps past Integer.MAX_VALUE to 0 like Kafka's producer. */
    public int lastSequence() {
        int base = baseSequence();
        if (base == NO_SEQUENCE) {
            return NO_SEQUENCE;
        }
        return incrementSequence(base, lastOffsetDelta());
    }

    /** Kafka's DefaultRecordBatch.incrementSequence: sequences live in [0, Integer.MAX_VALUE]. */
    public static int incrementSequence(int sequence, int increment) {
        if (sequence > Integer.MAX_VALUE - increment) {
            return increment - (Integer.MAX_VALUE - sequence) - 1;
        }
        return sequence + increment;
    }

    /**
     * CRC32C over attributes to the end of the batch. The caller must have checked that
     * {@link #totalSize()} bytes are present. Works on a duplicate so the shared buffer is untouched.
     */
    public long computeCrc() {
        CRC32C crc = new CRC32C();
        ByteBuffer view = buffer.duplicate();
        view.limit(position + totalSize()).position(position + ATTRIBUTES_OFFSET);
        crc.update(view);
        return crc.getValue();
    }

    public boolean isValidCrc() {
        return crc() == computeCrc();
    }

    public void setBaseOffset(long baseOffset) {
        buffer.putLong(position + BASE_OFFSET_OFFSET, baseOffset);
    }

    public void setPartitionLeaderEpoch(int epoch) {
        buffer.putInt(position + PARTITION_LEADER_EPOCH_OFFSET, epoch);
    }

    /**
     * Kafka's LogAppendTime stamping: sets the timestamp-type bit and maxTimestamp, then rewrites the CRC
     * because both lie inside the checksummed range. The whole batch must be in the buffer.
     */
    public void setLogAppendTime(long timestamp) {
        buffer.putShort(position + ATTRIBUTES_OFFSET, (short) (attributes() | TIMESTAMP_TYPE_MASK));
        buffer.putLong(position + MAX_TIMESTAMP_OFFSET, timestamp);
        buffer.putInt(position + CRC_OFFSET, (int) computeCrc());
    }

    /**
     * Kafka's correction of a CreateTime batch whose header maxTimestamp is not its records' largest
     * timestamp: sets it and rewrites the CRC (maxTimestamp is checksummed). The whole batch must be in the buffer.
     */
    public void setCreateTimeMaxTimestamp(long timestamp) {
        buffer.putLong(position + MAX_TIMESTAMP_OFFSET, timestamp);
        buffer.putInt(position + CRC_OFFSET, (int) computeCrc());
    }

    @Override
    public String toString() {
        return "RecordBatchHeader(baseOffset=" + baseOffset() + ", lastOffset=" + lastOffset()
                + ", size=" + totalSize() + ", magic=" + magic() + ", producerId=" + producerId()
                + ", baseSequence=" + baseSequence() + ", records=" + recordsCount() + ")";
    }
}
