package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two PLAINTEXT listeners at once, CLIENT and INTERNAL (issue 10), as a Kafka server.properties names them:
 * Java clients bootstrapping on either are told that listener's advertised endpoint, and stay on it.
 */
class MultipleListenersTest {
    @TempDir
    Path dir;
    private Broker broker;
    private final List<AutoCloseable> clients = new ArrayList<>();

    @BeforeEach
    void start() throws InterruptedException {
        broker = Broker.start(BrokerConfig.of(Map.of(
                "node.id", "1",
                "log.dirs", dir.toString(),
                "listeners", "CLIENT://127.0.0.1:0,INTERNAL://127.0.0.1:0",
                "advertised.listeners", "CLIENT://localhost:0,INTERNAL://127.0.0.1:0",
                "listener.security.protocol.map", "CLIENT:PLAINTEXT,INTERNAL:PLAINTEXT",
                "inter.broker.listener.name", "INTERNAL",
                "offsets.topic.num.partitions", "1",
                "group.initial.rebalance.delay.ms", "0")));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : clients) {
            c.close();
        }
        broker.close();
    }

    private String bootstrap(String listener) {
        return "127.0.0.1:" + broker.address(listener).getPort();
    }

    private Admin admin(String listener) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(listener));
        Admin admin = Admin.create(props);
        clients.add(admin);
        return admin;
    }

    private static List<String> describe(Admin admin) throws Exception {
        return admin.describeCluster().nodes().get().stream().map(n -> n.id() + "@" + n.host() + ":" + n.port()).toList();
    }

    @Test
    void metadataOnEachListenerGivesThatListenersAdvertisedHostAndPort() throws Exception {
        int client = broker.address("CLIENT").getPort();
        int internal = broker.address("INTERNAL").getPort();
        assertThat(client).isNotEqualTo(internal);

        assertThat(describe(admin("CLIENT"))).containsExactly("1@localhost:" + client);
        assertThat(describe(admin("INTERNAL"))).containsExactly("1@127.0.0.1:" + internal);
    }

    @Test
    void recordsProducedOnOneListenerAreConsumedInAGroupOnTheOther() throws Exception {
        admin("CLIENT").createTopics(List.of(new NewTopic("shared", 1, (short) 1))).all().get();

        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap("CLIENT"));
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 5; i++) {
                assertThat(producer.send(new ProducerRecord<>("shared", "key-" + i, "value-" + i)).get().offset())
                        .isEqualTo(i);
            }
        }

        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap("INTERNAL"));
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "internal-readers");
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of("shared"));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (seen.size() < 5 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    seen.add(r.offset() + ":" + r.key() + "=" + r.value());
                }
            }
            consumer.commitSync();
        }
        assertThat(seen).containsExactly("0:key-0=value-0", "1:key-1=value-1", "2:key-2=value-2", "3:key-3=value-3",
                "4:key-4=value-4");
        // The group's offsets, read through the other listener.
        assertThat(admin("CLIENT").listConsumerGroupOffsets("internal-readers").partitionsToOffsetAndMetadata().get()
                .get(new org.apache.kafka.common.TopicPartition("shared", 0)).offset()).isEqualTo(5);
    }
}
