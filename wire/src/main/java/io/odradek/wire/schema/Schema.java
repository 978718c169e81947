package io.odradek.wire.schema;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The ordered fields of a message or nested struct, across all its versions. Reading or writing at a
 * version takes the fields that version carries, in order; in flexible versions the struct ends with
 * its tagged fields (unknown tags are skipped on read).
 */
public final class Schema {
    private final Field<?>[] fields;

    private Schema(Field<?>[] fields) {
        this.fields = fields;
        for (int i = 0; i < fields.length; i++) {
            fields[i].bind(this, i);
        }
    }

    public static Schema of(Field<?>... fields) {
        return new Schema(fields.clone());
    }

    public List<Field<?>> fields() {
        return List.of(fields);
    }

    /** A struct of this schema with every field at its default. */
    public Struct newStruct() {
        Object[] values = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
            values[i] = fields[i].defaultValue();
        }
        return new Struct(this, values);
    }

    public Struct read(ByteBuf in, short version, boolean flexible) {
        Struct struct = newStruct();
        for (Field<?> field : fields) {
            if (!field.isTagged() && field.presentIn(version)) {
                struct.values[field.indexIn(this)] = readField(in, field, version, flexible);
            }
        }
        if (flexible) {
            readTaggedFields(in, struct, version);
        }
        return struct;
    }

    private void readTaggedFields(ByteBuf in, Struct struct, short version) {
        int count = Varints.readUnsignedVarint(in);
        for (int i = 0; i < count; i++) {
            int tag = Varints.readUnsignedVarint(in);
            int size = Varints.readUnsignedVarint(in);
            if (size < 0 || size > in.readableBytes()) {
                throw new MalformedMessageException("tagged field " + tag + " of " + size + " bytes overruns the message");
            }
            Field<?> field = taggedField(tag, version);
            if (field == null) {
                in.skipBytes(size);
                continue;
            }
            ByteBuf value = in.readSlice(size);
            struct.values[field.indexIn(this)] = readField(value, field, version, true);
        }
    }

    private static Object readField(ByteBuf in, Field<?> field, short version, boolean flexible) {
        boolean nullable = field.isNullableIn(version);
        if (nullable && Types.isStruct(field.type())) {
            // A nullable struct opens with a presence byte: -1 for null, 1 for a struct.
            return in.readByte() < 0 ? null : field.type().read(in, version, flexible);
        }
        Object value = field.type().read(in, version, flexible);
        if (value == null && !nullable) {
            throw new MalformedMessageException("field " + field.name() + " is null, which version " + version
                    + " does not allow");
        }
        return value;
    }

    private Field<?> taggedField(int tag, short version) {
        for (Field<?> field : fields) {
            if (field.tag() == tag && field.presentIn(version)) {
                return field;
            }
        }
        return null;
    }

    public void write(WireWriter out, Struct struct, short version, boolean flexible) {
        if (struct.schema != this) {
            throw new IllegalArgumentException("struct of another schema");
        }
        List<Field<?>> tagged = null;
        for (Field<?> field : fields) {
            if (!field.presentIn(version)) {
                continue;
            }
            if (field.isTagged()) {
                if (flexible && !isDefault(field, struct.values[field.indexIn(this)])) {
                    if (tagged == null) {
                        tagged = new ArrayList<>(2);
                    }
                    tagged.add(field);
                }
                continue;
            }
            writeField(out, field, struct.values[field.indexIn(this)], version, flexible);
        }
        if (flexible) {
            writeTaggedFields(out, struct, tagged, version);
        }
    }

    private void writeTaggedFields(WireWriter out, Struct struct, List<Field<?>> tagged, short version) {
        if (tagged == null) {
            Varints.writeUnsignedVarint(out.buf(), 0);
            return;
        }
        tagged.sort((a, b) -> Integer.compare(a.tag(), b.tag()));
        Varints.writeUnsignedVarint(out.buf(), tagged.size());
        for (Field<?> field : tagged) {
            // A tagged field is prefixed by its size, so encode it aside first; tagged fields are small.
            WireWriter aside = new WireWriter(UnpooledByteBufAllocator.DEFAULT);
            writeField(aside, field, struct.values[field.indexIn(this)], version, true);
            List<Object> parts = aside.finish();
            if (parts.size() != 1) {
                throw new IllegalStateException("tagged field " + field.name() + " cannot hold a file region");
            }
            ByteBuf bytes = (ByteBuf) parts.get(0);
            Varints.writeUnsignedVarint(out.buf(), field.tag());
            Varints.writeUnsignedVarint(out.buf(), bytes.readableBytes());
            out.buf().writeBytes(bytes);
            bytes.release();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> void writeField(WireWriter out, Field<T> field, Object value, short version, boolean flexible) {
        boolean nullable = field.isNullableIn(version);
        if (Types.isStruct(field.type())) {
            if (nullable) {
                out.buf().writeByte(value == null ? -1 : 1);
                if (value == null) {
                    return;
                }
            }
            // A non-nullable struct left null is written with its fields' defaults.
        } else if (value == null && !nullable) {
            throw new IllegalArgumentException("field " + field.name() + " may not be null in version " + version);
        }
        field.type().write(out, (T) value, version, flexible);
    }

    /** As Kafka decides whether to omit a tagged field: a struct is default when all its fields are. */
    private static boolean isDefault(Field<?> field, Object value) {
        Object def = field.defaultValue();
        if (Types.isStruct(field.type()) && def == null && !field.isNullable()) {
            return value == null || isAllDefault((Struct) value);
        }
        if (value instanceof byte[] a && def instanceof byte[] b) {
            return Arrays.equals(a, b);
        }
        return Objects.equals(value, def);
    }

    private static boolean isAllDefault(Struct struct) {
        Field<?>[] fields = struct.schema.fields;
        for (int i = 0; i < fields.length; i++) {
            if (!isDefault(fields[i], struct.values[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return Arrays.toString(fields);
    }
}
