package io.odradek.compat;

import static io.odradek.compat.OdradekBroker.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.odradek.broker.api.BrokerFeatures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.server.common.MetadataVersion;
import org.apache.kafka.tools.DeleteRecordsCommand;
import org.apache.kafka.tools.FeatureCommand;
import org.apache.kafka.tools.GetOffsetShell;
import org.apache.kafka.tools.LeaderElectionCommand;
import org.apache.kafka.tools.LogDirsCommand;
import org.apache.kafka.tools.TopicCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka 4.4's admin tools against a single Odradek node, each tool's output checked against what the broker
 * holds: kafka-get-offsets, kafka-delete-records, kafka-topics --alter --partitions, kafka-log-dirs,
 * kafka-leader-election, kafka-features, and kafka-reassign-partitions moving a replica between log dirs.
 */
class AdminToolsTest {
    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of());

    @TempDir
    Path scratch;

    /** Sends one record per batch to partition 0 of {@code topic}: value "v<i>", key "k<i>", timestamp 1000 * (i + 1). */
    private void produceTimed(String topic, int count) throws Exception {
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of());
        for (int i = 0; i < count; i++) {
            producer.send(new ProducerRecord<>(topic, 0, 1_000L * (i + 1), "k" + i, "v" + i)).get();
        }
    }

    private KafkaTool.Exited getOffsets(String topic, String time) throws Exception {
        KafkaTool.Exited out = KafkaTool.runToExit(GetOffsetShell::main, "--bootstrap-server", broker.bootstrap(),
                "--topic", topic, "--time", time);
        assertThat(out.status()).as(out.stderr()).isZero();
        return out;
    }

    private KafkaTool.Exited deleteRecords(String json) throws Exception {
        Path file = scratch.resolve("offsets-" + System.nanoTime() + ".json");
        Files.writeString(file, json);
        return KafkaTool.runToExit(DeleteRecordsCommand::main, "--bootstrap-server", broker.bootstrap(),
                "--offset-json-file", file.toString());
    }

    private List<String> readFromBeginning(String topic, int partitions) {
        List<String> out = new ArrayList<>();
        for (ConsumerRecord<String, String> r : Clients.readAll(Clients.consumer(broker, Map.of()),
                Clients.partitions(topic, partitions), Duration.ofSeconds(30))) {
            out.add(r.partition() + "@" + r.offset() + ":" + r.key() + "=" + r.value());
        }
        return out;
    }

    @Test
    void getOffsetsAnswersEarliestLatestMaxTimestampAndTheFirstOffsetAtATime() throws Exception {
        broker.createTopic("orders", 2);
        produceTimed("orders", 5);

        assertThat(getOffsets("orders", "-2").stdout()).isEqualTo("orders:0:0\norders:1:0\n");
        assertThat(getOffsets("orders", "earliest").stdout()).isEqualTo("orders:0:0\norders:1:0\n");
        assertThat(getOffsets("orders", "-1").stdout()).isEqualTo("orders:0:5\norders:1:0\n");
        assertThat(getOffsets("orders", "max-timestamp").stdout()).isEqualTo("orders:0:4\n");
        // The first record at or after 2500 ms is offset 2 (3000 ms); the empty partition has none, so it is left out.
        assertThat(getOffsets("orders", "2500").stdout()).isEqualTo("orders:0:2\n");
        assertThat(getOffsets("orders", "3000").stdout()).isEqualTo("orders:0:2\n");
        assertThat(getOffsets("orders", "5001").stdout()).isEmpty();
    }

    @Test
    void deleteRecordsReportsTheLowWatermarkAndConsumersStartThere() throws Exception {
        broker.createTopic("orders", 2);
        produceTimed("orders", 5);

        KafkaTool.Exited deleted = deleteRecords("{\"partitions\":[{\"topic\":\"orders\",\"partition\":0,\"offset\":3}],"
                + "\"version\":1}");

        assertThat(deleted.status()).as(deleted.stderr()).isZero();
        assertThat(deleted.stdout()).isEqualTo("Executing records delete operation\n"
                + "Records delete operation completed:\npartition: orders-0\tlow_watermark: 3\n");
        assertThat(getOffsets("orders", "-2").stdout()).isEqualTo("orders:0:3\norders:1:0\n");
        assertThat(getOffsets("orders", "-1").stdout()).isEqualTo("orders:0:5\norders:1:0\n");
        assertThat(readFromBeginning("orders", 2)).containsExactly("0@3:k3=v3", "0@4:k4=v4");
        // A timestamp lookup no longer finds the deleted records.
        assertThat(getOffsets("orders", "0").stdout()).isEqualTo("orders:0:3\n");
    }

    @Test
    void deleteRecordsToMinusOneEmptiesThePartitionUpToTheHighWatermark() throws Exception {
        broker.createTopic("orders", 1);
        produceTimed("orders", 4);

        KafkaTool.Exited deleted = deleteRecords("{\"partitions\":[{\"topic\":\"orders\",\"partition\":0,\"offset\":-1}]}");

        assertThat(deleted.stdout()).endsWith("partition: orders-0\tlow_watermark: 4\n");
        assertThat(getOffsets("orders", "-2").stdout()).isEqualTo("orders:0:4\n");
        assertThat(readFromBeginning("orders", 1)).isEmpty();
    }

    @Test
    void deleteRecordsPastTheHighWatermarkReportsOffsetOutOfRangeAndDeletesNothing() throws Exception {
        broker.createTopic("orders", 1);
        produceTimed("orders", 2);

        KafkaTool.Exited deleted = deleteRecords("{\"partitions\":[{\"topic\":\"orders\",\"partition\":0,\"offset\":7}]}");

        assertThat(deleted.stdout()).endsWith("partition: orders-0\terror: "
                + "org.apache.kafka.common.errors.OffsetOutOfRangeException: The requested offset is not within the"
                + " range of offsets maintained by the server.\n");
        assertThat(getOffsets("orders", "-2").stdout()).isEqualTo("orders:0:0\n");
        assertThat(readFromBeginning("orders", 1)).containsExactly("0@0:k0=v0", "0@1:k1=v1");
    }

    @Test
    void deletedRecordsStayDeletedAcrossACrashAndACleanRestart() throws Exception {
        broker.createTopic("orders", 1);
        produceTimed("orders", 5);
        deleteRecords("{\"partitions\":[{\"topic\":\"orders\",\"partition\":0,\"offset\":2}]}");
        broker.closeClients();

        broker.stopAsIfCrashed();
        broker.start();
        assertThat(getOffsets("orders", "-2").stdout()).isEqualTo("orders:0:2\n");
        assertThat(readFromBeginning("orders", 1)).containsExactly("0@2:k2=v2", "0@3:k3=v3", "0@4:k4=v4");
        broker.closeClients();

        broker.restart();
        assertThat(getOffsets("orders", "-2").stdout()).isEqualTo("orders:0:2\n");
        assertThat(Files.readString(broker.logDir().resolve("log-start-offset-checkpoint"))).contains("orders 0 2\n");
    }

    @Test
    void deleteRecordsRemovesTheSegmentsWhollyBelowTheNewStartAndLogDirsShowsTheSmallerSize() throws Exception {
        broker.createTopic("small-segments", 1, Map.of("segment.bytes", "200"));
        produceTimed("small-segments", 6); // one batch of ~80 bytes per record: segments of two batches
        List<String> before = segmentFiles(broker.partitionDir("small-segments", 0));
        assertThat(before).hasSizeGreaterThan(2);

        deleteRecords("{\"partitions\":[{\"topic\":\"small-segments\",\"partition\":0,\"offset\":5}]}");

        List<String> after = segmentFiles(broker.partitionDir("small-segments", 0));
        assertThat(after).hasSizeLessThan(before.size()).contains("00000000000000000004.log");
        assertThat(logDirsPartitionSizes()).containsEntry("small-segments-0",
                onDiskSize(broker.partitionDir("small-segments", 0)));
    }

    @Test
    void topicsAlterPartitionsThenKeyedRecordsLandWhereMurmur2OverTheNewCountSays() throws Exception {
        broker.createTopic("keyed", 2);
        KafkaProducer<String, String> before = Clients.producer(broker, Map.of());
        for (int i = 0; i < 10; i++) {
            RecordMetadata m = before.send(new ProducerRecord<>("keyed", "key-" + i, "before-" + i)).get();
            assertThat(m.partition()).as("key-%d before", i).isEqualTo(partitionFor("key-" + i, 2));
        }

        // kafka-topics exits from a finally block and then again from main, so its status is not telling here.
        KafkaTool.runToExit(TopicCommand::main, "--bootstrap-server", broker.bootstrap(),
                "--alter", "--topic", "keyed", "--partitions", "5");

        KafkaProducer<String, String> after = Clients.producer(broker, Map.of()); // fresh metadata: 5 partitions
        Map<Integer, List<String>> expected = new TreeMap<>();
        for (int i = 0; i < 40; i++) {
            String key = "key-" + i;
            RecordMetadata m = after.send(new ProducerRecord<>("keyed", key, "after-" + i)).get();
            assertThat(m.partition()).as(key).isEqualTo(partitionFor(key, 5));
            expected.computeIfAbsent(m.partition(), p -> new ArrayList<>()).add(key + "=after-" + i);
        }
        assertThat(expected).as("the keys spread over the new partitions too").containsKeys(2, 3, 4);

        Map<Integer, List<String>> read = new TreeMap<>();
        for (ConsumerRecord<String, String> r : Clients.readAll(Clients.consumer(broker, Map.of()),
                Clients.partitions("keyed", 5), Duration.ofSeconds(30))) {
            if (r.value().startsWith("after-")) {
                read.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r.key() + "=" + r.value());
            }
        }
        assertThat(read).isEqualTo(expected);
    }

    /** The Java producer's default partitioner for a keyed record: murmur2 of the key bytes over the count. */
    private static int partitionFor(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(java.nio.charset.StandardCharsets.UTF_8))) % partitions;
    }

    @Test
    void logDirsDescribeReportsEachPartitionWithItsSizeOnDisk() throws Exception {
        broker.createTopic("orders", 2);
        produceTimed("orders", 3);

        Map<String, Long> sizes = logDirsPartitionSizes();

        assertThat(sizes).containsEntry("orders-0", onDiskSize(broker.partitionDir("orders", 0)))
                .containsEntry("orders-1", 0L);
        assertThat(sizes.get("orders-0")).isPositive();
    }

    /** kafka-log-dirs --describe, its JSON read: partition -> size, for the one log dir of broker 1. */
    private Map<String, Long> logDirsPartitionSizes() throws Exception {
        KafkaTool.Exited dirs = KafkaTool.runToExit(LogDirsCommand::main, "--bootstrap-server", broker.bootstrap(),
                "--describe", "--broker-list", "1");
        assertThat(dirs.status()).as(dirs.stderr()).isZero();
        String json = dirs.stdout().lines().filter(l -> l.startsWith("{")).findFirst().orElseThrow();
        JsonNode root = new ObjectMapper().readTree(json);
        assertThat(root.get("version").asInt()).isEqualTo(1);
        JsonNode brokerNode = root.get("brokers").get(0);
        assertThat(brokerNode.get("broker").asInt()).isEqualTo(1);
        JsonNode logDir = brokerNode.get("logDirs").get(0);
        assertThat(brokerNode.get("logDirs")).hasSize(1);
        assertThat(logDir.get("logDir").asText()).isEqualTo(broker.logDir().toAbsolutePath().normalize().toString());
        assertThat(logDir.get("error").isNull()).isTrue();
        Map<String, Long> sizes = new HashMap<>();
        for (JsonNode p : logDir.get("partitions")) {
            assertThat(p.get("offsetLag").asLong()).isZero();
            assertThat(p.get("isFuture").asBoolean()).isFalse();
            sizes.put(p.get("partition").asText(), p.get("size").asLong());
        }
        return sizes;
    }

    private static List<String> segmentFiles(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".log")).sorted().toList();
        }
    }

    /** The bytes of the partition's live segment files (what Kafka reports as a replica's size). */
    private static long onDiskSize(Path partitionDir) throws IOException {
        long total = 0;
        for (String name : segmentFiles(partitionDir)) {
            total += Files.size(partitionDir.resolve(name));
        }
        return total;
    }

    @Test
    void reassignPartitionsWithLogDirsMovesAReplicaBetweenTheBrokersLogDirs() throws Exception {
        Path dirA = Files.createDirectories(scratch.resolve("dir-a")).toAbsolutePath();
        Path dirB = Files.createDirectories(scratch.resolve("dir-b")).toAbsolutePath();
        try (io.odradek.broker.Broker twoDirs = io.odradek.broker.Broker.start(io.odradek.broker.BrokerConfig.of(Map.of(
                "node.id", "1", "listeners", "PLAINTEXT://127.0.0.1:0", "log.dirs", dirA + "," + dirB)))) {
            String bootstrap = "127.0.0.1:" + twoDirs.port();
            try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                    Map.of("bootstrap.servers", bootstrap))) {
                await(admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic("moving", 1, (short) 1))).all());
            }
            assertThat(dirA.resolve("moving-0")).isDirectory();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap),
                    new org.apache.kafka.common.serialization.StringSerializer(),
                    new org.apache.kafka.common.serialization.StringSerializer())) {
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>("moving", 0, "k" + i, "v" + i)).get();
                }
            }
            Path plan = scratch.resolve("move.json");
            Files.writeString(plan, "{\"version\":1,\"partitions\":[{\"topic\":\"moving\",\"partition\":0,"
                    + "\"replicas\":[1],\"log_dirs\":[\"" + dirB + "\"]}]}");

            KafkaTool.Output executed = KafkaTool.run(
                    org.apache.kafka.tools.reassign.ReassignPartitionsCommand::main, "--bootstrap-server", bootstrap,
                    "--execute", "--reassignment-json-file", plan.toString());
            KafkaTool.Output verified = KafkaTool.run(
                    org.apache.kafka.tools.reassign.ReassignPartitionsCommand::main, "--bootstrap-server", bootstrap,
                    "--verify", "--reassignment-json-file", plan.toString());

            assertThat(executed.stdout()).contains("Successfully started moving log directory to " + dirB
                    + " for replica moving-0 with broker 1");
            assertThat(verified.stdout()).contains("Reassignment of replica moving-0-1 completed successfully.")
                    .contains("Clearing broker-level throttles on broker 1");

            assertThat(dirB.resolve("moving-0")).isDirectory();
            assertThat(dirA.resolve("moving-0")).doesNotExist();
            KafkaTool.Exited dirs = KafkaTool.runToExit(LogDirsCommand::main, "--bootstrap-server", bootstrap,
                    "--describe", "--broker-list", "1");
            assertThat(dirs.stdout()).contains("{\"partitions\":[{\"partition\":\"moving-0\",\"size\":"
                    + onDiskSize(dirB.resolve("moving-0")) + ",\"offsetLag\":0,\"isFuture\":false}],\"error\":null,"
                    + "\"logDir\":\"" + dirB + "\"}");
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap),
                    new org.apache.kafka.common.serialization.StringDeserializer(),
                    new org.apache.kafka.common.serialization.StringDeserializer())) {
                assertThat(Clients.readAll(consumer, Clients.partitions("moving", 1), Duration.ofSeconds(30)))
                        .extracting(r -> r.offset() + ":" + r.key() + "=" + r.value())
                        .containsExactly("0:k0=v0", "1:k1=v1", "2:k2=v2");
            }
        }
    }

    @Test
    void preferredLeaderElectionOnOneNodeIsNeverNeeded() throws Exception {
        broker.createTopic("orders", 2);
        Path json = scratch.resolve("election.json");
        Files.writeString(json, "{\"partitions\":[{\"topic\":\"orders\",\"partition\":0},"
                + "{\"topic\":\"orders\",\"partition\":1}]}");

        KafkaTool.Exited named = KafkaTool.runToExit(LeaderElectionCommand::main, "--bootstrap-server",
                broker.bootstrap(), "--election-type", "preferred", "--path-to-json-file", json.toString());
        KafkaTool.Exited one = KafkaTool.runToExit(LeaderElectionCommand::main, "--bootstrap-server",
                broker.bootstrap(), "--election-type", "preferred", "--topic", "orders", "--partition", "1");
        KafkaTool.Exited all = KafkaTool.runToExit(LeaderElectionCommand::main, "--bootstrap-server",
                broker.bootstrap(), "--election-type", "preferred", "--all-topic-partitions");

        assertThat(named.status()).as(named.stderr()).isZero();
        assertThat(named.stdout()).startsWith("Valid replica already elected for partitions ")
                .contains("orders-0").contains("orders-1");
        assertThat(one.stdout()).isEqualTo("Valid replica already elected for partitions orders-1\n");
        // As Kafka's controller: an election of every partition leaves out those that need none, so nothing is printed.
        assertThat(all.status()).as(all.stderr()).isZero();
        assertThat(all.stdout()).isEmpty();
    }

    @Test
    void featuresDescribeShowsTheFeaturesTheBrokerAdvertisesInApiVersions() throws Exception {
        KafkaTool.Exited described = KafkaTool.runToExit(FeatureCommand::main, "--bootstrap-server", broker.bootstrap(),
                "describe");

        assertThat(described.status()).as(described.stderr()).isZero();
        FeatureMetadata metadata = await(broker.admin().describeFeatures().featureMetadata());
        long epoch = metadata.finalizedFeaturesEpoch().orElseThrow();
        List<String> expected = new ArrayList<>();
        for (BrokerFeatures.Feature f : BrokerFeatures.kafka44(0).features().stream()
                .sorted(java.util.Comparator.comparing(BrokerFeatures.Feature::name)).toList()) {
            boolean metadataVersion = f.name().equals(BrokerFeatures.METADATA_VERSION);
            expected.add("Feature: " + f.name() + " SupportedMinVersion: " + level(metadataVersion, f.minSupported())
                    + " SupportedMaxVersion: " + level(metadataVersion, f.maxSupported())
                    + " FinalizedVersionLevel: " + level(metadataVersion, f.finalizedLevel()) + " Epoch: " + epoch);
        }
        assertThat(described.stdout().lines().map(l -> l.trim().replaceAll("\\s+", " ")).toList())
                .containsExactlyElementsOf(expected);
    }

    /** How kafka-features prints a level: metadata.version by its release name (4.4-IV2), others as numbers. */
    private static String level(boolean metadataVersion, short level) {
        return metadataVersion ? MetadataVersion.fromFeatureLevel(level).version() : Short.toString(level);
    }
}
