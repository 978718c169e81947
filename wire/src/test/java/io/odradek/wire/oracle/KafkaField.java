package io.odradek.wire.oracle;

import java.util.List;

/**
 * One field of a Kafka JSON message schema. {@code fields} are the fields of a struct or struct-array
 * type, inline or resolved from the message's {@code commonStructs}; empty for primitive types.
 */
public record KafkaField(String name, String type, VersionRange versions, VersionRange nullableVersions,
        VersionRange taggedVersions, int tag, String defaultValue, boolean zeroCopy, List<KafkaField> fields) {

    public boolean isArray() {
        return type.startsWith("[]");
    }

    /** The element type of an array, else the type itself. */
    public String baseType() {
        return isArray() ? type.substring(2) : type;
    }

    /** A struct or an array of structs: Kafka names struct types with a capital letter. */
    public boolean hasStructs() {
        return Character.isUpperCase(baseType().charAt(0));
    }

    public boolean isStruct() {
        return !isArray() && hasStructs();
    }

    public boolean isTagged() {
        return tag >= 0;
    }
}
