package io.odradek.log.validation;

import java.io.IOException;
import java.io.InputStream;

/**
 * A decompressing stream that works block by block into an array it owns, so the record walk can read
 * the decompressed bytes where they are ({@link #block}, {@link #pos}, {@link #lim}) instead of copying
 * them into a window first; for other callers it is an ordinary {@link InputStream}.
 */
abstract class BlockInput extends InputStream {
    /** The current decompressed block: bytes [pos, lim) are unread. */
    byte[] block;
    int pos;
    int lim;

    /** Decompresses the next non-empty block into {@link #block} (pos 0); false at the end of the stream. */
    abstract boolean nextBlock() throws IOException;

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
