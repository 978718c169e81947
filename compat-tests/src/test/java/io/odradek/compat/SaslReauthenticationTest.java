package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * KIP-368 with a short connections.max.reauth.ms: clients told the session lifetime re-authenticate on their
 * connections (or reconnect) and keep producing and consuming across several lifetimes, every record read back.
 */
class SaslReauthenticationTest {
    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withConfig(Map.of(
            "listeners", "SASL_PLAINTEXT://127.0.0.1:0",
            "sasl.enabled.mechanisms", "PLAIN",
            "connections.max.reauth.ms", "1500",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config",
            "org.apache.kafka.common.security.plain.PlainLoginModule required user_alice=\"alice-secret\";"));

    @Test
    void clientsKeepWorkingAcrossSessionLifetimes() throws Exception {
        Map<String, Object> security = SaslClientsTest.plain("alice", "alice-secret");
        KafkaProducer<String, String> producer = Clients.producer(BROKER, security);
        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, security);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 10; i++) { // ~5 s: three session lifetimes and more
            String value = "v" + i;
            producer.send(new ProducerRecord<>("reauth", value)).get(30, TimeUnit.SECONDS);
            sent.add(value);
            Thread.sleep(500);
        }
        List<ConsumerRecord<String, String>> records = Clients.readAll(consumer, Clients.partitions("reauth", 1),
                Duration.ofSeconds(30));
        assertThat(records).extracting(ConsumerRecord::value).containsExactlyElementsOf(sent);
        assertThat(records).extracting(ConsumerRecord::offset)
                .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        // The producer re-authenticated on its open connections (it was not cut off and reconnected).
        assertThat(metric(producer.metrics(), "successful-reauthentication-total")).isGreaterThanOrEqualTo(2);
        assertThat(metric(producer.metrics(), "failed-reauthentication-total")).isZero();
    }

    private static double metric(Map<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> metrics,
            String name) {
        return metrics.entrySet().stream()
                .filter(e -> e.getKey().name().equals(name) && e.getKey().group().equals("producer-metrics"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .sum();
    }
}
