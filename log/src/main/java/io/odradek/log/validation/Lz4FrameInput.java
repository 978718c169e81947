package io.odradek.log.validation;

import io.odradek.wire.batch.BlockInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Reads one LZ4 frame (the format Kafka's producers write for lz4 batches) straight from the batch's
 * buffer, block by block into a per-thread buffer. lz4-java's {@code LZ4FrameInputStream} allocates two
 * block-sized arrays (64 KiB each for Kafka's frames) per stream, which cost more than decompressing a
 * small batch; Kafka's own reader reuses its buffers too.
 *
 * <p>Frame: magic 0x184D2204 (little endian), FLG (version 01, block checksum 0x10, content size 0x08,
 * content checksum 0x04, dictionary id 0x01), BD (block max size 4..7 = 64 KiB..4 MiB), optional content
 * size (8) and dictionary id (4), header checksum (1); blocks of [size int32 LE, high bit = stored
 * uncompressed][data][checksum if flagged]; end mark 0; content checksum if flagged. Checksums are not
 * verified: the batch CRC32C already covers every byte, and a block that does not decompress is refused.
 */
final class Lz4FrameInput extends BlockInput {
    private static final int MAGIC = 0x184D2204;
    private static final int CACHED_BLOCK = 64 * 1024;
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();
    private static final ThreadLocal<byte[]> BLOCKS = ThreadLocal.withInitial(() -> new byte[CACHED_BLOCK]);

    private final ByteBuffer in;
    private final boolean blockChecksum;
    private final int maxBlock;
    private boolean ended;

    Lz4FrameInput(ByteBuffer frame) throws IOException {
        this.in = frame.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (in.remaining() < 7 || in.getInt() != MAGIC) {
            throw new IOException("not an LZ4 frame (bad magic)");
        }
        int flg = in.get() & 0xff;
        int bd = in.get() & 0xff;
        if ((flg >>> 6) != 1 || (flg & 0x02) != 0 || (bd & 0x8f) != 0 || ((bd >>> 4) & 7) < 4) {
            throw new IOException("unsupported LZ4 frame descriptor FLG=" + flg + " BD=" + bd);
        }
        if ((flg & 0x01) != 0) {
            throw new IOException("LZ4 frames with a dictionary are not supported");
        }
        blockChecksum = (flg & 0x10) != 0;
        int skip = ((flg & 0x08) != 0 ? 8 : 0) + 1; // content size, header checksum
        if (in.remaining() < skip) {
            throw new IOException("truncated LZ4 frame header");
        }
        in.position(in.position() + skip);
        maxBlock = 1 << (8 + 2 * ((bd >>> 4) & 7));
        block = maxBlock <= CACHED_BLOCK ? BLOCKS.get() : new byte[maxBlock];
    }

    @Override
    protected boolean nextBlock() throws IOException {
        while (!ended) {
            if (in.remaining() < 4) {
                throw new IOException("LZ4 frame ends without its end mark");
            }
            int word = in.getInt();
            if (word == 0) {
                ended = true; // a content checksum may follow; the batch CRC covers it
                return false;
            }
            boolean stored = (word & 0x80000000) != 0;
            int size = word & 0x7fffffff;
            if (size > maxBlock || size > in.remaining()) {
                throw new IOException("LZ4 block of " + size + " bytes does not fit (max " + maxBlock + ", "
                        + in.remaining() + " left)");
            }
            if (stored) {
                in.get(block, 0, size);
                lim = size;
            } else {
                try {
                    lim = DECOMPRESSOR.decompress(in, in.position(), size, ByteBuffer.wrap(block), 0, maxBlock);
                } catch (LZ4Exception e) {
                    throw new IOException("malformed LZ4 block: " + e.getMessage(), e);
                }
                in.position(in.position() + size);
            }
            if (blockChecksum) {
                if (in.remaining() < 4) {
                    throw new IOException("LZ4 block checksum missing");
                }
                in.position(in.position() + 4);
            }
            pos = 0;
            if (lim > 0) {
                return true;
            }
        }
        return false;
    }
}
