package io.odradek.broker.config;

import io.odradek.broker.BrokerConfig;
import io.odradek.replication.config.DynamicConfigStore;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The broker config with its dynamic layers (Kafka's DynamicBrokerConfig, KIP-226): in order of precedence the
 * per-broker dynamic configs (entity = this node id), the cluster-wide dynamic defaults (entity ""), the static
 * config (server.properties and overrides), the built-in defaults. A dynamic key replaces its synonyms from lower
 * layers (log.retention.ms set dynamically removes a static log.retention.hours), as Kafka's overrideProps does.
 *
 * <p>{@link #current()} is the merged config; on every change of the store it is rebuilt and the listeners get it
 * (the log defaults follow it, so topics without an override take the new value live). Which keys may change is
 * Kafka 4.4's list ({@link #DYNAMIC_KEYS}); Odradek applies the topic-default ones (log.retention.ms/bytes,
 * log.segment.bytes, log.roll.ms, message.max.bytes, log.cleanup.policy, log.cleaner.delete.retention.ms,
 * log.cleaner.min.cleanable.ratio, log.message.timestamp.*, compression.type, min.insync.replicas,
 * log.flush.*, log.index.*, log.segment.delete.delay.ms, max.decompressed.message.bytes) and the connection
 * limits (max.connections, max.connections.per.ip(.overrides): the listener's ConnectionQuotas follow), and the
 * listeners' TLS and SASL keys (Broker rebuilds a listener's TLS context and SASL settings for new connections,
 * and the inter-broker client's). The others on Kafka's list (thread pools including log.cleaner.threads, the
 * cleaner's I/O rate and backoff, max.connection.creation.rate, throttled rates, remote storage) are validated against Kafka's types
 * and stored as Kafka does, but not resized or acted on by this broker while it runs (the README says so).
 */
public final class DynamicBrokerConfig {
    private static final System.Logger LOG = System.getLogger(DynamicBrokerConfig.class.getName());

    /** Kafka 4.4's DynamicBrokerConfig.ALL_DYNAMIC_CONFIGS (read from its jar). */
    public static final Set<String> DYNAMIC_KEYS = Set.of("background.threads", "compression.gzip.level",
            "compression.lz4.level", "compression.type", "compression.zstd.level", "config.providers",
            "cordoned.log.dirs", "errors.deadletterqueue.auto.create.topics.enable",
            "errors.deadletterqueue.topic.name.prefix", "follower.fetch.last.tiered.offset.enable",
            "follower.replication.throttled.rate", "group.consumer.assignment.interval.ms",
            "group.consumer.assignor.offload.enable", "group.coordinator.cached.buffer.max.bytes",
            "group.share.assignment.interval.ms", "group.share.assignor.offload.enable",
            "group.streams.assignment.interval.ms", "group.streams.assignor.offload.enable",
            "leader.replication.throttled.rate", "listener.security.protocol.map", "listeners",
            "log.cleaner.backoff.ms", "log.cleaner.dedupe.buffer.size", "log.cleaner.delete.retention.ms",
            "log.cleaner.io.buffer.load.factor", "log.cleaner.io.buffer.size", "log.cleaner.io.max.bytes.per.second",
            "log.cleaner.max.compaction.lag.ms", "log.cleaner.min.cleanable.ratio", "log.cleaner.min.compaction.lag.ms",
            "log.cleaner.threads", "log.cleanup.policy", "log.flush.interval.messages", "log.flush.interval.ms",
            "log.index.interval.bytes", "log.index.size.max.bytes", "log.local.retention.bytes",
            "log.local.retention.ms", "log.message.timestamp.after.max.ms", "log.message.timestamp.before.max.ms",
            "log.message.timestamp.type", "log.preallocate", "log.remote.copy.lag.bytes", "log.remote.copy.lag.ms",
            "log.retention.bytes", "log.retention.ms", "log.roll.jitter.ms", "log.roll.ms", "log.segment.bytes",
            "log.segment.delete.delay.ms", "max.connection.creation.rate", "max.connections", "max.connections.per.ip",
            "max.connections.per.ip.overrides", "max.decompressed.message.bytes", "message.max.bytes",
            "metric.reporters", "min.insync.replicas", "num.io.threads", "num.network.threads",
            "num.recovery.threads.per.data.dir", "num.replica.fetchers", "principal.builder.class",
            "producer.id.expiration.ms", "remote.fetch.max.wait.ms", "remote.list.offsets.request.timeout.ms",
            "remote.log.index.file.cache.total.size.bytes", "remote.log.manager.copier.thread.pool.size",
            "remote.log.manager.copy.max.bytes.per.second", "remote.log.manager.expiration.thread.pool.size",
            "remote.log.manager.fetch.max.bytes.per.second", "remote.log.manager.follower.thread.pool.size",
            "remote.log.reader.threads", "replica.alter.log.dirs.io.max.bytes.per.second", "sasl.enabled.mechanisms",
            "sasl.jaas.config", "sasl.kerberos.kinit.cmd", "sasl.kerberos.min.time.before.relogin",
            "sasl.kerberos.principal.to.local.rules", "sasl.kerberos.service.name", "sasl.kerberos.ticket.renew.jitter",
            "sasl.kerberos.ticket.renew.window.factor", "sasl.login.refresh.buffer.seconds",
            "sasl.login.refresh.min.period.seconds", "sasl.login.refresh.window.factor",
            "sasl.login.refresh.window.jitter", "sasl.mechanism.inter.broker.protocol",
            "share.coordinator.cached.buffer.max.bytes", "ssl.cipher.suites", "ssl.client.auth",
            "ssl.enabled.protocols", "ssl.endpoint.identification.algorithm", "ssl.engine.factory.class",
            "ssl.key.password", "ssl.keymanager.algorithm", "ssl.keystore.certificate.chain", "ssl.keystore.key",
            "ssl.keystore.location", "ssl.keystore.password", "ssl.keystore.type", "ssl.protocol", "ssl.provider",
            "ssl.secure.random.implementation", "ssl.trustmanager.algorithm", "ssl.truststore.certificates",
            "ssl.truststore.location", "ssl.truststore.password", "ssl.truststore.type",
            "transaction.partition.verification.enable", "unclean.leader.election.enable");

    /** Kafka's cluster-level listener configs: dynamic keys that are not per-broker although listener ones are. */
    private static final Set<String> CLUSTER_LEVEL_LISTENER_KEYS = Set.of("max.connections",
            "max.connection.creation.rate", "num.network.threads");

    /** Kafka's DYNAMIC_SECURITY_CONFIGS (SslConfigs.RECONFIGURABLE_CONFIGS): only per listener, with its prefix. */
    private static final Set<String> SECURITY_KEYS = Set.of("ssl.keystore.type", "ssl.keystore.location",
            "ssl.keystore.password", "ssl.key.password", "ssl.truststore.type", "ssl.truststore.location",
            "ssl.truststore.password", "ssl.keystore.key", "ssl.keystore.certificate.chain",
            "ssl.truststore.certificates");

    /** Keys that must name a broker (Kafka's PER_BROKER_CONFIGS): security and listener keys. */
    private static boolean isPerBroker(String key) {
        if (key.startsWith("listener.name.")) {
            String base = key.substring(key.indexOf('.', "listener.name.".length()) + 1);
            return !CLUSTER_LEVEL_LISTENER_KEYS.contains(base);
        }
        return key.startsWith("ssl.") || key.startsWith("sasl.") || key.equals("listeners")
                || key.equals("listener.security.protocol.map") || key.equals("principal.builder.class")
                || key.equals("cordoned.log.dirs");
    }

    private final BrokerConfig staticConfig;
    private final DynamicConfigStore store;
    private final String nodeId;
    private final List<Consumer<BrokerConfig>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<BrokerConfig>> validators = new CopyOnWriteArrayList<>();
    private volatile BrokerConfig current;

    public DynamicBrokerConfig(BrokerConfig staticConfig, DynamicConfigStore store) {
        this.staticConfig = staticConfig;
        this.store = store;
        this.nodeId = Integer.toString(staticConfig.nodeId());
        this.current = mergeValid();
        store.addListener(this::reload);
    }

    /** The config in force: static, with the dynamic layers over it. */
    public BrokerConfig current() {
        return current;
    }

    /** The config the broker was started with (Kafka's STATIC_BROKER_CONFIG layer is its originals). */
    public BrokerConfig staticConfig() {
        return staticConfig;
    }

    public DynamicConfigStore store() {
        return store;
    }

    /** This broker's per-broker dynamic configs (DYNAMIC_BROKER_CONFIG). */
    public Map<String, String> perBroker() {
        return store.brokerConfigs(nodeId);
    }

    /** The cluster-wide dynamic defaults (DYNAMIC_DEFAULT_BROKER_CONFIG). */
    public Map<String, String> clusterDefault() {
        return store.brokerConfigs(DynamicConfigStore.DEFAULT_BROKER);
    }

    /** Runs {@code listener} with each new merged config, after {@link #current()} returns it. */
    public void addListener(Consumer<BrokerConfig> listener) {
        listeners.add(listener);
    }

    /**
     * Runs {@code validator} on the merged config an alteration would make, before it is stored (Kafka's
     * Reconfigurable.validateReconfiguration); a ConfigException from it refuses the alteration with INVALID_REQUEST
     * and its message. Runs on the thread that checks the request (not an event loop), so it may read files.
     */
    public void addValidator(Consumer<BrokerConfig> validator) {
        validators.add(validator);
    }

    /** Rebuilds the merged config from the store (stored keys that do not build are left out, see below). */
    public synchronized void reload() {
        BrokerConfig next = mergeValid();
        if (next.effectiveConfigs().equals(current.effectiveConfigs())) {
            return;
        }
        current = next;
        LOG.log(System.Logger.Level.INFO, "dynamic broker configs now: cluster default "
                + BrokerConfigDef.redacted(clusterDefault()) + ", broker " + nodeId + " "
                + BrokerConfigDef.redacted(perBroker()));
        listeners.forEach(l -> l.accept(next));
    }

    /**
     * Checks a broker entity's complete new set of dynamic configs as Kafka's broker does before forwarding it
     * (ConfigAdminManager / DynamicBrokerConfig.validate), with its messages: INVALID_REQUEST for keys that are
     * not dynamic, security keys without a listener prefix, values of the wrong type or range, per-broker keys at
     * the cluster level, a merged config that does not build, and one a validator refuses (new TLS keys that make
     * no usable context, see {@link #addValidator}). {@code entity}: "" or this node's id.
     */
    public void validate(String entity, Map<String, String> entityConfigs) {
        Set<String> nonDynamic = new TreeSet<>();
        Set<String> unprefixedSecurity = new TreeSet<>();
        Set<String> perBroker = new TreeSet<>();
        for (String key : entityConfigs.keySet()) {
            if (!DYNAMIC_KEYS.contains(key) && !key.startsWith("listener.name.")
                    && (BrokerConfigDef.key(key) != null || BrokerConfigDef.isKafkaKey(key))) {
                nonDynamic.add(key);
            }
            if (SECURITY_KEYS.contains(key)) {
                unprefixedSecurity.add(key);
            }
            if (isPerBroker(key)) {
                perBroker.add(key);
            }
        }
        check(nonDynamic, "Cannot update these configs dynamically");
        check(unprefixedSecurity, "These security configs can be dynamically updated only per-listener using the"
                + " listener prefix");
        entityConfigs.forEach((key, value) -> {
            ConfigKey def = BrokerConfigDef.key(key);
            try {
                if (def != null) {
                    def.parse(value);
                } else {
                    BrokerConfigDef.checkKafkaValue(key, value); // Kafka's type, for keys we only store
                }
            } catch (ConfigException e) {
                throw new MetadataException(ErrorCode.INVALID_REQUEST, e.getMessage());
            }
        });
        boolean isDefault = entity.isEmpty();
        if (isDefault) {
            check(perBroker, "Cannot update these configs at default cluster level, broker id must be specified");
        }
        try {
            BrokerConfig merged = null;
            if (isDefault) {
                merged = merge(entityConfigs, perBroker());
            } else if (entity.equals(nodeId)) {
                merged = merge(clusterDefault(), entityConfigs);
            }
            if (merged != null) {
                for (Consumer<BrokerConfig> validator : validators) {
                    validator.accept(merged);
                }
            }
        } catch (ConfigException e) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, e.getMessage());
        }
    }

    /**
     * The stored layers over the static config; when they do not build, each stored key is tried in turn (cluster
     * default first, then per broker, in name order) and only those that break the build are left out, with one
     * log line naming them (never their values), as Kafka's removeInvalidConfigs drops only the invalid keys. The
     * store keeps them: a later alter can fix or delete them.
     */
    private BrokerConfig mergeValid() {
        Map<String, String> defaults = clusterDefault();
        Map<String, String> broker = perBroker();
        try {
            return merge(defaults, broker);
        } catch (ConfigException e) {
            Map<String, String> validDefaults = new LinkedHashMap<>();
            Map<String, String> validBroker = new LinkedHashMap<>();
            Set<String> dropped = new TreeSet<>();
            keepValid(defaults, validDefaults, validDefaults, validBroker, "cluster default", dropped);
            keepValid(broker, validBroker, validDefaults, validBroker, "broker " + nodeId, dropped);
            LOG.log(System.Logger.Level.ERROR, "ignoring stored dynamic broker configs that cannot be applied: "
                    + dropped);
            return merge(validDefaults, validBroker);
        }
    }

    private void keepValid(Map<String, String> stored, Map<String, String> into, Map<String, String> defaults,
            Map<String, String> broker, String layer, Set<String> dropped) {
        for (Map.Entry<String, String> e : new TreeMap<>(stored).entrySet()) {
            into.put(e.getKey(), e.getValue());
            try {
                merge(defaults, broker);
            } catch (ConfigException bad) {
                into.remove(e.getKey());
                dropped.add(layer + " " + e.getKey());
            }
        }
    }

    private static void check(Set<String> keys, String message) {
        if (!keys.isEmpty()) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, message + ": " + keys);
        }
    }

    private BrokerConfig merge(Map<String, String> clusterDefault, Map<String, String> perBroker) {
        Map<String, String> merged = new LinkedHashMap<>(staticConfig.originals());
        override(merged, clusterDefault);
        override(merged, perBroker);
        return BrokerConfig.of(merged);
    }

    /** Kafka's overrideProps: a key's synonyms go first, so the dynamic one wins whatever its precedence. */
    private static void override(Map<String, String> props, Map<String, String> overrides) {
        overrides.forEach((key, value) -> {
            synonyms(key).forEach(props::remove);
            props.put(key, value);
        });
    }

    /** Kafka's DynamicBrokerConfig.brokerConfigSynonyms (without listener overrides). */
    public static List<String> synonyms(String key) {
        return switch (key) {
            case "log.roll.ms", "log.roll.hours" -> List.of("log.roll.ms", "log.roll.hours");
            case "log.roll.jitter.ms", "log.roll.jitter.hours" -> List.of("log.roll.jitter.ms", "log.roll.jitter.hours");
            case "log.flush.interval.ms" -> List.of("log.flush.interval.ms", "log.flush.scheduler.interval.ms");
            case "log.retention.ms", "log.retention.minutes", "log.retention.hours" ->
                    List.of("log.retention.ms", "log.retention.minutes", "log.retention.hours");
            default -> List.of(key);
        };
    }
}
