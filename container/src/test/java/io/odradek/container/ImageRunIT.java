package io.odradek.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The built image run without Docker (see {@link ChrootContainer}): first exactly as Testcontainers' KafkaContainer
 * (1.21.4) runs apache/kafka (its env, its {@code sh -c} command waiting for /tmp/testcontainers_start.sh, the
 * start script it writes, its wait for "Transitioning from RECOVERY to RUNNING"), then with the image's own CMD on
 * the same data volume. The one change: the host's network is shared, so its fixed ports 9092/9093/9094 become
 * free ports. Skipped, saying why, where not root or util-linux is missing.
 */
class ImageRunIT {
    /** KafkaContainer's command (KafkaHelper.COMMAND). */
    static final List<String> KAFKA_CONTAINER_COMMAND = List.of("sh", "-c",
            "while [ ! -f /tmp/testcontainers_start.sh ]; do sleep 0.1; done; /tmp/testcontainers_start.sh");
    /** KafkaContainer's wait strategy: Wait.forLogMessage(".*Transitioning from RECOVERY to RUNNING.*", 1). */
    static final String KAFKA_CONTAINER_READY = ".*Transitioning from RECOVERY to RUNNING.*";

    static Path work;
    static Path root;
    static Map<String, String> imageEnv = new HashMap<>();

    @BeforeAll
    static void extractImage() throws Exception {
        Optional<String> why = ChrootContainer.unavailableReason();
        assumeTrue(why.isEmpty(), () -> "image not run: " + why.orElse(""));
        ImageArchive image = ImageArchive.read(ImageArchive.built());
        for (Object entry : Json.array(image.containerConfig().get("Env"))) {
            String e = (String) entry;
            imageEnv.put(e.substring(0, e.indexOf('=')), e.substring(e.indexOf('=') + 1));
        }
        work = Files.createTempDirectory("odradek-image-run");
        root = Files.createDirectories(work.resolve("rootfs"));
        ChrootContainer.extract(ImageArchive.built(), image, root);
    }

    @AfterAll
    static void removeRoot() throws Exception {
        if (work != null) {
            new ProcessBuilder("rm", "-rf", work.toString()).inheritIO().start().waitFor();
        }
    }

    /** What KafkaHelper.envVars() sets, ports 9092/9093/9094 replaced by {@code ports}, plus {@code extra}. */
    static Map<String, String> kafkaContainerEnv(int[] ports, Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(imageEnv);
        env.put("CLUSTER_ID", "4L6g3nShT-eMCtK--X86sw");
        env.put("KAFKA_LISTENERS", "PLAINTEXT://0.0.0.0:" + ports[0] + ",BROKER://0.0.0.0:" + ports[1]
                + ",CONTROLLER://0.0.0.0:" + ports[2]);
        env.put("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP", "BROKER:PLAINTEXT,PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        env.put("KAFKA_INTER_BROKER_LISTENER_NAME", "BROKER");
        env.put("KAFKA_PROCESS_ROLES", "broker,controller");
        env.put("KAFKA_CONTROLLER_LISTENER_NAMES", "CONTROLLER");
        env.put("KAFKA_NODE_ID", "1");
        env.put("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@localhost:" + ports[2]);
        env.put("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1");
        env.put("KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS", "1");
        env.put("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1");
        env.put("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1");
        env.put("KAFKA_LOG_FLUSH_INTERVAL_MESSAGES", "9223372036854775807");
        env.put("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        env.put("HOSTNAME", "odradek-test");
        env.putAll(extra);
        return env;
    }

    /** The script KafkaContainer.containerIsStarting copies to /tmp/testcontainers_start.sh (mode 0777). */
    static void writeStartScript(String advertised) throws IOException, InterruptedException {
        Path script = root.resolve("tmp/testcontainers_start.sh");
        Files.writeString(script, "#!/bin/bash\n" + "export KAFKA_ADVERTISED_LISTENERS=" + advertised + "\n"
                + "/etc/kafka/docker/run \n");
        new ProcessBuilder("chmod", "0777", script.toString()).start().waitFor();
    }

    @Test
    void startsAsKafkaContainerStartsApacheKafkaServesClientsStopsCleanlyOnSigtermAndKeepsItsDataAcrossRestarts()
            throws Exception {
        int[] ports = freePorts(3);
        Path data = Files.createDirectories(work.resolve("data"));
        new ProcessBuilder("chown", "1000:1000", data.toString()).start().waitFor();
        String bootstrap = "localhost:" + ports[0];
        String advertised = "PLAINTEXT://" + bootstrap + ",BROKER://localhost:" + ports[1];
        Map<String, String> env = kafkaContainerEnv(ports, Map.of("KAFKA_NUM_PARTITIONS", "3"));
        List<RecordMetadata> written = new ArrayList<>();

        try (ChrootContainer container = ChrootContainer.start(root, data, env, KAFKA_CONTAINER_COMMAND)) {
            Thread.sleep(300); // the command polls for the script, which Testcontainers copies in once started
            writeStartScript(advertised);
            container.awaitLine(KAFKA_CONTAINER_READY, 90_000);
            assertReadyAfterThisRunRegistered(container.output());
            assertThat(container.output()).contains("===> Formatted [/var/lib/kafka/data] with cluster id "
                    + "4L6g3nShT-eMCtK--X86sw");

            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                // No partition count given: the broker's num.partitions, set as KAFKA_NUM_PARTITIONS=3.
                admin.createTopics(List.of(new NewTopic("orders", Optional.empty(), Optional.empty()))).all().get();
                TopicDescription orders = admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
                assertThat(orders.partitions()).hasSize(3);
                assertThat(admin.describeCluster().clusterId().get()).isEqualTo("4L6g3nShT-eMCtK--X86sw");
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(bootstrap))) {
                for (int i = 0; i < 3; i++) {
                    written.add(producer.send(new ProducerRecord<>("orders", 0, "k" + i, "v" + i)).get());
                }
            }
            assertThat(written).extracting(RecordMetadata::offset).containsExactly(0L, 1L, 2L);
            assertThat(consumeAll(bootstrap, 3)).containsExactly("0:k0=v0", "1:k1=v1", "2:k2=v2");

            assertThat(container.terminate(30_000)).as("exit status after SIGTERM: 128 + 15, as Kafka's")
                    .isEqualTo(143);
            assertThat(container.output()).anyMatch(line -> line.contains("Main: stopped cleanly in"));
        }
        assertThat(Files.readString(data.resolve("meta.properties"))).contains("cluster.id=4L6g3nShT-eMCtK--X86sw");

        // Again on the same volume, with the image's own CMD (the JVM is the namespace's PID 1, as under Docker).
        Map<String, String> again = kafkaContainerEnv(ports, Map.of("KAFKA_ADVERTISED_LISTENERS", advertised));
        try (ChrootContainer container = ChrootContainer.start(root, data, again, List.of("/etc/kafka/docker/run"))) {
            container.awaitLine(KAFKA_CONTAINER_READY, 90_000);
            assertThat(container.output()).noneMatch(line -> line.startsWith("===> Formatted"));
            assertReadyAfterThisRunRegistered(container.output());
            assertThat(consumeAll(bootstrap, 3)).containsExactly("0:k0=v0", "1:k1=v1", "2:k2=v2");
            assertThat(container.terminate(30_000)).isEqualTo(143);
            assertThat(container.output()).anyMatch(line -> line.contains("Main: stopped cleanly in"));
        }
    }

    /** Ready is logged once this run's broker registered (not on the last run's state read from the volume). */
    static void assertReadyAfterThisRunRegistered(List<String> output) {
        int registered = -1;
        int ready = -1;
        for (int i = 0; i < output.size(); i++) {
            if (registered < 0 && output.get(i).contains("ClusterNode: broker 1 registered with epoch")) {
                registered = i;
            }
            if (ready < 0 && output.get(i).matches(KAFKA_CONTAINER_READY)) {
                ready = i;
            }
        }
        assertThat(registered).as("registration line").isNotNegative();
        assertThat(ready).as("ready line after the registration").isGreaterThan(registered);
    }

    static Properties producerProps(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return p;
    }

    /** "offset:key=value" of partition orders-0 from its start, once {@code count} records are read. */
    static List<String> consumeAll(String bootstrap, int count) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            TopicPartition orders0 = new TopicPartition("orders", 0);
            consumer.assign(List.of(orders0));
            consumer.seekToBeginning(List.of(orders0));
            long deadline = System.currentTimeMillis() + 30_000;
            while (read.size() < count && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    read.add(r.offset() + ":" + r.key() + "=" + r.value());
                }
            }
        }
        return read;
    }

    static int[] freePorts(int count) throws IOException {
        int[] ports = new int[count];
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                ServerSocket s = new ServerSocket(0);
                held.add(s);
                ports[i] = s.getLocalPort();
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        return ports;
    }
}
