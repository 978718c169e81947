package io.odradek.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;

/** brokers(3): three broker+controller nodes on the Ratis quorum in this JVM, a topic replicated to all three. */
class EmbeddedClusterTest {
    @Test
    void aTopicReplicatedToThreeBrokersTakesAcksAllWritesAndServesThemBack() throws Exception {
        long begin = System.nanoTime();
        try (Odradek cluster = Odradek.builder().brokers(3).start()) {
            System.out.println("embedded 3-broker cluster started in "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin) + " ms");
            assertThat(cluster.brokers()).extracting(b -> b.config().nodeId()).containsExactly(1, 2, 3);
            assertThat(cluster.bootstrapServers().split(",")).hasSize(3)
                    .allSatisfy(address -> assertThat(address).startsWith("127.0.0.1:"));

            cluster.createTopic("payments", 2, 3);

            try (Admin admin = Clients.admin(cluster.bootstrapServers())) {
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
                TopicDescription topic = admin.describeTopics(List.of("payments")).allTopicNames()
                        .get(30, TimeUnit.SECONDS).get("payments");
                assertThat(topic.partitions()).hasSize(2);
                for (TopicPartitionInfo p : topic.partitions()) {
                    assertThat(p.replicas()).extracting(n -> n.id()).containsExactlyInAnyOrder(1, 2, 3);
                    assertThat(p.isr()).extracting(n -> n.id()).containsExactlyInAnyOrder(1, 2, 3);
                    assertThat(p.leader()).isNotNull();
                }
            }
            try (KafkaProducer<String, String> producer = Clients.producer(cluster.bootstrapServers(), "all")) {
                for (int i = 0; i < 5; i++) {
                    RecordMetadata written = producer.send(new ProducerRecord<>("payments", 0, "k" + i, "paid " + i))
                            .get(30, TimeUnit.SECONDS);
                    assertThat(written.offset()).isEqualTo(i);
                }
            }
            // acks=all: every in-sync replica had the five records before the producer heard back.
            for (io.odradek.broker.Broker broker : cluster.brokers()) {
                assertThat(broker.topics().partitionLog("payments", 0).orElseThrow().logEndOffset())
                        .as("payments-0 on broker " + broker.config().nodeId()).isEqualTo(5);
            }
            List<ConsumerRecord<String, String>> read = Clients.readPartition(cluster.bootstrapServers(),
                    "payments", 0, 5);
            assertThat(read).extracting(ConsumerRecord::offset, ConsumerRecord::key, ConsumerRecord::value)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(0L, "k0", "paid 0"),
                            org.assertj.core.groups.Tuple.tuple(1L, "k1", "paid 1"),
                            org.assertj.core.groups.Tuple.tuple(2L, "k2", "paid 2"),
                            org.assertj.core.groups.Tuple.tuple(3L, "k3", "paid 3"),
                            org.assertj.core.groups.Tuple.tuple(4L, "k4", "paid 4"));

            // faults(): a rule for every broker; only the partition leader gets Produce requests, so only its is used.
            cluster.faults().failNext("Produce", null, 1, "NOT_LEADER_OR_FOLLOWER");
            assertThat(cluster.faults().rules()).hasSize(3);
            try (KafkaProducer<String, String> producer = Clients.producer(cluster.bootstrapServers(), "all")) {
                assertThat(producer.send(new ProducerRecord<>("payments", 0, "k5", "paid 5")).get(30, TimeUnit.SECONDS)
                        .offset()).as("written once, after the injected error").isEqualTo(5);
            }
            assertThat(cluster.faults().rules()).hasSize(2);
            cluster.faults().clear();
            assertThat(cluster.faults().rules()).isEmpty();
            assertThat(cluster.brokers()).allSatisfy(b -> assertThat(b.faults().rules()).isEmpty());
        }
    }

    @Test
    void aTopicOfMinusOnePartitionsGetsNumPartitionsAndItsGivenConfigs() throws Exception {
        try (Odradek cluster = Odradek.builder().brokers(2).config("num.partitions", "4").start()) {
            cluster.createTopic("defaulted", -1);
            cluster.createTopic("compacted", -1, 2, Map.of("cleanup.policy", "compact", "retention.ms", "60000"));
            for (io.odradek.broker.Broker broker : cluster.brokers()) {
                assertThat(broker.cluster().image().topics().get("defaulted").partitions()).hasSize(4);
                assertThat(broker.cluster().image().topics().get("compacted").partitions()).hasSize(4);
            }
            try (Admin admin = Clients.admin(cluster.bootstrapServers())) {
                var resource = new org.apache.kafka.common.config.ConfigResource(
                        org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "compacted");
                var config = admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
                assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
                assertThat(config.get("retention.ms").value()).isEqualTo("60000");
                TopicDescription topic = admin.describeTopics(List.of("compacted")).allTopicNames()
                        .get(30, TimeUnit.SECONDS).get("compacted");
                assertThat(topic.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(2));
            }
        }
    }
}
