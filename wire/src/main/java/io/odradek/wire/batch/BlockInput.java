package io.odradek.wire.batch;

import java.io.IOException;
import java.io.InputStream;

/**
 * A decompressing stream that works block by block into an array it owns (the LZ4 and snappy readers, here
 * and in the log's batch validation). Subclasses decompress; this class serves the bytes. A reader that
 * walks the decompressed bytes where they are, instead of copying them into a window first, uses
 * {@link #nextBlockInPlace}, {@link #block()} and {@link #blockLimit()}; for other callers it is an ordinary
 * {@link InputStream}.
 */
public abstract class BlockInput extends InputStream {
    /** The current decompressed block: bytes [pos, lim) are unread. */
    protected byte[] block;
    protected int pos;
    protected int lim;

    /** Decompresses the next non-empty block into {@link #block} (pos 0); false at the end of the stream. */
    protected abstract boolean nextBlock() throws IOException;

    /** Drops what is unread of the current block and decompresses the next; false at the end of the stream. */
    public final boolean nextBlockInPlace() throws IOException {
        pos = lim;
        return nextBlock();
    }

    /** The current block's array; its bytes up to {@link #blockLimit()} are decompressed data. */
    public final byte[] block() {
        return block;
    }

    public final int blockLimit() {
        return lim;
    }

    @Override
    public int read() throws IOException {
        if (pos >= lim && !nextBlock()) {
            return -1;
        }
        return block[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (pos >= lim && !nextBlock()) {
            return -1;
        }
        int n = Math.min(len, lim - pos);
        System.arraycopy(block, pos, b, off, n);
        pos += n;
        return n;
    }
}
