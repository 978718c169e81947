package io.odradek.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.Broker;
import io.odradek.log.PartitionLog;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.PartitionRegistration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers in one JVM, each serving clients on CLIENT and the other brokers on REPLICATION
 * ({@code inter.broker.listener.name}), every listener on port 0: registrations carry both endpoints, clients
 * see the endpoints of the listener they came in on, followers replicate through REPLICATION.
 */
class SeparateInterBrokerListenerTest {
    @TempDir
    Path root;

    private final List<Broker> brokers = new ArrayList<>();
    private final List<Admin> admins = new ArrayList<>();

    @AfterEach
    void tearDown() {
        admins.forEach(Admin::close);
        brokers.forEach(Broker::close);
    }

    private void startThree() throws Exception {
        ThreeNodeCluster.start(ThreeNodeCluster.configs(root, "CLIENT://127.0.0.1:0,REPLICATION://127.0.0.1:0",
                Map.of("listener.security.protocol.map", "CLIENT:PLAINTEXT,REPLICATION:PLAINTEXT,CONTROLLER:PLAINTEXT",
                        "inter.broker.listener.name", "REPLICATION")), brokers);
    }

    private Admin admin(String listener) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + brokers.get(0).address(listener).getPort());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
        Admin admin = Admin.create(props);
        admins.add(admin);
        return admin;
    }

    private List<String> bound(String listener) {
        return brokers.stream().map(b -> b.config().nodeId() + "@127.0.0.1:" + b.address(listener).getPort()).toList();
    }

    private static List<String> nodes(Collection<Node> nodes) {
        return nodes.stream().sorted(java.util.Comparator.comparingInt(Node::id))
                .map(n -> n.id() + "@" + n.host() + ":" + n.port()).toList();
    }

    @Test
    void eachBrokerRegistersBothListenersAndClientsSeeTheEndpointsOfTheListenerTheyUse() throws Exception {
        startThree();

        ClusterImage image = brokers.get(2).cluster().image();
        for (Broker b : brokers) {
            assertThat(image.brokers().get(b.config().nodeId()).endpoints()).containsExactly(
                    new Endpoint("CLIENT", "127.0.0.1", b.address("CLIENT").getPort()),
                    new Endpoint("REPLICATION", "127.0.0.1", b.address("REPLICATION").getPort()));
        }
        assertThat(nodes(admin("CLIENT").describeCluster().nodes().get())).isEqualTo(bound("CLIENT"));
        assertThat(nodes(admin("REPLICATION").describeCluster().nodes().get())).isEqualTo(bound("REPLICATION"));
    }

    @Test
    void followersReplicateThroughTheInterBrokerListener() throws Exception {
        startThree();
        admin("CLIENT").createTopics(List.of(new NewTopic("payments", 1, (short) 3))).all().get();
        for (Broker b : brokers) {
            ImageWaits.await(b, 60, i -> i.topic("payments").isPresent());
        }

        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + brokers.get(1).address("CLIENT").getPort());
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 10; i++) {
                assertThat(producer.send(new ProducerRecord<>("payments", 0, "k" + i, "v" + i)).get().offset())
                        .isEqualTo(i);
            }
        }
        for (Broker b : brokers) {
            PartitionLog log = b.topics().partitionLog("payments", 0).orElseThrow();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (log.logEndOffset() < 10 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(log.logEndOffset()).as("log end of payments-0 on broker " + b.config().nodeId()).isEqualTo(10);
        }
        PartitionRegistration payments = brokers.get(0).cluster().image().partition("payments", 0).orElseThrow();
        assertThat(payments.isr()).containsExactlyInAnyOrder(1, 2, 3);
    }
}
