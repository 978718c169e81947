package io.odradek.broker.handlers;

import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.cluster.ImageEdits;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * A cluster image the tests shape by hand: this broker ({@link #LOCAL}) alone and leading every topic the
 * fixture creates, as a single node sees itself, until a test registers other brokers or moves a leader.
 */
final class DataPathClusterView implements ClusterView {
    static final int LOCAL = 1;
    static final String LISTENER = "PLAINTEXT";

    private volatile ClusterImage image;

    DataPathClusterView() {
        SortedMap<Integer, BrokerRegistration> brokers = new TreeMap<>();
        brokers.put(LOCAL, broker(LOCAL, "localhost", 9092, null, false));
        image = new ClusterImage(0, "test-cluster", brokers, new TreeMap<>(), 0);
    }

    /** A broker at epoch 0 with one {@link #LISTENER} endpoint. */
    static BrokerRegistration broker(int id, String host, int port, String rack, boolean fenced) {
        return ImageEdits.plaintextBroker(id, 0, host, port, rack, fenced);
    }

    /** A topic led here at epoch 0, replicas and ISR this broker alone. */
    void addTopic(String name, UUID id, int partitions) {
        List<PartitionRegistration> parts = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            parts.add(PartitionRegistration.initial(List.of(LOCAL)));
        }
        image = ImageEdits.withTopic(image, new TopicImage(name, id, Map.of(), parts));
    }

    void addBroker(BrokerRegistration broker) {
        image = ImageEdits.withBrokers(image, List.of(broker));
    }

    /** The image now says {@code leader} leads the partition at {@code leaderEpoch}, with replicas [us, leader]. */
    void moveLeader(String topic, int partition, int leader, int leaderEpoch) {
        TopicImage t = image.topic(topic).orElseThrow();
        PartitionRegistration old = t.partition(partition);
        PartitionRegistration moved = new PartitionRegistration(List.of(LOCAL, leader), List.of(LOCAL, leader),
                List.of(), List.of(), leader, leaderEpoch, old.partitionEpoch() + 1);
        image = ImageEdits.withTopic(image, t.withPartition(partition, moved));
    }

    @Override
    public ClusterImage image() {
        return image;
    }

    @Override
    public int localBrokerId() {
        return LOCAL;
    }

    @Override
    public String clientListener() {
        return LISTENER;
    }

    @Override
    public Optional<ControllerChannel> controller() {
        return Optional.empty();
    }

    @Override
    public CompletableFuture<ClusterImage> awaitApplied(long offset) {
        return CompletableFuture.completedFuture(image);
    }
}
