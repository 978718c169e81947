package io.odradek.wire.oracle;

import java.util.List;
import java.util.UUID;

/**
 * The default of a Kafka schema field, in the Java types Odradek's {@code Field}s hold, by the rules of
 * Kafka's message generator: numbers parse the "default" string (decimal or 0x hex), strings, bytes and
 * arrays default to empty unless it says "null", records and nullable structs to null.
 */
public final class KafkaDefaults {
    private KafkaDefaults() {
    }

    /** A struct field whose default is a struct of defaults; Odradek holds that as null. */
    public static final Object DEFAULT_STRUCT = new Object() {
        @Override
        public String toString() {
            return "<struct of defaults>";
        }
    };

    public static Object of(KafkaField field) {
        String d = field.defaultValue();
        if (field.isArray()) {
            return d.equals("null") ? null : List.of();
        }
        if (field.isStruct()) {
            return d.equals("null") ? null : DEFAULT_STRUCT;
        }
        switch (field.type()) {
            case "bool":
                return d.isEmpty() ? false : Boolean.parseBoolean(d);
            case "int8":
                return (byte) number(d);
            case "int16":
                return (short) number(d);
            case "uint16":
            case "int32":
                return (int) number(d);
            case "int64":
            case "uint32":
                return number(d);
            case "float64":
                return d.isEmpty() ? 0.0 : Double.parseDouble(d);
            case "string":
                return d.equals("null") ? null : d;
            case "uuid":
                if (!d.isEmpty()) {
                    throw new UnsupportedOperationException("uuid default " + d);
                }
                return new UUID(0, 0);
            case "bytes":
                return d.equals("null") ? null : new byte[0];
            case "records":
                return null;
            default:
                throw new IllegalArgumentException("unknown type " + field.type());
        }
    }

    private static long number(String d) {
        return d.isEmpty() ? 0 : Long.decode(d);
    }
}
