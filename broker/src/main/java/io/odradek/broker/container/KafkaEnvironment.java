package io.odradek.broker.container;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The apache/kafka container image's environment conventions, as its scripts apply them (docker/resources in
 * Kafka's source: configureDefaults, kafka-propertiesSpec.json and the render-properties utility):
 * <ul>
 * <li>every {@code KAFKA_<NAME>} variable is the broker key {@code <name>} lower-cased, where '_' stands for '.',
 * '__' for '_' and '___' for '-' ({@code KAFKA_ADVERTISED_LISTENERS} is {@code advertised.listeners}); the
 * variables that configure the JVM or log4j ({@link #EXCLUDED}) are not keys;</li>
 * <li>{@code CLUSTER_ID} is the id the log dirs are formatted with when none is formatted yet;</li>
 * <li>each of {@link #DEFAULTS} that is not set, or set empty, takes its default: a single combined
 * broker-and-controller node, as apache/kafka starts.</li>
 * </ul>
 * Differences, on purpose: the default {@code log.dirs} is the image's volume {@code /var/lib/kafka/data}
 * (apache/kafka: /tmp/kraft-combined-logs, outside its own volume); a value containing '=' is kept (Kafka's
 * utility drops such variables); the key conversion is the documented rule for every key (Kafka's regex misses a
 * one-letter word after another, KAFKA_A_B_C; no broker key has one).
 */
public final class KafkaEnvironment {
    /** The variables apache/kafka's image reads for the JVM, log4j or its own version, never as broker keys. */
    public static final Set<String> EXCLUDED = Set.of("KAFKA_VERSION", "KAFKA_HEAP_OPTS", "KAFKA_LOG4J_OPTS",
            "KAFKA_OPTS", "KAFKA_JMX_OPTS", "KAFKA_JVM_PERFORMANCE_OPTS", "KAFKA_GC_LOG_OPTS",
            "KAFKA_LOG4J_ROOT_LOGLEVEL", "KAFKA_LOG4J_LOGGERS", "KAFKA_TOOLS_LOG4J_LOGLEVEL", "KAFKA_JMX_PORT",
            "KAFKA_JMX_HOSTNAME");

    /** Where the image keeps its data: a volume, and the default log.dirs. */
    public static final String DATA_DIR = "/var/lib/kafka/data";

    /** apache/kafka's configureDefaults (log dirs: ours), applied to each variable left unset. */
    public static final Map<String, String> DEFAULTS = defaults();

    private static final String PREFIX = "KAFKA_";

    private KafkaEnvironment() {
    }

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("CLUSTER_ID", "5L6g3nShT-eMCtK--X86sw");
        d.put("KAFKA_NODE_ID", "1");
        d.put("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,PLAINTEXT_HOST:PLAINTEXT");
        d.put("KAFKA_LISTENERS", "PLAINTEXT://localhost:29092,CONTROLLER://localhost:29093,PLAINTEXT_HOST://0.0.0.0:9092");
        d.put("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://localhost:29092,PLAINTEXT_HOST://localhost:9092");
        d.put("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1");
        d.put("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        d.put("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1");
        d.put("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1");
        d.put("KAFKA_PROCESS_ROLES", "broker,controller");
        d.put("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@localhost:29093");
        d.put("KAFKA_INTER_BROKER_LISTENER_NAME", "PLAINTEXT");
        d.put("KAFKA_CONTROLLER_LISTENER_NAMES", "CONTROLLER");
        d.put("KAFKA_LOG_DIRS", DATA_DIR);
        return Collections.unmodifiableMap(d);
    }

    /** {@code env} with {@link #DEFAULTS} filled in where a variable is unset or empty. */
    public static Map<String, String> withDefaults(Map<String, String> env) {
        Map<String, String> all = new TreeMap<>(env);
        DEFAULTS.forEach((name, value) -> {
            String set = all.get(name);
            if (set == null || set.isEmpty()) {
                all.put(name, value);
            }
        });
        return all;
    }

    /** The broker keys the {@code KAFKA_*} variables of {@code env} set (no defaults added), sorted by key. */
    public static Map<String, String> configs(Map<String, String> env) {
        Map<String, String> configs = new TreeMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith(PREFIX) && name.length() > PREFIX.length() && !EXCLUDED.contains(name)) {
                configs.put(configKey(name.substring(PREFIX.length())), value);
            }
        });
        return configs;
    }

    /** The cluster id of {@code env} with defaults applied. */
    public static String clusterId(Map<String, String> env) {
        return withDefaults(env).get("CLUSTER_ID");
    }

    /**
     * A variable name (without KAFKA_) as a config key: '___' is '-', '__' is '_', '_' is '.', lower-cased
     * ({@code LOG_RETENTION_MS} is {@code log.retention.ms}, {@code LISTENER_NAME_BROKER___1_SSL_KEY} is
     * {@code listener.name.broker-1.ssl.key}).
     */
    public static String configKey(String name) {
        StringBuilder key = new StringBuilder(name.length());
        int i = 0;
        while (i < name.length()) {
            char c = name.charAt(i);
            if (c != '_') {
                key.append(Character.toLowerCase(c));
                i++;
                continue;
            }
            int run = 0;
            while (i + run < name.length() && name.charAt(i + run) == '_') {
                run++;
            }
            // Runs longer than three are undefined in Kafka: read them as threes, then the rest.
            for (int left = run; left > 0; left -= Math.min(left, 3)) {
                key.append(switch (Math.min(left, 3)) {
                    case 1 -> '.';
                    case 2 -> '_';
                    default -> '-';
                });
            }
            i += run;
        }
        return key.toString();
    }
}
