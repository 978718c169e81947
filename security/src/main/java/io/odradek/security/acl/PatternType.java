package io.odradek.security.acl;

/** How an ACL's resource name matches (ANY and MATCH only in filters), Kafka's codes. */
public enum PatternType {
    UNKNOWN(0),
    ANY(1),
    MATCH(2),
    LITERAL(3),
    PREFIXED(4);

    public final byte code;

    PatternType(int code) {
        this.code = (byte) code;
    }

    /** The constant with Kafka's code {@code code}, or UNKNOWN. */
    public static PatternType fromCode(byte code) {
        for (PatternType v : values()) {
            if (v.code == code) {
                return v;
            }
        }
        return UNKNOWN;
    }
}
