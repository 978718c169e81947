package io.odradek.wire.batch;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import java.io.BufferedOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.xerial.snappy.SnappyOutputStream;

/**
 * The compression streams of Kafka's message formats, for the conversions between magic 0/1 message sets
 * and v2 batches: gzip (8 KiB deflater buffer), snappy-java's stream format, Kafka's LZ4 frame (with the
 * magic 0 header-checksum quirk, {@link LegacyLz4Frames}) and, for v2 batches only, zstd. Codec ids as in the
 * attributes: 1 gzip, 2 snappy, 3 lz4, 4 zstd.
 */
public final class LegacyCodecs {
    public static final int NONE = 0;
    public static final int GZIP = 1;
    public static final int SNAPPY = 2;
    public static final int LZ4 = 3;
    public static final int ZSTD = 4;

    private LegacyCodecs() {
    }

    /**
     * A decompressing reader of a magic 0/1 wrapper's value (gzip, snappy or lz4) that yields at most
     * {@code limit} bytes: reading past them throws {@link LimitExceeded}, and snappy's declared block lengths
     * are checked against what is left (and against what their bytes could expand to) before anything is
     * allocated ({@link LegacySnappyInput}).
     *
     * @throws IOException when the codec is not one of those, or the stream does not start as it should
     */
    public static InputStream input(int codec, byte magic, ByteBuffer compressed, long limit) throws IOException {
        try {
            InputStream in = switch (codec) {
                case GZIP -> new GZIPInputStream(new ByteBufferInput(compressed.duplicate()), 8 * 1024);
                case SNAPPY -> new LegacySnappyInput(compressed, limit);
                case LZ4 -> LegacyLz4Frames.input(compressed, magic == 0);
                default -> throw new IOException("Invalid wrapper compression codec " + codec + " for magic " + magic);
            };
            return new Limited(in, limit);
        } catch (RuntimeException e) {
            throw new IOException("unreadable compressed message set: " + e, e);
        }
    }

    /** A compressed message set decompresses to more than the bytes allowed: refused, not a corrupt stream. */
    public static final class LimitExceeded extends IOException {
        private static final long serialVersionUID = 1L;

        public LimitExceeded(String message) {
            super(message);
        }
    }

    /** Counts what comes out of a decompressor and refuses a byte more than its limit. */
    private static final class Limited extends FilterInputStream {
        private final long limit;
        private long read;

        Limited(InputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            // Never asks for more than one byte past the limit, so the decompressor stops there too.
            int n = super.read(b, off, (int) Math.min(len, Math.max(1, limit - read + 1)));
            if (n > 0) {
                count(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(Math.min(n, Math.max(1, limit - read + 1)));
            count(skipped);
            return skipped;
        }

        private void count(long n) throws LimitExceeded {
            read += n;
            if (read > limit) {
                throw new LimitExceeded("the compressed message set decompresses to more than " + limit + " bytes");
            }
        }
    }

    /**
     * A compressing writer onto {@code out}, as Kafka's producers compress: {@code magic} 0 or 1 for a wrapper's
     * value, 2 for a v2 batch's records (zstd only there). Closing it finishes the stream and closes {@code out}.
     */
    public static OutputStream output(int codec, byte magic, OutputStream out) throws IOException {
        return switch (codec) {
            case GZIP -> new BufferedOutputStream(new GZIPOutputStream(out, 8 * 1024), 16 * 1024);
            case SNAPPY -> new SnappyOutputStream(out);
            case LZ4 -> LegacyLz4Frames.output(out, magic == 0);
            case ZSTD -> {
                if (magic < 2) {
                    throw new IllegalArgumentException("zstd is not allowed in message format v" + magic);
                }
                // as Kafka's ZstdCompression: level 3 (zstd's default) behind a 16 KiB buffer
                yield new BufferedOutputStream(new ZstdOutputStreamNoFinalizer(out, RecyclingBufferPool.INSTANCE), 16 * 1024);
            }
            default -> throw new IllegalArgumentException("unknown compression codec " + codec);
        };
    }

    /** The codec id of a compression.type value ("uncompressed" 0 ... "zstd" 4); -1 for "producer". */
    public static int forTopicConfig(String compressionType) {
        return switch (compressionType) {
            case "producer" -> -1;
            case "uncompressed", "none" -> NONE;
            case "gzip" -> GZIP;
            case "snappy" -> SNAPPY;
            case "lz4" -> LZ4;
            case "zstd" -> ZSTD;
            default -> throw new IllegalArgumentException("unknown compression.type " + compressionType);
        };
    }
}
