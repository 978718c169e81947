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
                struct.values[field.indexIn(this)] = field.type().read(in, version, flexible);
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
            struct.values[field.indexIn(this)] = field.type().read(value, version, true);
        }
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
        if (value == null && !field.isNullable() && !(field.type().defaultValue() == null)) {
            throw new IllegalArgumentException("field " + field.name() + " is not nullable");
        }
        field.type().write(out, (T) value, version, flexible);
    }

    private static boolean isDefault(Field<?> field, Object value) {
        Object def = field.defaultValue();
        if (value instanceof byte[] a && def instanceof byte[] b) {
            return Arrays.equals(a, b);
        }
        return Objects.equals(value, def);
    }

    @Override
    public String toString() {
        return Arrays.toString(fields);
    }
}
