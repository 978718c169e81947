package io.odradek.wire.schema;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;

/**
 * A struct as plain bytes behind an int16 prefix (a version, or a record type), the way Kafka stores the
 * keys and values of its internal topics' records. For code that must not see Netty (the coordinators).
 */
public final class SchemaBytes {
    private static final UnpooledByteBufAllocator HEAP = new UnpooledByteBufAllocator(false);

    private SchemaBytes() {
    }

    /** The int16 prefix, then the struct at {@code version}. */
    public static byte[] write(short prefix, Schema schema, Struct struct, short version, boolean flexible) {
        WireWriter out = new WireWriter(HEAP);
        out.buf().writeShort(prefix);
        schema.write(out, struct, version, flexible);
        ByteBuf buf = (ByteBuf) out.finish().get(0);
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /**
     * The int16 prefix.
     *
     * @throws IndexOutOfBoundsException when there are fewer than two bytes
     */
    public static short prefix(byte[] bytes) {
        return Unpooled.wrappedBuffer(bytes).readShort();
    }

    /**
     * The struct after the int16 prefix, read at {@code version}.
     *
     * @throws IndexOutOfBoundsException or {@link MalformedMessageException} when the bytes do not parse
     */
    public static Struct read(Schema schema, byte[] bytes, short version, boolean flexible) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        in.skipBytes(2);
        return schema.read(in, version, flexible);
    }
}
