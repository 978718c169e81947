package io.odradek.embedded;

import io.odradek.broker.Broker;
import io.odradek.broker.config.ConfigException;
import io.odradek.broker.config.Listener;
import io.odradek.broker.faults.Faults;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.replication.metadata.MetadataException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An Odradek broker, or a cluster of them, running in this JVM: for tests and development, with no Scala and no
 * Kafka client on the class path. It listens on loopback on a port the OS picks, keeps its data in a fresh temp
 * directory and deletes it on {@link #close()}.
 *
 * <pre>{@code
 * try (Odradek kafka = Odradek.builder().config("num.partitions", "3").start()) {
 *     kafka.createTopic("orders", 3);
 *     Map<String, Object> props = Map.of("bootstrap.servers", kafka.bootstrapServers(), ...);
 *     try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) { ... }
 * }
 * }</pre>
 *
 * <p>{@code brokers(3)} starts three combined broker+controller nodes ({@code process.roles=broker,controller}) on a
 * Ratis quorum; {@code start()} returns once every broker is registered and unfenced. Every broker starts with
 * Kafka's keys at Kafka's defaults except: listener {@code PLAINTEXT://127.0.0.1:0}, no initial rebalance delay
 * ({@code group.initial.rebalance.delay.ms=0}), internal topics of 5 partitions (not 50) with a replication factor
 * and min ISR fitting the broker count, no JMX ({@code odradek.metrics.jmx.enable=false}); {@link Builder#config}
 * overrides any of them; in a cluster a fixed port every node would bind (admin, metrics, a listener) is refused,
 * port 0 is fine. A cluster on a kept {@link Builder#dataDir} saves its controller ports there
 * ({@code controller-ports.properties}) and binds them again when started on it later. For failover tests,
 * {@link #stopBroker} and {@link #restartBroker}. Before anything starts, the class path is checked for the Netty
 * (4.2) and prometheus-metrics (1.10) the broker needs: a build managing older ones (Spring Boot's) gets an
 * IllegalStateException naming the properties to set. Two JVM-wide settings come with the first start, as a guest in a test JVM: Netty's JFR
 * allocation events off ({@code io.netty.jfr.enabled=false}, unless set; their set-up slowed the first request), and
 * for a cluster Ratis told to throw rather than call System.exit when its server cannot start. In JUnit 5 tests,
 * {@link io.odradek.embedded.junit.EmbeddedOdradek @EmbeddedOdradek} starts and closes one for you.
 */
public final class Odradek implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Odradek.class.getName());
    /** How long createTopic waits for every partition to have a leader on every broker. */
    static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(30);

    /** Node id-1 -> its broker; a stopped one ({@link #stopBroker}) stays until restarted, closed. */
    private final Broker[] nodes;
    private final boolean[] stopped;
    /** Node id-1 -> the client address its stopped broker had, for bootstrapServers and the restart to bind again. */
    private final String[] stoppedAddresses;
    private final ControllerPorts controllerPorts;
    private final Path dataDir;
    private final boolean deleteOnClose;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Odradek(List<Broker> brokers, ControllerPorts controllerPorts, Path dataDir, boolean deleteOnClose) {
        this.nodes = brokers.toArray(new Broker[0]);
        this.stopped = new boolean[nodes.length];
        this.stoppedAddresses = new String[nodes.length];
        this.controllerPorts = controllerPorts;
        this.dataDir = dataDir;
        this.deleteOnClose = deleteOnClose;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** One broker with the defaults: {@code builder().start()}. */
    public static Odradek start() {
        return builder().start();
    }

    /**
     * Every broker's client address, for {@code bootstrap.servers}: "127.0.0.1:port[,127.0.0.1:port...]"; a broker
     * stopped by {@link #stopBroker} keeps its place (clients skip an address that does not answer).
     */
    public synchronized String bootstrapServers() {
        // Every node, a stopped one too (at the port it gets back on restart): the string stays the same.
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            addresses.add(stopped[i] ? stoppedAddresses[i] : clientAddress(nodes[i]));
        }
        return String.join(",", addresses);
    }

    /** The broker's first advertised listener as clients reach it (a port-0 listener: the port it bound). */
    private static String clientAddress(Broker broker) {
        Listener advertised = broker.config().advertisedListeners().get(0);
        int port = advertised.port();
        if (port == 0) {
            InetSocketAddress bound = broker.address(advertised.name());
            port = bound != null ? bound.getPort() : broker.port();
        }
        return advertised.host() + ":" + port;
    }

    /**
     * Creates a topic with the broker's default replication factor ({@code default.replication.factor}, 1 unless
     * configured); see {@link #createTopic(String, int, int)}.
     */
    public void createTopic(String name, int partitions) {
        create(name, partitions, (short) -1, Map.of());
    }

    /**
     * Creates a topic through the brokers' own topic service (as CreateTopics does) and returns once every partition
     * has a leader in every broker's metadata, so a client connecting next finds it ready. A replication factor
     * outside 1..broker count is an IllegalArgumentException; what the broker refuses (a topic that exists, an
     * invalid name or partition count) an IllegalStateException naming Kafka's error (TOPIC_ALREADY_EXISTS, ...).
     */
    public void createTopic(String name, int partitions, int replicationFactor) {
        createTopic(name, partitions, replicationFactor, Map.of());
    }

    /**
     * As {@link #createTopic(String, int, int)}, with topic configs ({@code cleanup.policy}, {@code retention.ms},
     * ...; what CreateTopics accepts). {@code partitions} -1: the broker's {@code num.partitions}.
     */
    public void createTopic(String name, int partitions, int replicationFactor, Map<String, String> configs) {
        if (replicationFactor < 1 || replicationFactor > nodes.length) {
            throw new IllegalArgumentException("replication factor " + replicationFactor + " for topic '" + name
                    + "' must be between 1 and the broker count, " + nodes.length);
        }
        create(name, partitions, (short) replicationFactor, Map.copyOf(configs));
    }

    private void create(String name, int partitions, short replicationFactor, Map<String, String> configs) {
        checkOpen();
        Objects.requireNonNull(name, "name");
        List<Broker> running = brokers();
        if (running.isEmpty()) {
            throw new IllegalStateException("cannot create topic '" + name + "': every broker is stopped");
        }
        int created;
        try {
            // partitions -1 (as CreateTopics allows): the controller applies num.partitions; wait for what it made.
            created = running.get(0).topics().createTopic(name, partitions, replicationFactor, Map.of(), configs, false)
                    .partitions();
        } catch (MetadataException e) {
            throw new IllegalStateException("cannot create topic '" + name + "': " + e.error() + ": " + e.getMessage(), e);
        }
        try {
            for (Broker broker : running) {
                Waits.until("every partition of topic '" + name + "' to have a leader on broker "
                                + broker.config().nodeId(), TOPIC_TIMEOUT,
                        () -> allLed(broker.cluster().image(), name, created),
                        () -> String.valueOf(broker.cluster().image().topics().get(name)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for topic '" + name + "'", e);
        }
    }

    private static boolean allLed(ClusterImage image, String topic, int partitions) {
        TopicImage t = image.topics().get(topic);
        return t != null && t.partitions().size() == partitions
                && t.partitions().stream().allMatch(PartitionRegistration::hasLeader);
    }

    /**
     * The running brokers, in node-id order (node ids 1..n; one stopped by {@link #stopBroker} is left out until
     * restarted). Close one through {@link #stopBroker} rather than {@link Broker#close()}: a broker closed directly
     * is still counted here, so createTopic waits for it.
     */
    public synchronized List<Broker> brokers() {
        List<Broker> running = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            if (!stopped[i] && !closing(nodes[i])) {
                running.add(nodes[i]);
            }
        }
        return List.copyOf(running);
    }

    /** Whether a broker was closed (or is closing) directly, not through stopBroker. */
    private static boolean closing(Broker broker) {
        return broker.isClosed();
    }

    /**
     * Stops broker {@code nodeId} (1..n) as Kafka's broker stops: in a cluster a controlled shutdown first, so its
     * leaderships move to the other replicas and its partitions leave the ISR. Its data stays for
     * {@link #restartBroker}. For failover tests: stop a partition's leader, and acks=all writes go on to the
     * remaining replicas. Stopping a stopped broker does nothing.
     */
    public void stopBroker(int nodeId) {
        checkOpen();
        Broker broker;
        synchronized (this) {
            int i = index(nodeId);
            if (stopped[i]) {
                return;
            }
            stopped[i] = true;
            broker = nodes[i];
            stoppedAddresses[i] = clientAddress(broker);
        }
        Launcher.closeAll(List.of(broker));
    }

    /**
     * Starts broker {@code nodeId} again on its data (and, unless the user gave fixed listeners, on the client port
     * it had, so {@link #bootstrapServers()} stays as it was), and returns once every running broker sees it
     * registered and unfenced. A running broker: nothing to do.
     */
    public void restartBroker(int nodeId) {
        checkOpen();
        Broker old;
        int port;
        synchronized (this) {
            int i = index(nodeId);
            if (!stopped[i]) {
                return;
            }
            old = nodes[i];
            port = portOf(stoppedAddresses[i]);
        }
        Map<String, String> config = new LinkedHashMap<>(old.config().originals());
        String listeners = config.get("listeners");
        if (listeners != null && listeners.contains(NodeConfigs.CLIENT_LISTENER)) {
            config.put("listeners", listeners.replace(NodeConfigs.CLIENT_LISTENER,
                    "PLAINTEXT://127.0.0.1:" + port));
        }
        Broker started;
        try {
            started = Broker.start(io.odradek.broker.BrokerConfig.of(config));
            synchronized (this) {
                nodes[nodeId - 1] = started;
                stopped[nodeId - 1] = false;
            }
            if (nodes.length > 1) {
                for (Broker broker : brokers()) {
                    Waits.until("broker " + broker.config().nodeId() + " to see broker " + nodeId + " unfenced",
                            Launcher.REGISTRATION_TIMEOUT, () -> unfenced(broker.cluster().image(), nodeId),
                            () -> broker.cluster().image().brokers().toString());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while restarting broker " + nodeId, e);
        }
    }

    private static boolean unfenced(ClusterImage image, int nodeId) {
        var registration = image.brokers().get(nodeId);
        return registration != null && !registration.fenced();
    }

    private static int portOf(String hostPort) {
        return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
    }

    private int index(int nodeId) {
        if (nodeId < 1 || nodeId > nodes.length) {
            throw new IllegalArgumentException("no broker " + nodeId + ": node ids are 1.." + nodes.length);
        }
        return nodeId - 1;
    }

    /**
     * The faults injected into request handling: make the next N requests of an API fail with an error, wait or
     * lose their connection ({@code faults().failNext("Produce", null, 2, "NOT_LEADER_OR_FOLLOWER")}). One broker:
     * its own {@link Broker#faults()}. A cluster: a view over every broker's ({@link Faults#allOf}): a rule added
     * here is added to each broker, which fails its own next N matching requests; {@code rules()} lists all of them.
     */
    public Faults faults() {
        // Computed each time: a restarted broker has a Faults of its own (the stopped one's rules went with it).
        List<Broker> running = brokers();
        return running.size() == 1 && nodes.length == 1 ? running.get(0).faults()
                : Faults.allOf(running.stream().map(Broker::faults).toList());
    }

    /** The directory every broker's log dir is in ({@code node-<id>}). */
    public Path dataDir() {
        return dataDir;
    }

    /**
     * Stops every broker and deletes {@link #dataDir()}, unless the builder was given it ({@link Builder#dataDir}):
     * then the data stays for a later start. Closing twice does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        long start = System.nanoTime();
        try {
            List<Broker> open = new ArrayList<>();
            synchronized (this) {
                for (int i = 0; i < nodes.length; i++) {
                    if (!stopped[i]) {
                        open.add(nodes[i]); // also one closed directly: Launcher.closeAll tolerates that
                    }
                }
            }
            Launcher.closeAll(open);
        } finally {
            if (controllerPorts != null) {
                controllerPorts.close();
            }
            if (deleteOnClose) {
                DataDirs.delete(dataDir);
            }
        }
        LOG.log(System.Logger.Level.DEBUG, () -> "embedded Odradek on " + dataDir + " closed in "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("this embedded Odradek is closed");
        }
    }

    @Override
    public String toString() {
        return "Odradek[" + nodes.length + (nodes.length == 1 ? " broker" : " brokers") + " on "
                + bootstrapServers() + ", data in " + dataDir + "]";
    }

    /** How an embedded Odradek starts: broker count, Kafka broker keys, where its data goes. */
    public static final class Builder {
        private int brokers = 1;
        private final Map<String, String> configs = new LinkedHashMap<>();
        private Path dataDir;

        private Builder() {
        }

        /**
         * How many brokers (1 by default). More than one: an in-process cluster, each node a broker and a
         * controller of the Ratis metadata quorum, every one a replica candidate.
         */
        public Builder brokers(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("an embedded Odradek needs at least one broker, not " + count);
            }
            this.brokers = count;
            return this;
        }

        /**
         * A Kafka broker key ({@code num.partitions}, {@code auto.create.topics.enable}, ...) or an Odradek one
         * ({@code odradek.*}), applied to every broker; it wins over the embedded defaults. Not allowed: the keys
         * each node gets its own value of ({@code node.id}, {@code log.dirs}, {@code controller.quorum.voters}).
         */
        public Builder config(String key, String value) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value of " + key);
            NodeConfigs.checkUserKeys(Map.of(key, value));
            configs.put(key, value);
            return this;
        }

        /** {@link #config(String, String)} for each entry. */
        public Builder configs(Map<String, String> configs) {
            configs.forEach(this::config);
            return this;
        }

        /** Answers ApiVersions as this Kafka release would (e.g. "2.8"): {@code odradek.emulate.version}. */
        public Builder emulateVersion(String kafkaVersion) {
            return config("odradek.emulate.version", kafkaVersion);
        }

        /**
         * Keeps the data in {@code dir} (created if missing) instead of a temp directory, and leaves it there on
         * close: a broker started again on it finds its topics and records.
         */
        public Builder dataDir(Path dir) {
            this.dataDir = Objects.requireNonNull(dir, "dir");
            return this;
        }

        /**
         * Starts the broker(s) and returns once they serve clients (a cluster: every broker registered and
         * unfenced). A failure to start stops whatever did start and throws IllegalStateException (or the config's
         * own exception for a bad key).
         */
        public Odradek start() {
            NodeConfigs.checkClusterPorts(brokers, configs); // before anything starts: a message, not a clash
            long begin = System.nanoTime();
            ClasspathCheck.verify(); // before anything loads Netty's event loops or binds
            NettyJfr.offUnlessSet(); // before the broker's classes start Netty
            boolean temp = dataDir == null;
            Path dir = temp ? DataDirs.createTemp() : DataDirs.create(dataDir.toAbsolutePath().normalize());
            Launcher.Started started;
            try {
                started = Launcher.start(brokers, dir, Map.copyOf(configs));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                deleteIf(temp, dir);
                throw new IllegalStateException("interrupted while starting the embedded Odradek", e);
            } catch (RuntimeException e) {
                deleteIf(temp, dir);
                throw e instanceof IllegalArgumentException || e instanceof IllegalStateException
                        || e instanceof ConfigException ? e : new IllegalStateException("cannot start the embedded Odradek: " + e.getMessage(), e);
            } catch (Error e) {
                // A NoClassDefFoundError (mismatched Netty) or the like: the temp dir goes too, and the Error stays.
                deleteIf(temp, dir);
                throw e;
            }
            Odradek odradek = new Odradek(started.brokers(), started.ports(), dir, temp);
            LOG.log(System.Logger.Level.INFO, () -> "embedded Odradek started in "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin) + " ms: " + odradek);
            return odradek;
        }

        private static void deleteIf(boolean temp, Path dir) {
            if (temp) {
                try {
                    DataDirs.delete(dir);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "cannot delete " + dir + ": " + e.getMessage());
                }
            }
        }
    }
}
