package io.odradek.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Odradek.faults(): the embedded API for making the next requests of an API fail, as a client sees it. */
class FaultsThroughTheEmbeddedApiTest {
    @Test
    void aProducerRetriesThroughInjectedNotLeaderErrorsAndWritesTheRecordOnce() throws Exception {
        try (Odradek odradek = Odradek.start()) {
            odradek.createTopic("retried", 1);
            odradek.faults().failNext("Produce", null, 2, "NOT_LEADER_OR_FOLLOWER");
            assertThat(odradek.faults().rules()).hasSize(1);
            try (KafkaProducer<String, String> producer = Clients.producer(odradek.bootstrapServers(), "all")) {
                assertThat(producer.send(new ProducerRecord<>("retried", "k", "once")).get(30, TimeUnit.SECONDS)
                        .offset()).isZero();
            }
            assertThat(odradek.faults().rules()).as("both injected errors were used").isEmpty();
            List<ConsumerRecord<String, String>> read = Clients.readPartition(odradek.bootstrapServers(),
                    "retried", 0, 1);
            assertThat(read).extracting(ConsumerRecord::offset, ConsumerRecord::key, ConsumerRecord::value)
                    .containsExactly(tuple(0L, "k", "once"));
        }
    }

    @Test
    void aProducerThatDoesNotRetrySeesTheInjectedErrorOfItsOwnClientIdOnly() throws Exception {
        try (Odradek odradek = Odradek.start()) {
            odradek.createTopic("failing", 1);
            odradek.faults().failNext("Produce", "fragile", 1, "NOT_LEADER_OR_FOLLOWER");
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, odradek.bootstrapServers());
            p.put(ProducerConfig.CLIENT_ID_CONFIG, "fragile");
            p.put(ProducerConfig.RETRIES_CONFIG, "0");
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
            p.put(ProducerConfig.ACKS_CONFIG, "1");
            try (KafkaProducer<String, String> sturdy = Clients.producer(odradek.bootstrapServers(), "1")) {
                assertThat(sturdy.send(new ProducerRecord<>("failing", "other", "client")).get(30, TimeUnit.SECONDS)
                        .offset()).as("another client id is not affected").isZero();
            }
            try (KafkaProducer<String, String> fragile = new KafkaProducer<>(p, new StringSerializer(),
                    new StringSerializer())) {
                assertThatThrownBy(() -> fragile.send(new ProducerRecord<>("failing", "k", "v")).get(30,
                        TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(NotLeaderOrFollowerException.class);
            }
            assertThat(odradek.faults().rules()).isEmpty();
        }
    }
}
