package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.tools.ConfigCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Client quotas set with Kafka 4.4's {@code kafka-configs} and felt by stock Java clients: a producer and a
 * consumer that go as fast as they can are held to their byte rate (the bound: within 10% of 1 MB/s,
 * measured over ten seconds from the first bytes acknowledged or received).
 */
class ClientQuotasTest {
    private static final int MIB = 1024 * 1024;
    private static final long RUN_NANOS = Duration.ofSeconds(10).toNanos();

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of());

    private KafkaTool.Output configs(String... args) throws Exception {
        return KafkaConfigs.run(broker, args);
    }

    /** The largest value of a client metric of that name (NaN-free: a metric never recorded counts as 0). */
    private static double metric(Map<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> metrics,
            String name) {
        return metrics.entrySet().stream().filter(m -> m.getKey().name().equals(name))
                .mapToDouble(m -> ((Number) m.getValue().metricValue()).doubleValue())
                .filter(v -> !Double.isNaN(v)).max().orElse(0);
    }

    @Test
    void kafkaConfigsSetsDescribesAndDeletesClientQuotas() throws Exception {
        assertThat(configs("--alter", "--add-config", "producer_byte_rate=1048576,request_percentage=50",
                "--entity-type", "clients", "--entity-name", "billing").stdout())
                .isEqualToIgnoringNewLines("Completed updating config for client billing.");
        configs("--alter", "--add-config", "consumer_byte_rate=2048", "--entity-type", "clients", "--entity-default");
        configs("--alter", "--add-config", "producer_byte_rate=4096", "--entity-type", "users", "--entity-name", "alice",
                "--entity-type", "clients", "--entity-name", "billing");

        assertThat(configs("--describe", "--entity-type", "clients", "--entity-name", "billing").stdout())
                .isEqualToIgnoringNewLines("Quota configs for client-id 'billing' are producer_byte_rate=1048576.0, request_percentage=50.0");
        assertThat(configs("--describe", "--entity-type", "clients", "--entity-default").stdout())
                .isEqualToIgnoringNewLines("Quota configs for the default client-id are consumer_byte_rate=2048.0");
        assertThat(configs("--describe", "--entity-type", "clients").stdout().lines().sorted().toList()).containsExactly(
                "Quota configs for client-id 'billing' are producer_byte_rate=1048576.0, request_percentage=50.0",
                "Quota configs for the default client-id are consumer_byte_rate=2048.0");
        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "alice", "--entity-type", "clients",
                "--entity-name", "billing").stdout())
                .isEqualToIgnoringNewLines("Quota configs for user-principal 'alice', client-id 'billing' are producer_byte_rate=4096.0");

        configs("--alter", "--delete-config", "request_percentage", "--entity-type", "clients", "--entity-name", "billing");
        assertThat(configs("--describe", "--entity-type", "clients", "--entity-name", "billing").stdout())
                .isEqualToIgnoringNewLines("Quota configs for client-id 'billing' are producer_byte_rate=1048576.0");
    }

    @Test
    void quotasSurviveARestart() throws Exception {
        configs("--alter", "--add-config", "consumer_byte_rate=65536", "--entity-type", "users", "--entity-default");
        broker.restart();
        assertThat(configs("--describe", "--entity-type", "users", "--entity-default").stdout())
                .isEqualToIgnoringNewLines("Quota configs for the default user-principal are consumer_byte_rate=65536.0");
    }

    @Test
    void kafkaConfigsRefusesAFractionalByteRate() throws Exception {
        KafkaTool.Exited bad = KafkaTool.runToExit(ConfigCommand::main, "--bootstrap-server", broker.bootstrap(),
                "--alter", "--add-config", "producer_byte_rate=10.5", "--entity-type", "clients", "--entity-name", "x");
        assertThat(bad.status()).isNotZero();
        assertThat(bad.stdout() + bad.stderr()).contains("producer_byte_rate cannot be a fractional value.");
    }

    @Test
    void producerQuotaOfOneMegabytePerSecondHoldsAFullSpeedProducer() throws Exception {
        broker.createTopic("metered", 1);
        configs("--alter", "--add-config", "producer_byte_rate=1048576", "--entity-type", "clients", "--entity-name", "metered-producer");

        KafkaProducer<byte[], byte[]> producer = Clients.bytesProducer(broker, Map.of(
                ProducerConfig.CLIENT_ID_CONFIG, "metered-producer",
                ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024,
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.BUFFER_MEMORY_CONFIG, 2 * MIB)); // not half a minute's worth left to send at close
        byte[] value = new byte[10 * 1024];
        // The clock starts at the first acknowledgement: the producer's start (metadata, producer id) is not the
        // broker's doing. Its first request opens the client's rate, so the quota holds from then on.
        AtomicLong acked = new AtomicLong();
        AtomicLong firstAck = new AtomicLong();
        while (firstAck.get() == 0 || System.nanoTime() - firstAck.get() < RUN_NANOS) {
            producer.send(new ProducerRecord<>("metered", value), (metadata, e) -> {
                if (e == null) {
                    firstAck.compareAndSet(0, System.nanoTime());
                    acked.addAndGet(value.length);
                }
            });
        }
        long ackedBytes = acked.get();
        double seconds = (System.nanoTime() - firstAck.get()) / 1e9;
        double rate = ackedBytes / seconds;
        System.out.printf("producer held to %.0f B/s over %.1f s%n", rate, seconds);
        // The broker told the producer to hold back: the quota, not the machine, set that rate.
        double throttleMax = metric(producer.metrics(), "produce-throttle-time-max");
        producer.close(Duration.ZERO);

        assertThat(rate).as("bytes acked per second over %.1f s", seconds).isBetween(0.9 * MIB, 1.1 * MIB);
        assertThat(throttleMax).isPositive();
    }

    @Test
    void consumerQuotaOfOneMegabytePerSecondHoldsAFullSpeedConsumer() throws Exception {
        broker.createTopic("metered", 1);
        KafkaProducer<byte[], byte[]> producer = Clients.bytesProducer(broker, Map.of());
        byte[] value = new byte[10 * 1024];
        for (int i = 0; i < 2_000; i++) { // 20 MB, more than ten seconds' worth
            producer.send(new ProducerRecord<>("metered", value));
        }
        producer.flush();
        configs("--alter", "--add-config", "consumer_byte_rate=1048576", "--entity-type", "clients", "--entity-name", "metered-consumer");

        // Partition fetches of 256 KiB, so a response is a quarter of a second's worth.
        KafkaConsumer<byte[], byte[]> consumer = Clients.bytesConsumer(broker, Map.of(
                ConsumerConfig.CLIENT_ID_CONFIG, "metered-consumer",
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 256 * 1024));
        TopicPartition tp = new TopicPartition("metered", 0);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        // The clock starts at the first record, as for the producer.
        long consumed = 0;
        long expectedOffset = 0;
        long start = 0;
        while (start == 0 || System.nanoTime() - start < RUN_NANOS) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                if (start == 0) {
                    start = System.nanoTime();
                }
                assertThat(r.offset()).isEqualTo(expectedOffset++);
                consumed += r.value().length;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double rate = consumed / seconds;
        System.out.printf("consumer held to %.0f B/s over %.1f s%n", rate, seconds);

        assertThat(rate).as("bytes consumed per second over %.1f s", seconds).isBetween(0.9 * MIB, 1.1 * MIB);
        assertThat(metric(consumer.metrics(), "fetch-throttle-time-max")).isPositive();
    }
}
