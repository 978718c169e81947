package io.odradek.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.FileRegion;
import java.io.IOException;

/**
 * A file region whose bytes can also be read into a buffer: what a TLS connection needs, since sendfile cannot
 * encrypt. {@link TlsFileRegionWriter} reads it chunk by chunk straight into pooled direct buffers.
 */
public interface ReadableFileRegion extends FileRegion {
    /**
     * Appends {@code length} bytes of the region, from {@code offset} within it, to {@code into} (which has the room);
     * EOFException when the file ends first.
     */
    void readInto(ByteBuf into, long offset, int length) throws IOException;
}
