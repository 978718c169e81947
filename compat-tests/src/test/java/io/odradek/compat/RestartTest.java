package io.odradek.compat;

import static io.odradek.compat.OdradekBroker.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A broker restarted on the same log dir keeps every acknowledged record, once, and its topics as they were. */
class RestartTest {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withDefaults();

    @Test
    void everyAcknowledgedRecordSurvivesARestartInTheMiddleOfProducingExactlyOnce() throws Exception {
        String topic = "restart-mid-stream";
        broker.createTopic(topic, 3);
        TopicDescription before = describe(topic);
        String clusterId = await(broker.admin().describeCluster().clusterId());
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of());

        List<Future<RecordMetadata>> sends = new ArrayList<>();
        send(producer, topic, 0, 3_000, sends);
        producer.flush();
        send(producer, topic, 3_000, 6_000, sends); // still in flight when the broker goes down
        broker.restart();
        send(producer, topic, 6_000, 9_000, sends);
        producer.flush();

        Map<String, RecordMetadata> acknowledged = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < sends.size(); i++) {
            try {
                acknowledged.put("value-" + i, sends.get(i).get());
            } catch (ExecutionException e) {
                failures.add("value-" + i + ": " + e.getCause());
            }
        }
        List<ConsumerRecord<String, String>> records = Clients.readAll(Clients.consumer(broker, Map.of()),
                Clients.partitions(topic, 3), READ_TIMEOUT);
        Map<String, Long> copies = records.stream()
                .collect(Collectors.groupingBy(ConsumerRecord::value, Collectors.counting()));

        assertThat(failures).as("sends the producer gave up on").isEmpty();
        assertThat(copies).as("records stored more than once")
                .allSatisfy((value, count) -> assertThat(count).as(value).isEqualTo(1L));
        assertThat(copies.keySet()).as("records stored").containsAll(acknowledged.keySet());
        for (ConsumerRecord<String, String> r : records) {
            RecordMetadata ack = acknowledged.get(r.value());
            if (ack != null) {
                assertThat(r.partition() + "@" + r.offset()).as(r.value()).isEqualTo(ack.partition() + "@" + ack.offset());
            }
        }
        for (int p = 0; p < 3; p++) {
            int partition = p;
            assertThat(records.stream().filter(r -> r.partition() == partition).map(ConsumerRecord::offset).toList())
                    .as("offsets of partition %d", p)
                    .isEqualTo(LongStream.range(0, records.stream().filter(r -> r.partition() == partition).count())
                            .boxed().toList());
        }
        assertThat(describe(topic).topicId()).isEqualTo(before.topicId());
        assertThat(await(broker.admin().describeCluster().clusterId())).isEqualTo(clusterId);
    }

    @Test
    void topicsConfigsAndRecordsAreAsTheyWereAfterARestartAndOffsetsContinue() throws Exception {
        broker.createTopic("kept", 2, Map.of("retention.ms", "7200000"));
        broker.createTopic("also-kept", 1);
        TopicDescription before = describe("kept");
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of());
        for (int i = 0; i < 100; i++) {
            producer.send(new ProducerRecord<>("kept", i % 2, "k" + i, "before-" + i));
        }
        producer.flush();
        producer.close();

        broker.restart();

        assertThat(await(broker.admin().listTopics().names())).containsExactlyInAnyOrder("kept", "also-kept");
        TopicDescription after = describe("kept");
        assertThat(after.topicId()).isEqualTo(before.topicId());
        assertThat(after.partitions()).hasSize(2);
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, "kept");
        ConfigEntry retention = await(broker.admin().describeConfigs(List.of(resource)).all()).get(resource)
                .get("retention.ms");
        assertThat(retention.value()).isEqualTo("7200000");
        assertThat(retention.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);

        KafkaProducer<String, String> again = Clients.producer(broker, Map.of());
        RecordMetadata next = again.send(new ProducerRecord<>("kept", 0, "k", "after")).get();
        assertThat(next.offset()).isEqualTo(50);

        List<ConsumerRecord<String, String>> records = Clients.readAll(Clients.consumer(broker, Map.of()),
                Clients.partitions("kept", 2), READ_TIMEOUT);
        Map<Integer, List<String>> byPartition = records.stream().collect(Collectors.groupingBy(
                ConsumerRecord::partition, Collectors.mapping(ConsumerRecord::value, Collectors.toList())));
        assertThat(byPartition.get(0)).hasSize(51).startsWith("before-0", "before-2").endsWith("before-98", "after");
        assertThat(byPartition.get(1)).hasSize(50).startsWith("before-1", "before-3").endsWith("before-99");
    }

    @ParameterizedTest(name = "{0} shutdown")
    @ValueSource(strings = {"clean", "crash"})
    void producerRetryingItsLastBatchAfterARestartGetsItsOffsetWithoutADuplicate(String shutdown)
            throws Exception {
        String topic = "retried";
        broker.createTopic(topic, 1);
        long producerId;
        short epoch;
        try (RawConnection client = new RawConnection(broker.port())) {
            InitProducerIdResponseData init = client.roundTrip(new InitProducerIdRequest.Builder(
                    new InitProducerIdRequestData().setTransactionalId(null).setTransactionTimeoutMs(60_000))
                    .build((short) 4), InitProducerIdResponse.class).data();
            assertThat(Errors.forCode(init.errorCode())).isEqualTo(Errors.NONE);
            producerId = init.producerId();
            epoch = init.producerEpoch();
            assertThat(client.produce(topic, 0, idempotent(producerId, epoch, 0, "a0", "a1", "a2")))
                    .extracting(r -> Errors.forCode(r.errorCode()), r -> r.baseOffset()).containsExactly(Errors.NONE, 0L);
            assertThat(client.produce(topic, 0, idempotent(producerId, epoch, 3, "b0", "b1")))
                    .extracting(r -> Errors.forCode(r.errorCode()), r -> r.baseOffset()).containsExactly(Errors.NONE, 3L);
        }

        if (shutdown.equals("crash")) {
            broker.stopAsIfCrashed();
        } else {
            broker.stop();
        }
        broker.start();

        try (RawConnection client = new RawConnection(broker.port())) {
            // A retry of the last batch (its answer lost to the restart) gets its original offset. As in Kafka,
            // only the last batch per producer survives a restart in the producer-state snapshot.
            assertThat(client.produce(topic, 0, idempotent(producerId, epoch, 3, "b0", "b1")))
                    .extracting(r -> Errors.forCode(r.errorCode()), r -> r.baseOffset()).containsExactly(Errors.NONE, 3L);
            // The sequence carries on where it was.
            assertThat(client.produce(topic, 0, idempotent(producerId, epoch, 5, "c0")))
                    .extracting(r -> Errors.forCode(r.errorCode()), r -> r.baseOffset()).containsExactly(Errors.NONE, 5L);
            assertThat(Errors.forCode(client.produce(topic, 0, idempotent(producerId, epoch, 9, "gap")).errorCode()))
                    .isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
        }
        List<ConsumerRecord<String, String>> records = Clients.readAll(Clients.consumer(broker, Map.of()),
                Clients.partitions(topic, 1), READ_TIMEOUT);
        assertThat(records).extracting(ConsumerRecord::value).containsExactly("a0", "a1", "a2", "b0", "b1", "c0");
    }

    @ParameterizedTest(name = "{0} shutdown")
    @ValueSource(strings = {"clean", "crash"})
    void logOfSeveralSegmentsIsWholeAfterARestart(String shutdown) throws Exception {
        String topic = "segmented";
        broker.createTopic(topic, 1, Map.of("segment.bytes", "1048576"));
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of());
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 12_000; i++) {
            String value = "record-" + i + "-" + "x".repeat(300);
            sent.add(value);
            producer.send(new ProducerRecord<>(topic, 0, null, value));
        }
        producer.flush();
        producer.close();

        if (shutdown.equals("crash")) {
            broker.stopAsIfCrashed();
        } else {
            broker.stop();
        }
        List<Path> segments = segmentFiles(broker.partitionDir(topic, 0));
        assertThat(segments).as("segments of about 1 MB for 4 MB of records").hasSizeGreaterThanOrEqualTo(3);
        for (Path segment : segments) {
            List<SegmentFile.Batch> batches = SegmentFile.batches(segment);
            assertThat(segment.getFileName().toString())
                    .isEqualTo(String.format("%020d.log", batches.get(0).baseOffset()));
            assertThat(batches.stream().mapToLong(SegmentFile.Batch::size).sum()).isEqualTo(Files.size(segment));
        }
        broker.start();

        KafkaProducer<String, String> again = Clients.producer(broker, Map.of());
        assertThat(again.send(new ProducerRecord<>(topic, 0, null, "after")).get().offset()).isEqualTo(12_000);
        sent.add("after");
        List<ConsumerRecord<String, String>> records = Clients.readAll(Clients.consumer(broker, Map.of()),
                Clients.partitions(topic, 1), READ_TIMEOUT);
        assertThat(records.stream().map(ConsumerRecord::value).toList()).isEqualTo(sent);
    }

    private static List<Path> segmentFiles(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
        }
    }

    /** One batch as an idempotent producer writes it. */
    private static ByteBuffer idempotent(long producerId, short epoch, int baseSequence, String... values) {
        SimpleRecord[] records = Arrays.stream(values)
                .map(v -> new SimpleRecord(v.getBytes(StandardCharsets.UTF_8))).toArray(SimpleRecord[]::new);
        return MemoryRecords.withIdempotentRecords(Compression.NONE, producerId, epoch, baseSequence, records)
                .buffer();
    }

    private TopicDescription describe(String topic) {
        return await(broker.admin().describeTopics(List.of(topic)).allTopicNames()).get(topic);
    }

    private static void send(KafkaProducer<String, String> producer, String topic, int from, int to,
            List<Future<RecordMetadata>> sends) {
        for (int i = from; i < to; i++) {
            sends.add(producer.send(new ProducerRecord<>(topic, "key-" + i, "value-" + i)));
        }
    }
}
