package io.odradek.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Three Odradek brokers as separate processes, a topic with replication factor 3 and min.insync.replicas=2:
 * the partition leader is killed with SIGKILL while an idempotent acks=all producer writes, and no
 * acknowledged record is lost or duplicated; the killed broker comes back, catches up and rejoins the ISR.
 */
class LeaderFailoverTest {
    private static final String TOPIC = "failover";
    private static final int RECORDS = 200_000;

    private OdradekCluster cluster;

    @BeforeEach
    void startCluster() throws Exception {
        cluster = OdradekCluster.start(3, Map.of("broker.session.timeout.ms", "3000",
                "broker.heartbeat.interval.ms", "500"));
    }

    @AfterEach
    void stopCluster(TestInfo test) {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyAcknowledgedRecordSurvivesTheLeadersSigkillExactlyOnceInOrder() throws Exception {
        cluster.admin().createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3)
                .configs(Map.of("min.insync.replicas", "2")))).all().get(60, TimeUnit.SECONDS);
        TopicDescription before = describe();
        int leader = before.partitions().get(0).leader().id();
        assertThat(before.partitions().get(0).isr()).extracting(Node::id).containsExactlyInAnyOrder(1, 2, 3);

        Set<Integer> acknowledged = new ConcurrentSkipListSet<>();
        AtomicInteger failed = new AtomicInteger();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                int n = i;
                producer.send(new ProducerRecord<>(TOPIC, 0, "k" + n, Integer.toString(n)), (metadata, error) -> {
                    if (error == null) {
                        acknowledged.add(n);
                    } else {
                        failed.incrementAndGet();
                    }
                });
                if (i == RECORDS / 4) {
                    producer.flush();
                    cluster.kill(leader);
                }
            }
            producer.flush();
        }
        assertThat(acknowledged).as("acknowledged records (%d failed)\n%s", failed.get(), cluster.describe())
                .hasSizeGreaterThan(RECORDS / 2);

        TopicDescription after = describe();
        assertThat(after.partitions().get(0).leader().id()).isNotEqualTo(leader);

        List<Integer> read = readAll();
        assertThat(read).as("read back in order, each once").isSorted().doesNotHaveDuplicates();
        assertThat(new TreeSet<>(read)).containsAll(acknowledged);

        // The killed broker returns, catches up from the new leader and is back in the ISR.
        cluster.start(leader);
        OdradekCluster.awaitCondition("broker " + leader + " back in the ISR", Duration.ofSeconds(60),
                () -> describe().partitions().get(0).isr().stream().anyMatch(n -> n.id() == leader));
        assertThat(describe().partitions().get(0).isr()).extracting(Node::id).containsExactlyInAnyOrder(1, 2, 3);
    }

    private TopicDescription describe() {
        try {
            return cluster.admin().describeTopics(List.of(TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS).get(TOPIC);
        } catch (Exception e) {
            throw new AssertionError("describeTopics failed\n" + cluster.describe(), e);
        }
    }

    private Properties producerConfig() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return p;
    }

    private List<Integer> readAll() {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<Integer> values = new ArrayList<>();
        TopicPartition tp = new TopicPartition(TOPIC, 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp), Duration.ofSeconds(30)).get(tp);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (consumer.position(tp) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    values.add(Integer.parseInt(r.value()));
                    assertThat(r.key()).isEqualTo("k" + r.value());
                }
            }
        }
        return values;
    }
}
