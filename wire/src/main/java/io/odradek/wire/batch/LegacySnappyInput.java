package io.odradek.wire.batch;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.xerial.snappy.Snappy;

/**
 * Reads a magic 0/1 snappy wrapper's value as snappy-java's {@code SnappyInputStream} does (its framing:
 * magic {0x82, 'SNAPPY', 0}, version and compatible version int32, then chunks of [compressed length int32]
 * [raw snappy block], a repeated header skipped; without the header, what Sarama and librdkafka send, the
 * whole value is one raw snappy block), but checks every length before it allocates: a chunk longer than the
 * input left, or a block whose declared uncompressed length is more than snappy can expand its bytes to or
 * more than the caller's budget, is refused (IOException) instead of allocated. {@code SnappyInputStream}
 * allocates what the first bytes claim: a 6-byte raw value claiming 2 GB, a framed chunk header claiming 500 MB.
 */
final class LegacySnappyInput extends BlockInput {
    private final ByteBuffer in;
    private long budget;
    /** Unframed input: the whole value is one raw block, read once. */
    private boolean rawBlock;
    private byte[] compressed = new byte[0];

    /**
     * @param value  the compressed bytes (position to limit; not modified)
     * @param budget the most bytes the stream may decompress to in all; a block declaring more is refused
     */
    LegacySnappyInput(ByteBuffer value, long budget) {
        this.in = value.duplicate();
        this.budget = budget;
        this.block = new byte[0];
        if (SnappyFraming.hasMagic(in, in.position())) {
            in.position(in.position() + SnappyFraming.HEADER_SIZE);
        } else {
            rawBlock = true;
        }
    }

    @Override
    protected boolean nextBlock() throws IOException {
        while (in.remaining() > 0) {
            int size;
            if (rawBlock) {
                size = in.remaining();
                rawBlock = false;
            } else if (in.remaining() < 4) {
                throw new IOException("truncated snappy chunk length");
            } else {
                size = in.getInt();
                if (size == SnappyFraming.MAGIC_HEAD && SnappyFraming.hasMagic(in, in.position() - 4)) {
                    in.position(in.position() - 4 + SnappyFraming.HEADER_SIZE); // a concatenated stream's header
                    continue;
                }
            }
            if (size < 0 || size > in.remaining()) {
                throw new IOException("snappy chunk of " + size + " bytes with " + in.remaining() + " left");
            }
            if (compressed.length < size) {
                compressed = new byte[size]; // at most the input, which is in memory already
            }
            in.get(compressed, 0, size);
            int length = Snappy.uncompressedLength(compressed, 0, size);
            if (!SnappyFraming.canExpandTo(size, length)) {
                throw new IOException("snappy block of " + size + " bytes claims " + length + " uncompressed");
            }
            if (length > budget) {
                throw new LegacyCodecs.LimitExceeded("snappy block of " + length + " bytes exceeds the "
                        + budget + " bytes left to decompress");
            }
            if (block.length < length) {
                block = new byte[length];
            }
            lim = Snappy.uncompress(compressed, 0, size, block, 0);
            budget -= lim;
            pos = 0;
            if (lim > 0) {
                return true;
            }
        }
        return false;
    }
}
