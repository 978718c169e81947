package io.odradek.compat.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Kafka clients for the cluster tests: producers, consumers that read a partition to its end, describeTopics. */
final class ClusterClients {
    private ClusterClients() {
    }

    /** An idempotent acks=all producer of strings, closed with the cluster. */
    static KafkaProducer<String, String> producer(OdradekCluster cluster, String bootstrap, Map<String, String> extra) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.putAll(extra);
        return cluster.track(new KafkaProducer<>(p, new StringSerializer(), new StringSerializer()));
    }

    static KafkaProducer<String, String> producer(OdradekCluster cluster) {
        return producer(cluster, cluster.bootstrap(), Map.of());
    }

    /** An Admin client that talks to these nodes only. */
    static Admin admin(OdradekCluster cluster, String bootstrap, int requestTimeoutMs, int apiTimeoutMs) {
        return cluster.track(Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(requestTimeoutMs),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(apiTimeoutMs))));
    }

    /**
     * Every record of one partition from its start to its end offset at the time of the call (read_uncommitted
     * or read_committed), through the given bootstrap servers.
     */
    static List<ConsumerRecord<String, String>> readAll(String bootstrap, TopicPartition tp, String isolation) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp), Duration.ofSeconds(30)).get(tp);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (consumer.position(tp, Duration.ofSeconds(30)) < end) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("read only up to offset " + consumer.position(tp) + " of " + end
                            + " of " + tp + " in 60 s");
                }
                consumer.poll(Duration.ofMillis(500)).records(tp).forEach(records::add);
            }
        }
        return records;
    }

    static List<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).toList();
    }

    static TopicDescription describe(OdradekCluster cluster, Admin admin, String topic) {
        try {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
        } catch (Exception e) {
            throw new AssertionError("describeTopics(" + topic + ") failed\n" + cluster.describe(), e);
        }
    }

    static TopicPartitionInfo partition(OdradekCluster cluster, String topic, int partition) {
        return describe(cluster, cluster.admin(), topic).partitions().get(partition);
    }

    /** The leader's id, -1 when the partition has none. */
    static int leader(OdradekCluster cluster, String topic, int partition) {
        Node leader = partition(cluster, topic, partition).leader();
        return leader == null ? -1 : leader.id();
    }

    static Set<Integer> ids(List<Node> nodes) {
        return nodes.stream().map(Node::id).collect(Collectors.toSet());
    }

    static List<Integer> idList(List<Node> nodes) {
        return nodes.stream().map(Node::id).toList();
    }

    /** Waits until the partition's ISR is exactly these brokers (as describeTopics shows it). */
    static void awaitIsr(OdradekCluster cluster, String topic, int partition, Set<Integer> isr, Duration timeout) {
        OdradekCluster.awaitCondition(topic + "-" + partition + " ISR " + isr, timeout,
                () -> ids(partition(cluster, topic, partition).isr()).equals(isr));
    }
}
