package io.odradek.wire.batch;

import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * A batch's (compressed) records section as a stream, read in place from its buffer: what the codecs'
 * input streams decompress from when a batch is validated or its records read. Advances the buffer.
 */
public final class ByteBufferInput extends InputStream {
    private final ByteBuffer buffer;

    public ByteBufferInput(ByteBuffer buffer) {
        this.buffer = buffer;
    }

    @Override
    public int read() {
        return buffer.hasRemaining() ? buffer.get() & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        if (!buffer.hasRemaining()) {
            return -1;
        }
        int n = Math.min(len, buffer.remaining());
        buffer.get(b, off, n);
        return n;
    }

    @Override
    public long skip(long n) {
        int k = (int) Math.max(0, Math.min(n, buffer.remaining()));
        buffer.position(buffer.position() + k);
        return k;
    }

    @Override
    public int available() {
        return buffer.remaining();
    }
}
