package io.odradek.broker.group;

import static io.odradek.broker.config.ConfigType.BOOLEAN;
import static io.odradek.broker.config.ConfigType.INT;
import static io.odradek.broker.config.ConfigType.LIST;
import static io.odradek.broker.config.ConfigType.LONG;
import static io.odradek.broker.config.ConfigType.STRING;
import static io.odradek.broker.config.Validator.ANY;
import static io.odradek.broker.config.Validator.atLeast;
import static io.odradek.broker.config.Validator.oneOf;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.config.ConfigException;
import io.odradek.broker.config.ConfigKey;
import io.odradek.broker.config.ConfigType;
import io.odradek.broker.config.Validator;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kafka 4.4's group configs (org.apache.kafka.coordinator.group.GroupConfig, KIP-848/932/1071): the keys a GROUP
 * resource takes, in Kafka's definition order, with their types, defaults, validators, whether Kafka marks them
 * internal (not listed by DescribeConfigs unless set) and their broker synonym (the group.* key whose value is the
 * default when the group has none). {@link #validate} is GroupConfig.validate as Kafka's controller runs it on
 * the group's whole new set: unknown names, duplicate rack tags, each value's type and validator, then the ranges
 * the broker's group.*.min/max keys allow, then session timeout above heartbeat interval, each with Kafka's
 * message (INVALID_CONFIG).
 */
public final class GroupConfigDef {
    /** One group config key: the typed key, Kafka's internal flag and its broker synonym (null: none). */
    public record Key(ConfigKey key, boolean internal, String brokerSynonym) {
        public String name() {
            return key.name();
        }
    }

    public static final String CONSUMER_SESSION_TIMEOUT_MS = "consumer.session.timeout.ms";
    public static final String CONSUMER_HEARTBEAT_INTERVAL_MS = "consumer.heartbeat.interval.ms";
    public static final String CONSUMER_ASSIGNMENT_INTERVAL_MS = "consumer.assignment.interval.ms";
    public static final String SHARE_SESSION_TIMEOUT_MS = "share.session.timeout.ms";
    public static final String SHARE_HEARTBEAT_INTERVAL_MS = "share.heartbeat.interval.ms";
    public static final String SHARE_RECORD_LOCK_DURATION_MS = "share.record.lock.duration.ms";
    public static final String SHARE_DELIVERY_COUNT_LIMIT = "share.delivery.count.limit";
    public static final String SHARE_PARTITION_MAX_RECORD_LOCKS = "share.partition.max.record.locks";
    public static final String SHARE_AUTO_OFFSET_RESET = "share.auto.offset.reset";
    public static final String SHARE_ISOLATION_LEVEL = "share.isolation.level";
    public static final String SHARE_RENEW_ACKNOWLEDGE_ENABLE = "share.renew.acknowledge.enable";
    public static final String SHARE_ASSIGNMENT_INTERVAL_MS = "share.assignment.interval.ms";
    public static final String STREAMS_SESSION_TIMEOUT_MS = "streams.session.timeout.ms";
    public static final String STREAMS_HEARTBEAT_INTERVAL_MS = "streams.heartbeat.interval.ms";
    public static final String STREAMS_NUM_STANDBY_REPLICAS = "streams.num.standby.replicas";
    public static final String STREAMS_INITIAL_REBALANCE_DELAY_MS = "streams.initial.rebalance.delay.ms";
    public static final String STREAMS_ASSIGNMENT_INTERVAL_MS = "streams.assignment.interval.ms";
    public static final String STREAMS_RACK_AWARE_ASSIGNMENT_TAGS = "streams.rack.aware.assignment.tags";
    public static final String STREAMS_TASK_OFFSET_INTERVAL_MS = "streams.task.offset.interval.ms";
    public static final String STREAMS_NUM_WARMUP_REPLICAS = "streams.num.warmup.replicas";
    public static final String STREAMS_ASSIGNOR_NAME = "streams.assignor.name";
    public static final String DLQ_TOPIC_NAME = "errors.deadletterqueue.topic.name";

    private static final Map<String, Key> KEYS = new LinkedHashMap<>();

    static {
        define(CONSUMER_SESSION_TIMEOUT_MS, INT, "45000", atLeast(1), false, "group.consumer.session.timeout.ms",
                "The timeout to detect client failures when using the consumer group protocol.");
        define(CONSUMER_HEARTBEAT_INTERVAL_MS, INT, "5000", atLeast(1), false, "group.consumer.heartbeat.interval.ms",
                "The heartbeat interval given to the members of a consumer group.");
        define(CONSUMER_ASSIGNMENT_INTERVAL_MS, INT, "1000", atLeast(0), false, "group.consumer.assignment.interval.ms",
                "The interval between assignment updates for a consumer group.");
        define("consumer.assignor.offload.enable", BOOLEAN, "true", ANY, true, "group.consumer.assignor.offload.enable",
                "Whether to offload consumer group assignment to a group coordinator background thread.");
        define(SHARE_SESSION_TIMEOUT_MS, INT, "45000", atLeast(1), false, "group.share.session.timeout.ms",
                "The timeout to detect client failures when using the share group protocol.");
        define(SHARE_HEARTBEAT_INTERVAL_MS, INT, "5000", atLeast(1), false, "group.share.heartbeat.interval.ms",
                "The heartbeat interval given to the members of a share group.");
        define(SHARE_RECORD_LOCK_DURATION_MS, INT, "30000", atLeast(1000), false, "group.share.record.lock.duration.ms",
                "The record acquisition lock duration in milliseconds for share groups.");
        define(SHARE_DELIVERY_COUNT_LIMIT, INT, "5", atLeast(2), false, "group.share.delivery.count.limit",
                "The maximum number of delivery attempts for a record delivered to a share group.");
        define(SHARE_PARTITION_MAX_RECORD_LOCKS, INT, "2000", atLeast(100), false,
                "group.share.partition.max.record.locks", "Share-group record lock limit per share-partition.");
        define(SHARE_AUTO_OFFSET_RESET, STRING, "latest", GroupConfigDef::autoOffsetResetProblem, false, null,
                "The strategy to initialize the share-partition start offset: earliest, latest or"
                        + " by_duration:<duration> (ISO-8601, not negative).");
        define(SHARE_ISOLATION_LEVEL, STRING, "read_uncommitted", oneOf("read_committed", "read_uncommitted"), false,
                null, "Controls how to read records written transactionally (read_committed or read_uncommitted).");
        define(SHARE_RENEW_ACKNOWLEDGE_ENABLE, BOOLEAN, "true", ANY, false, null,
                "Whether the renew acknowledge type is enabled for the share group.");
        define(SHARE_ASSIGNMENT_INTERVAL_MS, INT, "1000", atLeast(0), false, "group.share.assignment.interval.ms",
                "The interval between assignment updates for a share group.");
        define("share.assignor.offload.enable", BOOLEAN, "true", ANY, true, "group.share.assignor.offload.enable",
                "Whether to offload share group assignment to a group coordinator background thread.");
        define(STREAMS_SESSION_TIMEOUT_MS, INT, "45000", atLeast(1), false, "group.streams.session.timeout.ms",
                "The timeout to detect client failures when using the streams group protocol.");
        define(STREAMS_HEARTBEAT_INTERVAL_MS, INT, "5000", atLeast(1), false, "group.streams.heartbeat.interval.ms",
                "The heartbeat interval given to the members.");
        define(STREAMS_NUM_STANDBY_REPLICAS, INT, "0", atLeast(0), false, "group.streams.num.standby.replicas",
                "The number of standby replicas for each task.");
        define(STREAMS_INITIAL_REBALANCE_DELAY_MS, INT, "3000", atLeast(0), false,
                "group.streams.initial.rebalance.delay.ms", "The amount of time the group coordinator will wait for"
                        + " more streams clients to join a new group before performing the first rebalance.");
        define(STREAMS_ASSIGNMENT_INTERVAL_MS, INT, "1000", atLeast(0), false, "group.streams.assignment.interval.ms",
                "The interval between assignment updates for a streams group.");
        define("streams.assignor.offload.enable", BOOLEAN, "true", ANY, true, "group.streams.assignor.offload.enable",
                "Whether to offload streams group assignment to a group coordinator background thread.");
        define(STREAMS_TASK_OFFSET_INTERVAL_MS, INT, "60000", atLeast(1), true, "group.streams.task.offset.interval.ms",
                "The interval in which the warmup task changelog offsets on a client are updated on the broker.");
        define(STREAMS_NUM_WARMUP_REPLICAS, INT, "2", atLeast(0), true, "group.streams.num.warmup.replicas",
                "The maximum number of warmup task replicas.");
        define(STREAMS_RACK_AWARE_ASSIGNMENT_TAGS, LIST, "", ANY, false, "group.streams.rack.aware.assignment.tags",
                "List of client tag keys used to distribute standby replicas across Kafka Streams instances.");
        define("streams.acceptable.recovery.lag", LONG, "10000", atLeast(0), true,
                "group.streams.acceptable.recovery.lag", "The maximum acceptable lag (number of offsets to catch up)"
                        + " for a client to be considered caught-up enough to receive an active task assignment.");
        define(STREAMS_ASSIGNOR_NAME, STRING, null, ANY, false, "group.streams.assignors",
                "The task assignor to use for this streams group, by short name from the broker's"
                        + " group.streams.assignors; unset: the first of them.");
        define(DLQ_TOPIC_NAME, STRING, "", ANY, false, null,
                "The name of the topic to be used as the dead-letter queue (DLQ) topic for this share group."
                        + " If blank (the default), the group does not have a DLQ topic.");
        define("errors.deadletterqueue.copy.record.enable", BOOLEAN, "false", ANY, false, null,
                "When writing onto the dead-letter queue topic, whether to copy the original record onto the DLQ"
                        + " topic, or just write a record containing the context information headers.");
    }

    private GroupConfigDef() {
    }

    private static void define(String name, ConfigType type, String def, Validator validator, boolean internal,
            String brokerSynonym, String doc) {
        ConfigKey key = new ConfigKey(name, type, def, validator, doc);
        key.parse(def);
        KEYS.put(name, new Key(key, internal, brokerSynonym));
    }

    /** Every group config key, in Kafka's definition order. */
    public static Map<String, Key> keys() {
        return Collections.unmodifiableMap(KEYS);
    }

    /** The key named so, or null for a name Kafka's GroupConfig does not define. */
    public static Key key(String name) {
        return KEYS.get(name);
    }

    /** ShareGroupAutoOffsetResetStrategy.Validator: earliest, latest or by_duration:&lt;non-negative ISO-8601&gt;. */
    private static String autoOffsetResetProblem(Object value) {
        String v = (String) value;
        boolean ok = v.equals("earliest") || v.equals("latest");
        if (!ok && v.startsWith("by_duration:")) {
            try {
                ok = !Duration.parse(v.substring("by_duration:".length())).isNegative();
            } catch (DateTimeParseException e) {
                ok = false;
            }
        }
        return ok ? null : "Invalid value `" + v + "` for configuration " + SHARE_AUTO_OFFSET_RESET
                + ". The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.";
    }

    /**
     * Kafka's GroupConfig.validate on a group's whole new set against the broker config in force; throws a
     * {@link MetadataException} (INVALID_CONFIG) with Kafka's message for the first problem.
     */
    public static void validate(Map<String, String> configs, BrokerConfig broker) {
        for (String name : configs.keySet()) {
            if (!KEYS.containsKey(name)) {
                throw invalid("Unknown group config name: " + name);
            }
        }
        String tags = configs.get(STREAMS_RACK_AWARE_ASSIGNMENT_TAGS);
        if (tags != null) {
            String trimmed = tags.trim();
            List<String> raw = trimmed.isEmpty() ? List.of() : Arrays.asList(trimmed.split("\\s*,\\s*", -1));
            if (new HashSet<>(raw).size() != raw.size()) {
                throw invalid(STREAMS_RACK_AWARE_ASSIGNMENT_TAGS + " must not contain duplicate tag keys.");
            }
        }
        Map<String, Object> parsed = new LinkedHashMap<>();
        for (Key k : KEYS.values()) {
            String raw = configs.get(k.name());
            if (raw != null) {
                try {
                    parsed.put(k.name(), k.key().parse(raw));
                } catch (ConfigException e) {
                    throw invalid(e.getMessage());
                }
            }
        }
        Bounds b = new Bounds(broker);
        range(parsed, CONSUMER_HEARTBEAT_INTERVAL_MS, b.i("group.consumer.min.heartbeat.interval.ms"),
                b.i("group.consumer.max.heartbeat.interval.ms"));
        range(parsed, CONSUMER_SESSION_TIMEOUT_MS, b.i("group.consumer.min.session.timeout.ms"),
                b.i("group.consumer.max.session.timeout.ms"));
        range(parsed, CONSUMER_ASSIGNMENT_INTERVAL_MS, b.i("group.consumer.min.assignment.interval.ms"),
                b.i("group.consumer.max.assignment.interval.ms"));
        range(parsed, SHARE_HEARTBEAT_INTERVAL_MS, b.i("group.share.min.heartbeat.interval.ms"),
                b.i("group.share.max.heartbeat.interval.ms"));
        range(parsed, SHARE_SESSION_TIMEOUT_MS, b.i("group.share.min.session.timeout.ms"),
                b.i("group.share.max.session.timeout.ms"));
        range(parsed, SHARE_RECORD_LOCK_DURATION_MS, b.i("group.share.min.record.lock.duration.ms"),
                b.i("group.share.max.record.lock.duration.ms"));
        range(parsed, SHARE_DELIVERY_COUNT_LIMIT, b.i("group.share.min.delivery.count.limit"),
                b.i("group.share.max.delivery.count.limit"));
        range(parsed, SHARE_PARTITION_MAX_RECORD_LOCKS, b.i("group.share.min.partition.max.record.locks"),
                b.i("group.share.max.partition.max.record.locks"));
        range(parsed, SHARE_ASSIGNMENT_INTERVAL_MS, b.i("group.share.min.assignment.interval.ms"),
                b.i("group.share.max.assignment.interval.ms"));
        range(parsed, STREAMS_HEARTBEAT_INTERVAL_MS, b.i("group.streams.min.heartbeat.interval.ms"),
                b.i("group.streams.max.heartbeat.interval.ms"));
        range(parsed, STREAMS_SESSION_TIMEOUT_MS, b.i("group.streams.min.session.timeout.ms"),
                b.i("group.streams.max.session.timeout.ms"));
        atMost(parsed, STREAMS_NUM_STANDBY_REPLICAS, b.i("group.streams.max.standby.replicas"));
        range(parsed, STREAMS_ASSIGNMENT_INTERVAL_MS, b.i("group.streams.min.assignment.interval.ms"),
                b.i("group.streams.max.assignment.interval.ms"));
        if (parsed.containsKey(STREAMS_TASK_OFFSET_INTERVAL_MS)
                && (Integer) parsed.get(STREAMS_TASK_OFFSET_INTERVAL_MS) < b.i("group.streams.min.task.offset.interval.ms")) {
            throw invalid(STREAMS_TASK_OFFSET_INTERVAL_MS + " must be greater than or equal to "
                    + b.i("group.streams.min.task.offset.interval.ms"));
        }
        atMost(parsed, STREAMS_NUM_WARMUP_REPLICAS, b.i("group.streams.max.warmup.replicas"));
        if (parsed.containsKey(STREAMS_ASSIGNOR_NAME)) {
            List<String> registered = streamsAssignors(broker);
            if (!registered.contains((String) parsed.get(STREAMS_ASSIGNOR_NAME))) {
                throw invalid(STREAMS_ASSIGNOR_NAME + " '" + parsed.get(STREAMS_ASSIGNOR_NAME)
                        + "' is not a registered task assignor. Registered assignors are: " + registered + ".");
            }
        }
        sessionAboveHeartbeat(parsed, CONSUMER_SESSION_TIMEOUT_MS, b.i("group.consumer.session.timeout.ms"),
                CONSUMER_HEARTBEAT_INTERVAL_MS, b.i("group.consumer.heartbeat.interval.ms"));
        sessionAboveHeartbeat(parsed, SHARE_SESSION_TIMEOUT_MS, b.i("group.share.session.timeout.ms"),
                SHARE_HEARTBEAT_INTERVAL_MS, b.i("group.share.heartbeat.interval.ms"));
        sessionAboveHeartbeat(parsed, STREAMS_SESSION_TIMEOUT_MS, b.i("group.streams.session.timeout.ms"),
                STREAMS_HEARTBEAT_INTERVAL_MS, b.i("group.streams.heartbeat.interval.ms"));
        Object dlq = parsed.get(DLQ_TOPIC_NAME);
        if (dlq != null && ((String) dlq).startsWith("__")) {
            throw invalid(DLQ_TOPIC_NAME + ": DLQ topic name must not start with '__'");
        }
    }

    /** The broker's group.streams.assignors (names of the streams task assignors; the first is the default). */
    static List<String> streamsAssignors(BrokerConfig broker) {
        String raw = broker.get("group.streams.assignors");
        @SuppressWarnings("unchecked")
        List<String> names = raw == null ? List.of("sticky") : (List<String>) LIST.parse("group.streams.assignors", raw);
        return names;
    }

    /** The broker's int-valued group.* keys, by name. */
    record Bounds(BrokerConfig broker) {
        int i(String key) {
            return Integer.parseInt(broker.get(key).trim());
        }
    }

    private static void range(Map<String, Object> parsed, String key, int min, int max) {
        Object v = parsed.get(key);
        if (v != null && ((Integer) v < min || (Integer) v > max)) {
            throw invalid(key + " must be in the range " + min + " to " + max + " inclusive.");
        }
    }

    private static void atMost(Map<String, Object> parsed, String key, int max) {
        Object v = parsed.get(key);
        if (v != null && (Integer) v > max) {
            throw invalid(key + " must be less than or equal to " + max);
        }
    }

    private static void sessionAboveHeartbeat(Map<String, Object> parsed, String sessionKey, int brokerSession,
            String heartbeatKey, int brokerHeartbeat) {
        if (parsed.containsKey(sessionKey) || parsed.containsKey(heartbeatKey)) {
            int session = parsed.containsKey(sessionKey) ? (Integer) parsed.get(sessionKey) : brokerSession;
            int heartbeat = parsed.containsKey(heartbeatKey) ? (Integer) parsed.get(heartbeatKey) : brokerHeartbeat;
            if (session <= heartbeat) {
                throw invalid(sessionKey + " must be greater than " + heartbeatKey);
            }
        }
    }

    private static MetadataException invalid(String message) {
        return new MetadataException(ErrorCode.INVALID_CONFIG, message);
    }

    /** The names Kafka lists with the group config keys (every key, internal ones included). */
    public static Set<String> names() {
        return Collections.unmodifiableSet(KEYS.keySet());
    }
}
