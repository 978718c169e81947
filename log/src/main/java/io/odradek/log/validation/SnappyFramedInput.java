package io.odradek.log.validation;

import io.odradek.wire.batch.BlockInput;
import io.odradek.wire.batch.SnappyFraming;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.xerial.snappy.Snappy;

/**
 * Reads snappy-java's framing (what Kafka's producers write for snappy batches) chunk by chunk from the
 * batch's buffer into per-thread buffers; {@code SnappyInputStream} allocates its buffers per stream. The
 * bytes are the same, so the verdict is the same. Input without the framing header is read, like Kafka's
 * {@code SnappyInputStream} reads it, as one raw snappy block, here through the same bounded path: a block
 * is never allocated from a claimed size it could not expand to.
 *
 * <p>Framing: magic {0x82, 'SNAPPY', 0}, version int32, compatible-version int32 (big endian), then chunks of
 * [compressed length int32][raw snappy block]; a repeated header (concatenated streams) is skipped.
 */
final class SnappyFramedInput extends BlockInput {
    private static final int CACHED = 64 * 1024;
    private static final ThreadLocal<byte[][]> BUFFERS =
            ThreadLocal.withInitial(() -> new byte[][] {new byte[CACHED], new byte[CACHED]});

    private final ByteBuffer in;
    /** Unframed input: the whole payload is one raw block, read once. */
    private boolean rawBlock;
    private byte[] compressed;

    private SnappyFramedInput(ByteBuffer in, boolean rawBlock) {
        this.in = in;
        this.rawBlock = rawBlock;
        byte[][] cached = BUFFERS.get();
        this.compressed = cached[0];
        this.block = cached[1];
    }

    /** A reader for the snappy batch payload in {@code raw} (position to limit). */
    static InputStream open(ByteBuffer raw) throws IOException {
        ByteBuffer in = raw.duplicate();
        if (!SnappyFraming.hasMagic(in, in.position())) {
            return new SnappyFramedInput(in, true);
        }
        in.position(in.position() + SnappyFraming.HEADER_SIZE);
        return new SnappyFramedInput(in, false);
    }

    @Override
    protected boolean nextBlock() throws IOException {
        while (in.remaining() > 0) {
            int size;
            if (rawBlock) {
                size = in.remaining();
                rawBlock = false; // one block, then the end (in is consumed below)
            } else if (in.remaining() < 4) {
                throw new IOException("truncated snappy chunk length");
            } else {
                size = in.getInt();
            }
            if (size == SnappyFraming.MAGIC_HEAD && SnappyFraming.hasMagic(in, in.position() - 4)) {
                in.position(in.position() - 4 + SnappyFraming.HEADER_SIZE); // a concatenated stream's header
                continue;
            }
            if (size < 0 || size > in.remaining()) {
                throw new IOException("snappy chunk of " + size + " bytes with " + in.remaining() + " left");
            }
            byte[] src;
            int srcOff;
            if (in.hasArray()) {
                src = in.array();
                srcOff = in.arrayOffset() + in.position();
            } else {
                if (compressed.length < size) {
                    compressed = new byte[size]; // larger than the cached buffer: this stream only
                }
                in.get(in.position(), compressed, 0, size);
                src = compressed;
                srcOff = 0;
            }
            int length = Snappy.uncompressedLength(src, srcOff, size);
            // Snappy expands at most ~21x (a 3-byte copy of 64 bytes): a chunk claiming more is a lie, refused
            // before its buffer is allocated from the client's number.
            if (!SnappyFraming.canExpandTo(size, length)) {
                throw new IOException("snappy chunk of " + size + " bytes claims " + length + " uncompressed");
            }
            if (block.length < length) {
                block = new byte[length];
            }
            lim = Snappy.uncompress(src, srcOff, size, block, 0);
            in.position(in.position() + size);
            pos = 0;
            if (lim > 0) {
                return true;
            }
        }
        return false;
    }
}
