package io.odradek.compat;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An Odradek broker running in this JVM on a loopback port and a fresh log dir, for tests with real
 * Kafka clients. Registered on a static field it serves the whole class; on an instance field, each test
 * gets its own. {@link #restart()} closes it and starts it again on the same log dir and port, so clients
 * that know the old address carry on. Clients made through it are closed before the broker.
 */
public final class OdradekBroker implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback {
    private final Map<String, String> overrides;
    private final Deque<AutoCloseable> clients = new ArrayDeque<>();
    private Path logDir;
    private Broker broker;
    /** Instead of Odradek, a real Kafka 4.4 when -Dcompat.kafka.libs is given (see {@link KafkaProcess}). */
    private KafkaProcess kafka;
    private int port;
    private boolean perClass;
    private Admin admin;

    private OdradekBroker(Map<String, String> overrides) {
        this.overrides = Map.copyOf(overrides);
    }

    public static OdradekBroker withDefaults() {
        return new OdradekBroker(Map.of());
    }

    /** A broker with these configs (Kafka's keys) on top of the listener and log dir the harness picks. */
    public static OdradekBroker withConfig(Map<String, String> overrides) {
        return new OdradekBroker(overrides);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        perClass = true;
        begin();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (!perClass) {
            begin();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            end();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        end();
    }

    private void begin() throws IOException, InterruptedException {
        logDir = Files.createTempDirectory("odradek-compat-");
        port = 0;
        Path kafkaLibs = KafkaProcess.libsOrNull();
        kafka = kafkaLibs == null ? null : new KafkaProcess(kafkaLibs, logDir, overrides);
        start();
    }

    private void end() {
        try {
            closeClients();
            stop();
        } finally {
            deleteRecursively(logDir);
        }
    }

    /** Starts the broker on the log dir, on the port it had before (or any free port the first time). */
    public void start() throws InterruptedException {
        if (broker != null) {
            throw new IllegalStateException("the broker is already running");
        }
        if (kafka != null) {
            try {
                kafka.start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            port = kafka.port();
            return;
        }
        Map<String, String> config = new HashMap<>();
        config.put("node.id", "1");
        config.putAll(overrides);
        // issue 10 (sasl): a test may name its listener's protocol (e.g. SASL_PLAINTEXT://127.0.0.1:0); the port is ours.
        String listener = overrides.getOrDefault("listeners", "PLAINTEXT://");
        config.put("listeners", listener.substring(0, listener.indexOf("://")) + "://127.0.0.1:" + port);
        config.put("log.dirs", logDir.toString());
        broker = Broker.start(BrokerConfig.of(config));
        port = broker.port();
    }

    /** Stops the broker as a clean shutdown would; its clients stay open and reconnect after {@link #start()}. */
    public void stop() {
        if (kafka != null) {
            try {
                kafka.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        if (broker != null) {
            Broker b = broker;
            broker = null;
            b.close();
        }
    }

    /**
     * Stops the broker and removes the clean-shutdown marker it left ({@code .kafka_cleanshutdown}, as
     * Kafka names it), so the next start treats the log dir as after a crash and recovers it.
     */
    public void stopAsIfCrashed() throws IOException {
        stop();
        Files.deleteIfExists(logDir.resolve(".kafka_cleanshutdown"));
    }

    public void restart() throws InterruptedException {
        stop();
        start();
    }

    public String bootstrap() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public Path logDir() {
        return logDir;
    }

    /** The directory of one partition's log, as Kafka names it. */
    public Path partitionDir(String topic, int partition) {
        return logDir.resolve(topic + "-" + partition);
    }

    public Broker broker() {
        return Optional.ofNullable(broker).orElseThrow(() -> new IllegalStateException("the broker is stopped"));
    }

    /** One Admin client per broker lifetime in the test (it reconnects across restarts). */
    public Admin admin() {
        if (admin == null) {
            admin = track(Admin.create(Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000",
                    AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000")));
        }
        return admin;
    }

    /** Creates a topic with replication factor 1 and waits for the broker to confirm it. */
    public void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    public void createTopic(String name, int partitions, Map<String, String> configs) {
        NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(configs);
        await(admin().createTopics(java.util.List.of(topic)).all());
    }

    /** Registers a client to be closed when the test (or class) ends, before the broker stops. */
    public <T extends AutoCloseable> T track(T client) {
        clients.push(client);
        return client;
    }

    /** Closes every client made through this harness (they would otherwise retry a stopped broker). */
    public void closeClients() {
        while (!clients.isEmpty()) {
            try {
                clients.pop().close();
            } catch (Exception e) {
                // a client that fails to close must not hide the test's own outcome
            }
        }
        admin = null;
    }

    /** Waits for a Kafka future, unwrapping its failure so assertions see the client's own exception. */
    public static <T> T await(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer from the broker in 60 s", e);
        }
    }

    private static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
