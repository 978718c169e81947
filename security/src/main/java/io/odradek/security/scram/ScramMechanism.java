package io.odradek.security.scram;

/**
 * The SCRAM mechanisms Kafka supports, with the type codes of DescribeUserScramCredentials /
 * AlterUserScramCredentials and the JDK algorithm names they use; Kafka refuses fewer than 4096 iterations.
 */
public enum ScramMechanism {
    SCRAM_SHA_256(1, "SCRAM-SHA-256", "SHA-256", "HmacSHA256"),
    SCRAM_SHA_512(2, "SCRAM-SHA-512", "SHA-512", "HmacSHA512");

    public static final int MIN_ITERATIONS = 4096;
    public static final int MAX_ITERATIONS = 16384;

    public final byte type;
    public final String mechanismName;
    public final String hashAlgorithm;
    public final String macAlgorithm;

    ScramMechanism(int type, String mechanismName, String hashAlgorithm, String macAlgorithm) {
        this.type = (byte) type;
        this.mechanismName = mechanismName;
        this.hashAlgorithm = hashAlgorithm;
        this.macAlgorithm = macAlgorithm;
    }

    /** The mechanism with wire type {@code type}, or null (0 is Kafka's UNKNOWN). */
    public static ScramMechanism fromType(byte type) {
        for (ScramMechanism m : values()) {
            if (m.type == type) {
                return m;
            }
        }
        return null;
    }

    /** The mechanism named {@code name} (e.g. "SCRAM-SHA-256"), or null. */
    public static ScramMechanism forMechanismName(String name) {
        for (ScramMechanism m : values()) {
            if (m.mechanismName.equals(name)) {
                return m;
            }
        }
        return null;
    }
}
