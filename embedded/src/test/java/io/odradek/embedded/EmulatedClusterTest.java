package io.odradek.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A cluster emulating Kafka 2.8: clients are capped at 2.8's versions, but the brokers' own traffic (replica Fetch
 * v16 and ListOffsets v7, AddPartitionsToTxn v4+ verification, WriteTxnMarkers) is not, so followers replicate.
 */
class EmulatedClusterTest {
    @Test
    void anEmulated28ClusterReplicatesAcksAllAndTransactionalWrites() throws Exception {
        try (Odradek cluster = Odradek.builder().brokers(3).config("odradek.emulate.version", "2.8").start()) {
            cluster.createTopic("orders", 1, 3);
            try (KafkaProducer<String, String> producer = Clients.producer(cluster.bootstrapServers(), "all")) {
                for (int i = 0; i < 3; i++) {
                    assertThat(producer.send(new ProducerRecord<>("orders", 0, "k" + i, "order " + i))
                            .get(30, TimeUnit.SECONDS).offset()).isEqualTo(i);
                }
            }
            for (io.odradek.broker.Broker broker : cluster.brokers()) {
                assertThat(broker.topics().partitionLog("orders", 0).orElseThrow().logEndOffset())
                        .as("orders-0 on broker " + broker.config().nodeId()).isEqualTo(3);
            }
            assertThat(Clients.readPartition(cluster.bootstrapServers(), "orders", 0, 3))
                    .extracting(ConsumerRecord::offset, ConsumerRecord::key, ConsumerRecord::value)
                    .containsExactly(tuple(0L, "k0", "order 0"), tuple(1L, "k1", "order 1"), tuple(2L, "k2", "order 2"));

            // A transaction: the partition leader verifies with the coordinator and the coordinator writes the
            // commit markers, both broker to broker.
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "emulated-tx");
            try (KafkaProducer<String, String> tx = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
                tx.initTransactions();
                tx.beginTransaction();
                tx.send(new ProducerRecord<>("orders", 0, "t", "in a transaction")).get(30, TimeUnit.SECONDS);
                tx.commitTransaction();
            }
            Properties c = new Properties();
            c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
            c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(),
                    new StringDeserializer())) {
                TopicPartition tp = new TopicPartition("orders", 0);
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                assertThat(Clients.pollUntil(consumer, 4)).extracting(ConsumerRecord::offset, ConsumerRecord::value)
                        .containsExactly(tuple(0L, "order 0"), tuple(1L, "order 1"), tuple(2L, "order 2"),
                                tuple(3L, "in a transaction"));
            }
        }
    }
}
