package io.odradek.wire.batch;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.xerial.snappy.SnappyInputStream;

/**
 * A forward-only cursor over the records of one magic-v2 batch, decompressing as it goes. Never used on
 * the produce/fetch paths, which only see batch headers: the coordinator replays its own uncompressed
 * batches ({@link #records}), and ListOffsets walks the record timestamps of the one batch it picked.
 *
 * <p>Record layout (Kafka's {@code DefaultRecord}): length varint, attributes int8, timestampDelta varlong,
 * offsetDelta varint, key length varint + key, value length varint + value, header count varint + headers.
 * {@link #next} reads up to the offset delta; {@link #key}/{@link #value} read on demand; the rest of the
 * record is skipped. A compressed batch is decompressed only as far as the caller reads (Kafka's codecs:
 * gzip; snappy-java's stream format; the LZ4 frame format; zstd).
 */
public final class RecordBatchReader implements AutoCloseable {
    private static final int COMPRESSED_READ_BUFFER = 16 * 1024;

    /** One record with its absolute offset and timestamp; key and value are copies, value null for a tombstone. */
    public record Record(long offset, long timestamp, byte[] key, byte[] value) {
    }

    private final long baseOffset;
    private final long baseTimestamp;
    /** Every record's timestamp in a LogAppendTime batch, as Kafka's record iterator reports it; else -1. */
    private final long logAppendTime;
    private final int count;
    private final InputStream in;

    private int started;
    /** Bytes of the current record not consumed yet. */
    private int remaining;
    /** 0 after the prefix, 1 after the key, 2 after the value. */
    private int payloadRead;
    private long timestampDelta;
    private int offsetDelta;

    private RecordBatchReader(RecordBatchHeader header, InputStream in) {
        this.baseOffset = header.baseOffset();
        this.baseTimestamp = header.baseTimestamp();
        this.logAppendTime = header.isLogAppendTime() ? header.maxTimestamp() : -1L;
        this.count = header.recordsCount();
        this.in = in;
    }

    /**
     * A cursor over the batch {@code header} points at; its {@code totalSize()} bytes must be in its buffer.
     * Opening a compressed batch reads the codec's stream header.
     *
     * @throws IOException for an unknown codec or a compressed stream that does not start as it should
     */
    public static RecordBatchReader open(RecordBatchHeader header) throws IOException {
        ByteBuffer records = header.buffer().duplicate();
        int end = header.position() + header.totalSize();
        if (header.totalSize() < RecordBatchHeader.HEADER_SIZE || end > records.limit()) {
            throw new IllegalArgumentException("the whole batch at offset " + header.baseOffset() + " is not in the buffer");
        }
        records.limit(end).position(header.position() + RecordBatchHeader.HEADER_SIZE);
        return new RecordBatchReader(header, decompressing(header.compressionType(), new ByteBufferInput(records)));
    }

    private static InputStream decompressing(int codec, InputStream raw) throws IOException {
        try {
            // The codecs are fed and drained in small reads (varints); a buffer in front keeps that cheap.
            return switch (codec) {
                case 0 -> raw;
                case 1 -> new BufferedInputStream(new GZIPInputStream(raw, COMPRESSED_READ_BUFFER), COMPRESSED_READ_BUFFER);
                case 2 -> new BufferedInputStream(new SnappyInputStream(raw), COMPRESSED_READ_BUFFER);
                case 3 -> new BufferedInputStream(new LZ4FrameInputStream(raw), COMPRESSED_READ_BUFFER);
                case 4 -> new BufferedInputStream(new ZstdInputStreamNoFinalizer(raw), COMPRESSED_READ_BUFFER);
                default -> throw new IOException("unknown compression codec " + codec);
            };
        } catch (RuntimeException e) {
            throw new IOException("unreadable compressed records: " + e, e);
        }
    }

    /**
     * The records of the whole uncompressed batch that {@code header} points at; {@code header.totalSize()}
     * bytes must be present in its buffer.
     *
     * @throws IllegalArgumentException for a compressed batch or records that overrun the batch
     */
    public static List<Record> records(RecordBatchHeader header) {
        if (header.compressionType() != 0) {
            throw new IllegalArgumentException("compressed batch (codec " + header.compressionType()
                    + ") at offset " + header.baseOffset());
        }
        int count = header.recordsCount();
        List<Record> out = new ArrayList<>(Math.max(0, Math.min(count, 1024)));
        try (RecordBatchReader reader = open(header)) {
            while (reader.next()) {
                out.add(new Record(reader.offset(), reader.timestamp(), reader.key(), reader.value()));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("records overrun the batch at offset " + header.baseOffset()
                    + ": " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * Moves to the next record, skipping what is left of the current one; false after the last.
     *
     * @throws IOException when the records are truncated or malformed, or do not decompress
     */
    public boolean next() throws IOException {
        if (started >= count) {
            return false;
        }
        if (started > 0 && remaining > 0) {
            skip(remaining);
        }
        started++;
        remaining = 5; // enough for the length varint; the real length replaces it
        int length = readVarint();
        if (length < 0) {
            throw new IOException("record " + (started - 1) + " has negative length " + length);
        }
        remaining = length;
        readByte(); // attributes
        timestampDelta = readVarlong();
        offsetDelta = readVarint();
        payloadRead = 0;
        return true;
    }

    /**
     * Bytes of the current record not read yet (right after {@link #next}: its key, value and headers with
     * their lengths), from its length field: a bound on what {@link #key} and {@link #value} can return, known
     * before either is read.
     */
    public int bytesLeftInRecord() {
        return remaining;
    }

    public int offsetDelta() {
        return offsetDelta;
    }

    public long timestampDelta() {
        return timestampDelta;
    }

    public long offset() {
        return baseOffset + offsetDelta;
    }

    /** The record's timestamp as Kafka reports it: the batch's max timestamp throughout a LogAppendTime batch. */
    public long timestamp() {
        return logAppendTime >= 0 ? logAppendTime : baseTimestamp + timestampDelta;
    }

    /** The current record's key (null when absent); call before {@link #value}. */
    public byte[] key() throws IOException {
        if (payloadRead != 0) {
            throw new IllegalStateException("the key has been read or skipped already");
        }
        payloadRead = 1;
        return readBytes();
    }

    /** The current record's value (null for a tombstone); skips the key if it was not read. */
    public byte[] value() throws IOException {
        if (payloadRead == 0) {
            key();
        }
        if (payloadRead != 1) {
            throw new IllegalStateException("the value has been read already");
        }
        payloadRead = 2;
        return readBytes();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private byte[] readBytes() throws IOException {
        int length = readVarint();
        if (length < 0) {
            return null;
        }
        if (length > remaining) {
            throw overrun();
        }
        byte[] bytes;
        try {
            bytes = in.readNBytes(length);
        } catch (RuntimeException e) {
            throw new IOException("unreadable compressed records: " + e, e);
        }
        if (bytes.length < length) {
            throw new EOFException("records end inside record " + (started - 1));
        }
        remaining -= length;
        return bytes;
    }

    private void skip(int n) throws IOException {
        try {
            in.skipNBytes(n);
        } catch (RuntimeException e) {
            throw new IOException("unreadable compressed records: " + e, e);
        }
        remaining -= n;
    }

    private int readByte() throws IOException {
        if (remaining <= 0) {
            throw overrun();
        }
        int b;
        try {
            b = in.read();
        } catch (RuntimeException e) {
            // lz4-java reports a malformed block with an unchecked LZ4Exception
            throw new IOException("unreadable compressed records: " + e, e);
        }
        if (b < 0) {
            throw new EOFException("records end inside record " + (started - 1));
        }
        remaining--;
        return b;
    }

    private IOException overrun() {
        return new IOException("record " + (started - 1) + " overruns its length");
    }

    private int readVarint() throws IOException {
        int raw = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = readByte();
            raw |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new IOException("varint longer than 5 bytes");
    }

    private long readVarlong() throws IOException {
        long raw = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            int b = readByte();
            raw |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new IOException("varlong longer than 10 bytes");
    }
}
