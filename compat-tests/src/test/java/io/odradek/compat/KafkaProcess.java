package io.odradek.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A real Apache Kafka 4.4 broker (KRaft, one combined broker+controller node, as bench/run starts it) in a child
 * process, used by {@link OdradekBroker} instead of Odradek when the system property {@value #LIBS_PROPERTY}
 * names the directory of Kafka's jars (bench/run fetches them into bench/.cache/kafka-4.4.0/libs). It proves a
 * test's assertions true for Kafka before they judge Odradek:
 * <pre>mvn -o test -pl compat-tests -am -Dtest=ShareConsumerTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dcompat.kafka.libs=$PWD/bench/.cache/kafka-4.4.0/libs</pre>
 * The storage is formatted at the default release version of Kafka 4.4 (share.version and streams.version
 * enabled). Tests that reach into the broker object (broker()) cannot run this way.
 */
final class KafkaProcess {
    static final String LIBS_PROPERTY = "compat.kafka.libs";

    private final Path libs;
    private final Path dir;
    private final Map<String, String> overrides;
    private int port;
    private int controllerPort;
    private boolean formatted;
    private Process process;

    KafkaProcess(Path libs, Path dir, Map<String, String> overrides) {
        this.libs = libs;
        this.dir = dir;
        this.overrides = overrides;
    }

    /** The Kafka jars to run, or null to test Odradek. */
    static Path libsOrNull() {
        String libs = System.getProperty(LIBS_PROPERTY, "");
        return libs.isBlank() ? null : Path.of(libs);
    }

    int port() {
        return port;
    }

    /** Formats the storage the first time, then starts Kafka and waits until it answers Metadata. */
    void start() throws IOException, InterruptedException {
        if (port == 0) {
            port = freePort();
            controllerPort = freePort();
        }
        Path config = dir.resolve("server.properties");
        Files.writeString(config, properties(), StandardCharsets.UTF_8);
        if (!formatted) {
            String clusterId = UUID.randomUUID().toString().replace("-", "").substring(0, 22);
            run(List.of("kafka.tools.StorageTool", "format", "--standalone", "-t", clusterId, "-c", config.toString()),
                    dir.resolve("format.log"), true);
            formatted = true;
        }
        process = run(List.of("kafka.Kafka", config.toString()), dir.resolve("kafka.log"), false);
        awaitReady();
    }

    /** SIGTERM: Kafka's controlled shutdown (clean, like Odradek's close). */
    void stop() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        process = null;
    }

    private String properties() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("process.roles", "broker,controller");
        config.put("node.id", "1");
        config.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        config.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        config.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        config.put("inter.broker.listener.name", "PLAINTEXT");
        config.put("controller.listener.names", "CONTROLLER");
        config.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        config.put("log.dirs", dir.resolve("data").toString());
        config.put("offsets.topic.replication.factor", "1");
        config.put("share.coordinator.state.topic.replication.factor", "1");
        config.put("share.coordinator.state.topic.min.isr", "1");
        config.put("transaction.state.log.replication.factor", "1");
        config.put("transaction.state.log.min.isr", "1");
        config.put("group.initial.rebalance.delay.ms", "0");
        overrides.forEach((k, v) -> {
            if (!k.equals("listeners") && !k.equals("node.id") && !k.startsWith("odradek.")) {
                config.put(k, v);
            }
        });
        StringBuilder text = new StringBuilder();
        config.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        return text.toString();
    }

    private Process run(List<String> mainAndArgs, Path log, boolean waitForExit)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512M", "-cp", libs.resolve("*").toString()));
        command.addAll(mainAndArgs);
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (waitForExit && p.waitFor() != 0) {
            throw new IllegalStateException("failed: " + mainAndArgs + "\n" + Files.readString(log));
        }
        return p;
    }

    private void awaitReady() throws InterruptedException, IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000"))) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("Kafka exited:\n" + Files.readString(dir.resolve("kafka.log")));
                }
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (Exception e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("Kafka did not answer within 90 s", e);
                    }
                }
                Thread.sleep(200);
            }
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
