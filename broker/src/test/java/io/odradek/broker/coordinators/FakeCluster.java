package io.odradek.broker.coordinators;

import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.cluster.ImageEdits;
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
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A hand-made cluster for tests (until the real ClusterView lands): an image the test builds and changes,
 * seen from broker {@code localBrokerId}, and a controller that applies the few commands the coordinators
 * submit (AllocateProducerIds, CreateTopics) to that image, recording every command.
 */
public final class FakeCluster implements ClusterView {
    public static final int BLOCK_SIZE = 1000;

    private final int localBrokerId;
    private final Controller controller;
    /** As ClusterImage.EMPTY, but every image built from it carries the cluster id "cluster". */
    private ClusterImage image = new ClusterImage(-1, "cluster", new TreeMap<>(), new TreeMap<>(), 0);

    public FakeCluster(int localBrokerId) {
        this(localBrokerId, new Controller());
    }

    /** Another broker's view of the same cluster (the same controller and image). */
    public FakeCluster as(int brokerId) {
        FakeCluster other = new FakeCluster(brokerId, controller);
        other.image = image;
        return other;
    }

    private FakeCluster(int localBrokerId, Controller controller) {
        this.localBrokerId = localBrokerId;
        this.controller = controller;
        controller.views.add(this);
    }

    // ------------------------------------------------------------------ building the image

    /** Registers unfenced brokers with endpoints PLAINTEXT://host-<id>:<9090+id>, epoch 100+id. */
    public FakeCluster withBrokers(int... ids) {
        List<BrokerRegistration> brokers = new ArrayList<>();
        for (int id : ids) {
            brokers.add(ImageEdits.plaintextBroker(id, 100 + id, "host-" + id, 9090 + id, null, false));
        }
        controller.publish(ImageEdits.withBrokers(image, brokers));
        return this;
    }

    public FakeCluster fence(int id) {
        controller.publish(ImageEdits.withBrokers(image, List.of(image.brokers().get(id).withFenced(true))));
        return this;
    }

    /** A topic whose partition i is led by {@code leaders[i]} (-1: no leader), each replicated on all brokers. */
    public FakeCluster withTopic(String name, int... leaders) {
        List<PartitionRegistration> partitions = new ArrayList<>();
        List<Integer> replicas = List.copyOf(image.brokers().keySet());
        for (int leader : leaders) {
            partitions.add(new PartitionRegistration(replicas, leader < 0 ? List.of() : List.of(leader), List.of(), List.of(),
                    leader, 4, 7));
        }
        controller.publishTopic(new TopicImage(name, UUID.nameUUIDFromBytes(name.getBytes()), Map.of(), partitions));
        return this;
    }

    public List<ControllerCommand> commands() {
        return controller.commands;
    }

    // ------------------------------------------------------------------ ClusterView

    @Override
    public ClusterImage image() {
        return image;
    }

    @Override
    public int localBrokerId() {
        return localBrokerId;
    }

    @Override
    public String clientListener() {
        return "PLAINTEXT";
    }

    @Override
    public Optional<ControllerChannel> controller() {
        return Optional.of(controller);
    }

    @Override
    public CompletableFuture<ClusterImage> awaitApplied(long offset) {
        return CompletableFuture.completedFuture(image);
    }

    /** Applies AllocateProducerIds and CreateTopics as the controller would (placement: every broker, first leads). */
    static final class Controller implements ControllerChannel {
        final List<ControllerCommand> commands = new ArrayList<>();
        final List<FakeCluster> views = new ArrayList<>();
        /** Set to make the next submit fail as an unreachable controller does. */
        boolean unreachable;

        private ClusterImage current() {
            return views.get(0).image;
        }

        synchronized void publish(ClusterImage next) {
            views.forEach(v -> v.image = next);
        }

        synchronized void publishTopic(TopicImage topic) {
            publish(ImageEdits.withTopic(current(), topic));
        }

        @Override
        public synchronized CompletableFuture<CommandResult> submit(ControllerCommand command) {
            commands.add(command);
            if (unreachable) {
                return CompletableFuture.failedFuture(new IllegalStateException("no controller quorum"));
            }
            ClusterImage image = current();
            if (command instanceof ControllerCommand.AllocateProducerIds allocate) {
                if (image.broker(allocate.brokerId()).map(b -> b.epoch() != allocate.brokerEpoch()).orElse(true)) {
                    return CompletableFuture.completedFuture(CommandResult.failed(image.offset(), ErrorCode.STALE_BROKER_EPOCH, null));
                }
                long first = image.nextProducerId();
                publish(ImageEdits.withNextProducerId(image, first + BLOCK_SIZE));
                return CompletableFuture.completedFuture(CommandResult.ok(image.offset() + 1, List.of(), first));
            }
            if (command instanceof ControllerCommand.CreateTopics create) {
                List<ItemResult> items = new ArrayList<>();
                for (ControllerCommand.NewTopic t : create.topics()) {
                    if (image.topic(t.name()).isPresent()) {
                        items.add(new ItemResult(t.name(), ErrorCode.TOPIC_ALREADY_EXISTS, "Topic '" + t.name() + "' already exists."));
                        continue;
                    }
                    List<Integer> brokers = List.copyOf(image.brokers().keySet());
                    List<PartitionRegistration> partitions = new ArrayList<>();
                    for (int p = 0; p < t.numPartitions(); p++) {
                        List<Integer> replicas = new ArrayList<>();
                        for (int r = 0; r < t.replicationFactor(); r++) {
                            replicas.add(brokers.get((p + r) % brokers.size()));
                        }
                        partitions.add(PartitionRegistration.initial(replicas));
                    }
                    publishTopic(new TopicImage(t.name(), t.id(), t.configs(), partitions));
                    items.add(ItemResult.ok(t.name()));
                }
                return CompletableFuture.completedFuture(CommandResult.ok(current().offset(), items, -1));
            }
            return CompletableFuture.failedFuture(new UnsupportedOperationException(command.toString()));
        }

        @Override
        public CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat heartbeat) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("heartbeat"));
        }

        @Override
        public CompletableFuture<QuorumInfo> describeQuorum() {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("describeQuorum"));
        }

        @Override
        public ClusterImage image() {
            return current();
        }

        @Override
        public void addListener(Consumer<ClusterImage> listener) {
        }

        @Override
        public void close() {
        }
    }
}
