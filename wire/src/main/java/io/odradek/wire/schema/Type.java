package io.odradek.wire.schema;

import io.netty.buffer.ByteBuf;

/**
 * How one kind of field value is encoded. Strings, bytes and arrays have two encodings: the classic one
 * (int16/int32 length prefixes) and the compact one of flexible versions (unsigned varint length + 1).
 * {@code version} is passed down for nested structs, whose fields have version ranges of their own.
 */
public abstract class Type<T> {
    public abstract T read(ByteBuf in, short version, boolean flexible);

    public abstract void write(WireWriter out, T value, short version, boolean flexible);

    /** The value a field of this type has when a message version does not carry it. */
    public abstract T defaultValue();

    /** The type's name as Kafka's JSON schemas spell it ("int32", "string", "[]int32", ...). */
    public abstract String name();

    @Override
    public String toString() {
        return name();
    }
}
