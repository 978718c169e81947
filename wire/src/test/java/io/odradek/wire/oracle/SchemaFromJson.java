package io.odradek.wire.oracle;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Type;
import io.odradek.wire.schema.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds one of our {@link Schema}s straight from a Kafka JSON schema, for messages we have no table of:
 * it lets the byte oracle exercise types our tables do not use yet (uint16, float64) against Kafka's
 * classes. Nullable ranges are taken as "from N on", which is all Kafka's schemas use.
 */
public final class SchemaFromJson {
    private SchemaFromJson() {
    }

    public static Schema build(List<KafkaField> fields) {
        List<Field<?>> ours = new ArrayList<>();
        for (KafkaField f : fields) {
            ours.add(field(f));
        }
        return Schema.of(ours.toArray(Field<?>[]::new));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Field<?> field(KafkaField f) {
        Field field;
        if (f.isStruct()) {
            field = Field.struct(f.name(), build(f.fields()));
        } else if (f.isArray() && f.hasStructs()) {
            field = Field.array(f.name(), build(f.fields()));
        } else if (f.isArray()) {
            field = Field.array(f.name(), type(f.baseType()));
        } else {
            field = Field.of(f.name(), type(f.type()));
        }
        field = field.versions(f.versions().min(), f.versions().max());
        if (f.isTagged()) {
            field = field.tagged(f.tag());
        }
        if (!f.nullableVersions().isEmpty()) {
            field = field.nullableFrom(f.nullableVersions().min());
        }
        Object def = KafkaDefaults.of(f);
        return field.withDefault(def == KafkaDefaults.DEFAULT_STRUCT ? null : def);
    }

    private static Type<?> type(String name) {
        return switch (name) {
            case "int8" -> Types.INT8;
            case "int16" -> Types.INT16;
            case "uint16" -> Types.UINT16;
            case "int32" -> Types.INT32;
            case "int64" -> Types.INT64;
            case "float64" -> Types.FLOAT64;
            case "bool" -> Types.BOOL;
            case "uuid" -> Types.UUID_TYPE;
            case "string" -> Types.STRING;
            case "bytes" -> Types.BYTES;
            case "records" -> Types.RECORDS;
            default -> throw new IllegalArgumentException("no type " + name);
        };
    }
}
