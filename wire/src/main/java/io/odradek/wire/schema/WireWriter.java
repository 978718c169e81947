package io.odradek.wire.schema;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.FileRegion;
import java.util.ArrayList;
import java.util.List;

/**
 * Where an encoded message goes: a run of {@link ByteBuf}s with {@link FileRegion}s between them, so that
 * record bytes from a segment file are sent by sendfile and never copied into the heap. The parts are
 * written to the channel in order; their total size is known once writing ends.
 */
public final class WireWriter {
    private final ByteBufAllocator alloc;
    private final List<Object> parts = new ArrayList<>(2);
    private ByteBuf current;

    public WireWriter(ByteBufAllocator alloc) {
        this.alloc = alloc;
        this.current = alloc.buffer();
    }

    /** The buffer that fixed-size fields are written to now. */
    public ByteBuf buf() {
        return current;
    }

    /** Ends the current buffer and appends a file region after it; later writes go to a fresh buffer. */
    public void appendRegion(FileRegion region) {
        parts.add(current);
        parts.add(region);
        current = alloc.buffer();
    }

    /** Total bytes written so far, buffers and regions. */
    public long size() {
        long size = current.readableBytes();
        for (Object part : parts) {
            size += part instanceof ByteBuf b ? b.readableBytes() : ((FileRegion) part).count();
        }
        return size;
    }

    /** The parts in order ({@link ByteBuf} or {@link FileRegion}); ownership passes to the caller. */
    public List<Object> finish() {
        if (current.isReadable() || parts.isEmpty()) {
            parts.add(current);
        } else {
            current.release();
        }
        current = null;
        return parts;
    }

    /** Frees everything written, for a response abandoned before it was sent. */
    public void discard() {
        for (Object part : finish()) {
            io.netty.util.ReferenceCountUtil.release(part);
        }
    }
}
