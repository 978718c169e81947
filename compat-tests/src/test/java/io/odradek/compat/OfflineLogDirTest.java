package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
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
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker with two log dirs, one of which hits an I/O error: that dir goes offline (its partitions answer
 * KAFKA_STORAGE_ERROR and have no leader in Metadata, as in Kafka 4), the other keeps serving, and a
 * restart after the disk is fixed brings everything back with every acknowledged record.
 */
class OfflineLogDirTest {
    @TempDir
    Path root;

    @Test
    void anIoErrorTakesOneLogDirOfflineTheOtherKeepsServingAndARestartRecoversIt() throws Exception {
        Path dirA = root.resolve("a");
        Path dirB = root.resolve("b");
        Broker broker = start(dirA, dirB, 0);
        int port = broker.port();
        Path obstacle;
        try (Admin admin = admin(port);
             KafkaProducer<String, String> producer = producer(port)) {
            // The first partition goes to the first dir, the next to the other (least loaded).
            admin.createTopics(List.of(new NewTopic("on-a", Optional.of(1), Optional.empty()),
                    new NewTopic("on-b", Optional.of(1), Optional.empty()))).all().get();
            assertThat(dirA.resolve("on-a-0")).isDirectory();
            assertThat(dirB.resolve("on-b-0")).isDirectory();
            producer.send(new ProducerRecord<>("on-a", "a0")).get();
            producer.send(new ProducerRecord<>("on-b", "b0")).get();
            // A non-empty directory where on-a-0's next segment goes: its roll fails with an I/O error.
            obstacle = dirA.resolve("on-a-0").resolve("00000000000000000001.log");
            Files.createDirectories(obstacle);
            Files.writeString(obstacle.resolve("x"), "x");

            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("on-a", "a1")).get())
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(KafkaStorageException.class);

            TopicDescription offline = admin.describeTopics(List.of("on-a")).allTopicNames().get().get("on-a");
            assertThat(offline.partitions().get(0).leader()).isNull();
            assertThat(offline.partitions().get(0).replicas()).extracting(Node::id).containsExactly(1);
            producer.send(new ProducerRecord<>("on-b", "b1")).get();
            assertThat(read(port, "on-b")).containsExactly("b0", "b1");
        } finally {
            broker.close();
        }
        Files.delete(obstacle.resolve("x"));
        Files.delete(obstacle);

        broker = start(dirA, dirB, port);
        try (KafkaProducer<String, String> producer = producer(port)) {
            producer.send(new ProducerRecord<>("on-a", "a1")).get();
            assertThat(read(port, "on-a")).containsExactly("a0", "a1");
            assertThat(read(port, "on-b")).containsExactly("b0", "b1");
        } finally {
            broker.close();
        }
    }

    /** Segments of 100 bytes: the second batch of a partition rolls a new segment file. */
    private static Broker start(Path dirA, Path dirB, int port) throws InterruptedException {
        Map<String, String> config = new HashMap<>();
        config.put("node.id", "1");
        config.put("listeners", "PLAINTEXT://127.0.0.1:" + port);
        config.put("log.dirs", dirA + "," + dirB);
        config.put("log.segment.bytes", "100");
        return Broker.start(BrokerConfig.of(config));
    }

    private static Admin admin(int port) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port));
    }

    private static KafkaProducer<String, String> producer(int port) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port,
                ProducerConfig.RETRIES_CONFIG, 0, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false),
                new StringSerializer(), new StringSerializer());
    }

    private static List<String> read(int port, String topic) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port), new StringDeserializer(),
                new StringDeserializer())) {
            return Clients.readAll(consumer, List.of(new TopicPartition(topic, 0)), Duration.ofSeconds(30)).stream()
                    .map(ConsumerRecord::value).toList();
        }
    }
}
