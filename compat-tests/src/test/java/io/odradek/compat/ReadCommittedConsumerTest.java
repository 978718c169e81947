package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka's read_committed consumer on small fetches that end in the middle of a batch: the broker's aborted
 * list then reaches past the data (bounded by the offset index, as Kafka's is), and the consumer still
 * drops exactly the aborted records.
 */
class ReadCommittedConsumerTest {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withDefaults();

    @Test
    void aReadCommittedConsumerOnSmallFetchesSeesOnlyTheCommittedRecordsInOrder() {
        String topic = "eos";
        BROKER.createTopic(topic, 1, Map.of("index.interval.bytes", "100"));
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "rc-test", ProducerConfig.LINGER_MS_CONFIG, 0));
        producer.initTransactions();
        String pad = "x".repeat(300);
        List<String> committed = new ArrayList<>();
        for (int txn = 0; txn < 12; txn++) {
            producer.beginTransaction();
            List<String> values = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                String v = "t" + txn + "-" + i + "-" + pad;
                producer.send(new ProducerRecord<>(topic, 0, null, v));
                producer.flush(); // one batch per record
                values.add(v);
            }
            if (txn % 3 == 1) {
                producer.abortTransaction();
            } else {
                producer.commitTransaction();
                committed.addAll(values);
            }
        }

        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 1000,
                ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 1000));
        List<ConsumerRecord<String, String>> records =
                Clients.readAll(consumer, List.of(new TopicPartition(topic, 0)), READ_TIMEOUT);

        assertThat(records).extracting(ConsumerRecord::value).containsExactlyElementsOf(committed);
    }
}
