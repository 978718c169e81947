package io.odradek.log.legacy;

import io.odradek.log.LogAppendException;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.LegacyCodecs;
import io.odradek.wire.batch.RecordBatchHeader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Builds the one v2 batch a magic 0/1 message set becomes: no producer id, epoch or sequence, CreateTime
 * (the log stamps LogAppendTime for such topics, as for any batch), base offset 0 and leader epoch -1 for the
 * log to stamp, records compressed with {@code codec} as they are added (streamed: only the output is kept).
 * The output may not grow past {@code maxBatchBytes} (the topic's max.message.bytes): MESSAGE_TOO_LARGE as
 * soon as it does, as Kafka's check of a converted batch answers, before anything more is decompressed.
 */
final class ConvertedBatchBuilder {
    private final int codec;
    private final Bounded out;
    private final OutputStream records;
    private final ByteArrayOutputStream scratch = new ByteArrayOutputStream();
    private int count;
    private long baseTimestamp;
    private long maxTimestamp = RecordBatchHeader.NO_TIMESTAMP;

    ConvertedBatchBuilder(int codec, int maxBatchBytes, String partitionName) {
        this.codec = codec;
        this.out = new Bounded(maxBatchBytes - RecordBatchHeader.HEADER_SIZE, maxBatchBytes, partitionName);
        try {
            this.records = codec == LegacyCodecs.NONE ? out : LegacyCodecs.output(codec, (byte) 2, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int count() {
        return count;
    }

    /** Appends the next record (offset delta = its index); key and value null when absent. */
    void add(long timestamp, ByteBuffer key, ByteBuffer value) throws IOException {
        if (count == 0) {
            baseTimestamp = timestamp;
        }
        scratch.reset();
        scratch.write(0); // record attributes
        writeVarlong(scratch, timestamp - baseTimestamp);
        writeVarint(scratch, count);
        writeBytes(scratch, key);
        writeBytes(scratch, value);
        writeVarint(scratch, 0); // no headers
        ByteArrayOutputStream length = new ByteArrayOutputStream(5);
        writeVarint(length, scratch.size());
        length.writeTo(records);
        scratch.writeTo(records);
        maxTimestamp = Math.max(maxTimestamp, timestamp);
        count++;
    }

    /** The batch, positioned at 0; at least one record must have been added. */
    ByteBuffer build() throws IOException {
        records.close(); // finishes a compressed stream (and its last bytes may still overflow the bound)
        int size = RecordBatchHeader.HEADER_SIZE + out.size();
        ByteBuffer buf = ByteBuffer.allocate(size);
        buf.putLong(0L)
                .putInt(size - RecordBatchHeader.LOG_OVERHEAD)
                .putInt(RecordBatchHeader.NO_PARTITION_LEADER_EPOCH)
                .put(RecordBatchHeader.MAGIC_V2)
                .putInt(0) // crc, below
                .putShort((short) codec)
                .putInt(count - 1)
                .putLong(baseTimestamp)
                .putLong(maxTimestamp)
                .putLong(RecordBatchHeader.NO_PRODUCER_ID)
                .putShort(RecordBatchHeader.NO_PRODUCER_EPOCH)
                .putInt(RecordBatchHeader.NO_SEQUENCE)
                .putInt(count);
        out.copyTo(buf);
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), RecordBatchHeader.ATTRIBUTES_OFFSET, size - RecordBatchHeader.ATTRIBUTES_OFFSET);
        buf.putInt(RecordBatchHeader.CRC_OFFSET, (int) crc.getValue());
        return buf.flip();
    }

    /** Frees the compressor (zstd holds native memory) after a refusal; nothing is built. */
    void abort() {
        try {
            records.close();
        } catch (IOException | RuntimeException e) {
            // the refusal that brought us here is what the caller reports
        }
    }

    private static void writeBytes(ByteArrayOutputStream to, ByteBuffer bytes) {
        if (bytes == null) {
            writeVarint(to, -1);
            return;
        }
        writeVarint(to, bytes.remaining());
        if (bytes.hasArray()) {
            to.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
        } else {
            byte[] copy = new byte[bytes.remaining()];
            bytes.duplicate().get(copy);
            to.write(copy, 0, copy.length);
        }
    }

    private static void writeVarint(ByteArrayOutputStream to, int value) {
        int v = (value << 1) ^ (value >> 31);
        while ((v & 0xffffff80) != 0) {
            to.write((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        to.write(v);
    }

    private static void writeVarlong(ByteArrayOutputStream to, long value) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & 0xffffffffffffff80L) != 0L) {
            to.write(((int) v & 0x7f) | 0x80);
            v >>>= 7;
        }
        to.write((int) v);
    }

    /** The batch's records section, refused with MESSAGE_TOO_LARGE once it would make the batch too large. */
    private static final class Bounded extends ByteArrayOutputStream {
        private final int limit;
        private final int maxBatchBytes;
        private final String partitionName;

        Bounded(int limit, int maxBatchBytes, String partitionName) {
            super(Math.max(0, Math.min(limit, 8 * 1024)));
            this.limit = limit;
            this.maxBatchBytes = maxBatchBytes;
            this.partitionName = partitionName;
        }

        @Override
        public synchronized void write(int b) {
            check(1);
            super.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            check(len);
            super.write(b, off, len);
        }

        private void check(int more) {
            if ((long) count + more > limit) {
                throw new LogAppendException(ErrorCode.MESSAGE_TOO_LARGE, "Message batch size is more than "
                        + maxBatchBytes + " bytes in append to partition " + partitionName
                        + " which exceeds the maximum configured size of " + maxBatchBytes + ".");
            }
        }

        void copyTo(ByteBuffer target) {
            target.put(buf, 0, count);
        }
    }
}
