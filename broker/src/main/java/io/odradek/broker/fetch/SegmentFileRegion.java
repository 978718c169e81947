package io.odradek.broker.fetch;

import io.netty.channel.DefaultFileRegion;
import java.nio.channels.FileChannel;

/**
 * A range of a segment file sent by Netty: with the epoll transport by sendfile(2), otherwise by
 * {@code FileChannel.transferTo}; either way the bytes never enter the heap. The segment owns the channel,
 * so releasing the region after the write must not close it (Netty's default does).
 */
final class SegmentFileRegion extends DefaultFileRegion {
    SegmentFileRegion(FileChannel channel, long position, long count) {
        super(channel, position, count);
    }

    @Override
    protected void deallocate() {
        // The channel belongs to the segment, which closes it when the segment is closed or deleted.
    }
}
