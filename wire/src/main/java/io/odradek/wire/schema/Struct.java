package io.odradek.wire.schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The values of one message or nested struct, one per field of its {@link Schema}. */
public final class Struct {
    final Schema schema;
    final Object[] values;

    Struct(Schema schema, Object[] values) {
        this.schema = schema;
        this.values = values;
    }

    public Schema schema() {
        return schema;
    }

    @SuppressWarnings("unchecked")
    public <T> T get(Field<T> field) {
        return (T) values[field.indexIn(schema)];
    }

    public <T> Struct set(Field<T> field, T value) {
        values[field.indexIn(schema)] = value;
        return this;
    }

    /** Appends a new element to a struct-array field and returns it, for building responses. */
    public Struct add(Field<List<Struct>> field) {
        int i = field.indexIn(schema);
        @SuppressWarnings("unchecked")
        List<Struct> list = (List<Struct>) values[i];
        if (list == null || !(list instanceof ArrayList)) {
            list = list == null ? new ArrayList<>() : new ArrayList<>(list);
            values[i] = list;
        }
        Struct element = field.nestedSchema().newStruct();
        list.add(element);
        return element;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        List<Field<?>> fields = schema.fields();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Object v = values[i];
            sb.append(fields.get(i).name()).append('=').append(v instanceof byte[] b ? Arrays.toString(b) : v);
        }
        return sb.append('}').toString();
    }
}
