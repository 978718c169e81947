package io.odradek.wire.schema;

import java.util.List;

/**
 * One field of a message: its name (as in Kafka's JSON schemas), type, the versions that carry it and,
 * for tagged fields, its tag. A field belongs to exactly one {@link Schema}; a {@link Struct} of that
 * schema is read and written through it: {@code struct.get(ACKS)}.
 *
 * <p>Fields are built by chaining: {@code Field.string("topic_id").versions(13)}. Each step returns a new
 * field, so only the last one is put into a schema.
 */
public final class Field<T> {
    /** Bounds of an empty nullable-version range: no version is -1. */
    private static final int NEVER = -1;

    private final String name;
    private final Type<T> type;
    private final short minVersion;
    private final short maxVersion;
    private final int tag;
    private final T defaultValue;
    private final short nullableMin;
    private final short nullableMax;
    private final Schema nested;
    private Schema owner;
    private int index = -1;

    private Field(String name, Type<T> type, int minVersion, int maxVersion, int tag, T defaultValue,
            int nullableMin, int nullableMax, Schema nested) {
        this.name = name;
        this.type = type;
        this.minVersion = (short) minVersion;
        this.maxVersion = (short) maxVersion;
        this.tag = tag;
        this.defaultValue = defaultValue;
        this.nullableMin = (short) nullableMin;
        this.nullableMax = (short) nullableMax;
        this.nested = nested;
    }

    public static <T> Field<T> of(String name, Type<T> type) {
        return new Field<>(name, type, 0, Short.MAX_VALUE, -1, type.defaultValue(), NEVER, NEVER, null);
    }

    public static Field<Byte> int8(String name) {
        return of(name, Types.INT8);
    }

    public static Field<Short> int16(String name) {
        return of(name, Types.INT16);
    }

    public static Field<Integer> uint16(String name) {
        return of(name, Types.UINT16);
    }

    public static Field<Integer> int32(String name) {
        return of(name, Types.INT32);
    }

    public static Field<Long> int64(String name) {
        return of(name, Types.INT64);
    }

    public static Field<Double> float64(String name) {
        return of(name, Types.FLOAT64);
    }

    public static Field<Boolean> bool(String name) {
        return of(name, Types.BOOL);
    }

    public static Field<java.util.UUID> uuid(String name) {
        return of(name, Types.UUID_TYPE);
    }

    public static Field<String> string(String name) {
        return of(name, Types.STRING);
    }

    public static Field<byte[]> bytes(String name) {
        return of(name, Types.BYTES);
    }

    public static Field<Records> records(String name) {
        return of(name, Types.RECORDS);
    }

    /** An array of structs of the given schema. */
    public static Field<List<Struct>> array(String name, Schema element) {
        Type<List<Struct>> type = Types.arrayOf(Types.struct(element));
        return new Field<>(name, type, 0, Short.MAX_VALUE, -1, type.defaultValue(), NEVER, NEVER, element);
    }

    /** An array of a primitive type. */
    public static <E> Field<List<E>> array(String name, Type<E> element) {
        return of(name, Types.arrayOf(element));
    }

    /** A single nested struct. */
    public static Field<Struct> struct(String name, Schema schema) {
        return new Field<>(name, Types.struct(schema), 0, Short.MAX_VALUE, -1, null, NEVER, NEVER, schema);
    }

    /** Carried from {@code min} on. */
    public Field<T> versions(int min) {
        return new Field<>(name, type, min, Short.MAX_VALUE, tag, defaultValue, nullableMin, nullableMax, nested);
    }

    /** Carried in {@code min} to {@code max}, inclusive. */
    public Field<T> versions(int min, int max) {
        return new Field<>(name, type, min, max, tag, defaultValue, nullableMin, nullableMax, nested);
    }

    /** A tagged field (flexible versions only): written only when it differs from its default. */
    public Field<T> tagged(int tag) {
        return new Field<>(name, type, minVersion, maxVersion, tag, defaultValue, nullableMin, nullableMax, nested);
    }

    public Field<T> withDefault(T value) {
        return new Field<>(name, type, minVersion, maxVersion, tag, value, nullableMin, nullableMax, nested);
    }

    /**
     * May be null in every version that carries it (a nullable string, bytes, array, records or struct
     * field). Default is null unless set otherwise.
     */
    public Field<T> nullable() {
        return nullableFrom(0);
    }

    /**
     * May be null from {@code version} on only (Kafka's {@code "nullableVersions": "N+"}); in older versions
     * null is neither written nor accepted. Default is null unless set otherwise.
     */
    public Field<T> nullableFrom(int version) {
        return new Field<>(name, type, minVersion, maxVersion, tag, null, version, Short.MAX_VALUE, nested);
    }

    public String name() {
        return name;
    }

    public Type<T> type() {
        return type;
    }

    public short minVersion() {
        return minVersion;
    }

    public short maxVersion() {
        return maxVersion;
    }

    public boolean isTagged() {
        return tag >= 0;
    }

    public int tag() {
        return tag;
    }

    public T defaultValue() {
        return defaultValue;
    }

    /** Whether the field may be null in some version that carries it. */
    public boolean isNullable() {
        return Math.max(minVersion, nullableMin) <= Math.min(maxVersion, nullableMax);
    }

    /** Whether the field may be null in this version (a nullable struct then carries a presence byte). */
    public boolean isNullableIn(short version) {
        return version >= nullableMin && version <= nullableMax;
    }

    /** The schema of a struct or struct-array field's elements, else null. */
    public Schema nestedSchema() {
        return nested;
    }

    public boolean presentIn(short version) {
        return version >= minVersion && version <= maxVersion;
    }

    void bind(Schema schema, int index) {
        if (owner != null) {
            throw new IllegalStateException("field " + name + " is already part of another schema");
        }
        this.owner = schema;
        this.index = index;
    }

    int indexIn(Schema schema) {
        if (owner != schema) {
            throw new IllegalArgumentException("field " + name + " is not part of this struct's schema");
        }
        return index;
    }

    @Override
    public String toString() {
        return name + ":" + type.name() + " v" + minVersion + "+" + (maxVersion == Short.MAX_VALUE ? "" : "-" + maxVersion)
                + (tag >= 0 ? " tag " + tag : "");
    }
}
