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
    private int count;
    private long baseTimestamp;
    private long maxTimestamp = RecordBatchHeader.NO_TIMESTAMP;

    ConvertedBatchBuilder(int codec, int maxBatchBytes, String partitionName) {
        this.codec = codec;
        this.out = new Bounded(maxBatchBytes, partitionName);
        out.reserve(RecordBatchHeader.HEADER_SIZE); // the header is written in place by build()
        try {
            this.records = codec == LegacyCodecs.NONE ? out : LegacyCodecs.output(codec, (byte) 2, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int count() {
        return count;
    }

    /**
     * Appends the next record (offset delta = its index); key and value null when absent. Written straight
     * into the (compressing) output: its length is known from the fields' sizes, so nothing is staged.
     */
    void add(long timestamp, ByteBuffer key, ByteBuffer value) throws IOException {
        if (count == 0) {
            baseTimestamp = timestamp;
        }
        long timestampDelta = timestamp - baseTimestamp;
        int keyLength = key == null ? -1 : key.remaining();
        int valueLength = value == null ? -1 : value.remaining();
        long length = 1 + varlongSize(timestampDelta) + varintSize(count) + varintSize(keyLength)
                + Math.max(0, keyLength) + varintSize(valueLength) + Math.max(0, valueLength) + 1;
        if (length > Integer.MAX_VALUE) {
            throw new LogAppendException(ErrorCode.MESSAGE_TOO_LARGE, "a record of " + length + " bytes");
        }
        writeVarint(records, (int) length);
        records.write(0); // record attributes
        writeVarlong(records, timestampDelta);
        writeVarint(records, count);
        writeBytes(records, key);
        writeBytes(records, value);
        writeVarint(records, 0); // no headers
        maxTimestamp = Math.max(maxTimestamp, timestamp);
        count++;
    }

    /** The batch, positioned at 0, in the output's own array; at least one record must have been added. */
    ByteBuffer build() throws IOException {
        records.close(); // finishes a compressed stream (and its last bytes may still overflow the bound)
        int size = out.size();
        ByteBuffer buf = out.wrap();
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
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), buf.arrayOffset() + RecordBatchHeader.ATTRIBUTES_OFFSET,
                size - RecordBatchHeader.ATTRIBUTES_OFFSET);
        buf.putInt(RecordBatchHeader.CRC_OFFSET, (int) crc.getValue());
        return buf.position(0);
    }

    /** Frees the compressor (zstd holds native memory) after a refusal; nothing is built. */
    void abort() {
        try {
            records.close();
        } catch (IOException | RuntimeException e) {
            // the refusal that brought us here is what the caller reports
        }
    }

    private static void writeBytes(OutputStream to, ByteBuffer bytes) throws IOException {
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

    private static int varintSize(int value) {
        int v = (value << 1) ^ (value >> 31);
        int n = 1;
        while ((v & 0xffffff80) != 0) {
            n++;
            v >>>= 7;
        }
        return n;
    }

    private static int varlongSize(long value) {
        long v = (value << 1) ^ (value >> 63);
        int n = 1;
        while ((v & 0xffffffffffffff80L) != 0L) {
            n++;
            v >>>= 7;
        }
        return n;
    }

    private static void writeVarint(OutputStream to, int value) throws IOException {
        int v = (value << 1) ^ (value >> 31);
        while ((v & 0xffffff80) != 0) {
            to.write((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        to.write(v);
    }

    private static void writeVarlong(OutputStream to, long value) throws IOException {
        long v = (value << 1) ^ (value >> 63);
        while ((v & 0xffffffffffffff80L) != 0L) {
            to.write(((int) v & 0x7f) | 0x80);
            v >>>= 7;
        }
        to.write((int) v);
    }

    /** The whole batch (header space first), refused with MESSAGE_TOO_LARGE once it would be too large. */
    private static final class Bounded extends ByteArrayOutputStream {
        private final int maxBatchBytes;
        private final String partitionName;

        Bounded(int maxBatchBytes, String partitionName) {
            super(Math.max(RecordBatchHeader.HEADER_SIZE, Math.min(maxBatchBytes, 8 * 1024)));
            this.maxBatchBytes = maxBatchBytes;
            this.partitionName = partitionName;
        }

        void reserve(int n) {
            check(n);
            count += n;
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
            if ((long) count + more > maxBatchBytes) {
                throw new LogAppendException(ErrorCode.MESSAGE_TOO_LARGE, "Message batch size is more than "
                        + maxBatchBytes + " bytes in append to partition " + partitionName
                        + " which exceeds the maximum configured size of " + maxBatchBytes + ".");
            }
        }

        /** The bytes written, in place (no copy): position 0, limit and capacity their size. */
        ByteBuffer wrap() {
            return ByteBuffer.wrap(buf, 0, count).slice();
        }
    }
}
