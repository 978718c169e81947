package io.odradek.wire.schema;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The primitive types of the Kafka protocol, and arrays and structs of them. */
public final class Types {
    private Types() {
    }

    public static final Type<Byte> INT8 = new Type<>() {
        public Byte read(ByteBuf in, short v, boolean f) {
            return in.readByte();
        }

        public void write(WireWriter out, Byte value, short v, boolean f) {
            out.buf().writeByte(value);
        }

        public Byte defaultValue() {
            return 0;
        }

        public String name() {
            return "int8";
        }
    };

    public static final Type<Short> INT16 = new Type<>() {
        public Short read(ByteBuf in, short v, boolean f) {
            return in.readShort();
        }

        public void write(WireWriter out, Short value, short v, boolean f) {
            out.buf().writeShort(value);
        }

        public Short defaultValue() {
            return 0;
        }

        public String name() {
            return "int16";
        }
    };

    public static final Type<Integer> UINT16 = new Type<>() {
        public Integer read(ByteBuf in, short v, boolean f) {
            return in.readUnsignedShort();
        }

        public void write(WireWriter out, Integer value, short v, boolean f) {
            out.buf().writeShort(value);
        }

        public Integer defaultValue() {
            return 0;
        }

        public String name() {
            return "uint16";
        }
    };

    public static final Type<Integer> INT32 = new Type<>() {
        public Integer read(ByteBuf in, short v, boolean f) {
            return in.readInt();
        }

        public void write(WireWriter out, Integer value, short v, boolean f) {
            out.buf().writeInt(value);
        }

        public Integer defaultValue() {
            return 0;
        }

        public String name() {
            return "int32";
        }
    };

    public static final Type<Long> INT64 = new Type<>() {
        public Long read(ByteBuf in, short v, boolean f) {
            return in.readLong();
        }

        public void write(WireWriter out, Long value, short v, boolean f) {
            out.buf().writeLong(value);
        }

        public Long defaultValue() {
            return 0L;
        }

        public String name() {
            return "int64";
        }
    };

    public static final Type<Double> FLOAT64 = new Type<>() {
        public Double read(ByteBuf in, short v, boolean f) {
            return in.readDouble();
        }

        public void write(WireWriter out, Double value, short v, boolean f) {
            out.buf().writeDouble(value);
        }

        public Double defaultValue() {
            return 0.0;
        }

        public String name() {
            return "float64";
        }
    };

    public static final Type<Boolean> BOOL = new Type<>() {
        public Boolean read(ByteBuf in, short v, boolean f) {
            return in.readByte() != 0;
        }

        public void write(WireWriter out, Boolean value, short v, boolean f) {
            out.buf().writeByte(value ? 1 : 0);
        }

        public Boolean defaultValue() {
            return false;
        }

        public String name() {
            return "bool";
        }
    };

    public static final UUID ZERO_UUID = new UUID(0, 0);

    public static final Type<UUID> UUID_TYPE = new Type<>() {
        public UUID read(ByteBuf in, short v, boolean f) {
            return new UUID(in.readLong(), in.readLong());
        }

        public void write(WireWriter out, UUID value, short v, boolean f) {
            out.buf().writeLong(value.getMostSignificantBits()).writeLong(value.getLeastSignificantBits());
        }

        public UUID defaultValue() {
            return ZERO_UUID;
        }

        public String name() {
            return "uuid";
        }
    };

    /** A string, nullable where the schema says so (null is length -1, or 0 in compact form). */
    public static final Type<String> STRING = new Type<>() {
        public String read(ByteBuf in, short v, boolean flexible) {
            int length = flexible ? Varints.readUnsignedVarint(in) - 1 : in.readShort();
            if (length < 0) {
                return null;
            }
            checkLength(in, length);
            String s = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
            in.skipBytes(length);
            return s;
        }

        public void write(WireWriter out, String value, short v, boolean flexible) {
            ByteBuf buf = out.buf();
            if (value == null) {
                writeNullLength(buf, flexible, false);
                return;
            }
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            if (flexible) {
                Varints.writeUnsignedVarint(buf, bytes.length + 1);
            } else {
                if (bytes.length > Short.MAX_VALUE) {
                    throw new IllegalArgumentException("string longer than 32767 bytes");
                }
                buf.writeShort(bytes.length);
            }
            buf.writeBytes(bytes);
        }

        public String defaultValue() {
            return "";
        }

        public String name() {
            return "string";
        }
    };

    private static final byte[] NO_BYTES = new byte[0];

    public static final Type<byte[]> BYTES = new Type<>() {
        public byte[] read(ByteBuf in, short v, boolean flexible) {
            int length = readBytesLength(in, flexible);
            if (length < 0) {
                return null;
            }
            checkLength(in, length);
            byte[] bytes = new byte[length];
            in.readBytes(bytes);
            return bytes;
        }

        public void write(WireWriter out, byte[] value, short v, boolean flexible) {
            if (value == null) {
                writeNullLength(out.buf(), flexible, true);
                return;
            }
            writeBytesLength(out.buf(), value.length, flexible);
            out.buf().writeBytes(value);
        }

        public byte[] defaultValue() {
            return NO_BYTES;
        }

        public String name() {
            return "bytes";
        }
    };

    /**
     * Record batches: encoded like nullable bytes, but read as a slice of the frame (no copy) and written
     * by the {@link Records} value itself, which may be a file region.
     */
    public static final Type<Records> RECORDS = new Type<>() {
        public Records read(ByteBuf in, short v, boolean flexible) {
            int length = readBytesLength(in, flexible);
            if (length < 0) {
                return null;
            }
            checkLength(in, length);
            return new MemoryRecords(in.readSlice(length));
        }

        public void write(WireWriter out, Records value, short v, boolean flexible) {
            if (value == null) {
                writeNullLength(out.buf(), flexible, true);
                return;
            }
            writeBytesLength(out.buf(), value.sizeInBytes(), flexible);
            value.writeTo(out);
        }

        public Records defaultValue() {
            return null;
        }

        public String name() {
            return "records";
        }
    };

    public static <E> Type<List<E>> arrayOf(Type<E> element) {
        return new ArrayType<>(element);
    }

    public static Type<Struct> struct(Schema schema) {
        return new StructType(schema);
    }

    /** Whether the type is a single nested struct (not an array of them). */
    static boolean isStruct(Type<?> type) {
        return type instanceof StructType;
    }

    private static int readBytesLength(ByteBuf in, boolean flexible) {
        return flexible ? Varints.readUnsignedVarint(in) - 1 : in.readInt();
    }

    private static void writeBytesLength(ByteBuf buf, int length, boolean flexible) {
        if (flexible) {
            Varints.writeUnsignedVarint(buf, length + 1);
        } else {
            buf.writeInt(length);
        }
    }

    private static void writeNullLength(ByteBuf buf, boolean flexible, boolean int32Length) {
        if (flexible) {
            Varints.writeUnsignedVarint(buf, 0);
        } else if (int32Length) {
            buf.writeInt(-1);
        } else {
            buf.writeShort(-1);
        }
    }

    private static void checkLength(ByteBuf in, int length) {
        if (length > in.readableBytes()) {
            throw new MalformedMessageException("length " + length + " exceeds the " + in.readableBytes()
                    + " bytes left in the message");
        }
    }

    private static final class ArrayType<E> extends Type<List<E>> {
        private final Type<E> element;

        ArrayType(Type<E> element) {
            this.element = element;
        }

        @Override
        public List<E> read(ByteBuf in, short version, boolean flexible) {
            int count = flexible ? Varints.readUnsignedVarint(in) - 1 : in.readInt();
            if (count < 0) {
                return null;
            }
            // Every element takes at least one byte, so a count beyond the bytes left is a lie.
            checkLength(in, count);
            List<E> list = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                E value = element.read(in, version, flexible);
                if (value == null) {
                    // Kafka's schemas have no nullable array elements (a []string of topic names, say).
                    throw new MalformedMessageException("null element in an array of " + element.name());
                }
                list.add(value);
            }
            return list;
        }

        @Override
        public void write(WireWriter out, List<E> value, short version, boolean flexible) {
            if (value == null) {
                writeNullLength(out.buf(), flexible, true);
                return;
            }
            writeBytesLength(out.buf(), value.size(), flexible);
            for (E e : value) {
                element.write(out, e, version, flexible);
            }
        }

        @Override
        public List<E> defaultValue() {
            return List.of();
        }

        @Override
        public String name() {
            return "[]" + element.name();
        }
    }

    private static final class StructType extends Type<Struct> {
        private final Schema schema;

        StructType(Schema schema) {
            this.schema = schema;
        }

        @Override
        public Struct read(ByteBuf in, short version, boolean flexible) {
            return schema.read(in, version, flexible);
        }

        @Override
        public void write(WireWriter out, Struct value, short version, boolean flexible) {
            // Kafka writes a struct it was not given with its fields' defaults.
            schema.write(out, value == null ? schema.newStruct() : value, version, flexible);
        }

        @Override
        public Struct defaultValue() {
            return null;
        }

        @Override
        public String name() {
            return "struct";
        }
    }
}
