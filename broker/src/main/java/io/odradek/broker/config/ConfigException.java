package io.odradek.broker.config;

/** A configuration that cannot be used: an invalid value, an unreadable file, a missing setting. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Kafka's wording, so messages read the same as a Kafka broker's: "Invalid value x for configuration k: why". */
    public static ConfigException invalid(String key, Object value, String reason) {
        return new ConfigException("Invalid value " + value + " for configuration " + key + ": " + reason);
    }
}
