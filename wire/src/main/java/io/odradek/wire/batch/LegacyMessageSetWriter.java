package io.odradek.wire.batch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.CRC32;

/**
 * Writes magic 0 and magic 1 message sets as Kafka's {@code MemoryRecordsBuilder} wrote them for old
 * consumers: {@link #write} one uncompressed message (its CRC32 computed from the fields), or a
 * {@link Wrapper} holding compressed messages: inner offsets absolute for magic 0 and relative for magic 1,
 * the wrapper's offset the last inner one, its timestamp the largest inner one (magic 1), its key null.
 * A LogAppendTime set carries the append time on every message and the timestamp-type bit (magic 1).
 */
public final class LegacyMessageSetWriter {
    private LegacyMessageSetWriter() {
    }

    /** Bytes of one message entry, log overhead included. */
    public static int entrySize(byte magic, byte[] key, byte[] value) {
        return LegacyMessage.LOG_OVERHEAD + (magic == 0 ? LegacyMessage.RECORD_OVERHEAD_V0 : LegacyMessage.RECORD_OVERHEAD_V1)
                + (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
    }

    /** The attributes byte: codec, and for magic 1 the LogAppendTime bit. */
    public static int attributes(byte magic, int codec, boolean logAppendTime) {
        return (codec & LegacyMessage.CODEC_MASK) | (magic > 0 && logAppendTime ? LegacyMessage.TIMESTAMP_TYPE_MASK : 0);
    }

    /** Writes one message entry (offset, size, crc, magic, attributes, [timestamp], key, value). */
    public static void write(OutputStream out, long offset, byte magic, int attributes, long timestamp, byte[] key,
            byte[] value) throws IOException {
        write(out, offset, magic, attributes, timestamp, key, value, value == null ? 0 : value.length);
    }

    /** As {@link #write(OutputStream, long, byte, int, long, byte[], byte[])} with the value's first {@code valueLength} bytes. */
    private static void write(OutputStream out, long offset, byte magic, int attributes, long timestamp, byte[] key,
            byte[] value, int valueLength) throws IOException {
        if (magic != 0 && magic != 1) {
            throw new IllegalArgumentException("not a legacy magic: " + magic);
        }
        CRC32 crc = new CRC32();
        crc.update(magic);
        crc.update(attributes);
        if (magic > 0) {
            updateLong(crc, timestamp);
        }
        updateBytes(crc, key, key == null ? 0 : key.length);
        updateBytes(crc, value, valueLength);
        byte[] head = new byte[LegacyMessage.LOG_OVERHEAD + 4 + 2 + (magic > 0 ? 8 : 0)];
        java.nio.ByteBuffer h = java.nio.ByteBuffer.wrap(head);
        int size = (magic == 0 ? LegacyMessage.RECORD_OVERHEAD_V0 : LegacyMessage.RECORD_OVERHEAD_V1)
                + (key == null ? 0 : key.length) + (value == null ? 0 : valueLength);
        h.putLong(offset).putInt(size).putInt((int) crc.getValue()).put(magic).put((byte) attributes);
        if (magic > 0) {
            h.putLong(timestamp);
        }
        out.write(head);
        writeBytes(out, key, key == null ? 0 : key.length);
        writeBytes(out, value, valueLength);
    }

    private static void updateLong(CRC32 crc, long v) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            crc.update((int) (v >>> shift));
        }
    }

    private static void updateBytes(CRC32 crc, byte[] bytes, int length) {
        int n = bytes == null ? -1 : length;
        for (int shift = 24; shift >= 0; shift -= 8) {
            crc.update(n >>> shift);
        }
        if (bytes != null) {
            crc.update(bytes, 0, length);
        }
    }

    private static void writeBytes(OutputStream out, byte[] bytes, int length) throws IOException {
        int n = bytes == null ? -1 : length;
        out.write(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
        if (bytes != null) {
            out.write(bytes, 0, length);
        }
    }

    /** One compressed wrapper message being filled; {@link #writeTo} compresses nothing more, it only frames. */
    public static final class Wrapper {
        private final byte magic;
        private final int codec;
        private final boolean logAppendTime;
        private final long appendTime;
        private final Compressed compressed = new Compressed();
        private final OutputStream inner;
        private long firstOffset = -1;
        private long lastOffset = -1;
        private long maxTimestamp = LegacyMessage.NO_TIMESTAMP;
        private int count;

        /**
         * @param codec         1 gzip, 2 snappy, 3 lz4
         * @param logAppendTime whether the source batch was LogAppendTime; then {@code appendTime} is its time
         */
        public Wrapper(byte magic, int codec, boolean logAppendTime, long appendTime) {
            this.magic = magic;
            this.codec = codec;
            this.logAppendTime = logAppendTime;
            this.appendTime = appendTime;
            try {
                this.inner = LegacyCodecs.output(codec, magic, compressed);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public int count() {
            return count;
        }

        /** Adds a message at absolute {@code offset}; offsets must increase. */
        public void add(long offset, long timestamp, byte[] key, byte[] value) throws IOException {
            if (firstOffset < 0) {
                firstOffset = offset;
            }
            long ts = logAppendTime ? appendTime : timestamp;
            long innerOffset = magic > 0 ? offset - firstOffset : offset;
            write(inner, innerOffset, magic, attributes(magic, 0, logAppendTime), ts, key, value);
            lastOffset = offset;
            if (magic > 0 && ts > maxTimestamp) {
                maxTimestamp = ts;
            }
            count++;
        }

        /** Finishes the compressed stream and writes the wrapper entry; call once, after at least one add. */
        public void writeTo(OutputStream out) throws IOException {
            if (count == 0) {
                throw new IllegalStateException("a wrapper needs at least one message");
            }
            inner.close();
            long timestamp = logAppendTime ? appendTime : maxTimestamp;
            // the compressed bytes are written from where they were compressed to: no copy of them is made
            write(out, lastOffset, magic, attributes(magic, codec, logAppendTime), timestamp, null, compressed.bytes(),
                    compressed.size());
        }
    }

    /** The wrapper's compressed value, readable in place. */
    private static final class Compressed extends ByteArrayOutputStream {
        byte[] bytes() {
            return buf;
        }
    }
}
