package io.odradek.wire.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Varints;
import io.odradek.wire.schema.WireWriter;
import java.util.List;

/** Writes a whole response frame: length, response header, body. No I/O. */
public final class ResponseEncoder {
    private ResponseEncoder() {
    }

    /**
     * @return the frame's parts in order, each a {@link ByteBuf} or a {@link io.netty.channel.FileRegion};
     *     the caller writes them to the channel and so releases them
     */
    public static List<Object> encode(ByteBufAllocator alloc, ApiSpec api, short version, int correlationId,
            Struct body) {
        return encode(alloc, api, version, api.responseHeaderVersion(version), correlationId, body);
    }

    /** As above with an explicit header version (the ApiVersions fallback answer is v0 throughout). */
    public static List<Object> encode(ByteBufAllocator alloc, ApiSpec api, short version, short headerVersion,
            int correlationId, Struct body) {
        WireWriter out = new WireWriter(alloc);
        try {
            ByteBuf first = out.buf();
            first.writeInt(0); // the frame length, set below once the size is known
            first.writeInt(correlationId);
            if (headerVersion >= 1) {
                Varints.writeUnsignedVarint(first, 0);
            }
            api.response().write(out, body, version, api.isFlexible(version));
            long size = out.size() - 4;
            if (size > Integer.MAX_VALUE) {
                throw new IllegalStateException("response of " + size + " bytes is larger than a frame may be");
            }
            first.setInt(0, (int) size);
            return out.finish();
        } catch (RuntimeException e) {
            out.discard();
            throw e;
        }
    }
}
