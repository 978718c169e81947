package io.odradek.security.ssl;

/**
 * TLS settings that cannot be used: a bad {@code ssl.*} value, an unreadable or inconsistent keystore. The message
 * reads as Kafka's for the same mistake (with the cause's message appended, as Kafka's log shows the cause).
 */
public final class SslConfigException extends RuntimeException {
    public SslConfigException(String message) {
        super(message);
    }

    public SslConfigException(String message, Throwable cause) {
        super(cause == null || cause.getMessage() == null ? message : message + ": " + cause.getMessage(), cause);
    }

    /** Kafka's ConfigException wording: "Invalid value x for configuration k: why". */
    public static SslConfigException invalid(String key, Object value, String reason) {
        return new SslConfigException("Invalid value " + value + " for configuration " + key + ": " + reason);
    }
}
