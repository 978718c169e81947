package io.odradek.broker.topics;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.config.BrokerConfigDef;
import io.odradek.broker.config.ConfigKey;
import io.odradek.log.LogConfig;
import io.odradek.replication.metadata.TopicInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Topic and broker configs as DescribeConfigs and CreateTopics report them: effective value, where it
 * comes from, synonyms and type, following Kafka's ConfigHelper. A topic key's synonyms are, in order of
 * precedence, its topic override (TOPIC_CONFIG), the broker keys that set its default when they were
 * given (STATIC_BROKER_CONFIG), and Kafka's built-in default (DEFAULT_CONFIG); the first one is the source.
 */
public final class ConfigDescriber {
    /** Config sources, by Kafka's ids (DescribeConfigsResponse.ConfigSource). */
    public static final byte TOPIC_CONFIG = 1;
    public static final byte STATIC_BROKER_CONFIG = 4;
    public static final byte DEFAULT_CONFIG = 5;

    /** Config types, by Kafka's ids (DescribeConfigsResponse.ConfigType). */
    public static final byte TYPE_UNKNOWN = 0;
    public static final byte TYPE_BOOLEAN = 1;
    public static final byte TYPE_STRING = 2;
    public static final byte TYPE_INT = 3;
    public static final byte TYPE_SHORT = 4;
    public static final byte TYPE_LONG = 5;
    public static final byte TYPE_LIST = 7;

    public record Synonym(String name, String value, byte source) {
    }

    public record Entry(String name, String value, byte source, boolean readOnly, boolean sensitive, byte type,
                        String documentation, List<Synonym> synonyms) {
    }

    private static final Map<String, Byte> TOPIC_TYPES = Map.ofEntries(
            Map.entry(LogConfig.SEGMENT_BYTES, TYPE_INT),
            Map.entry(LogConfig.SEGMENT_MS, TYPE_LONG),
            Map.entry(LogConfig.RETENTION_MS, TYPE_LONG),
            Map.entry(LogConfig.RETENTION_BYTES, TYPE_LONG),
            Map.entry(LogConfig.INDEX_INTERVAL_BYTES, TYPE_INT),
            Map.entry(LogConfig.SEGMENT_INDEX_BYTES, TYPE_INT),
            Map.entry(LogConfig.FLUSH_MESSAGES, TYPE_LONG),
            Map.entry(LogConfig.FLUSH_MS, TYPE_LONG),
            Map.entry(LogConfig.MAX_MESSAGE_BYTES, TYPE_INT),
            Map.entry(LogConfig.FILE_DELETE_DELAY_MS, TYPE_LONG),
            Map.entry(LogConfig.MESSAGE_TIMESTAMP_TYPE, TYPE_STRING),
            Map.entry(LogConfig.CLEANUP_POLICY, TYPE_LIST),
            Map.entry(LogConfig.COMPRESSION_TYPE, TYPE_STRING),
            Map.entry(LogConfig.MIN_INSYNC_REPLICAS, TYPE_INT));

    /** Topic keys whose default comes from several broker keys, most specific first (Kafka's synonym lists). */
    private static final Map<String, List<String>> MULTI_SYNONYMS = Map.of(
            LogConfig.RETENTION_MS, List.of("log.retention.ms", "log.retention.minutes", "log.retention.hours"),
            LogConfig.SEGMENT_MS, List.of("log.roll.ms", "log.roll.hours"));

    private final BrokerConfig broker;

    public ConfigDescriber(BrokerConfig broker) {
        this.broker = broker;
    }

    /** Every topic-level config of {@code topic} with its effective value, sorted by name. */
    public List<Entry> describeTopic(TopicInfo topic, LogConfig effective) {
        List<Entry> entries = new ArrayList<>();
        for (String key : new TreeMap<>(effective.values()).keySet()) {
            String value = effective.get(key);
            List<Synonym> synonyms = new ArrayList<>();
            if (topic.configs().containsKey(key)) {
                synonyms.add(new Synonym(key, value, TOPIC_CONFIG));
            }
            List<String> brokerKeys = brokerSynonyms(key);
            for (String brokerKey : brokerKeys) {
                if (!broker.isDefault(brokerKey) && broker.get(brokerKey) != null) {
                    synonyms.add(new Synonym(brokerKey, broker.get(brokerKey), STATIC_BROKER_CONFIG));
                }
            }
            for (String brokerKey : brokerKeys) {
                ConfigKey def = BrokerConfigDef.key(brokerKey);
                if (def != null && def.defaultValue() != null) {
                    synonyms.add(new Synonym(brokerKey, def.defaultValue(), DEFAULT_CONFIG));
                    break;
                }
            }
            byte source = synonyms.isEmpty() ? DEFAULT_CONFIG : synonyms.get(0).source();
            entries.add(new Entry(key, value, source, false, false, TOPIC_TYPES.getOrDefault(key, TYPE_UNKNOWN),
                    null, synonyms));
        }
        return entries;
    }

    /**
     * Every broker config with its effective value, sorted by name. They are read-only: this broker has no
     * dynamic configs, so AlterConfigs cannot change them. Secrets are reported without a value.
     */
    public List<Entry> describeBroker() {
        List<Entry> entries = new ArrayList<>();
        new TreeMap<>(broker.effectiveConfigs()).forEach((key, value) -> {
            boolean sensitive = isSensitive(key);
            String shown = sensitive ? null : value;
            byte source = broker.isDefault(key) ? DEFAULT_CONFIG : STATIC_BROKER_CONFIG;
            ConfigKey def = BrokerConfigDef.key(key);
            entries.add(new Entry(key, shown, source, true, sensitive, def == null ? TYPE_UNKNOWN : typeId(def),
                    def == null ? null : def.doc(), List.of(new Synonym(key, shown, source))));
        });
        return entries;
    }

    private static List<String> brokerSynonyms(String topicKey) {
        List<String> multi = MULTI_SYNONYMS.get(topicKey);
        if (multi != null) {
            return multi;
        }
        String single = LogConfig.brokerSynonym(topicKey);
        return single == null ? List.of() : List.of(single);
    }

    private static boolean isSensitive(String key) {
        return key.contains("password") || key.endsWith("jaas.config") || key.endsWith("secret");
    }

    private static byte typeId(ConfigKey key) {
        return switch (key.type()) {
            case BOOLEAN -> TYPE_BOOLEAN;
            case SHORT -> TYPE_SHORT;
            case INT -> TYPE_INT;
            case LONG -> TYPE_LONG;
            case STRING -> TYPE_STRING;
            case LIST -> TYPE_LIST;
        };
    }
}
