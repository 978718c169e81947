package io.odradek.log;

import com.github.luben.zstd.ZstdOutputStream;
import io.odradek.wire.batch.RecordBatchHeader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.xerial.snappy.SnappyOutputStream;

/**
 * Hand-built v2 batches for malformed-input tests: the records section is written byte by byte (so any
 * field can lie), optionally compressed, and the header carries whatever count and attributes the test
 * wants, always with a correct CRC32C so only the record walk can catch the damage.
 */
final class RawBatch {
    private final ByteArrayOutputStream records = new ByteArrayOutputStream();
    private int count = -1;
    private int lastOffsetDelta = -1;
    private short attributes;
    private int codec;
    private long producerId = -1L;
    private int baseSequence = -1;
    private long baseTimestamp = System.currentTimeMillis();
    private long maxTimestamp = -2;
    private int written;

    /** A well-formed record: key and value as UTF-8 (null allowed), no headers, offset delta = its index. */
    RawBatch record(String key, String value) {
        return record(0, written, bytes(key), bytes(value));
    }

    RawBatch record(long timestampDelta, int offsetDelta, byte[] key, byte[] value) {
        Body body = new Body().b(0).varlong(timestampDelta).varint(offsetDelta).field(key).field(value).varint(0);
        return rawRecord(body);
    }

    /** A record whose body the test writes itself; its length prefix is the body's true length. */
    RawBatch rawRecord(Body body) {
        return rawRecord(body.size(), body);
    }

    /** A record with a length prefix that may lie about its body. */
    RawBatch rawRecord(int declaredLength, Body body) {
        writeVarint(records, declaredLength);
        records.writeBytes(body.out.toByteArray());
        written++;
        return this;
    }

    /** Bytes appended to the records section as they are. */
    RawBatch raw(byte... bytes) {
        records.writeBytes(bytes);
        return this;
    }

    /** Header count and lastOffsetDelta (count - 1) regardless of the records written. */
    RawBatch count(int n) {
        this.count = n;
        this.lastOffsetDelta = n - 1;
        return this;
    }

    RawBatch lastOffsetDelta(int d) {
        this.lastOffsetDelta = d;
        return this;
    }

    /** Attribute bits, codec included; the records are NOT compressed unless {@link #compressed} is used. */
    RawBatch attributes(int a) {
        this.attributes = (short) a;
        return this;
    }

    /** Compresses the records section with codec 1-4 and sets the codec bits. */
    RawBatch compressed(int codec) {
        this.codec = codec;
        this.attributes = (short) ((attributes & ~7) | codec);
        return this;
    }

    RawBatch producer(long id, int sequence) {
        this.producerId = id;
        this.baseSequence = sequence;
        return this;
    }

    RawBatch baseTimestamp(long ts) {
        this.baseTimestamp = ts;
        return this;
    }

    RawBatch maxTimestamp(long ts) {
        this.maxTimestamp = ts;
        return this;
    }

    ByteBuffer build() {
        int n = count >= 0 ? count : written;
        int last = count >= 0 ? lastOffsetDelta : written - 1;
        byte[] payload = codec == 0 ? records.toByteArray() : compress(codec, records.toByteArray());
        int size = RecordBatchHeader.HEADER_SIZE + payload.length;
        ByteBuffer buf = ByteBuffer.allocate(size);
        buf.putLong(0L).putInt(size - RecordBatchHeader.LOG_OVERHEAD).putInt(-1).put((byte) 2).putInt(0)
                .putShort(attributes).putInt(last).putLong(baseTimestamp)
                .putLong(maxTimestamp == -2 ? baseTimestamp : maxTimestamp)
                .putLong(producerId).putShort((short) (producerId >= 0 ? 0 : -1)).putInt(baseSequence).putInt(n)
                .put(payload);
        return withCrc(buf.flip());
    }

    /** Re-computes the CRC of the batch at position 0 after a test changed its header. */
    static ByteBuffer withCrc(ByteBuffer b) {
        CRC32C crc = new CRC32C();
        ByteBuffer view = b.duplicate();
        view.position(RecordBatchHeader.ATTRIBUTES_OFFSET);
        crc.update(view);
        b.putInt(RecordBatchHeader.CRC_OFFSET, (int) crc.getValue());
        return b;
    }

    static byte[] compress(int codec, byte[] plain) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream c = switch (codec) {
            case 1 -> new GZIPOutputStream(out);
            case 2 -> new SnappyOutputStream(out);
            case 3 -> new LZ4FrameOutputStream(out);
            case 4 -> new ZstdOutputStream(out);
            default -> throw new IllegalArgumentException("codec " + codec);
        }) {
            c.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    static void writeVarint(ByteArrayOutputStream out, int value) {
        int v = (value << 1) ^ (value >> 31);
        while ((v & 0xffffff80) != 0) {
            out.write((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    /** A record body written field by field. */
    static final class Body {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Body b(int v) {
            out.write(v);
            return this;
        }

        Body varint(int v) {
            writeVarint(out, v);
            return this;
        }

        Body varlong(long value) {
            long v = (value << 1) ^ (value >> 63);
            while ((v & 0xffffffffffffff80L) != 0L) {
                out.write(((int) v & 0x7f) | 0x80);
                v >>>= 7;
            }
            out.write((int) v);
            return this;
        }

        /** Length-prefixed bytes, -1 for null. */
        Body field(byte[] bytes) {
            if (bytes == null) {
                return varint(-1);
            }
            varint(bytes.length);
            out.writeBytes(bytes);
            return this;
        }

        Body bytes(byte[] bytes) {
            out.writeBytes(bytes);
            return this;
        }

        /** attributes 0, timestampDelta 0, offsetDelta {@code offsetDelta}: the fixed start of a record. */
        static Body start(int offsetDelta) {
            return new Body().b(0).varlong(0).varint(offsetDelta);
        }

        int size() {
            return out.size();
        }
    }
}
