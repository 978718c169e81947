package io.odradek.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One embedded broker, as a test would use it: start, create topics, produce and consume with a real client, close. */
class OdradekTest {
    @Test
    void recordsProducedToACreatedTopicAreConsumedByAGroupWithTheirKeysValuesAndOffsets() throws Exception {
        try (Odradek odradek = Odradek.start()) {
            assertThat(odradek.bootstrapServers()).matches("127\\.0\\.0\\.1:\\d+");
            odradek.createTopic("orders", 1);
            try (KafkaProducer<String, String> producer = Clients.producer(odradek.bootstrapServers(), "all")) {
                for (int i = 0; i < 3; i++) {
                    RecordMetadata written = producer.send(new ProducerRecord<>("orders", "order-" + i, "item " + i))
                            .get(30, TimeUnit.SECONDS);
                    assertThat(written.partition()).isZero();
                    assertThat(written.offset()).isEqualTo(i);
                }
            }
            try (KafkaConsumer<String, String> consumer = Clients.consumer(odradek.bootstrapServers(), "billing")) {
                consumer.subscribe(List.of("orders"));
                List<ConsumerRecord<String, String>> read = Clients.pollUntil(consumer, 3);
                assertThat(read).extracting(ConsumerRecord::offset, ConsumerRecord::key, ConsumerRecord::value)
                        .containsExactly(tuple(0L, "order-0", "item 0"), tuple(1L, "order-1", "item 1"),
                                tuple(2L, "order-2", "item 2"));
                consumer.commitSync();
            }
            // The group's commit is on the broker: the offsets topic serves it back.
            try (Admin admin = Clients.admin(odradek.bootstrapServers())) {
                assertThat(admin.listConsumerGroupOffsets("billing").partitionsToOffsetAndMetadata()
                        .get(30, TimeUnit.SECONDS).values()).extracting(o -> o.offset()).containsExactly(3L);
            }
        }
    }

    @Test
    void keyedRecordsLandOnTheirMurmur2PartitionOfAThreePartitionTopic() throws Exception {
        try (Odradek odradek = Odradek.builder().brokers(1).config("num.partitions", "3").start()) {
            odradek.createTopic("customers", 3);
            try (Admin admin = Clients.admin(odradek.bootstrapServers())) {
                TopicDescription topic = admin.describeTopics(List.of("customers")).allTopicNames()
                        .get(30, TimeUnit.SECONDS).get("customers");
                assertThat(topic.partitions()).extracting(p -> p.partition()).containsExactly(0, 1, 2);
                assertThat(topic.partitions()).allSatisfy(p -> assertThat(p.leader().id()).isEqualTo(1));
            }
            List<String> keys = List.of("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan");
            try (KafkaProducer<String, String> producer = Clients.producer(odradek.bootstrapServers(), "1")) {
                for (String key : keys) {
                    producer.send(new ProducerRecord<>("customers", key, "profile of " + key)).get(30, TimeUnit.SECONDS);
                }
            }
            Map<Integer, List<String>> expected = new HashMap<>();
            for (String key : keys) {
                int partition = Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % 3;
                expected.computeIfAbsent(partition, p -> new ArrayList<>()).add(key);
            }
            assertThat(expected).as("the keys spread over more than one partition").hasSizeGreaterThan(1);
            for (int partition = 0; partition < 3; partition++) {
                List<String> keysThere = expected.getOrDefault(partition, List.of());
                List<ConsumerRecord<String, String>> read = Clients.readPartition(odradek.bootstrapServers(),
                        "customers", partition, keysThere.size());
                assertThat(read).extracting(ConsumerRecord::key).as("partition " + partition)
                        .containsExactlyElementsOf(keysThere);
                assertThat(read).extracting(ConsumerRecord::offset)
                        .containsExactlyElementsOf(offsets(keysThere.size()));
                assertThat(read).allSatisfy(r -> assertThat(r.value()).isEqualTo("profile of " + r.key()));
            }
        }
    }

    @Test
    void aTopicCreatedByTheFirstProduceGetsTheConfiguredPartitionCount() throws Exception {
        try (Odradek odradek = Odradek.builder().config("num.partitions", "3").start();
                KafkaProducer<String, String> producer = Clients.producer(odradek.bootstrapServers(), "1")) {
            RecordMetadata written = producer.send(new ProducerRecord<>("auto-created", 2, "k", "v"))
                    .get(30, TimeUnit.SECONDS);
            assertThat(written.partition()).isEqualTo(2);
            assertThat(odradek.brokers().get(0).topics().topic("auto-created").orElseThrow().partitions())
                    .isEqualTo(3);
        }
    }

    @Test
    void closeStopsTheBrokerAndDeletesItsTemporaryDataDirectory() throws Exception {
        Odradek odradek = Odradek.start();
        Path dataDir = odradek.dataDir();
        odradek.createTopic("doomed", 2);
        assertThat(dataDir.resolve("node-1").resolve("doomed-0")).isDirectory();
        assertThat(dataDir.resolve("node-1").resolve("doomed-1")).isDirectory();

        odradek.close();

        assertThat(dataDir).doesNotExist();
        assertThatThrownBy(() -> RawApiVersions.ask(odradek.bootstrapServers(), 1))
                .isInstanceOf(java.io.IOException.class);
        odradek.close(); // a second close is harmless
    }

    @Test
    void aDataDirGivenToTheBuilderIsKeptAndAStartOnItFindsTheRecords(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("kafka-data");
        try (Odradek first = Odradek.builder().dataDir(data).start()) {
            first.createTopic("kept", 1);
            try (KafkaProducer<String, String> producer = Clients.producer(first.bootstrapServers(), "all")) {
                producer.send(new ProducerRecord<>("kept", "k", "survives")).get(30, TimeUnit.SECONDS);
            }
        }
        assertThat(data.resolve("node-1").resolve("kept-0")).isDirectory();
        try (Odradek second = Odradek.builder().dataDir(data).start()) {
            List<ConsumerRecord<String, String>> read = Clients.readPartition(second.bootstrapServers(), "kept", 0, 1);
            assertThat(read).extracting(ConsumerRecord::offset, ConsumerRecord::key, ConsumerRecord::value)
                    .containsExactly(tuple(0L, "k", "survives"));
        }
        assertThat(Files.isDirectory(data.resolve("node-1"))).isTrue();
    }

    @Test
    void creatingATopicThatExistsNamesKafkasError() {
        try (Odradek odradek = Odradek.start()) {
            odradek.createTopic("once", 1);
            assertThatThrownBy(() -> odradek.createTopic("once", 1))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("TOPIC_ALREADY_EXISTS");
            assertThatThrownBy(() -> odradek.createTopic("wide", 1, 2))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("broker count, 1");
        }
    }

    @Test
    void keysEachNodeOwnsAreRefusedWithTheBuilderMethodToUse() {
        assertThatThrownBy(() -> Odradek.builder().config("log.dirs", "/tmp/x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dataDir(");
        assertThatThrownBy(() -> Odradek.builder().configs(Map.of("node.id", "7")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("node.id");
        assertThatThrownBy(() -> Odradek.builder().brokers(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void jmxIsOffUnlessConfigured() throws Exception {
        javax.management.MBeanServer jmx = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName messagesIn =
                new javax.management.ObjectName("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec");
        try (Odradek odradek = Odradek.start()) {
            assertThat(odradek.brokers()).hasSize(1);
            assertThat(jmx.isRegistered(messagesIn)).isFalse();
        }
        try (Odradek odradek = Odradek.builder().config("odradek.metrics.jmx.enable", "true").start()) {
            assertThat(odradek.brokers()).hasSize(1);
            assertThat(jmx.isRegistered(messagesIn)).isTrue();
        }
        assertThat(jmx.isRegistered(messagesIn)).as("unregistered on close").isFalse();
    }

    @Test
    void theMetricsHttpEndpointIsOffUnlessAPortIsConfigured() throws Exception {
        try (Odradek odradek = Odradek.start()) {
            assertThat(odradek.brokers().get(0).operations().httpPort()).isEqualTo(-1);
        }
        try (Odradek odradek = Odradek.builder().config("odradek.metrics.port", "0")
                .config("odradek.metrics.host", "127.0.0.1").start()) {
            int port = odradek.brokers().get(0).operations().httpPort();
            java.net.HttpURLConnection http = (java.net.HttpURLConnection)
                    java.net.URI.create("http://127.0.0.1:" + port + "/metrics").toURL().openConnection();
            assertThat(http.getResponseCode()).isEqualTo(200);
            String body = new String(http.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(body).contains("kafka_server_brokertopicmetrics");
        }
    }

    @Test
    void anEmulatedKafkaVersionCapsWhatApiVersionsAdvertises() throws Exception {
        int produce = 0;
        int newest;
        try (Odradek odradek = Odradek.start()) {
            newest = RawApiVersions.ask(odradek.bootstrapServers(), 1).maxVersions().get(produce);
        }
        try (Odradek odradek = Odradek.builder().emulateVersion("2.8").start()) {
            RawApiVersions.Answer answer = RawApiVersions.ask(odradek.bootstrapServers(), 2);
            assertThat(answer.errorCode()).isZero();
            assertThat(answer.maxVersions().get(produce)).as("Produce in Kafka 2.8").isEqualTo(9).isLessThan(newest);
        }
    }

    private static List<Long> offsets(int count) {
        List<Long> offsets = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            offsets.add(i);
        }
        return offsets;
    }
}
