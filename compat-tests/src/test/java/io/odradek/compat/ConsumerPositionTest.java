package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Where a consumer reads from: seeks, resets, timestamps, fetch sizes and waiting for new records. */
class ConsumerPositionTest {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    private static final long TIME_BASE = 1_700_000_000_000L;

    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withDefaults();

    @Test
    void consumerSeekingIntoTheMiddleOfACompressedBatchStartsAtThatRecord() {
        String topic = "seek";
        BROKER.createTopic(topic, 1);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of(
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4", ProducerConfig.LINGER_MS_CONFIG, 60_000));
        for (int i = 0; i < 100; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, "r" + i));
        }
        producer.flush(); // one batch holding offsets 0-99

        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of());
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        consumer.seek(tp, 57);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (records.size() < 43 && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }

        assertThat(records).extracting(ConsumerRecord::offset)
                .containsExactlyElementsOf(LongStream.range(57, 100).boxed().toList());
        assertThat(records.get(0).value()).isEqualTo("r57");
    }

    @Test
    void offsetsForTimesFindTheFirstRecordAtOrAfterEachTimestamp() {
        TopicPartition tp = produceTimestamped("times-exact");
        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of());

        assertThat(consumer.offsetsForTimes(Map.of(tp, TIME_BASE + 12_000L)).get(tp))
                .isEqualTo(new OffsetAndTimestamp(12, TIME_BASE + 12_000L, Optional.of(0)));
        assertThat(consumer.offsetsForTimes(Map.of(tp, TIME_BASE + 4_500L)).get(tp))
                .isEqualTo(new OffsetAndTimestamp(5, TIME_BASE + 5_000L, Optional.of(0)));
        assertThat(consumer.offsetsForTimes(Map.of(tp, 0L)).get(tp))
                .isEqualTo(new OffsetAndTimestamp(0, TIME_BASE, Optional.of(0)));
    }

    @Test
    void maxTimestampOffsetIsTheRecordWithTheLargestTimestamp() throws Exception {
        String topic = "max-timestamp";
        BROKER.createTopic(topic, 1);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of(ProducerConfig.LINGER_MS_CONFIG, 60_000));
        producer.send(new ProducerRecord<>(topic, 0, TIME_BASE + 1_000L, null, "first"));
        producer.send(new ProducerRecord<>(topic, 0, TIME_BASE + 3_000L, null, "latest timestamp"));
        producer.send(new ProducerRecord<>(topic, 0, TIME_BASE + 2_000L, null, "last offset"));
        producer.flush(); // one batch

        TopicPartition tp = new TopicPartition(topic, 0);
        var result = OdradekBroker.await(BROKER.admin().listOffsets(Map.of(tp, OffsetSpec.maxTimestamp()))
                .partitionResult(tp));

        assertThat(result.offset() + "@" + result.timestamp()).isEqualTo("1@" + (TIME_BASE + 3_000L));
    }

    @Test
    void offsetsForTimesPastTheLastRecordIsNullAndBeginningAndEndOffsetsBracketTheLog() {
        TopicPartition tp = produceTimestamped("times");
        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of());

        Map<TopicPartition, OffsetAndTimestamp> after = consumer.offsetsForTimes(Map.of(tp, TIME_BASE + 30_000L));
        assertThat(after).containsEntry(tp, null);
        assertThat(consumer.offsetsForTimes(Map.of(tp, TIME_BASE + 20_000L)).get(tp).offset())
                .as("the first offset of the batch starting at that timestamp").isEqualTo(20);
        assertThat(consumer.beginningOffsets(List.of(tp))).containsEntry(tp, 0L);
        assertThat(consumer.endOffsets(List.of(tp))).containsEntry(tp, 30L);
    }

    /** 30 records, one second apart from {@link #TIME_BASE}, in three batches of ten. */
    private static TopicPartition produceTimestamped(String topic) {
        BROKER.createTopic(topic, 1);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of(ProducerConfig.LINGER_MS_CONFIG, 60_000));
        for (int i = 0; i < 30; i++) {
            producer.send(new ProducerRecord<>(topic, 0, TIME_BASE + i * 1000L, null, "t" + i));
            if (i % 10 == 9) {
                producer.flush();
            }
        }
        return new TopicPartition(topic, 0);
    }

    @Test
    void consumerWithAFetchSizeSmallerThanABatchStillReadsEveryBatch() {
        String topic = "small-fetches";
        BROKER.createTopic(topic, 1);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of(ProducerConfig.LINGER_MS_CONFIG, 100));
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            sent.add("record-" + i + "-" + "y".repeat(100));
            producer.send(new ProducerRecord<>(topic, 0, null, sent.get(i)));
        }
        producer.flush(); // batches of about 16 KB

        // As KIP-74 has it, the broker returns at least one whole batch however small the fetch size.
        List<ConsumerRecord<String, String>> records = Clients.readAll(Clients.consumer(BROKER, Map.of(
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 1024, ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 1024)),
                Clients.partitions(topic, 1), READ_TIMEOUT);

        assertThat(records.stream().map(ConsumerRecord::value).toList()).isEqualTo(sent);
    }

    @Test
    void consumerPositionedPastTheEndResetsToTheEarliestOffset() {
        String topic = "out-of-range";
        BROKER.createTopic(topic, 1);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of());
        for (int i = 0; i < 10; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, "r" + i));
        }
        producer.flush();

        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of(
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        consumer.seek(tp, 1_000);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (records.size() < 10 && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }

        assertThat(records).extracting(ConsumerRecord::value)
                .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> "r" + i).toList());
    }

    @Test
    void consumerWaitingOnAnEmptyPartitionGetsANewRecordWithoutWaitingOutItsMaxWait() throws Exception {
        String topic = "long-poll";
        BROKER.createTopic(topic, 1);
        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of(
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20_000));
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        assertThat(consumer.poll(Duration.ofMillis(500))).isEmpty(); // a fetch is now parked at the broker

        Clients.producer(BROKER, Map.of()).send(new ProducerRecord<>(topic, 0, "k", "wake up")).get();
        long start = System.nanoTime();
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        while (records.isEmpty() && System.nanoTime() - start < Duration.ofSeconds(30).toNanos()) {
            consumer.poll(Duration.ofSeconds(1)).forEach(records::add);
        }
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(records).extracting(ConsumerRecord::value).containsExactly("wake up");
        assertThat(waited).as("time to see the record (fetch.max.wait.ms is 20 s)").isLessThan(Duration.ofSeconds(10));
        // The consumer has its next fetch parked at the broker; a default close would wait for it.
        consumer.close(CloseOptions.timeout(Duration.ZERO));
    }
}
