package io.odradek.broker.metrics.http;

import io.odradek.broker.metrics.BrokerMetrics;
import io.odradek.broker.metrics.MetricName;
import io.odradek.log.LogConfig;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.replication.quorum.RatisControllerChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Kafka's broker and controller gauges, read from the broker's services when asked (JMX and /metrics alike):
 * <ul>
 * <li>{@code kafka.server:type=ReplicaManager,name=PartitionCount|LeaderCount|UnderReplicatedPartitions|
 *     UnderMinIsrPartitionCount|AtMinIsrPartitionCount|OfflineReplicaCount}: from the metadata image (the
 *     single node's own image on one broker), as Kafka's ReplicaManager counts its partitions: under-replicated =
 *     led here with fewer in-sync replicas than assigned ones (adding ones not counted), under/at min ISR =
 *     led here with an ISR smaller than/equal to the effective min ISR (Kafka's Partition.effectiveMinIsr: the
 *     topic's min.insync.replicas, capped at the replication factor), offline = a replica here
 *     whose log dir is offline;</li>
 * <li>{@code kafka.controller:type=KafkaController,name=ActiveControllerCount|OfflinePartitionsCount|
 *     GlobalTopicCount|GlobalPartitionCount}: 1 and the counts on the active controller (a single node is its
 *     own; in a cluster the Ratis leader among the voters), 0 elsewhere, as Kafka reports them;</li>
 * <li>{@code kafka.server:type=KafkaServer,name=BrokerState}: Kafka's BrokerState numbers, STARTING (1) until
 *     the listeners accept, RUNNING (3), PENDING_CONTROLLED_SHUTDOWN (6, a cluster node) or SHUTTING_DOWN (7);</li>
 * <li>{@code kafka.log:type=LogManager,name=OfflineLogDirectoryCount};</li>
 * <li>{@code kafka.server:type=socket-server-metrics,name=connection-count}: open client connections, broker-wide
 *     (Kafka has it per listener and network processor, a KafkaMetric; its usual Prometheus name
 *     {@code kafka_server_socket_server_metrics_connection_count} is what this gives).</li>
 * </ul>
 */
public final class BrokerGauges {
    static final int STARTING = 1;
    static final int RUNNING = 3;
    static final int PENDING_CONTROLLED_SHUTDOWN = 6;
    static final int SHUTTING_DOWN = 7;

    private BrokerGauges() {
    }

    /** Registers {@link #of} with {@code metrics}. */
    public static Map<MetricName, Supplier<Number>> register(BrokerMetrics metrics, ObservedBroker broker,
            BrokerHealth health) {
        Map<MetricName, Supplier<Number>> gauges = of(broker, health);
        gauges.forEach(metrics::gauge);
        return gauges;
    }

    /** Every gauge, by name, each read from {@code broker} when called. */
    static Map<MetricName, Supplier<Number>> of(ObservedBroker broker, BrokerHealth health) {
        Map<MetricName, Supplier<Number>> metrics = new LinkedHashMap<>();
        replicaManager(metrics, "PartitionCount", broker, (image, local) -> count(image, (t, i, p) -> p.replicas().contains(local)));
        replicaManager(metrics, "LeaderCount", broker, (image, local) -> count(image, (t, i, p) -> p.leader() == local));
        replicaManager(metrics, "UnderReplicatedPartitions", broker, (image, local) -> count(image,
                (t, i, p) -> p.leader() == local && p.isr().size() < p.replicas().size() - p.adding().size()));
        replicaManager(metrics, "UnderMinIsrPartitionCount", broker, (image, local) -> count(image,
                (t, i, p) -> p.leader() == local && p.isr().size() < effectiveMinIsr(broker, t.name(), i, p)));
        replicaManager(metrics, "AtMinIsrPartitionCount", broker, (image, local) -> count(image,
                (t, i, p) -> p.leader() == local && p.isr().size() == effectiveMinIsr(broker, t.name(), i, p)));
        replicaManager(metrics, "OfflineReplicaCount", broker, (image, local) -> count(image,
                (t, i, p) -> p.replicas().contains(local) && broker.cluster().isLocalLogOffline(t.name(), i)));

        put(metrics, controller("ActiveControllerCount"), () -> activeController(broker) ? 1 : 0);
        put(metrics, controller("OfflinePartitionsCount"), () -> !activeController(broker) ? 0
                : count(broker.cluster().image(), (t, i, p) -> !p.hasLeader()));
        put(metrics, controller("GlobalTopicCount"), () -> !activeController(broker) ? 0
                : broker.cluster().image().topics().size());
        put(metrics, controller("GlobalPartitionCount"), () -> !activeController(broker) ? 0
                : count(broker.cluster().image(), (t, i, p) -> true));

        put(metrics, MetricName.of("kafka.server", "KafkaServer", "BrokerState"), () -> health.isShuttingDown()
                ? (broker.config().isClusterMode() ? PENDING_CONTROLLED_SHUTDOWN : SHUTTING_DOWN)
                : broker.network().accepting() ? RUNNING : STARTING);
        put(metrics, MetricName.of("kafka.log", "LogManager", "OfflineLogDirectoryCount"),
                () -> broker.topics().offlineDirs().size());
        put(metrics, MetricName.of("kafka.server", "socket-server-metrics", "connection-count"),
                () -> broker.network().connections().open());
        return metrics;
    }

    /** A partition of the image: its topic, index and registration. */
    private interface PartitionTest {
        boolean test(TopicImage topic, int index, PartitionRegistration partition);
    }

    private interface ImageCount {
        int count(ClusterImage image, int localBrokerId);
    }

    private static void put(Map<MetricName, Supplier<Number>> gauges, MetricName name, Supplier<Number> value) {
        gauges.put(name, value);
    }

    private static void replicaManager(Map<MetricName, Supplier<Number>> metrics, String name, ObservedBroker broker,
            ImageCount count) {
        put(metrics, MetricName.of("kafka.server", "ReplicaManager", name),
                () -> count.count(broker.cluster().image(), broker.cluster().localBrokerId()));
    }

    private static MetricName controller(String name) {
        return MetricName.of("kafka.controller", "KafkaController", name);
    }

    private static int count(ClusterImage image, PartitionTest test) {
        int n = 0;
        for (TopicImage topic : image.topics().values()) {
            for (int i = 0; i < topic.partitions().size(); i++) {
                if (test.test(topic, i, topic.partitions().get(i))) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * The topic's min.insync.replicas as its log has it (1 when the log is not here), at most the replication
     * factor: a topic with fewer replicas than its min.insync.replicas is at, not under, its minimum when all are
     * in sync (as Kafka's Partition.effectiveMinIsr counts it).
     */
    private static int effectiveMinIsr(ObservedBroker broker, String topic, int partition,
            PartitionRegistration registration) {
        int configured = broker.topics().partitionLog(topic, partition)
                .map(log -> log.config().get(LogConfig.MIN_INSYNC_REPLICAS))
                .map(Integer::parseInt).orElse(1);
        return Math.min(configured, registration.replicas().size());
    }

    /** A single node is its own controller; a cluster node is the active one while its voter leads the quorum. */
    private static boolean activeController(ObservedBroker broker) {
        if (broker.cluster().controller().isEmpty()) {
            return true;
        }
        return broker.cluster().controller().get() instanceof RatisControllerChannel ratis
                && ratis.localVoter() != null && ratis.localVoter().isLeader();
    }
}
