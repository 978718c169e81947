package io.odradek.security.acl;

/** Kafka's ACL operations with their wire codes (ANY only in filters). */
public enum AclOperation {
    UNKNOWN(0),
    ANY(1),
    ALL(2),
    READ(3),
    WRITE(4),
    CREATE(5),
    DELETE(6),
    ALTER(7),
    DESCRIBE(8),
    CLUSTER_ACTION(9),
    DESCRIBE_CONFIGS(10),
    ALTER_CONFIGS(11),
    IDEMPOTENT_WRITE(12),
    CREATE_TOKENS(13),
    DESCRIBE_TOKENS(14),
    TWO_PHASE_COMMIT(15);

    public final byte code;

    AclOperation(int code) {
        this.code = (byte) code;
    }

    /** The constant with Kafka's code {@code code}, or UNKNOWN. */
    public static AclOperation fromCode(byte code) {
        for (AclOperation v : values()) {
            if (v.code == code) {
                return v;
            }
        }
        return UNKNOWN;
    }
}
