package io.odradek.wire.batch;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * A zero-allocation view over one magic 0 or magic 1 message of a message set (Kafka's pre-0.11 formats,
 * {@code LegacyRecord} with its log entry header), at a fixed position of a {@link ByteBuffer}; absolute
 * reads only, so the buffer's position never moves. Re-point it with {@link #wrap}.
 *
 * <p>Layout: offset int64 @0, size int32 @8 (bytes after this field), then the message: crc uint32 @12
 * (CRC32 of the bytes from magic to the end of the message), magic int8 @16, attributes int8 @17
 * (codec in bits 0-2, LogAppendTime in bit 3 for magic 1), timestamp int64 @18 (magic 1 only), key size
 * int32 (-1 null) + key, value size int32 (-1 null) + value. A compressed message (a "wrapper") holds a
 * whole compressed message set as its value: magic 0 inner offsets are absolute, magic 1 inner offsets
 * are relative (0, 1, ...) and the wrapper carries the absolute offset of the last inner message.
 */
public final class LegacyMessage {
    /** offset + size: the bytes before the message. */
    public static final int LOG_OVERHEAD = 12;
    public static final int CRC_OFFSET = LOG_OVERHEAD;
    public static final int MAGIC_OFFSET = LOG_OVERHEAD + 4;
    public static final int ATTRIBUTES_OFFSET = LOG_OVERHEAD + 5;
    public static final int TIMESTAMP_OFFSET = LOG_OVERHEAD + 6;
    /** The smallest message (magic 0, null key and value), as counted by the size field. */
    public static final int RECORD_OVERHEAD_V0 = 14;
    public static final int RECORD_OVERHEAD_V1 = 22;
    public static final int CODEC_MASK = 0x07;
    public static final int TIMESTAMP_TYPE_MASK = 0x08;
    public static final long NO_TIMESTAMP = -1L;

    private ByteBuffer buffer;
    private int position;

    public LegacyMessage(ByteBuffer buffer, int position) {
        wrap(buffer, position);
    }

    public LegacyMessage wrap(ByteBuffer buffer, int position) {
        this.buffer = buffer;
        this.position = position;
        return this;
    }

    public int position() {
        return position;
    }

    public long offset() {
        return buffer.getLong(position);
    }

    /** The message's size field: bytes after the 12-byte log overhead. */
    public int size() {
        return buffer.getInt(position + 8);
    }

    /** The entry on the wire: size + 12. */
    public int totalSize() {
        return size() + LOG_OVERHEAD;
    }

    public long storedCrc() {
        return buffer.getInt(position + CRC_OFFSET) & 0xFFFFFFFFL;
    }

    public byte magic() {
        return buffer.get(position + MAGIC_OFFSET);
    }

    public int attributes() {
        return buffer.get(position + ATTRIBUTES_OFFSET);
    }

    /** 0 none, 1 gzip, 2 snappy, 3 lz4 (4 zstd is not allowed in these formats). */
    public int codec() {
        return attributes() & CODEC_MASK;
    }

    /** Magic 1 only: the timestamp-type attribute bit. */
    public boolean isLogAppendTime() {
        return magic() > 0 && (attributes() & TIMESTAMP_TYPE_MASK) != 0;
    }

    /** The message's own timestamp: -1 for magic 0. */
    public long timestamp() {
        return magic() == 0 ? NO_TIMESTAMP : buffer.getLong(position + TIMESTAMP_OFFSET);
    }

    private int keySizePosition() {
        return position + (magic() == 0 ? MAGIC_OFFSET + 2 : MAGIC_OFFSET + 10);
    }

    public int keySize() {
        return buffer.getInt(keySizePosition());
    }

    private int valueSizePosition() {
        return keySizePosition() + 4 + Math.max(0, keySize());
    }

    public int valueSize() {
        return buffer.getInt(valueSizePosition());
    }

    /** The key as a slice of the buffer, or null. Call only once {@link #framingError} said it is well framed. */
    public ByteBuffer key() {
        return slice(keySizePosition());
    }

    /** The value as a slice of the buffer, or null. Call only once {@link #framingError} said it is well framed. */
    public ByteBuffer value() {
        return slice(valueSizePosition());
    }

    private ByteBuffer slice(int sizeAt) {
        int n = buffer.getInt(sizeAt);
        return n < 0 ? null : buffer.slice(sizeAt + 4, n);
    }

    /**
     * Checks that the message's header fits and its key and value fill it exactly; null when they do, else
     * what is wrong. The size field must already be known to lie within the buffer.
     */
    public String framingError() {
        int size = size();
        if (size < RECORD_OVERHEAD_V0) {
            return "Record size " + size + " is less than the minimum record overhead (" + RECORD_OVERHEAD_V0 + ")";
        }
        byte magic = magic();
        if (magic != 0 && magic != 1) {
            return "Invalid magic " + magic + " in a message set of magic 0/1";
        }
        if (magic == 1 && size < RECORD_OVERHEAD_V1) {
            return "Record size " + size + " is less than the minimum magic 1 record overhead (" + RECORD_OVERHEAD_V1 + ")";
        }
        int end = position + LOG_OVERHEAD + size;
        int keySize = keySize();
        if (keySize < -1 || keySizePosition() + 4 + (long) Math.max(0, keySize) + 4 > end) {
            return "Invalid key size " + keySize + " in a message of " + size + " bytes";
        }
        int valueSize = valueSize();
        if (valueSize < -1 || valueSizePosition() + 4 + (long) Math.max(0, valueSize) != end) {
            return "Invalid value size " + valueSize + " in a message of " + size + " bytes";
        }
        return null;
    }

    /** CRC32 of the message from its magic byte to its end; the whole message must be in the buffer. */
    public long computeCrc() {
        CRC32 crc = new CRC32();
        crc.update(buffer.slice(position + MAGIC_OFFSET, size() - 4));
        return crc.getValue();
    }

    public boolean isValidCrc() {
        return size() >= RECORD_OVERHEAD_V0 && storedCrc() == computeCrc();
    }

    @Override
    public String toString() {
        return "LegacyMessage(offset=" + offset() + ", size=" + size() + ", magic=" + magic() + ", attributes="
                + attributes() + ")";
    }
}
