package io.odradek.log.validation;

import static io.odradek.log.validation.RecordChecks.invalid;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.odradek.log.LogAppendException;
import io.odradek.wire.batch.BlockInput;
import io.odradek.wire.batch.ByteBufferInput;
import io.odradek.wire.batch.RecordBatchHeader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import org.xerial.snappy.SnappyError;

/**
 * Walks the records of a compressed v2 batch by streaming decompression into a small per-thread window
 * (gzip, zstd) or straight through the decompressor's own per-thread block (lz4, snappy: {@link BlockInput}),
 * checking the same framing as {@link UncompressedRecords} without materialising anything: keys, values
 * and headers are skipped, never copied out. The batch itself is stored as received.
 *
 * <p>Bounded work whatever the stream holds (decompression bombs): each record's length is checked against
 * {@code max.decompressed.message.bytes} before its body is read, and no read goes past the record's
 * declared length; no more than the declared count of records is read, and after the last one a single
 * window refill (at most {@value #WINDOW} bytes) proves the stream ends. So at most count x (5 + max
 * record size) + 16 KiB bytes come out, and a stream holding fewer or more records than its header
 * claims stops at the first record too few or too many. A stream that does not decompress is
 * INVALID_RECORD (Kafka lets the codec's exception escape as UNKNOWN_SERVER_ERROR).
 */
final class CompressedRecords {
    private static final int WINDOW = 16 * 1024;
    /** gzip's inflater input buffer, as Kafka sizes it. */
    private static final int GZIP_BUFFER = 8 * 1024;
    /** One window per validating thread; a walk never nests, so reuse is safe. */
    private static final ThreadLocal<byte[]> WINDOWS = ThreadLocal.withInitial(() -> new byte[WINDOW]);

    private final InputStream in;
    /** Set when {@link #in} decompresses into blocks the walk can read in place; else the window is filled by copy. */
    private final BlockInput blocks;
    /** The bytes being walked: the per-thread window, or the current block of {@link #blocks}. */
    private byte[] window;
    private int pos;
    private int lim;
    /** Decompressed bytes before window[0]. */
    private long windowStart;
    private int index;

    private CompressedRecords(InputStream in, byte[] window) {
        this.in = in;
        this.blocks = in instanceof BlockInput b ? b : null;
        this.window = window;
    }

    /** Walks the records of the batch {@code h} points at (its whole length is in the buffer). */
    static void walk(RecordBatchHeader h, RecordChecks checks) {
        ByteBuffer raw = h.buffer().duplicate();
        raw.limit(h.position() + h.totalSize()).position(h.position() + RecordBatchHeader.HEADER_SIZE);
        InputStream in = null;
        try {
            in = open(h.compressionType(), raw);
            new CompressedRecords(in, WINDOWS.get()).walk(h.recordsCount(), checks);
        } catch (LogAppendException e) {
            throw e;
        } catch (IOException | RuntimeException | SnappyError e) {
            // codecs report bad input in their own ways: IOException, LZ4Exception, SnappyError (an Error)
            throw invalid("Failed to decompress record stream (" + codecName(h.compressionType()) + "): " + e);
        } finally {
            closeQuietly(in);
        }
    }

    private static InputStream open(int codec, ByteBuffer raw) throws IOException {
        return switch (codec) {
            case 1 -> new GZIPInputStream(new ByteBufferInput(raw), GZIP_BUFFER);
            case 2 -> SnappyFramedInput.open(raw);
            case 3 -> new Lz4FrameInput(raw);
            case 4 -> new ZstdInputStreamNoFinalizer(new ByteBufferInput(raw), RecyclingBufferPool.INSTANCE);
            default -> throw new IllegalArgumentException("Unknown compression type id: " + codec);
        };
    }

    private void walk(int count, RecordChecks checks) throws IOException {
        int maxRecord = checks.maxRecordBytes();
        for (index = 0; index < count; index++) {
            if (!fill()) {
                throw invalid("Incorrect declared batch size, premature EOF reached: the batch declares " + count
                        + " records but holds " + index);
            }
            int length = readVarint(Long.MAX_VALUE);
            if (length < 0) {
                throw invalid("Invalid record size: " + length + " is negative.");
            }
            if (length > maxRecord) {
                throw invalid("Invalid record size: " + length + " exceeds the configured maximum record size of "
                        + maxRecord + ".");
            }
            long bodyStart = position();
            long bodyEnd = bodyStart + length;
            readByte(bodyEnd); // attributes: unused in v2 records
            long timestampDelta = readVarlong(bodyEnd);
            int offsetDelta = readVarint(bodyEnd);
            int keyLength = readVarint(bodyEnd);
            skipBytes("key", keyLength, bodyEnd);
            int valueLength = readVarint(bodyEnd);
            skipBytes("value", valueLength, bodyEnd);
            int headers = readVarint(bodyEnd);
            if (headers < 0) {
                throw invalid("Found invalid number of record headers " + headers);
            }
            if (headers > bodyEnd - position()) {
                throw invalid("Found invalid number of record headers. " + headers
                        + " is larger than the remaining size of the record");
            }
            for (int i = 0; i < headers; i++) {
                int keySize = readVarint(bodyEnd);
                if (keySize < 0) {
                    throw invalid("Invalid negative header key size " + keySize);
                }
                skipBytes("header key", keySize, bodyEnd);
                skipBytes("header value", readVarint(bodyEnd), bodyEnd);
            }
            if (position() != bodyEnd) {
                throw invalid("Invalid record size: expected to read " + length + " bytes in record payload, but"
                        + " instead read " + (position() - bodyStart));
            }
            checks.record(index, timestampDelta, offsetDelta, keyLength, valueLength);
        }
        if (fill()) {
            throw invalid("Incorrect declared batch size, records still remaining in file: more data follows record "
                    + (count - 1));
        }
    }

    private long position() {
        return windowStart + pos;
    }

    /** True if a byte is available, refilling the window from the stream when it is used up. */
    private boolean fill() throws IOException {
        while (pos >= lim) {
            windowStart += lim;
            pos = 0;
            lim = 0;
            if (blocks != null) {
                if (!blocks.nextBlockInPlace()) { // the walk has used the whole block
                    return false;
                }
                window = blocks.block();
                lim = blocks.blockLimit();
                continue;
            }
            int n = in.read(window, 0, window.length);
            if (n < 0) {
                return false;
            }
            lim = n;
        }
        return true;
    }

    private int readByte(long limit) throws IOException {
        if (position() >= limit) {
            throw invalid("Found invalid record structure: record " + index + " ends inside its fields");
        }
        if (pos >= lim && !fill()) {
            throw invalid("Incorrect declared batch size, premature EOF reached inside record " + index);
        }
        return window[pos++];
    }

    private void skipBytes(String what, int length, long bodyEnd) throws IOException {
        if (length < -1) {
            throw invalid("Record " + index + " has invalid " + what + " length " + length);
        }
        if (length > bodyEnd - position()) {
            throw invalid("Record " + index + " has " + what + " length " + length + " but only "
                    + (bodyEnd - position()) + " bytes of the record are left");
        }
        int left = length;
        while (left > 0) {
            if (!fill()) {
                throw invalid("Incorrect declared batch size, premature EOF reached inside record " + index);
            }
            int n = Math.min(left, lim - pos);
            pos += n;
            left -= n;
        }
    }

    private int readVarint(long limit) throws IOException {
        int raw = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = readByte(limit);
            raw |= (b & 0x7f) << shift;
            if (b >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw invalid("Found invalid record structure: varint longer than 5 bytes in record " + index);
    }

    private long readVarlong(long limit) throws IOException {
        long raw = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            int b = readByte(limit);
            raw |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw invalid("Found invalid record structure: varlong longer than 10 bytes in record " + index);
    }

    private static String codecName(int codec) {
        return switch (codec) {
            case 1 -> "gzip";
            case 2 -> "snappy";
            case 3 -> "lz4";
            case 4 -> "zstd";
            default -> "codec " + codec;
        };
    }

    private static void closeQuietly(InputStream in) {
        if (in == null) {
            return;
        }
        try {
            in.close();
        } catch (IOException | RuntimeException ignored) {
            // the verdict is already made; closing only frees the codec's buffers
        }
    }
}
