package io.odradek.broker;

import io.odradek.broker.config.BrokerConfigDef;
import io.odradek.broker.config.BrokerListeners;
import io.odradek.broker.config.ConfigException;
import io.odradek.broker.config.ConfigKey;
import io.odradek.broker.config.ConfigType;
import io.odradek.broker.config.Listener;
import io.odradek.broker.config.ListenerConfig;
import io.odradek.broker.network.NetworkSettings;
import io.odradek.log.LogConfig;
import io.odradek.log.LogManager;
import io.odradek.replication.partition.ReplicationSettings;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The broker's configuration under Kafka's keys with Kafka 4.x's defaults (the table is
 * {@link BrokerConfigDef}). Every value is parsed and validated when the config is built, so a bad one
 * fails at startup with a {@link ConfigException} naming the key and the value. Keys Kafka defines but we
 * do not act on are accepted silently; any other key draws one warning and is ignored.
 */
public final class BrokerConfig {
    private static final System.Logger LOG = System.getLogger(BrokerConfig.class.getName());
    private static final long MINUTE_MS = 60_000L;
    private static final long HOUR_MS = 60 * MINUTE_MS;

    private final Map<String, String> originals;
    private final Map<String, Object> values = new HashMap<>();
    private final Set<String> unknownKeys = new LinkedHashSet<>();
    private final BrokerListeners listeners;
    private final Listener listener;
    private final Listener advertised;
    private final int nodeId;
    private final List<Path> logDirs;
    private final long logRetentionMs;
    private final long logRollMs;
    private final long logFlushIntervalMs;
    private final Map<String, String> effective;
    private final LogConfig logDefaults;
    private final ClusterRoles cluster;

    private BrokerConfig(Map<String, String> settings) {
        Map<String, String> given = new LinkedHashMap<>();
        settings.forEach((key, value) -> {
            if (key != null && value != null) {
                given.put(key.trim(), value.trim());
            }
        });
        this.originals = Collections.unmodifiableMap(given);
        for (ConfigKey key : BrokerConfigDef.keys().values()) {
            values.put(key.name(), key.parse(given.getOrDefault(key.name(), key.defaultValue())));
        }
        for (String key : given.keySet()) {
            if (BrokerConfigDef.key(key) == null && !BrokerConfigDef.isKafkaKey(key)) {
                unknownKeys.add(key);
                LOG.log(System.Logger.Level.WARNING, "Ignoring unknown configuration " + key);
            }
        }
        this.listeners = resolveListeners();
        this.listener = listeners.brokerListeners().get(0).listener();
        this.advertised = listeners.advertised().get(0);
        this.nodeId = resolveNodeId();
        this.logDirs = resolveLogDirs();
        this.logRetentionMs = resolveRetentionMs();
        this.logRollMs = values.get("log.roll.ms") != null ? longValue("log.roll.ms") : intValue("log.roll.hours") * HOUR_MS;
        this.logFlushIntervalMs = values.get("log.flush.interval.ms") != null ? longValue("log.flush.interval.ms")
                : longValue("log.flush.scheduler.interval.ms");
        this.effective = effectiveValues();
        this.logDefaults = topicDefaults();
        this.cluster = resolveClusterRoles();
    }

    /** A config from Kafka-keyed settings; keys not given take their defaults. Null values count as not given. */
    public static BrokerConfig of(Map<String, String> settings) {
        return new BrokerConfig(settings);
    }

    /** Every setting at its default. */
    public static BrokerConfig defaults() {
        return of(Map.of());
    }

    /**
     * The settings of a Kafka-style {@code server.properties} file (may be null: none), with {@code overrides}
     * (from {@code --override key=value}) taking precedence over the file.
     */
    public static BrokerConfig load(Path propertiesFileOrNull, Map<String, String> overrides) {
        Map<String, String> settings = new LinkedHashMap<>();
        if (propertiesFileOrNull != null) {
            settings.putAll(readProperties(propertiesFileOrNull));
        }
        settings.putAll(overrides);
        return of(settings);
    }

    static Map<String, String> readProperties(Path file) {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(in);
        } catch (NoSuchFileException e) {
            throw new ConfigException("Config file " + file + " does not exist");
        } catch (CharacterCodingException e) {
            throw new ConfigException("Config file " + file + " is not UTF-8 text");
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("Cannot read config file " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (String name : props.stringPropertyNames()) {
            settings.put(name, props.getProperty(name));
        }
        return settings;
    }

    // ---- listeners and identity

    /** The host the first listener binds; "0.0.0.0" when it listens on every interface. */
    public String listenerHost() {
        return listener.host().isEmpty() ? "0.0.0.0" : listener.host();
    }

    /** The first listener's port; 0 picks a free port (see the broker's bound address). */
    public int listenerPort() {
        return listener.port();
    }

    /** The first listener's address to bind (see {@link Listener#bindAddress()}). */
    public InetSocketAddress listenerAddress() {
        return listener.bindAddress();
    }

    /** The first listener that is not a controller listener, e.g. {@code PLAINTEXT://127.0.0.1:9092}. */
    public Listener listener() {
        return listener;
    }

    /** The host of the first advertised endpoint; never a wildcard address. */
    public String advertisedHost() {
        return advertised.host();
    }

    /** The port of the first advertised endpoint; 0 when it is 0 (then the listener's bound port is used). */
    public int advertisedPort() {
        return advertised.port();
    }

    public int nodeId() {
        return nodeId;
    }

    // ---- storage

    /** Absolute, normalised directories for partition logs ({@code log.dirs}, else {@code log.dir}). */
    public List<Path> logDirs() {
        return logDirs;
    }

    public int numPartitions() {
        return intValue("num.partitions");
    }

    public short defaultReplicationFactor() {
        return (Short) values.get("default.replication.factor");
    }

    public boolean autoCreateTopicsEnable() {
        return (Boolean) values.get("auto.create.topics.enable");
    }

    public boolean deleteTopicEnable() {
        return (Boolean) values.get("delete.topic.enable");
    }

    /** {@code odradek.max.partitions}: the most partitions this broker holds. */
    public int maxPartitions() {
        return intValue("odradek.max.partitions");
    }

    /** {@code odradek.index.idle.unmap.ms}: how long an unused index stays mapped. */
    public long indexIdleUnmapMs() {
        return longValue("odradek.index.idle.unmap.ms");
    }

    // Client quotas (issue 9, quotas).
    /** {@code quota.window.num} samples of {@code quota.window.size.seconds} each. */
    public io.odradek.broker.quota.QuotaWindows quotaWindows() {
        return new io.odradek.broker.quota.QuotaWindows(intValue("quota.window.num"), intValue("quota.window.size.seconds"));
    }

    public int minInsyncReplicas() {
        return intValue("min.insync.replicas");
    }

    /** Topic-level log settings ({@code retention.ms}, {@code segment.bytes}, ...) taken from the broker's {@code log.*} keys. */
    public LogConfig logDefaults() {
        return logDefaults;
    }

    /** {@code log.retention.ms}, else {@code log.retention.minutes}, else {@code log.retention.hours}; -1 = forever. */
    public long logRetentionMs() {
        return logRetentionMs;
    }

    /** {@code log.roll.ms}, else {@code log.roll.hours}. */
    public long logRollMs() {
        return logRollMs;
    }

    /** {@code log.flush.interval.ms}, else {@code log.flush.scheduler.interval.ms} (Long.MAX_VALUE: never). */
    public long logFlushIntervalMs() {
        return logFlushIntervalMs;
    }

    public long logRetentionCheckIntervalMs() {
        return longValue("log.retention.check.interval.ms");
    }

    // ---- network

    public int socketRequestMaxBytes() {
        return intValue("socket.request.max.bytes");
    }

    /**
     * The listener's backpressure and connection limits; {@code max.connections.per.ip.overrides} host names
     * are resolved here, so an unknown host fails at startup.
     */
    public NetworkSettings networkSettings() {
        long queuedBytes = longValue("queued.max.request.bytes");
        return new NetworkSettings(socketRequestMaxBytes(), intValue("odradek.connection.max.in.flight.requests"),
                intValue("queued.max.requests"),
                queuedBytes < 0 ? NetworkSettings.defaultQueuedMaxRequestBytes() : Math.max(1, queuedBytes),
                longValue("connections.max.idle.ms"), intValue("max.connections"), intValue("max.connections.per.ip"),
                perIpOverrides(get("max.connections.per.ip.overrides")));
    }

    private static Map<InetAddress, Integer> perIpOverrides(String setting) {
        Map<InetAddress, Integer> overrides = new HashMap<>();
        if (setting == null || setting.isBlank()) {
            return overrides;
        }
        for (String entry : setting.split(",")) {
            String trimmed = entry.trim();
            int colon = trimmed.lastIndexOf(':');
            try {
                if (colon <= 0) {
                    throw new NumberFormatException("no host:count");
                }
                int count = Integer.parseInt(trimmed.substring(colon + 1).trim());
                if (count < 0) {
                    throw new NumberFormatException("negative count");
                }
                overrides.put(InetAddress.getByName(trimmed.substring(0, colon).trim()), count);
            } catch (NumberFormatException | UnknownHostException e) {
                throw new ConfigException("Invalid value " + setting + " for configuration max.connections.per.ip.overrides: "
                        + "entry '" + trimmed + "' is not host:count (" + e.getMessage() + ")");
            }
        }
        return overrides;
    }

    public int messageMaxBytes() {
        return intValue("message.max.bytes");
    }

    // ---- group coordinator and offsets

    public int offsetsTopicNumPartitions() {
        return intValue("offsets.topic.num.partitions");
    }

    public short offsetsTopicReplicationFactor() {
        return (Short) values.get("offsets.topic.replication.factor");
    }

    public int offsetsTopicSegmentBytes() {
        return intValue("offsets.topic.segment.bytes");
    }

    /** {@code offsets.retention.minutes} in milliseconds. */
    public long offsetsRetentionMs() {
        return intValue("offsets.retention.minutes") * MINUTE_MS;
    }

    public long offsetsRetentionCheckIntervalMs() {
        return longValue("offsets.retention.check.interval.ms");
    }

    public int offsetsCommitTimeoutMs() {
        return intValue("offsets.commit.timeout.ms");
    }

    public int groupInitialRebalanceDelayMs() {
        return intValue("group.initial.rebalance.delay.ms");
    }

    public int groupMinSessionTimeoutMs() {
        return intValue("group.min.session.timeout.ms");
    }

    public int groupMaxSessionTimeoutMs() {
        return intValue("group.max.session.timeout.ms");
    }

    public int groupMaxSize() {
        return intValue("group.max.size");
    }

    public int groupConsumerSessionTimeoutMs() {
        return intValue("group.consumer.session.timeout.ms");
    }

    public int groupConsumerHeartbeatIntervalMs() {
        return intValue("group.consumer.heartbeat.interval.ms");
    }

    // ---- producers

    public int producerIdExpirationMs() {
        return intValue("producer.id.expiration.ms");
    }

    // ---- transactions (issue 7)

    public int transactionStateLogNumPartitions() {
        return intValue("transaction.state.log.num.partitions");
    }

    public int transactionStateLogSegmentBytes() {
        return intValue("transaction.state.log.segment.bytes");
    }

    public short transactionStateLogReplicationFactor() {
        return (Short) values.get("transaction.state.log.replication.factor");
    }

    public int transactionMaxTimeoutMs() {
        return intValue("transaction.max.timeout.ms");
    }

    public int transactionalIdExpirationMs() {
        return intValue("transactional.id.expiration.ms");
    }

    public boolean transactionPartitionVerificationEnable() {
        return (Boolean) values.get("transaction.partition.verification.enable");
    }

    public boolean transactionTwoPhaseCommitEnable() {
        return (Boolean) values.get("transaction.two.phase.commit.enable");
    }

    // ---- partition layer (issue 6, partition seams)

    public int numIoThreads() {
        return intValue("num.io.threads");
    }

    public int fetchMaxBytes() {
        return intValue("fetch.max.bytes");
    }

    public int producerIdExpirationCheckIntervalMs() {
        return intValue("producer.id.expiration.check.interval.ms");
    }

    public int backgroundThreads() {
        return intValue("background.threads");
    }

    public int logCleanerThreads() {
        return intValue("log.cleaner.threads");
    }

    public int numRecoveryThreadsPerDataDir() {
        return intValue("num.recovery.threads.per.data.dir");
    }

    /** The log manager's pools and producer expiry, from the keys above. */
    public LogManager.Background logBackground() {
        return new LogManager.Background(backgroundThreads(), logCleanerThreads(), numRecoveryThreadsPerDataDir(),
                producerIdExpirationMs(), producerIdExpirationCheckIntervalMs());
    }

    // ---- cluster mode (issue 8, cluster-node)

    /**
     * This node's part in a cluster, from {@code process.roles}, {@code controller.quorum.voters} and the
     * CONTROLLER listener: null when {@code process.roles} is unset (a single node, as before clusters).
     */
    public record ClusterRoles(boolean broker, boolean controller, Map<Integer, InetSocketAddress> voters,
            Listener controllerListener) {
        public ClusterRoles {
            voters = Collections.unmodifiableMap(new LinkedHashMap<>(voters));
        }
    }

    /** The cluster roles, or null on a single node (no {@code process.roles}). */
    public ClusterRoles clusterRoles() {
        return cluster;
    }

    /** Whether {@code process.roles} is set: the broker joins a Ratis-backed cluster. */
    public boolean isClusterMode() {
        return cluster != null;
    }

    /** {@code broker.rack}, or null. */
    public String brokerRack() {
        return (String) values.get("broker.rack");
    }

    public int brokerSessionTimeoutMs() {
        return intValue("broker.session.timeout.ms");
    }

    public int brokerHeartbeatIntervalMs() {
        return intValue("broker.heartbeat.interval.ms");
    }

    public int controllerQuorumElectionTimeoutMs() {
        return intValue("controller.quorum.election.timeout.ms");
    }

    public long replicaLagTimeMaxMs() {
        return longValue("replica.lag.time.max.ms");
    }

    public int replicaFetchMaxBytes() {
        return intValue("replica.fetch.max.bytes");
    }

    public int replicaFetchWaitMaxMs() {
        return intValue("replica.fetch.wait.max.ms");
    }

    public int replicaFetchMinBytes() {
        return intValue("replica.fetch.min.bytes");
    }

    public int numReplicaFetchers() {
        return intValue("num.replica.fetchers");
    }

    /** The replica fetchers' and ISR settings, Kafka's replica.* keys, fetching from the inter-broker listener. */
    public ReplicationSettings replicationSettings() {
        return new ReplicationSettings(replicaLagTimeMaxMs(), replicaFetchMaxBytes(),
                intValue("replica.fetch.response.max.bytes"), replicaFetchWaitMaxMs(), replicaFetchMinBytes(),
                intValue("replica.fetch.backoff.ms"), numReplicaFetchers(), intValue("replica.socket.timeout.ms"),
                interBrokerListenerName());
    }

    public boolean uncleanLeaderElectionEnable() {
        return (Boolean) values.get("unclean.leader.election.enable");
    }

    public boolean controlledShutdownEnable() {
        return (Boolean) values.get("controlled.shutdown.enable");
    }

    /** {@code metadata.log.dir}, else the first log dir: where the Ratis metadata log is kept. */
    public Path metadataLogDir() {
        String dir = (String) values.get("metadata.log.dir");
        return dir == null || dir.isBlank() ? logDirs.get(0) : Path.of(dir).toAbsolutePath().normalize();
    }

    // ---- listeners (issue 10, listeners)

    /**
     * Every listener that serves clients and brokers (not a controller listener), in the order of
     * {@code listeners}, each with its security protocol and per-listener keys. All of them are served at once.
     */
    public List<ListenerConfig> listenerConfigs() {
        return listeners.brokerListeners();
    }

    /** The per-listener view of this config for the listener named {@code name} (any case) in {@code listeners}. */
    public ListenerConfig listenerConfig(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return listeners.all().stream().filter(l -> l.name().equals(upper)).findFirst()
                .orElseThrow(() -> new ConfigException("no listener named " + name + " in listeners"));
    }

    /**
     * The endpoints this broker registers and clients are told about: {@code advertised.listeners} (only the
     * listeners named there), else every listener; a wildcard host as 127.0.0.1; port 0 = that listener's bound port.
     */
    public List<Listener> advertisedListeners() {
        return listeners.advertised();
    }

    /**
     * The listener other brokers fetch from and send to: {@code inter.broker.listener.name}, else the listener
     * named after {@code security.inter.broker.protocol} (PLAINTEXT), as Kafka; it is always advertised.
     */
    public String interBrokerListenerName() {
        return listeners.interBrokerListenerName();
    }

    public io.odradek.security.SecurityProtocol interBrokerSecurityProtocol() {
        return listeners.interBrokerProtocol();
    }

    /** {@code sasl.mechanism.inter.broker.protocol} (Kafka's default GSSAPI). */
    public String saslMechanismInterBrokerProtocol() {
        return (String) values.get("sasl.mechanism.inter.broker.protocol");
    }

    // ---- the whole config

    /**
     * Every key of the table with its effective value (derived ones resolved: {@code log.retention.ms} from
     * minutes/hours, {@code log.dirs} from {@code log.dir}, {@code advertised.listeners} from {@code listeners}),
     * plus any other Kafka key that was set. Keys with no value (e.g. an unset {@code log.retention.minutes}) are absent.
     */
    public Map<String, String> effectiveConfigs() {
        return effective;
    }

    /** The effective value of a key, or null. */
    public String get(String key) {
        return effective.get(key);
    }

    /** True when the key was not set in the file or an override. */
    public boolean isDefault(String key) {
        return !originals.containsKey(key);
    }

    /** The settings as given (file, then overrides), trimmed, unknown keys included. */
    public Map<String, String> originals() {
        return originals;
    }

    /** Keys that were set but are neither ours nor Kafka's (each was logged once as a warning). */
    public Set<String> unknownKeys() {
        return Collections.unmodifiableSet(unknownKeys);
    }

    @Override
    public String toString() {
        return "BrokerConfig" + effective;
    }

    // ---- resolution

    private BrokerListeners resolveListeners() {
        return BrokerListeners.resolve(new BrokerListeners.Settings(list("listeners"),
                values.get("advertised.listeners") == null ? null : list("advertised.listeners"),
                (String) values.get("listener.security.protocol.map"),
                originals.containsKey("listener.security.protocol.map"), list("controller.listener.names"),
                (String) values.get("inter.broker.listener.name"), (String) values.get("security.inter.broker.protocol"),
                originals.containsKey("security.inter.broker.protocol"), list("process.roles").contains("broker"),
                saslMechanismInterBrokerProtocol(), originals));
    }

    private int resolveNodeId() {
        int brokerId = intValue("broker.id");
        if (originals.containsKey("node.id")) {
            if (brokerId >= 0 && brokerId != intValue("node.id")) {
                throw ConfigException.invalid("broker.id", brokerId, "must equal node.id (" + intValue("node.id")
                        + ") when both are set");
            }
            return intValue("node.id");
        }
        return brokerId >= 0 ? brokerId : intValue("node.id");
    }

    /**
     * Kafka's KRaft checks (KafkaConfig.validateValues), with Kafka's messages: a controller needs a
     * CONTROLLER listener among {@code listeners} and its node id among the voters; a broker-only node needs
     * controller.listener.names but must not listen on it, and must not be a voter.
     */
    private ClusterRoles resolveClusterRoles() {
        if (values.get("process.roles") == null) {
            return null;
        }
        List<String> roles = list("process.roles");
        boolean broker = roles.contains("broker");
        boolean controller = roles.contains("controller");
        if (!broker && !controller) {
            throw ConfigException.invalid("process.roles", raw("process.roles"),
                    "expected broker, controller or broker,controller");
        }
        if (!broker) {
            throw ConfigException.invalid("process.roles", raw("process.roles"),
                    "a controller-only node is not supported yet; use process.roles=broker,controller");
        }
        Map<Integer, InetSocketAddress> voters = parseVoters();
        List<String> bootstrap = list("controller.quorum.bootstrap.servers");
        if (voters.isEmpty() && controller && bootstrap.size() == 1) {
            // Kafka's shipped server.properties: one controller bootstrapping itself (kafka-storage format
            // --standalone). We take it as a one-voter quorum of this node at that address.
            voters = parseVoters("controller.quorum.bootstrap.servers", List.of(nodeId + "@" + bootstrap.get(0)));
        }
        if (voters.isEmpty()) {
            throw new ConfigException("If using process.roles, controller.quorum.voters must contain a parseable set"
                    + " of controllers (controller.quorum.bootstrap.servers alone is not supported).");
        }
        List<String> controllerNames = list("controller.listener.names").stream()
                .map(n -> n.toUpperCase(Locale.ROOT)).toList();
        List<Listener> all = listeners.all().stream().map(ListenerConfig::listener).toList();
        Listener controllerListener = null;
        if (controller) {
            controllerListener = all.stream().filter(l -> !controllerNames.isEmpty()
                    && l.name().equals(controllerNames.get(0))).findFirst().orElse(null);
            if (controllerListener == null) {
                throw new ConfigException("controller.listener.names must contain at least one value appearing in the"
                        + " 'listeners' configuration when running the KRaft controller role");
            }
            if (!voters.containsKey(nodeId)) {
                throw new ConfigException("If process.roles contains the 'controller' role, the node id " + nodeId
                        + " must be included in the set of voters controller.quorum.voters=" + voters.keySet());
            }
        } else {
            if (controllerNames.isEmpty()) {
                throw new ConfigException("controller.listener.names must contain at least one value when running"
                        + " KRaft with just the broker role");
            }
            if (all.stream().anyMatch(l -> controllerNames.contains(l.name()))) {
                throw new ConfigException("controller.listener.names must not contain a value appearing in the"
                        + " 'listeners' configuration when running KRaft with just the broker role");
            }
            if (voters.containsKey(nodeId)) {
                throw new ConfigException("If process.roles contains just the 'broker' role, the node id " + nodeId
                        + " must not be included in the set of voters controller.quorum.voters=" + voters.keySet());
            }
        }
        return new ClusterRoles(broker, controller, voters, controllerListener);
    }

    /** {@code controller.quorum.voters}: id@host:port entries, in the order given, ids unique. */
    private Map<Integer, InetSocketAddress> parseVoters() {
        return parseVoters("controller.quorum.voters", list("controller.quorum.voters"));
    }

    private Map<Integer, InetSocketAddress> parseVoters(String key, List<String> entries) {
        Map<Integer, InetSocketAddress> voters = new LinkedHashMap<>();
        for (String entry : entries) {
            int at = entry.indexOf('@');
            int colon = entry.lastIndexOf(':');
            try {
                if (at <= 0 || colon <= at + 1) {
                    throw new NumberFormatException();
                }
                int id = Integer.parseInt(entry.substring(0, at).trim());
                String host = entry.substring(at + 1, colon).replace("[", "").replace("]", "");
                int port = Integer.parseInt(entry.substring(colon + 1).trim());
                if (id < 0 || port < 1 || port > 65535) {
                    throw new NumberFormatException();
                }
                if (voters.put(id, InetSocketAddress.createUnresolved(host, port)) != null) {
                    throw ConfigException.invalid(key, raw(key), "voter id " + id + " is listed twice");
                }
            } catch (NumberFormatException e) {
                throw ConfigException.invalid(key, raw(key), "entry '" + entry + "' is not {id}@{host}:{port}");
            }
        }
        return voters;
    }

    private List<Path> resolveLogDirs() {
        String key = values.get("log.dirs") != null && !list("log.dirs").isEmpty() ? "log.dirs" : "log.dir";
        List<String> dirs = list(key);
        if (dirs.isEmpty()) {
            throw ConfigException.invalid(key, raw(key), "at least one directory is required");
        }
        try {
            return dirs.stream().map(d -> Path.of(d).toAbsolutePath().normalize()).distinct().toList();
        } catch (java.nio.file.InvalidPathException e) {
            throw ConfigException.invalid(key, raw(key), e.getMessage());
        }
    }

    /** Kafka's precedence: ms over minutes over hours; any negative value means forever (-1). */
    private long resolveRetentionMs() {
        String key;
        long ms;
        if (values.get("log.retention.ms") != null) {
            key = "log.retention.ms";
            ms = longValue(key);
        } else if (values.get("log.retention.minutes") != null) {
            key = "log.retention.minutes";
            ms = intValue(key) * MINUTE_MS;
        } else {
            key = "log.retention.hours";
            ms = intValue(key) * HOUR_MS;
        }
        if (ms == 0) {
            throw ConfigException.invalid(key, raw(key), "retention must be unlimited (-1) or at least 1 ms");
        }
        return ms < 0 ? -1 : ms;
    }

    private Map<String, String> effectiveValues() {
        Map<String, String> derived = Map.of(
                "node.id", Integer.toString(nodeId),
                "advertised.listeners", values.get("advertised.listeners") != null
                        ? ConfigType.format(values.get("advertised.listeners"))
                        : String.join(",", listeners.advertised().stream().map(Listener::toString).toList()),
                "log.dirs", String.join(",", logDirs.stream().map(Path::toString).toList()),
                "log.retention.ms", Long.toString(logRetentionMs),
                "log.roll.ms", Long.toString(logRollMs),
                "log.flush.interval.ms", Long.toString(logFlushIntervalMs));
        Map<String, String> map = new LinkedHashMap<>();
        for (String key : BrokerConfigDef.keys().keySet()) {
            Object v = values.get(key);
            if (derived.containsKey(key)) {
                map.put(key, derived.get(key));
            } else if (v != null) {
                map.put(key, ConfigType.format(v));
            }
        }
        originals.forEach((key, v) -> {
            if (!values.containsKey(key) && BrokerConfigDef.isKafkaKey(key)) {
                map.put(key, v);
            }
        });
        return Collections.unmodifiableMap(map);
    }

    /** Topic-level keys whose broker synonym we know, taken from the effective broker values. */
    private LogConfig topicDefaults() {
        Map<String, String> topic = new LinkedHashMap<>();
        for (String topicKey : LogConfig.keys()) {
            String brokerKey = LogConfig.brokerSynonym(topicKey);
            if (brokerKey != null && effective.containsKey(brokerKey)) {
                topic.put(topicKey, effective.get(brokerKey));
            }
        }
        try {
            return LogConfig.defaults().with(topic)
                    .withFullRecordValidation(!"header".equals(values.get("odradek.produce.validation")));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage() + " (the topic default derived from the broker's log settings)", e);
        }
    }

    // ---- incremental fetch sessions (issue 9, sessions)

    /** {@code max.incremental.fetch.session.cache.slots}: Kafka's fetch session cache size. */
    public int maxIncrementalFetchSessionCacheSlots() {
        return intValue("max.incremental.fetch.session.cache.slots");
    }

    /** {@code odradek.fetch.session.cache.max.partitions}: partitions all fetch sessions hold together. */
    public int fetchSessionCacheMaxPartitions() {
        return intValue("odradek.fetch.session.cache.max.partitions");
    }

    // ---- version emulation (issue 11, emulation)

    /** {@code odradek.emulate.version}: the Kafka release this broker presents itself as; null when not emulating. */
    public io.odradek.broker.api.KafkaRelease emulatedRelease() {
        String version = (String) values.get("odradek.emulate.version");
        return version == null || version.isEmpty() ? null : io.odradek.broker.api.KafkaReleases.named(version);
    }

    private String raw(String key) {
        Object v = values.get(key);
        return originals.getOrDefault(key, v == null ? "" : ConfigType.format(v));
    }

    private int intValue(String key) {
        return (Integer) values.get(key);
    }

    private long longValue(String key) {
        return (Long) values.get(key);
    }

    @SuppressWarnings("unchecked")
    private List<String> list(String key) {
        Object v = values.get(key);
        return v == null ? List.of() : (List<String>) v;
    }
}
