package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.tools.consumer.group.ConsumerGroupCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Kafka's own kafka-consumer-groups tool reads a group's offsets and lag from Odradek. */
class ConsumerGroupCommandTest {
    private static final String TOPIC = "lagged";
    private static final String GROUP = "describe-me";

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of("group.initial.rebalance.delay.ms", "0",
            "offsets.topic.num.partitions", "3"));

    @Test
    void describeShowsEachPartitionsCommittedOffsetLogEndAndLagForALiveMember() throws Exception {
        broker.createTopic(TOPIC, 2);
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of());
        for (int i = 0; i < 10; i++) {
            producer.send(new ProducerRecord<>(TOPIC, 0, "k" + i, "v" + i)).get();
        }
        for (int i = 0; i < 6; i++) {
            producer.send(new ProducerRecord<>(TOPIC, 1, "k" + i, "v" + i)).get();
        }
        KafkaConsumer<String, String> consumer = Clients.consumer(broker, Map.of(
                ConsumerConfig.GROUP_ID_CONFIG, GROUP,
                ConsumerConfig.CLIENT_ID_CONFIG, "lag-reader",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
        consumer.subscribe(List.of(TOPIC));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (consumer.assignment().size() < 2 && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(100));
        }
        assertThat(consumer.assignment()).hasSize(2);
        consumer.commitSync(Map.of(
                new TopicPartition(TOPIC, 0), new OffsetAndMetadata(7),
                new TopicPartition(TOPIC, 1), new OffsetAndMetadata(2)));

        String out = KafkaTool.run(ConsumerGroupCommand::main,
                "--bootstrap-server", broker.bootstrap(), "--describe", "--group", GROUP).stdout();

        // GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID
        Map<String, List<String>> rows = out.lines()
                .map(String::trim)
                .filter(line -> line.startsWith(GROUP + " "))
                .map(line -> Arrays.asList(line.split("\\s+")))
                .collect(Collectors.toMap(cols -> cols.get(2), cols -> cols));
        assertThat(rows).containsOnlyKeys("0", "1");
        assertThat(rows.get("0").subList(1, 6)).containsExactly(TOPIC, "0", "7", "10", "3");
        assertThat(rows.get("1").subList(1, 6)).containsExactly(TOPIC, "1", "2", "6", "4");
        for (List<String> row : rows.values()) {
            assertThat(row.get(6)).startsWith("lag-reader-");
            assertThat(row.get(8)).isEqualTo("lag-reader");
        }
    }
}
