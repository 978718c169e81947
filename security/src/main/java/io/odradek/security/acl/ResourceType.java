package io.odradek.security.acl;

/** Kafka's resource types with their wire codes (ANY only in filters). */
public enum ResourceType {
    UNKNOWN(0),
    ANY(1),
    TOPIC(2),
    GROUP(3),
    CLUSTER(4),
    TRANSACTIONAL_ID(5),
    DELEGATION_TOKEN(6),
    USER(7);

    public final byte code;

    ResourceType(int code) {
        this.code = (byte) code;
    }

    /** The constant with Kafka's code {@code code}, or UNKNOWN. */
    public static ResourceType fromCode(byte code) {
        for (ResourceType v : values()) {
            if (v.code == code) {
                return v;
            }
        }
        return UNKNOWN;
    }
}
