package io.odradek.wire.schema;

import io.netty.buffer.ByteBuf;

/** Record batches held in a {@link ByteBuf}: on a request, a slice of the frame (valid while the frame is). */
public record MemoryRecords(ByteBuf buffer) implements Records {
    @Override
    public int sizeInBytes() {
        return buffer.readableBytes();
    }

    @Override
    public void writeTo(WireWriter out) {
        out.buf().writeBytes(buffer, buffer.readerIndex(), buffer.readableBytes());
    }
}
