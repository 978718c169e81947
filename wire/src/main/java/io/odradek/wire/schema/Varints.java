package io.odradek.wire.schema;

import io.netty.buffer.ByteBuf;

/** Kafka's variable-length integers: unsigned varints (flexible-version lengths and tags) and zig-zag varints (records). */
public final class Varints {
    private Varints() {
    }

    public static int readUnsignedVarint(ByteBuf in) {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            byte b = in.readByte();
            value |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new MalformedMessageException("unsigned varint longer than 5 bytes");
    }

    public static void writeUnsignedVarint(ByteBuf out, int value) {
        while ((value & 0xffffff80) != 0) {
            out.writeByte((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.writeByte(value);
    }

    public static int sizeOfUnsignedVarint(int value) {
        int bytes = 1;
        while ((value & 0xffffff80) != 0) {
            bytes++;
            value >>>= 7;
        }
        return bytes;
    }

    public static int readVarint(ByteBuf in) {
        int raw = readUnsignedVarint(in);
        return (raw >>> 1) ^ -(raw & 1);
    }

    public static long readVarlong(ByteBuf in) {
        long value = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            byte b = in.readByte();
            value |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return (value >>> 1) ^ -(value & 1);
            }
        }
        throw new MalformedMessageException("varlong longer than 10 bytes");
    }
}
