package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.StreamSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a producer writes, a consumer reads back: exactly, in order, on the partition Kafka would choose. */
class ProduceConsumeTest {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(90);

    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withDefaults();

    /** One record as the consumer sees it, comparable as a whole. */
    record Seen(int partition, long offset, String key, String value, List<String> headers) {
        static Seen of(ConsumerRecord<String, String> r) {
            List<String> headers = StreamSupport.stream(r.headers().spliterator(), false)
                    .map(h -> h.key() + "=" + Arrays.toString(h.value())).toList();
            return new Seen(r.partition(), r.offset(), r.key(), r.value(), headers);
        }
    }

    @Test
    void hundredThousandKeyedRecordsWithHeadersComeBackExactlyOnTheirKeysPartitions() throws Exception {
        String topic = "hundred-thousand";
        int partitions = 6;
        int count = 100_000;
        BROKER.createTopic(topic, partitions);

        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of());
        List<Future<RecordMetadata>> acks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            acks.add(producer.send(new ProducerRecord<>(topic, null, "key-" + i, "value-" + i, headersFor(i))));
        }
        producer.flush();

        // What the broker acknowledged, per partition in send order: the consumer must see exactly this.
        Map<Integer, List<Seen>> expected = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            RecordMetadata ack = acks.get(i).get();
            String key = "key-" + i;
            assertThat(ack.partition()).as("partition of %s", key).isEqualTo(murmur2Partition(key, partitions));
            expected.computeIfAbsent(ack.partition(), p -> new ArrayList<>())
                    .add(new Seen(ack.partition(), ack.offset(), key, "value-" + i, headerStrings(i)));
        }

        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of(
                ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 50 * 1024 * 1024));
        List<ConsumerRecord<String, String>> records = Clients.readAll(consumer,
                Clients.partitions(topic, partitions), READ_TIMEOUT);

        Map<Integer, List<Seen>> actual = new TreeMap<>();
        records.forEach(r -> actual.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(Seen.of(r)));
        assertThat(records.size()).as("records read").isEqualTo(count);
        assertThat(actual.keySet()).containsExactlyElementsOf(expected.keySet());
        for (int p : expected.keySet()) {
            List<Seen> want = expected.get(p);
            assertSameSequence(want.stream().map(Seen::offset).toList(),
                    LongStream.range(0, want.size()).boxed().toList(), "acknowledged offsets of partition " + p);
            assertSameSequence(actual.get(p), want, "partition " + p);
        }
    }

    @Test
    void tenThousandTinyRecordsArriveInOrder() {
        String topic = "tiny";
        BROKER.createTopic(topic, 1);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of());
        for (int i = 0; i < 10_000; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, Integer.toString(i)));
        }
        producer.flush();

        List<ConsumerRecord<String, String>> records = Clients.readAll(Clients.consumer(BROKER, Map.of()),
                Clients.partitions(topic, 1), READ_TIMEOUT);

        assertThat(records).extracting(ConsumerRecord::value)
                .containsExactlyElementsOf(IntStream.range(0, 10_000).mapToObj(Integer::toString).toList());
        assertThat(records).extracting(ConsumerRecord::offset)
                .containsExactlyElementsOf(IntStream.range(0, 10_000).mapToObj(Long::valueOf).toList());
    }

    @Test
    void nullKeyEmptyValueNullValueAndNullHeaderValueRoundTrip() throws Exception {
        String topic = "nulls";
        BROKER.createTopic(topic, 1);
        KafkaProducer<byte[], byte[]> producer = Clients.bytesProducer(BROKER, Map.of());
        producer.send(new ProducerRecord<>(topic, 0, null, new byte[0])).get();
        producer.send(new ProducerRecord<>(topic, 0, "tombstone".getBytes(StandardCharsets.UTF_8), null)).get();
        producer.send(new ProducerRecord<>(topic, 0, new byte[0], "after".getBytes(StandardCharsets.UTF_8),
                List.of(new RecordHeader("null-valued", null), new RecordHeader("", new byte[0])))).get();

        List<ConsumerRecord<byte[], byte[]>> records = Clients.readAll(Clients.bytesConsumer(BROKER, Map.of()),
                Clients.partitions(topic, 1), READ_TIMEOUT);

        assertThat(records).hasSize(3);
        assertThat(records.get(0).key()).isNull();
        assertThat(records.get(0).value()).isEmpty();
        assertThat(records.get(1).key()).asString(StandardCharsets.UTF_8).isEqualTo("tombstone");
        assertThat(records.get(1).value()).isNull();
        assertThat(records.get(2).key()).isEmpty();
        assertThat(records.get(2).value()).asString(StandardCharsets.UTF_8).isEqualTo("after");
        assertThat(records.get(2).headers().toArray()).extracting(Header::key, Header::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("null-valued", null),
                        org.assertj.core.groups.Tuple.tuple("", new byte[0]));
    }

    @Test
    void recordOf900KilobytesRoundTripsWhenTheClientsAllowIt() throws Exception {
        String topic = "large";
        BROKER.createTopic(topic, 1);
        byte[] value = new byte[900 * 1024];
        new Random(42).nextBytes(value);
        KafkaProducer<byte[], byte[]> producer = Clients.bytesProducer(BROKER, Map.of(
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 2 * 1024 * 1024));
        producer.send(new ProducerRecord<>(topic, 0, "small".getBytes(StandardCharsets.UTF_8), new byte[] {1})).get();
        producer.send(new ProducerRecord<>(topic, 0, "large".getBytes(StandardCharsets.UTF_8), value)).get();
        producer.send(new ProducerRecord<>(topic, 0, "after".getBytes(StandardCharsets.UTF_8), new byte[] {2})).get();

        List<ConsumerRecord<byte[], byte[]>> records = Clients.readAll(Clients.bytesConsumer(BROKER, Map.of(
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 2 * 1024 * 1024)),
                Clients.partitions(topic, 1), READ_TIMEOUT);

        assertThat(records).extracting(r -> new String(r.key(), StandardCharsets.UTF_8))
                .containsExactly("small", "large", "after");
        assertThat(records.get(1).value()).isEqualTo(value);
        assertThat(records.get(2).value()).containsExactly(2);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gzip", "snappy", "lz4", "zstd"})
    void compressedBatchesRoundTrip(String compression) {
        String topic = "compressed-" + compression;
        BROKER.createTopic(topic, 2);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of(
                ProducerConfig.COMPRESSION_TYPE_CONFIG, compression));
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            String value = "compressible value number " + i + " " + "abc".repeat(i % 50);
            sent.add(value);
            producer.send(new ProducerRecord<>(topic, i % 2, "k" + i, value));
        }
        producer.flush();

        List<ConsumerRecord<String, String>> records = Clients.readAll(Clients.consumer(BROKER, Map.of()),
                Clients.partitions(topic, 2), READ_TIMEOUT);

        for (int p = 0; p < 2; p++) {
            int partition = p;
            assertThat(records.stream().filter(r -> r.partition() == partition).map(ConsumerRecord::value).toList())
                    .as("partition %d", p)
                    .containsExactlyElementsOf(IntStream.range(0, sent.size()).filter(i -> i % 2 == partition)
                            .mapToObj(sent::get).toList());
        }
    }

    @Test
    void recordsSentWithoutAcknowledgementAllArrive() {
        String topic = "acks-zero";
        BROKER.createTopic(topic, 1);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of(
                ProducerConfig.ACKS_CONFIG, "0", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false));
        for (int i = 0; i < 5_000; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, "fire-" + i));
        }
        producer.flush();

        // No acknowledgement tells when the broker has them all: read until 5000 arrive (or the deadline).
        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of());
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        List<String> values = new ArrayList<>();
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (values.size() < 5_000 && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
        }

        assertThat(values).isEqualTo(IntStream.range(0, 5_000).mapToObj(i -> "fire-" + i).toList());
    }

    @Test
    void concurrentProducersToOnePartitionEachKeepTheirOrder() throws Exception {
        String topic = "shared-partition";
        BROKER.createTopic(topic, 1);
        int producers = 4;
        int each = 5_000;
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int p = 0; p < producers; p++) {
            KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of());
            String name = "p" + p;
            threads.add(new Thread(() -> {
                try {
                    for (int i = 0; i < each; i++) {
                        producer.send(new ProducerRecord<>(topic, 0, name, name + "-" + i));
                    }
                    producer.flush();
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(Duration.ofSeconds(120).toMillis());
        }

        List<ConsumerRecord<String, String>> records = Clients.readAll(Clients.consumer(BROKER, Map.of()),
                Clients.partitions(topic, 1), READ_TIMEOUT);

        assertThat(failures).isEmpty();
        assertThat(records.size()).isEqualTo(producers * each);
        for (int p = 0; p < producers; p++) {
            String name = "p" + p;
            assertThat(records.stream().filter(r -> r.key().equals(name)).map(ConsumerRecord::value).toList())
                    .as("records of producer %s", name)
                    .isEqualTo(IntStream.range(0, each).mapToObj(i -> name + "-" + i).toList());
        }
    }

    @Test
    void producingToAnUnknownTopicCreatesItWithTheBrokersDefaults() throws Exception {
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of(
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000));

        RecordMetadata ack = producer.send(new ProducerRecord<>("auto-created", "k", "first")).get();

        assertThat(ack.partition()).isZero(); // num.partitions defaults to 1
        assertThat(ack.offset()).isZero();
        List<ConsumerRecord<String, String>> records = Clients.readAll(Clients.consumer(BROKER, Map.of()),
                Clients.partitions("auto-created", 1), READ_TIMEOUT);
        assertThat(records).extracting(ConsumerRecord::value).containsExactly("first");
    }

    @Test
    void recordLargerThanTheTopicsMaxMessageBytesIsRefused() throws Exception {
        String topic = "small-messages";
        BROKER.createTopic(topic, 1, Map.of("max.message.bytes", "10000"));
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of());

        Future<RecordMetadata> tooLarge = producer.send(new ProducerRecord<>(topic, 0, "k", "x".repeat(20_000)));
        RecordMetadata fits = producer.send(new ProducerRecord<>(topic, 0, "k", "x".repeat(5_000))).get();

        assertThatThrownBy(tooLarge::get).hasCauseInstanceOf(RecordTooLargeException.class);
        assertThat(fits.offset()).isZero();
    }

    /** The default partitioner's rule for a keyed record (murmur2 of the serialized key). */
    private static int murmur2Partition(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    private static List<Header> headersFor(int i) {
        return List.of(new RecordHeader("index", ByteBuffer.allocate(4).putInt(0, i).array()),
                new RecordHeader("origin", "compat".getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> headerStrings(int i) {
        return headersFor(i).stream().map(h -> h.key() + "=" + Arrays.toString(h.value())).toList();
    }

    /** Equal lists, reported at the first difference rather than by printing 100k elements. */
    private static <T> void assertSameSequence(List<T> actual, List<T> expected, String what) {
        for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
            assertThat(actual.get(i)).as("%s, record #%d", what, i).isEqualTo(expected.get(i));
        }
        assertThat(actual).as("%s record count", what).hasSameSizeAs(expected);
    }
}
