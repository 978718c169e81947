package io.odradek.broker.topics;

import static io.odradek.broker.config.ConfigType.BOOLEAN;
import static io.odradek.broker.config.ConfigType.INT;
import static io.odradek.broker.config.ConfigType.LIST;
import static io.odradek.broker.config.ConfigType.LONG;
import static io.odradek.broker.config.ConfigType.STRING;
import static io.odradek.broker.config.Validator.ANY;
import static io.odradek.broker.config.Validator.atLeast;
import static io.odradek.broker.config.Validator.eachOneOf;
import static io.odradek.broker.config.Validator.oneOf;

import io.odradek.broker.config.ConfigException;
import io.odradek.broker.config.ConfigKey;
import io.odradek.broker.config.ConfigType;
import io.odradek.broker.config.Validator;
import io.odradek.log.LogConfig;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The topic-level configs Odradek acts on, typed as Kafka 4.4's LogConfig defines them, so a bad value is refused
 * with Kafka's words ("Invalid value x for configuration retention.ms: Not a number of type LONG") and an unknown
 * key with "Unknown topic config name: x", both INVALID_CONFIG. {@link LogConfig} applies its own rules after these
 * (e.g. segment.bytes down to 61 bytes where Kafka requires 1 MiB, so tests can roll segments).
 */
public final class TopicConfigDef {
    /** min.cleanable.dirty.ratio is a DOUBLE in Kafka; our ConfigType has none, so it is checked here. */
    private static final Validator RATIO = value -> null;

    private static final Map<String, ConfigKey> KEYS = new LinkedHashMap<>();

    static {
        define(LogConfig.SEGMENT_BYTES, INT, atLeast(0));
        define(LogConfig.SEGMENT_MS, LONG, atLeast(1));
        define(LogConfig.RETENTION_MS, LONG, ANY);
        define(LogConfig.RETENTION_BYTES, LONG, ANY);
        define(LogConfig.INDEX_INTERVAL_BYTES, INT, atLeast(0));
        define(LogConfig.SEGMENT_INDEX_BYTES, INT, atLeast(4));
        define(LogConfig.FLUSH_MESSAGES, LONG, atLeast(1));
        define(LogConfig.FLUSH_MS, LONG, atLeast(0));
        define(LogConfig.MAX_MESSAGE_BYTES, INT, atLeast(0));
        define(LogConfig.FILE_DELETE_DELAY_MS, LONG, atLeast(0));
        define(LogConfig.MESSAGE_TIMESTAMP_TYPE, STRING, oneOf(LogConfig.CREATE_TIME, LogConfig.LOG_APPEND_TIME));
        define(LogConfig.CLEANUP_POLICY, LIST, eachOneOf("compact", "delete"));
        define(LogConfig.DELETE_RETENTION_MS, LONG, atLeast(0));
        define(LogConfig.MIN_CLEANABLE_DIRTY_RATIO, STRING, RATIO);
        define(LogConfig.COMPRESSION_TYPE, STRING, oneOf("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"));
        define(LogConfig.MIN_INSYNC_REPLICAS, INT, atLeast(1));
        define(LogConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS, LONG, atLeast(0));
        define(LogConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS, LONG, atLeast(0));
        define(LogConfig.MAX_DECOMPRESSED_MESSAGE_BYTES, INT, atLeast(0));
        define(LogConfig.UNCLEAN_LEADER_ELECTION_ENABLE, BOOLEAN, ANY);
    }

    private TopicConfigDef() {
    }

    private static void define(String name, ConfigType type, Validator validator) {
        KEYS.put(name, new ConfigKey(name, type, LogConfig.defaults().get(name), validator, null));
    }

    /** The definition of a topic key, or null for one Odradek does not know. */
    public static ConfigKey key(String name) {
        return KEYS.get(name);
    }

    /** Whether the key holds a comma-separated list (IncrementalAlterConfigs APPEND/SUBTRACT). */
    public static boolean isList(String name) {
        ConfigKey key = KEYS.get(name);
        return key != null && key.type() == LIST;
    }

    /**
     * Checks a topic's complete set of overrides as Kafka's controller does (LogConfig.validate): names, then
     * types and ranges, then our log's own rules over {@code defaults}. Throws INVALID_CONFIG.
     */
    public static void validate(Map<String, String> overrides, LogConfig defaults) {
        for (String name : overrides.keySet()) {
            if (!KEYS.containsKey(name)) {
                throw new MetadataException(ErrorCode.INVALID_CONFIG, "Unknown topic config name: " + name);
            }
        }
        overrides.forEach((name, value) -> {
            if (value == null) {
                throw new MetadataException(ErrorCode.INVALID_CONFIG, "Null value not supported for topic configs: "
                        + name);
            }
            try {
                KEYS.get(name).parse(value);
                if (name.equals(LogConfig.MIN_CLEANABLE_DIRTY_RATIO)) {
                    checkRatio(name, value);
                }
            } catch (ConfigException e) {
                throw new MetadataException(ErrorCode.INVALID_CONFIG, e.getMessage());
            }
        });
        try {
            defaults.with(overrides);
        } catch (IllegalArgumentException e) {
            throw new MetadataException(ErrorCode.INVALID_CONFIG, e.getMessage());
        }
    }

    private static void checkRatio(String name, String value) {
        double d;
        try {
            d = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw ConfigException.invalid(name, value, "Not a number of type DOUBLE");
        }
        if (d < 0) {
            throw ConfigException.invalid(name, value, "Value must be at least 0");
        }
        if (d > 1) {
            throw ConfigException.invalid(name, value, "Value must be no more than 1");
        }
    }
}
