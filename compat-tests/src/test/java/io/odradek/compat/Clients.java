package io.odradek.compat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Stock Kafka clients pointed at a test broker, configured only where a user would configure them, and waits
 * on what they see (public: the external-client tests wait on the same offsets).
 */
public final class Clients {
    private Clients() {
    }

    /** A producer with Kafka's defaults (idempotent, acks=all) plus the given settings. */
    static KafkaProducer<String, String> producer(OdradekBroker broker, Map<String, Object> settings) {
        return broker.track(new KafkaProducer<>(producerConfig(broker, settings), new StringSerializer(),
                new StringSerializer()));
    }

    /** A producer with this transactional.id, its transactions already initialised (initTransactions). */
    static KafkaProducer<String, String> transactionalProducer(OdradekBroker broker, String transactionalId,
            Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        KafkaProducer<String, String> producer = producer(broker, config);
        producer.initTransactions();
        return producer;
    }

    static KafkaProducer<byte[], byte[]> bytesProducer(OdradekBroker broker, Map<String, Object> settings) {
        return broker.track(new KafkaProducer<>(producerConfig(broker, settings), new ByteArraySerializer(),
                new ByteArraySerializer()));
    }

    /** A consumer without a group (for assign()), reading large fetches. */
    static KafkaConsumer<String, String> consumer(OdradekBroker broker, Map<String, Object> settings) {
        return broker.track(new KafkaConsumer<>(consumerConfig(broker, settings), new StringDeserializer(),
                new StringDeserializer()));
    }

    static KafkaConsumer<byte[], byte[]> bytesConsumer(OdradekBroker broker, Map<String, Object> settings) {
        return broker.track(new KafkaConsumer<>(consumerConfig(broker, settings), new ByteArrayDeserializer(),
                new ByteArrayDeserializer()));
    }

    private static Map<String, Object> producerConfig(OdradekBroker broker, Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        config.putAll(settings);
        return config;
    }

    private static Map<String, Object> consumerConfig(OdradekBroker broker, Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4 * 1024 * 1024);
        config.putAll(settings);
        return config;
    }

    static List<TopicPartition> partitions(String topic, int count) {
        return IntStream.range(0, count).mapToObj(p -> new TopicPartition(topic, p)).toList();
    }

    /**
     * Assigns the partitions, seeks to their beginning and polls until the consumer's position reaches
     * each partition's end offset (as the broker reports it). Fails if that takes longer than the timeout.
     */
    static <K, V> List<ConsumerRecord<K, V>> readAll(KafkaConsumer<K, V> consumer, Collection<TopicPartition> partitions,
            Duration timeout) {
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
        List<ConsumerRecord<K, V>> records = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!reached(consumer, end)) {
            if (System.nanoTime() > deadline) {
                Map<TopicPartition, Long> positions = partitions.stream()
                        .collect(Collectors.toMap(tp -> tp, consumer::position));
                throw new AssertionError("consumer did not reach the end offsets " + end + " within " + timeout
                        + "; positions " + positions + " after " + records.size() + " records");
            }
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
        return records;
    }

    /**
     * Every record of a topic read from the beginning to the end offsets at that isolation.level (read_committed:
     * the last stable offset), ordered by partition and offset, by a consumer closed afterwards.
     */
    static List<ConsumerRecord<String, String>> readAtIsolation(OdradekBroker broker, String topic, int partitions,
            String isolation) {
        return readAtIsolation(broker, topic, partitions, isolation, Map.of());
    }

    /** As above, with these consumer settings too (e.g. small fetches). */
    static List<ConsumerRecord<String, String>> readAtIsolation(OdradekBroker broker, String topic, int partitions,
            String isolation, Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig(broker, config),
                new StringDeserializer(), new StringDeserializer())) {
            List<ConsumerRecord<String, String>> records = new ArrayList<>(readAll(consumer,
                    partitions(topic, partitions), Duration.ofSeconds(60)));
            records.sort(Comparator.<ConsumerRecord<String, String>>comparingInt(ConsumerRecord::partition)
                    .thenComparingLong(ConsumerRecord::offset));
            return records;
        }
    }

    /** ListOffsets latest at that isolation.level, partition by partition: high watermarks or last stable offsets. */
    public static List<Long> endOffsets(OdradekBroker broker, String topic, int partitions, String isolation) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig(broker,
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation)), new StringDeserializer(),
                new StringDeserializer())) {
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions(topic, partitions), Duration.ofSeconds(60));
            return IntStream.range(0, partitions).mapToObj(p -> end.get(new TopicPartition(topic, p))).toList();
        }
    }

    /**
     * Waits (up to 30 s) until the read_committed end offsets (last stable offsets) are these. A producer's
     * commitTransaction returns once the coordinator has decided (PrepareCommit written); the markers follow,
     * so a reader that must see the outcome waits for them here.
     */
    public static void awaitLastStableOffsets(OdradekBroker broker, String topic, List<Long> expected)
            throws InterruptedException {
        awaitEndOffsets(broker, topic, "read_committed", expected);
    }

    /**
     * Waits (up to 30 s) until the high watermarks are these: e.g. until another producer's markers are
     * written, before writing at an offset the test predicts.
     */
    public static void awaitHighWatermarks(OdradekBroker broker, String topic, List<Long> expected)
            throws InterruptedException {
        awaitEndOffsets(broker, topic, "read_uncommitted", expected);
    }

    /** Waits (up to 30 s) until no transaction is open on the topic: every last stable offset at the high watermark. */
    public static void awaitNoOpenTransactions(OdradekBroker broker, String topic, int partitions)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<Long> stable = endOffsets(broker, topic, partitions, "read_committed");
        List<Long> high = endOffsets(broker, topic, partitions, "read_uncommitted");
        while (!stable.equals(high) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            stable = endOffsets(broker, topic, partitions, "read_committed");
            high = endOffsets(broker, topic, partitions, "read_uncommitted");
        }
        if (!stable.equals(high)) {
            throw new AssertionError("transactions still open on " + topic + " after 30 s: last stable offsets "
                    + stable + ", high watermarks " + high);
        }
    }

    /** Waits (up to 30 s) until the coordinator describes the transactional id in this state. */
    public static void awaitTransactionState(OdradekBroker broker, String transactionalId, TransactionState state)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        TransactionState now = describe(broker, transactionalId);
        while (now != state && System.nanoTime() < deadline) {
            Thread.sleep(100);
            now = describe(broker, transactionalId);
        }
        if (now != state) {
            throw new AssertionError(transactionalId + " still " + now + " after 30 s, expected " + state);
        }
    }

    private static TransactionState describe(OdradekBroker broker, String transactionalId) {
        return OdradekBroker.await(broker.admin().describeTransactions(List.of(transactionalId))
                .description(transactionalId)).state();
    }

    private static void awaitEndOffsets(OdradekBroker broker, String topic, String isolation, List<Long> expected)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<Long> end = endOffsets(broker, topic, expected.size(), isolation);
        while (!end.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            end = endOffsets(broker, topic, expected.size(), isolation);
        }
        if (!end.equals(expected)) {
            throw new AssertionError(isolation + " end offsets of " + topic + ": expected " + expected
                    + " within 30 s, still " + end + " (last stable offsets " + endOffsets(broker, topic,
                    expected.size(), "read_committed") + ", high watermarks " + endOffsets(broker, topic,
                    expected.size(), "read_uncommitted") + ")");
        }
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }
}
