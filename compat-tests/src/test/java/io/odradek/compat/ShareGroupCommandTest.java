package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.tools.consumer.group.ShareGroupCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Kafka 4.4's kafka-share-groups tool lists a share group and describes its offsets, members and state. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ShareGroupCommandTest {
    private static final String TOPIC = "tasks";
    private static final String GROUP = "reporting";

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of(
            "offsets.topic.num.partitions", "3",
            "share.coordinator.state.topic.num.partitions", "3"));

    @Test
    void listAndDescribeShowTheShareGroupItsStartOffsetsLagAndMember() throws Exception {
        broker.createTopic(TOPIC, 2);
        ShareClients.setGroupConfigs(broker, GROUP, Map.of("share.auto.offset.reset", "earliest"));
        // A consumer group beside it, which --list leaves out.
        OdradekBroker.await(broker.admin().alterConsumerGroupOffsets("plain-consumers",
                Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(1))).all());
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of());
        for (int i = 0; i < 6; i++) {
            producer.send(new ProducerRecord<>(TOPIC, 0, "k" + i, "v" + i));
        }
        for (int i = 0; i < 4; i++) {
            producer.send(new ProducerRecord<>(TOPIC, 1, "k" + i, "v" + i));
        }
        producer.flush();

        KafkaShareConsumer<String, String> consumer = ShareClients.explicitConsumer(broker, GROUP, "reporter",
                Map.of());
        consumer.subscribe(List.of(TOPIC));
        Set<String> accepted = new HashSet<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (accepted.size() < 10 && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                consumer.acknowledge(r, AcknowledgeType.ACCEPT);
                accepted.add(r.partition() + ":" + r.offset());
            }
            consumer.commitSync();
        }
        assertThat(accepted).hasSize(10);
        // Six more (0:6-9, 1:4-5), delivered and released: they stay to be consumed (the lag). Kafka persists a
        // partition's advanced start offset with the next state write, which this release is.
        for (int i = 6; i < 10; i++) {
            producer.send(new ProducerRecord<>(TOPIC, 0, "k" + i, "v" + i));
        }
        for (int i = 4; i < 6; i++) {
            producer.send(new ProducerRecord<>(TOPIC, 1, "k" + i, "v" + i));
        }
        producer.flush();
        Set<String> released = new HashSet<>();
        deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (released.size() < 6 && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                consumer.acknowledge(r, AcknowledgeType.RELEASE);
                released.add(r.partition() + ":" + r.offset());
            }
            consumer.commitSync();
        }
        assertThat(released).containsExactlyInAnyOrder("0:6", "0:7", "0:8", "0:9", "1:4", "1:5");
        // The consumer stays a member (its heartbeats go on) without polling again.
        ShareClients.awaitLag(broker, GROUP, new TopicPartition(TOPIC, 0), 4);
        ShareClients.awaitLag(broker, GROUP, new TopicPartition(TOPIC, 1), 2);

        KafkaTool.Output list = shareGroups("--list");
        KafkaTool.Output offsets = shareGroups("--describe", "--group", GROUP);
        KafkaTool.Output explicitOffsets = shareGroups("--describe", "--group", GROUP, "--offsets");
        KafkaTool.Output members = shareGroups("--describe", "--group", GROUP, "--members");
        KafkaTool.Output state = shareGroups("--describe", "--group", GROUP, "--state");

        assertThat(list.stdout()).isEqualTo(GROUP + "\n");
        // GROUP TOPIC PARTITION START-OFFSET LAG
        assertThat(rows(offsets)).containsExactly(
                List.of(GROUP, TOPIC, "0", "6", "4"),
                List.of(GROUP, TOPIC, "1", "4", "2"));
        assertThat(rows(explicitOffsets)).isEqualTo(rows(offsets));
        // GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS ASSIGNMENT
        List<List<String>> memberRows = rows(members);
        assertThat(memberRows).hasSize(1);
        assertThat(memberRows.get(0).subList(2, 6)).containsExactly("/127.0.0.1", "reporter", "2", TOPIC + ":0,1");
        assertThat(memberRows.get(0).get(1)).hasSize(22); // a client-generated Uuid as its member id
        // GROUP COORDINATOR (ID) STATE #MEMBERS: the coordinator column is "host:port  (id)"
        assertThat(rows(state)).containsExactly(List.of(GROUP, broker.bootstrap(), "(1)", "Stable", "1"));
    }

    @Test
    void describingAGroupThatIsNotAShareGroupFails() throws Exception {
        broker.createTopic(TOPIC, 1);
        OdradekBroker.await(broker.admin().alterConsumerGroupOffsets("plain-consumers",
                Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(1))).all());

        KafkaTool.Output describe = shareGroups("--describe", "--group", "plain-consumers");

        assertThat(describe.stdout()).isEqualTo("\nError: Executing share group command failed due to "
                + "org.apache.kafka.common.errors.GroupIdNotFoundException: Group plain-consumers is not a share group.\n");
    }

    private KafkaTool.Output shareGroups(String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "--bootstrap-server";
        all[1] = broker.bootstrap();
        System.arraycopy(args, 0, all, 2, args.length);
        return KafkaTool.run(ShareGroupCommand::main, all);
    }

    /** The table rows of the group (header left out), split on whitespace. */
    private static List<List<String>> rows(KafkaTool.Output output) {
        return output.stdout().lines().map(String::trim).filter(line -> line.startsWith(GROUP + " "))
                .map(line -> Arrays.asList(line.split("\\s+"))).collect(Collectors.toList());
    }
}
