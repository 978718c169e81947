package io.odradek.wire.batch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The LZ4 frames Kafka writes and reads ({@code KafkaLZ4BlockOutputStream} / {@code KafkaLZ4BlockInputStream}):
 * magic 0x184D2204 (LE), FLG (version 01, independent blocks, optional block checksum, content size),
 * BD (block size 64 KiB..4 MiB), optional content size (8), header checksum (1), then blocks of [size int32 LE,
 * high bit = stored uncompressed][data][xxhash32 if flagged], end mark 0, content checksum if flagged (not
 * checked, as Kafka).
 *
 * <p>The magic 0 quirk: Kafka before 0.10 computed the header checksum over the frame magic too, so Kafka
 * ignores the header checksum of a magic 0 wrapper ({@code ignoreFlagDescriptorChecksum}) and writes it the
 * old way for magic 0 ({@code useBrokenFlagDescriptorChecksum}); magic 1 and v2 batches use the standard one.
 */
public final class LegacyLz4Frames {
    private static final int MAGIC = 0x184D2204;
    private static final int BLOCK_64K = 64 * 1024;
    private static final XXHash32 XXHASH = XXHashFactory.fastestInstance().hash32();
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();
    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();

    private LegacyLz4Frames() {
    }

    /** A reader of the frame in {@code frame} (position to limit); {@code magic0} skips the header checksum check. */
    public static InputStream input(ByteBuffer frame, boolean magic0) throws IOException {
        return new Input(frame, magic0);
    }

    /** A writer of one frame with 64 KiB blocks and no checksums but the header's, as Kafka writes them. */
    public static OutputStream output(OutputStream out, boolean magic0) throws IOException {
        return new Output(out, magic0);
    }

    private static final class Input extends BlockInput {
        private final ByteBuffer in;
        private final boolean blockChecksum;
        private final int maxBlock;
        private boolean ended;

        Input(ByteBuffer frame, boolean magic0) throws IOException {
            in = frame.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            if (in.remaining() < 7 || in.getInt() != MAGIC) {
                throw new IOException("Stream unsupported (invalid magic bytes)");
            }
            int descriptorStart = in.position();
            int flg = in.get() & 0xff;
            int bd = in.get() & 0xff;
            if ((flg >>> 6) != 1 || (flg & 0x03) != 0 || (flg & 0x20) == 0 || (bd & 0x8f) != 0
                    || ((bd >>> 4) & 7) < 4) {
                throw new IOException("unsupported LZ4 frame descriptor FLG=" + flg + " BD=" + bd);
            }
            if ((flg & 0x08) != 0) {
                if (in.remaining() < 9) {
                    throw new IOException("Stream ended prematurely");
                }
                in.position(in.position() + 8);
            }
            if (in.remaining() < 1) {
                throw new IOException("Stream ended prematurely");
            }
            if (!magic0) {
                int hash = XXHASH.hash(in, descriptorStart, in.position() - descriptorStart, 0);
                if (in.get(in.position()) != (byte) ((hash >> 8) & 0xff)) {
                    throw new IOException("Stream frame descriptor corrupted");
                }
            }
            in.position(in.position() + 1);
            blockChecksum = (flg & 0x10) != 0;
            maxBlock = 1 << (8 + 2 * ((bd >>> 4) & 7));
            block = new byte[maxBlock];
        }

        @Override
        protected boolean nextBlock() throws IOException {
            while (!ended) {
                if (in.remaining() < 4) {
                    throw new IOException("Stream ended prematurely");
                }
                int word = in.getInt();
                if (word == 0) {
                    ended = true;
                    return false;
                }
                boolean stored = (word & 0x80000000) != 0;
                int size = word & 0x7fffffff;
                if (size > maxBlock) {
                    throw new IOException("Block size " + size + " exceeded max: " + maxBlock);
                }
                if (in.remaining() < size + (blockChecksum ? 4 : 0)) {
                    throw new IOException("Stream ended prematurely");
                }
                int at = in.position();
                if (stored) {
                    in.get(at, block, 0, size);
                    lim = size;
                } else {
                    try {
                        lim = DECOMPRESSOR.decompress(in, at, size, ByteBuffer.wrap(block), 0, maxBlock);
                    } catch (LZ4Exception e) {
                        throw new IOException(e);
                    }
                }
                in.position(at + size);
                if (blockChecksum) {
                    int hash = XXHASH.hash(in, at, size, 0);
                    if (hash != in.getInt()) {
                        throw new IOException("Block checksum mismatch");
                    }
                }
                pos = 0;
                if (lim > 0) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final class Output extends OutputStream {
        private final OutputStream out;
        private final byte[] buffer = new byte[BLOCK_64K];
        private final byte[] compressed = new byte[COMPRESSOR.maxCompressedLength(BLOCK_64K)];
        private final byte[] word = new byte[4];
        private int used;
        private boolean closed;

        Output(OutputStream out, boolean magic0) throws IOException {
            this.out = out;
            byte[] header = new byte[7];
            ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).putInt(MAGIC);
            header[4] = 0x60; // version 01, independent blocks
            header[5] = 0x40; // 64 KiB blocks
            int hash = magic0 ? XXHASH.hash(header, 0, 6, 0) : XXHASH.hash(header, 4, 2, 0);
            header[6] = (byte) ((hash >> 8) & 0xff);
            out.write(header);
        }

        @Override
        public void write(int b) throws IOException {
            if (used == buffer.length) {
                writeBlock();
            }
            buffer[used++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                if (used == buffer.length) {
                    writeBlock();
                }
                int n = Math.min(len, buffer.length - used);
                System.arraycopy(b, off, buffer, used, n);
                used += n;
                off += n;
                len -= n;
            }
        }

        private void writeBlock() throws IOException {
            if (used == 0) {
                return;
            }
            int n = COMPRESSOR.compress(buffer, 0, used, compressed, 0);
            if (n >= used) {
                writeIntLe(used | 0x80000000);
                out.write(buffer, 0, used);
            } else {
                writeIntLe(n);
                out.write(compressed, 0, n);
            }
            used = 0;
        }

        private void writeIntLe(int v) throws IOException {
            word[0] = (byte) v;
            word[1] = (byte) (v >>> 8);
            word[2] = (byte) (v >>> 16);
            word[3] = (byte) (v >>> 24);
            out.write(word);
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                writeBlock();
                writeIntLe(0);
                out.close();
            }
        }
    }
}
