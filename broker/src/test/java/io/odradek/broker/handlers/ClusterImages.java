package io.odradek.broker.handlers;

import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.replication.cluster.TopicImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Hand-made cluster images for handler tests, and a controller channel that records what it is sent and
 * answers as the test says.
 */
final class ClusterImages {
    static final UUID ORDERS_ID = new UUID(1, 1);
    static final UUID AUDIT_ID = new UUID(2, 2);

    private ClusterImages() {
    }

    static BrokerRegistration broker(int id, String host, int port, String rack, boolean fenced) {
        return new BrokerRegistration(id, 10 + id, new UUID(7, id), List.of(new Endpoint("PLAINTEXT", host, port),
                new Endpoint("REPLICATION", host, port + 1000)), rack, fenced, false);
    }

    static PartitionRegistration partition(List<Integer> replicas, List<Integer> isr, int leader, int leaderEpoch) {
        return new PartitionRegistration(replicas, isr, List.of(), List.of(), leader, leaderEpoch, leaderEpoch + 3);
    }

    /**
     * Brokers 1 (rack r1) and 2 (r2) live, 3 (r3) fenced, 4 never registered. "orders": p0 led by 1
     * (replicas 1,2,3, ISR 1,2, epoch 4), p1 led by 2 (replicas 2,3,1, ISR 2,1, epoch 2), p2 without a leader
     * (replicas 3,2, ISR 3, epoch 7). "audit": p0 led by 1 with replicas 4,1 (ISR 1, epoch 0).
     */
    static ClusterImage threeBrokers() {
        SortedMap<Integer, BrokerRegistration> brokers = new TreeMap<>();
        brokers.put(1, broker(1, "10.0.0.1", 9092, "r1", false));
        brokers.put(2, broker(2, "10.0.0.2", 9092, "r2", false));
        brokers.put(3, broker(3, "10.0.0.3", 9092, "r3", true));
        SortedMap<String, TopicImage> topics = new TreeMap<>();
        topics.put("orders", new TopicImage("orders", ORDERS_ID, Map.of(), List.of(
                partition(List.of(1, 2, 3), List.of(1, 2), 1, 4),
                partition(List.of(2, 3, 1), List.of(2, 1), 2, 2),
                partition(List.of(3, 2), List.of(3), PartitionRegistration.NO_LEADER, 7))));
        topics.put("audit", new TopicImage("audit", AUDIT_ID, Map.of(), List.of(
                partition(List.of(4, 1), List.of(1), 1, 0))));
        return new ClusterImage(42, "cluster-xyz", brokers, topics, 0);
    }

    /** Topics with the given partition counts, every partition led by broker 1 alone. */
    static ClusterImage withTopics(Map<String, Integer> partitionCounts) {
        SortedMap<Integer, BrokerRegistration> brokers = new TreeMap<>();
        brokers.put(1, broker(1, "10.0.0.1", 9092, null, false));
        SortedMap<String, TopicImage> topics = new TreeMap<>();
        long n = 0;
        for (Map.Entry<String, Integer> e : partitionCounts.entrySet()) {
            List<PartitionRegistration> partitions = new ArrayList<>();
            for (int p = 0; p < e.getValue(); p++) {
                partitions.add(partition(List.of(1), List.of(1), 1, 0));
            }
            topics.put(e.getKey(), new TopicImage(e.getKey(), new UUID(9, n++), Map.of(), partitions));
        }
        return new ClusterImage(5, "cluster-xyz", brokers, topics, 0);
    }

    /** A controller channel answering commands and quorum descriptions as given; records the commands. */
    static final class FakeController implements ControllerChannel {
        final List<ControllerCommand> submitted = new ArrayList<>();
        private final Function<ControllerCommand, CompletableFuture<CommandResult>> answer;
        private final CompletableFuture<QuorumInfo> quorum;

        FakeController(Function<ControllerCommand, CompletableFuture<CommandResult>> answer,
                CompletableFuture<QuorumInfo> quorum) {
            this.answer = answer;
            this.quorum = quorum;
        }

        @Override
        public synchronized CompletableFuture<CommandResult> submit(ControllerCommand command) {
            submitted.add(command);
            return answer.apply(command);
        }

        @Override
        public CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat heartbeat) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<QuorumInfo> describeQuorum() {
            return quorum;
        }

        @Override
        public ClusterImage image() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void addListener(Consumer<ClusterImage> listener) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }
}
