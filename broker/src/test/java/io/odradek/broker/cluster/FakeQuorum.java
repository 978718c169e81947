package io.odradek.broker.cluster;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.ItemResult;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * A stand-in for the Ratis quorum in broker tests: one in-memory metadata log shared by every node's
 * channel, applying the few commands a cluster node sends (register, create/delete topics with round-robin
 * placement, controlled shutdown moving leaders to another in-sync replica) and publishing each image to
 * every channel's listeners in order on one thread, as the real channel does.
 */
final class FakeQuorum implements AutoCloseable {
    private final ExecutorService publisher = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fake-quorum");
        t.setDaemon(true);
        return t;
    });
    private final List<Consumer<ClusterImage>> listeners = new CopyOnWriteArrayList<>();
    private final List<ControllerCommand> log = new CopyOnWriteArrayList<>();
    private ClusterImage image = new ClusterImage(-1, null, new TreeMap<>(), new TreeMap<>(), 0);

    synchronized ClusterImage image() {
        return image;
    }

    /** Every command committed so far, in order. */
    List<ControllerCommand> log() {
        return log;
    }

    /** A node's channel: its listeners hear every image; closing it detaches them. */
    ControllerChannel channel() {
        return new ControllerChannel() {
            private final List<Consumer<ClusterImage>> mine = new CopyOnWriteArrayList<>();

            @Override
            public CompletableFuture<CommandResult> submit(ControllerCommand command) {
                return CompletableFuture.completedFuture(apply(command));
            }

            @Override
            public CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat beat) {
                return CompletableFuture.completedFuture(FakeQuorum.this.heartbeat(beat));
            }

            @Override
            public CompletableFuture<QuorumInfo> describeQuorum() {
                return CompletableFuture.failedFuture(new UnsupportedOperationException("fake quorum"));
            }

            @Override
            public ClusterImage image() {
                return FakeQuorum.this.image();
            }

            @Override
            public void addListener(Consumer<ClusterImage> listener) {
                mine.add(listener);
                listeners.add(listener);
            }

            @Override
            public void close() {
                listeners.removeAll(mine);
            }
        };
    }

    private synchronized HeartbeatReply heartbeat(BrokerHeartbeat beat) {
        BrokerRegistration b = image.brokers().get(beat.brokerId());
        if (b == null || b.epoch() != beat.brokerEpoch()) {
            return new HeartbeatReply(ErrorCode.STALE_BROKER_EPOCH, true, false, image.offset());
        }
        boolean leads = image.topics().values().stream().flatMap(t -> t.partitions().stream())
                .anyMatch(p -> p.leader() == beat.brokerId());
        return new HeartbeatReply(ErrorCode.NONE, b.fenced(), beat.wantShutDown() && !leads, image.offset());
    }

    private synchronized CommandResult apply(ControllerCommand command) {
        long offset = image.offset() + 1;
        SortedMap<Integer, BrokerRegistration> brokers = new TreeMap<>(image.brokers());
        SortedMap<String, TopicImage> topics = new TreeMap<>(image.topics());
        String clusterId = image.clusterId();
        CommandResult result;
        if (command instanceof ControllerCommand.RegisterBroker r) {
            clusterId = clusterId != null ? clusterId : r.proposedClusterId();
            brokers.put(r.brokerId(), new BrokerRegistration(r.brokerId(), offset, r.incarnationId(),
                    r.endpoints(), r.rack(), false, false));
            result = CommandResult.ok(offset, List.of(), offset);
        } else if (command instanceof ControllerCommand.CreateTopics c) {
            List<ItemResult> items = new ArrayList<>();
            for (ControllerCommand.NewTopic t : c.topics()) {
                if (topics.containsKey(t.name())) {
                    items.add(new ItemResult(t.name(), ErrorCode.TOPIC_ALREADY_EXISTS,
                            "Topic '" + t.name() + "' already exists."));
                } else if (t.replicationFactor() > brokers.size()) {
                    items.add(new ItemResult(t.name(), ErrorCode.INVALID_REPLICATION_FACTOR,
                            "Unable to replicate the partition " + t.replicationFactor() + " time(s): The target"
                                    + " replication factor of " + t.replicationFactor() + " cannot be reached"
                                    + " because only " + brokers.size() + " broker(s) are registered."));
                } else {
                    items.add(ItemResult.ok(t.name()));
                    if (!c.validateOnly()) {
                        topics.put(t.name(), new TopicImage(t.name(), t.id(), t.configs(),
                                place(t, new ArrayList<>(brokers.keySet()))));
                    }
                }
            }
            result = CommandResult.ok(offset, items, -1);
        } else if (command instanceof ControllerCommand.DeleteTopics d) {
            List<ItemResult> items = new ArrayList<>();
            for (var id : d.topicIds()) {
                TopicImage t = topics.values().stream().filter(x -> x.id().equals(id)).findFirst().orElse(null);
                if (t == null) {
                    items.add(new ItemResult(id.toString(), ErrorCode.UNKNOWN_TOPIC_ID, "unknown"));
                } else {
                    topics.remove(t.name());
                    items.add(ItemResult.ok(t.name()));
                }
            }
            result = CommandResult.ok(offset, items, -1);
        } else if (command instanceof ControllerCommand.ControlledShutdown s) {
            brokers.computeIfPresent(s.brokerId(), (id, b) -> b.withControlledShutdown(true));
            topics.replaceAll((name, t) -> moveLeadersOff(t, s.brokerId()));
            result = CommandResult.ok(offset, List.of(), -1);
        } else {
            return CommandResult.failed(offset, ErrorCode.UNSUPPORTED_VERSION, "fake quorum: " + command);
        }
        log.add(command);
        image = new ClusterImage(offset, clusterId, brokers, topics, image.nextProducerId());
        ClusterImage published = image;
        publisher.execute(() -> listeners.forEach(l -> l.accept(published)));
        return result;
    }

    private static List<PartitionRegistration> place(ControllerCommand.NewTopic t, List<Integer> brokers) {
        List<PartitionRegistration> partitions = new ArrayList<>();
        for (int p = 0; p < t.numPartitions(); p++) {
            List<Integer> replicas = t.assignments().get(p);
            if (replicas == null) {
                replicas = new ArrayList<>();
                for (int r = 0; r < t.replicationFactor(); r++) {
                    replicas.add(brokers.get((p + r) % brokers.size()));
                }
            }
            partitions.add(PartitionRegistration.initial(replicas));
        }
        return partitions;
    }

    private static TopicImage moveLeadersOff(TopicImage t, int broker) {
        List<PartitionRegistration> next = new ArrayList<>();
        for (PartitionRegistration p : t.partitions()) {
            if (p.leader() != broker) {
                next.add(p);
                continue;
            }
            List<Integer> isr = p.isr().stream().filter(r -> r != broker).toList();
            int leader = isr.isEmpty() ? PartitionRegistration.NO_LEADER : isr.get(0);
            next.add(new PartitionRegistration(p.replicas(), isr.isEmpty() ? p.isr() : isr, p.adding(), p.removing(),
                    leader, p.leaderEpoch() + 1, p.partitionEpoch() + 1));
        }
        return new TopicImage(t.name(), t.id(), t.configs(), next);
    }

    /** The image as the quorum holds it, for assertions on commands' effects. */
    synchronized Map<String, TopicImage> topics() {
        return image.topics();
    }

    @Override
    public void close() {
        publisher.shutdownNow();
    }
}
