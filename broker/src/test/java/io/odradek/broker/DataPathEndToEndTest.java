package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's own producer and consumer against a broker on a loopback port: produce, fetch, list offsets. */
class DataPathEndToEndTest {
    @TempDir
    Path logDir;
    Broker broker;
    Admin admin;
    final List<AutoCloseable> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        broker = Broker.start(BrokerConfig.of(Map.of(
                "node.id", "1",
                "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", logDir.toString())));
        admin = track(Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap())));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable client : clients) {
            client.close();
        }
        broker.close();
    }

    @Test
    void idempotentProducerRecordsComeBackToAnAssignedConsumerWithTheirOffsets() throws Exception {
        createTopic("e2e", 2);
        KafkaProducer<String, String> producer = producer();
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            acks.add(producer.send(new ProducerRecord<>("e2e", i % 2, "key-" + i, "value-" + i)));
        }
        producer.flush();
        for (int i = 0; i < 200; i++) {
            RecordMetadata md = acks.get(i).get(30, TimeUnit.SECONDS);
            assertThat(md.partition()).isEqualTo(i % 2);
            assertThat(md.offset()).isEqualTo(i / 2);
        }

        KafkaConsumer<String, String> consumer = consumer(Map.of());
        List<TopicPartition> partitions = List.of(new TopicPartition("e2e", 0), new TopicPartition("e2e", 1));
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        List<String> seen = poll(consumer, 200);

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            expected.add((i % 2) + "@" + (i / 2) + " key-" + i + "=value-" + i);
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
        // Within a partition, offsets arrive in order.
        assertThat(seen.stream().filter(s -> s.startsWith("0@")).toList())
                .containsExactlyElementsOf(expected.stream().filter(s -> s.startsWith("0@")).toList());

        assertThat(consumer.beginningOffsets(partitions)).containsValues(0L, 0L);
        assertThat(consumer.endOffsets(partitions)).containsValues(100L, 100L);
    }

    @Test
    void aWaitingConsumerGetsNewRecordsAsSoonAsTheyAreAppended() throws Exception {
        createTopic("live", 1);
        TopicPartition tp = new TopicPartition("live", 0);
        // A long max wait: only the append's wake-up can answer the parked fetch quickly.
        KafkaConsumer<String, String> consumer = consumer(Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20000"));
        consumer.assign(List.of(tp));
        consumer.seekToEnd(List.of(tp));
        assertThat(consumer.position(tp)).isZero();
        assertThat(consumer.poll(Duration.ofMillis(300)).isEmpty()).isTrue(); // a fetch is now parked

        KafkaProducer<String, String> producer = producer();
        long sent = System.nanoTime();
        producer.send(new ProducerRecord<>("live", 0, "k", "hello")).get(30, TimeUnit.SECONDS);
        List<String> seen = poll(consumer, 1);
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);

        assertThat(seen).containsExactly("0@0 k=hello");
        assertThat(waitedMs).isLessThan(10_000);
        // Its next fetch is parked for 20 s; closing waits for it on the connection (as with Kafka) unless told not to.
        consumer.close(CloseOptions.timeout(Duration.ofMillis(100)));
    }

    @Test
    void offsetsForTimesFindsTheFirstRecordAtOrAfterATimestamp() throws Exception {
        createTopic("times", 1);
        KafkaProducer<String, String> producer = producer();
        producer.send(new ProducerRecord<>("times", 0, 1_000L, "a", "early")).get(30, TimeUnit.SECONDS);
        producer.send(new ProducerRecord<>("times", 0, 5_000L, "b", "late")).get(30, TimeUnit.SECONDS);

        KafkaConsumer<String, String> consumer = consumer(Map.of());
        TopicPartition tp = new TopicPartition("times", 0);
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(Map.of(tp, 2_000L));
        assertThat(found.get(tp).offset()).isEqualTo(1L);
        assertThat(found.get(tp).timestamp()).isEqualTo(5_000L);
        assertThat(consumer.offsetsForTimes(Map.of(tp, 9_000L)).get(tp)).isNull();
    }

    // ------------------------------------------------------------------ helpers

    private String bootstrap() {
        return "127.0.0.1:" + broker.port();
    }

    private void createTopic(String name, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }

    private KafkaProducer<String, String> producer() {
        return track(new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, "5",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000"),
                new StringSerializer(), new StringSerializer()));
    }

    private KafkaConsumer<String, String> consumer(Map<String, String> overrides) {
        Map<String, Object> config = new java.util.HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
        config.putAll(overrides);
        return track(new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer()));
    }

    /** "partition@offset key=value" for each record, polling until {@code count} arrived (30 s at most). */
    private static List<String> poll(KafkaConsumer<String, String> consumer, int count) {
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (seen.size() < count && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                seen.add(r.partition() + "@" + r.offset() + " " + r.key() + "=" + r.value());
            }
        }
        return seen;
    }

    private <T extends AutoCloseable> T track(T client) {
        clients.add(0, client);
        return client;
    }
}
