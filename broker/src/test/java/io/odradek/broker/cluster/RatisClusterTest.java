package io.odradek.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.Broker;
import io.odradek.log.PartitionLog;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers in one JVM, each broker and controller with its own log dir, on the real Ratis quorum:
 * Kafka listeners on port 0, controllers on free loopback ports.
 */
class RatisClusterTest {
    @TempDir
    Path root;

    private final List<Broker> brokers = new ArrayList<>();
    private Admin admin;

    @AfterEach
    void tearDown() {
        if (admin != null) {
            admin.close();
        }
        brokers.forEach(Broker::close);
    }

    private void startThree() throws Exception {
        ThreeNodeCluster.start(ThreeNodeCluster.configs(root), brokers);
    }

    private static ClusterImage await(Broker broker, Predicate<ClusterImage> condition) throws InterruptedException {
        return ImageWaits.await(broker, 60, condition);
    }

    @Test
    void aTopicCreatedWithReplicationFactorThreeOnOneBrokerIsLedAndInSyncOnAllThreeAndLeadersMoveOffAStoppingBrokerAndRecordsReplicate()
            throws Exception {
        startThree();
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + brokers.get(0).port());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
        admin = Admin.create(props);
        CreateTopicsResult created = admin.createTopics(List.of(new NewTopic("orders", 3, (short) 3)));
        created.all().get();
        assertThat(created.replicationFactor("orders").get()).isEqualTo(3);
        org.apache.kafka.common.Uuid answered = created.topicId("orders").get();
        UUID id = new UUID(answered.getMostSignificantBits(), answered.getLeastSignificantBits());

        List<List<Integer>> replicasSeenByFirst = null;
        for (Broker b : brokers) {
            TopicImage orders = await(b, image -> image.topic("orders").isPresent()).topic("orders").orElseThrow();
            assertThat(orders.id()).isEqualTo(id);
            List<List<Integer>> replicas = new ArrayList<>();
            for (int p = 0; p < 3; p++) {
                PartitionRegistration reg = orders.partition(p);
                assertThat(reg.replicas()).containsExactlyInAnyOrder(1, 2, 3);
                assertThat(reg.isr()).containsExactlyInAnyOrder(1, 2, 3);
                assertThat(reg.leader()).isEqualTo(reg.replicas().get(0));
                assertThat(b.topics().partitionLog("orders", p)).isPresent();
                replicas.add(reg.replicas());
            }
            // The same metadata everywhere, and the leaders spread over the brokers.
            if (replicasSeenByFirst == null) {
                replicasSeenByFirst = replicas;
                assertThat(replicas.stream().map(r -> r.get(0)).distinct()).hasSize(3);
            } else {
                assertThat(replicas).isEqualTo(replicasSeenByFirst);
            }
        }

        // Broker 1 stops with a controlled shutdown: the partition it led gets another in-sync leader first.
        Broker leaving = brokers.remove(0);
        leaving.close();
        ClusterImage after = await(brokers.get(0), image -> image.topic("orders").orElseThrow().partitions().stream()
                .noneMatch(p -> p.leader() == 1));
        assertThat(after.topic("orders").orElseThrow().partitions())
                .allSatisfy(p -> assertThat(p.leader()).isIn(2, 3));
        assertThat(after.brokers().get(1).inControlledShutdown() || after.brokers().get(1).fenced()).isTrue();

        // Records written with acks=all to a partition broker 2 leads now reach every remaining replica's log.
        int led = -1;
        for (int p = 0; p < 3; p++) {
            if (brokers.get(0).cluster().image().partition("orders", p).orElseThrow().leader() == 2) {
                led = p;
            }
        }
        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + brokers.get(0).port());
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 10; i++) {
                RecordMetadata written = producer.send(new ProducerRecord<>("orders", led, "k" + i, "v" + i)).get();
                assertThat(written.offset()).isEqualTo(i);
            }
        }
        for (Broker b : brokers) { // 2 and 3
            PartitionLog log = b.topics().partitionLog("orders", led).orElseThrow();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (log.logEndOffset() < 10 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(log.logEndOffset()).as("log end of orders-" + led + " on broker " + b.config().nodeId())
                    .isEqualTo(10);
        }
    }
}
