package io.odradek.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;

/** What a test's EmbeddedChannel wrote, reassembled into whole length-prefixed frames (responses may come in parts). */
final class OutboundFrames {
    private final ByteBuf received = Unpooled.buffer();

    /** The next whole frame written to {@code channel}, without its length prefix; null when there is none yet. */
    ByteBuffer next(EmbeddedChannel channel) {
        Object out;
        while ((out = channel.readOutbound()) != null) {
            ByteBuf buf = (ByteBuf) out;
            received.writeBytes(buf);
            buf.release();
        }
        if (received.readableBytes() < 4 || received.readableBytes() < 4 + received.getInt(received.readerIndex())) {
            return null;
        }
        byte[] frame = new byte[received.readInt()];
        received.readBytes(frame);
        return ByteBuffer.wrap(frame);
    }

    void release() {
        received.release();
    }
}
