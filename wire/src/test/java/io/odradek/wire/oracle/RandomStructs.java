package io.odradek.wire.oracle;

import io.netty.buffer.Unpooled;
import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Fills a {@link Struct} with random values for every field present in a version, driven by our own
 * {@link Field} tables: nullable fields are sometimes null, tagged fields sometimes left at or set to their default,
 * arrays hold 0-3 elements, records fields hold random bytes (nothing parses them on the way through).
 */
public final class RandomStructs {
    private final RandomValues random;

    public RandomStructs(long seed) {
        this.random = new RandomValues(seed);
    }

    public Struct fill(Schema schema, short version, boolean flexible) {
        Struct struct = schema.newStruct();
        for (Field<?> field : schema.fields()) {
            if (!field.presentIn(version) || (field.isTagged() && (!flexible || random.chance(30)))) {
                continue;
            }
            if (field.isTagged() && random.chance(20)) {
                // Set, but to its default: Kafka omits it, and so must we (a struct of defaults included).
                set(struct, field, field.type().name().equals("struct") && field.defaultValue() == null
                        ? field.nestedSchema().newStruct() : field.defaultValue());
                continue;
            }
            set(struct, field, field.isNullableIn(version) && random.chance(20) ? null : value(field, version, flexible));
        }
        return struct;
    }

    @SuppressWarnings("unchecked")
    private static <T> void set(Struct struct, Field<T> field, Object value) {
        struct.set(field, (T) value);
    }

    private Object value(Field<?> field, short version, boolean flexible) {
        String type = field.type().name();
        if (type.equals("struct")) {
            return fill(field.nestedSchema(), version, flexible);
        }
        if (type.startsWith("[]")) {
            List<Object> list = new ArrayList<>();
            int size = random.arraySize();
            for (int i = 0; i < size; i++) {
                list.add(type.equals("[]struct") ? fill(field.nestedSchema(), version, flexible) : primitive(type.substring(2)));
            }
            return list;
        }
        return primitive(type);
    }

    private Object primitive(String type) {
        return switch (type) {
            case "int8" -> (byte) random.random.nextInt();
            case "int16" -> (short) random.random.nextInt();
            case "uint16" -> random.random.nextInt(65536);
            case "int32" -> random.random.nextInt();
            case "int64" -> random.random.nextLong();
            case "float64" -> random.float64();
            case "bool" -> random.random.nextBoolean();
            case "uuid" -> new UUID(random.random.nextLong(), random.random.nextLong());
            case "string" -> random.string();
            case "bytes" -> random.bytes();
            case "records" -> new MemoryRecords(Unpooled.wrappedBuffer(random.bytes()));
            default -> throw new IllegalArgumentException("no random " + type);
        };
    }
}
