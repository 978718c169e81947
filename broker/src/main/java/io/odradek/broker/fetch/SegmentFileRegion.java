package io.odradek.broker.fetch;

import io.netty.buffer.ByteBuf;
import io.netty.channel.DefaultFileRegion;
import io.odradek.broker.network.ReadableFileRegion;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * A range of a segment file sent by Netty: with the epoll transport by sendfile(2), otherwise by
 * {@code FileChannel.transferTo}; either way the bytes never enter the heap. The segment owns the channel,
 * so releasing the region after the write must not close it (Netty's default does). Over TLS the bytes must be
 * encrypted, so they are read chunk by chunk into pooled direct buffers ({@link ReadableFileRegion}).
 */
final class SegmentFileRegion extends DefaultFileRegion implements ReadableFileRegion {
    private final FileChannel file;

    SegmentFileRegion(FileChannel channel, long position, long count) {
        super(channel, position, count);
        this.file = channel;
    }

    @Override
    public void readInto(ByteBuf into, long offset, int length) throws IOException {
        int done = 0;
        while (done < length) {
            int n = into.writeBytes(file, position() + offset + done, length - done);
            if (n < 0) {
                throw new EOFException("segment file ended inside a fetched range");
            }
            done += n;
        }
    }

    @Override
    protected void deallocate() {
        // The channel belongs to the segment, which closes it when the segment is closed or deleted.
    }
}
