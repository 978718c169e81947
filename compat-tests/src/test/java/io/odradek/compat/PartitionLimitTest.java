package io.odradek.compat;

import static io.odradek.compat.OdradekBroker.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A client asking for far too many partitions, or for an internal topic, gets Kafka's error and changes nothing. */
class PartitionLimitTest {
    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withDefaults();

    @Test
    void aHundredThousandPartitionsAreRefusedAndTheBrokerKeepsServingAndRestarts() throws Exception {
        broker.createTopic("before", 1);

        assertThatThrownBy(() -> await(broker.admin().createTopics(
                List.of(new NewTopic("huge", Optional.of(100_000), Optional.empty()))).all()))
                .isInstanceOf(PolicyViolationException.class)
                .hasMessage("Excessively large number of partitions per request.");

        assertThat(await(broker.admin().listTopics().names())).containsExactly("before");
        assertThat(partitionDirs()).containsExactly("before-0");
        assertThat(produce("before", "still-serving").offset()).isZero();

        broker.restart();

        assertThat(await(broker.admin().listTopics().names())).containsExactly("before");
        assertThat(produce("before", "after-restart").offset()).isEqualTo(1);
    }

    @Test
    void validateOnlyIsRefusedTheSameWay() {
        assertThatThrownBy(() -> await(broker.admin().createTopics(
                List.of(new NewTopic("huge", Optional.of(10_001), Optional.empty())),
                new CreateTopicsOptions().validateOnly(true)).all()))
                .isInstanceOf(PolicyViolationException.class);
    }

    @Test
    void aClientCannotCreateConsumerOffsets() throws Exception {
        assertThatThrownBy(() -> await(broker.admin().createTopics(
                List.of(new NewTopic("__consumer_offsets", Optional.of(1), Optional.empty()))).all()))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Creation of internal topic __consumer_offsets is prohibited.");
        assertThat(await(broker.admin().listTopics().names())).doesNotContain("__consumer_offsets");
    }

    private RecordMetadata produce(String topic, String value) throws Exception {
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of());
        return producer.send(new ProducerRecord<>(topic, value)).get();
    }

    private List<String> partitionDirs() throws IOException {
        try (Stream<Path> children = Files.list(broker.logDir())) {
            return children.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .filter(n -> !n.startsWith("__")).sorted().toList();
        }
    }
}
