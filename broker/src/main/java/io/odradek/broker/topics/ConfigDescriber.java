package io.odradek.broker.topics;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.config.BrokerConfigDef;
import io.odradek.broker.config.ConfigKey;
import io.odradek.broker.config.ConfigType;
import io.odradek.broker.config.DynamicBrokerConfig;
import io.odradek.broker.group.GroupConfigDef;
import io.odradek.log.LogConfig;
import io.odradek.replication.config.InMemoryDynamicConfigStore;
import io.odradek.replication.metadata.TopicInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Topic and broker configs as DescribeConfigs and CreateTopics report them: value, source, synonyms and type,
 * following Kafka 4.4's ConfigHelper exactly:
 * <ul>
 * <li>A broker key's synonyms are its own name and its alternative names (log.retention.ms, .minutes, .hours;
 *     log.roll.ms, .hours; log.flush.interval.ms, log.flush.scheduler.interval.ms), listed source by source in
 *     precedence order: DYNAMIC_BROKER_CONFIG (2), DYNAMIC_DEFAULT_BROKER_CONFIG (3), STATIC_BROKER_CONFIG (4),
 *     DEFAULT_CONFIG (5), each source's names in that order; entries before the first one with the described name
 *     itself are dropped (so a static log.retention.hours is not a synonym of log.retention.ms). The source is the
 *     first synonym's, DEFAULT_CONFIG when there is none.</li>
 * <li>A topic key's synonyms are its topic override (TOPIC_CONFIG, 1) if any, then its broker key's synonyms as
 *     above.</li>
 * <li>Broker entries are read-only unless Kafka 4.4 can change the key dynamically; a key without a value (e.g.
 *     log.retention.ms when only the hours are set) is reported with a null value, as Kafka does. Sensitive keys
 *     (Kafka's PASSWORD keys, also behind a listener prefix, and keys neither Kafka nor Odradek defines, whose
 *     values may be a plugin's secrets) are reported with a null value and is_sensitive, synonyms included.</li>
 * </ul>
 */
public final class ConfigDescriber {
    /** Config sources, by Kafka's ids (DescribeConfigsResponse.ConfigSource). */
    public static final byte TOPIC_CONFIG = 1;
    public static final byte DYNAMIC_BROKER_CONFIG = 2;
    public static final byte DYNAMIC_DEFAULT_BROKER_CONFIG = 3;
    public static final byte STATIC_BROKER_CONFIG = 4;
    public static final byte DEFAULT_CONFIG = 5;
    /** Issue 12: a group's dynamic config (Admin's DYNAMIC_GROUP_CONFIG). */
    public static final byte GROUP_CONFIG = 8;

    /** Config types, by Kafka's ids (DescribeConfigsResponse.ConfigType). */
    public static final byte TYPE_UNKNOWN = 0;
    public static final byte TYPE_BOOLEAN = 1;
    public static final byte TYPE_STRING = 2;
    public static final byte TYPE_INT = 3;
    public static final byte TYPE_SHORT = 4;
    public static final byte TYPE_LONG = 5;
    public static final byte TYPE_DOUBLE = 6;
    public static final byte TYPE_LIST = 7;

    public record Synonym(String name, String value, byte source) {
    }

    public record Entry(String name, String value, byte source, boolean readOnly, boolean sensitive, byte type,
                        String documentation, List<Synonym> synonyms) {
    }

    private final DynamicBrokerConfig broker;

    public ConfigDescriber(DynamicBrokerConfig broker) {
        this.broker = broker;
    }

    /** A broker without dynamic configs (its static config only). */
    public ConfigDescriber(BrokerConfig broker) {
        this(new DynamicBrokerConfig(broker, new InMemoryDynamicConfigStore()));
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
            String brokerKey = LogConfig.brokerSynonym(key);
            if (brokerKey != null) {
                synonyms.addAll(brokerSynonyms(brokerKey, false));
            }
            byte source = synonyms.isEmpty() ? DEFAULT_CONFIG : synonyms.get(0).source();
            entries.add(new Entry(key, value, source, false, false, topicType(key), null, synonyms));
        }
        return entries;
    }

    /** Every config of this broker (entity = its node id) with the value in force, sorted by name. */
    public List<Entry> describeBroker() {
        Map<String, String> merged = broker.current().originals();
        Map<String, String> values = new TreeMap<>();
        BrokerConfigDef.keys().forEach((key, def) -> values.put(key, merged.getOrDefault(key, def.defaultValue())));
        merged.forEach(values::putIfAbsent);
        List<Entry> entries = new ArrayList<>();
        values.forEach((key, value) -> entries.add(brokerEntry(key, value, false)));
        return entries;
    }

    /** The cluster-wide dynamic defaults (entity ""), with only that source among the synonyms, sorted by name. */
    public List<Entry> describeClusterDefault() {
        List<Entry> entries = new ArrayList<>();
        new TreeMap<>(broker.clusterDefault()).forEach((key, value) -> entries.add(brokerEntry(key, value, true)));
        return entries;
    }

    /**
     * Issue 12: every group config of a group as Kafka 4.4's ConfigHelper.createGroupConfigEntry gives it (GROUP
     * resources): each non-internal key of Kafka's GroupConfig, and an internal one only when the group or the
     * broker sets it; the value is the group's (source GROUP_CONFIG, 8), else the broker synonym's value in force
     * (group.share.record.lock.duration.ms for share.record.lock.duration.ms, with that key's synonyms and
     * source), else GroupConfig's default (DEFAULT_CONFIG); streams.assignor.name defaults to the first of
     * group.streams.assignors. Never read-only; sorted by name.
     */
    public List<Entry> describeGroup(String groupId) {
        return describeGroupConfigs(broker.store().groupConfigs(groupId));
    }

    /** As {@link #describeGroup} for a group whose stored configs are {@code groupConfigs}. */
    public List<Entry> describeGroupConfigs(Map<String, String> groupConfigs) {
        Map<String, String> brokerOriginals = broker.current().originals();
        List<Entry> entries = new ArrayList<>();
        for (GroupConfigDef.Key k : new TreeMap<>(GroupConfigDef.keys()).values()) {
            String name = k.name();
            String synonym = k.brokerSynonym();
            if (k.internal() && !groupConfigs.containsKey(name)
                    && (synonym == null || !brokerOriginals.containsKey(synonym))) {
                continue;
            }
            List<Synonym> synonyms = new ArrayList<>();
            if (groupConfigs.containsKey(name)) {
                synonyms.add(new Synonym(name, canonical(k, groupConfigs.get(name)), GROUP_CONFIG));
            }
            String value;
            if (synonym != null) {
                synonyms.addAll(brokerSynonyms(synonym, false));
                value = broker.current().get(synonym);
                if (name.equals(GroupConfigDef.STREAMS_ASSIGNOR_NAME) && value != null) {
                    List<String> assignors = List.of(value.split(","));
                    value = assignors.get(0).trim();
                }
            } else {
                value = k.key().defaultValue();
                if (value != null) {
                    synonyms.add(new Synonym(name, value, DEFAULT_CONFIG));
                }
            }
            if (groupConfigs.containsKey(name)) {
                value = synonyms.get(0).value();
            }
            byte source = synonyms.isEmpty() ? DEFAULT_CONFIG : synonyms.get(0).source();
            entries.add(new Entry(name, value, source, false, false, typeId(k.key()), k.key().doc(), synonyms));
        }
        return entries;
    }

    /** A stored group value as Kafka prints it back (ConfigDef.convertToString of the parsed value). */
    private static String canonical(GroupConfigDef.Key k, String raw) {
        try {
            return ConfigType.format(k.key().parse(raw));
        } catch (RuntimeException e) {
            return raw;
        }
    }

    private Entry brokerEntry(String key, String value, boolean clusterDefaultOnly) {
        boolean sensitive = isSensitive(key);
        List<Synonym> synonyms = new ArrayList<>(brokerSynonyms(key, sensitive));
        if (clusterDefaultOnly) {
            synonyms.removeIf(s -> s.source() != DYNAMIC_DEFAULT_BROKER_CONFIG);
        }
        byte source = synonyms.isEmpty() ? DEFAULT_CONFIG : synonyms.get(0).source();
        ConfigKey def = BrokerConfigDef.key(key);
        byte type = key.equals("log.cleaner.min.cleanable.ratio") ? TYPE_DOUBLE : def == null ? TYPE_UNKNOWN : typeId(def);
        return new Entry(key, sensitive ? null : value, source, !DynamicBrokerConfig.DYNAMIC_KEYS.contains(key),
                sensitive, type, def == null ? null : def.doc(), synonyms);
    }

    /** Kafka's ConfigHelper.configSynonyms for broker key {@code name}. */
    private List<Synonym> brokerSynonyms(String name, boolean sensitive) {
        List<String> names = DynamicBrokerConfig.synonyms(name);
        List<Synonym> all = new ArrayList<>();
        addFrom(all, broker.perBroker(), names, DYNAMIC_BROKER_CONFIG, sensitive);
        addFrom(all, broker.clusterDefault(), names, DYNAMIC_DEFAULT_BROKER_CONFIG, sensitive);
        addFrom(all, broker.staticConfig().originals(), names, STATIC_BROKER_CONFIG, sensitive);
        for (String n : names) {
            ConfigKey def = BrokerConfigDef.key(n);
            if (def != null && def.defaultValue() != null) {
                all.add(new Synonym(n, sensitive ? null : def.defaultValue(), DEFAULT_CONFIG));
            }
        }
        int first = 0;
        while (first < all.size() && !all.get(first).name().equals(name)) {
            first++;
        }
        return List.copyOf(all.subList(first, all.size()));
    }

    private static void addFrom(List<Synonym> into, Map<String, String> layer, List<String> names, byte source,
            boolean sensitive) {
        for (String n : names) {
            String v = layer.get(n);
            if (v != null) {
                into.add(new Synonym(n, sensitive ? null : v, source));
            }
        }
    }

    private static byte topicType(String key) {
        if (key.equals(LogConfig.MIN_CLEANABLE_DIRTY_RATIO)) {
            return TYPE_DOUBLE;
        }
        ConfigKey def = TopicConfigDef.key(key);
        return def == null ? TYPE_UNKNOWN : typeId(def);
    }

    /** Kafka's maybeSensitive: PASSWORD keys and keys nobody defines; their values are never shown. */
    static boolean isSensitive(String key) {
        return BrokerConfigDef.isSensitive(key);
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
