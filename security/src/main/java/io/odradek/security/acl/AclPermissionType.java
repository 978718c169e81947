package io.odradek.security.acl;

/** Allow or deny (ANY only in filters), Kafka's codes. */
public enum AclPermissionType {
    UNKNOWN(0),
    ANY(1),
    DENY(2),
    ALLOW(3);

    public final byte code;

    AclPermissionType(int code) {
        this.code = (byte) code;
    }

    /** The constant with Kafka's code {@code code}, or UNKNOWN. */
    public static AclPermissionType fromCode(byte code) {
        for (AclPermissionType v : values()) {
            if (v.code == code) {
                return v;
            }
        }
        return UNKNOWN;
    }
}
