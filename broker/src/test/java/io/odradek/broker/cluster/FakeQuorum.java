package io.odradek.broker.cluster;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerLogic;
import io.odradek.replication.cluster.ControllerSettings;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * A stand-in for the Ratis quorum in broker tests: one in-memory metadata log shared by every node's
 * channel, each command applied by the real {@link ControllerLogic} and each image published to every
 * channel's listeners in order on one thread, as the real channel does. Heartbeats unfence caught-up
 * brokers and let a drained broker stop, as the active controller does; nothing is ever fenced by time.
 */
final class FakeQuorum implements AutoCloseable {
    private final ExecutorService publisher = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fake-quorum");
        t.setDaemon(true);
        return t;
    });
    private final List<Consumer<ClusterImage>> listeners = new CopyOnWriteArrayList<>();
    private final List<ControllerCommand> log = new CopyOnWriteArrayList<>();
    private final ControllerLogic logic = new ControllerLogic(ControllerSettings.DEFAULTS);
    private ClusterImage image = ClusterImage.EMPTY;

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

    /**
     * The active controller's part: a fenced broker caught up with its registration is unfenced (an
     * UnfenceBroker command), and one asking to stop may once it leads nothing.
     */
    private synchronized HeartbeatReply heartbeat(BrokerHeartbeat beat) {
        BrokerRegistration b = image.brokers().get(beat.brokerId());
        if (b == null || b.epoch() != beat.brokerEpoch()) {
            return new HeartbeatReply(ErrorCode.STALE_BROKER_EPOCH, true, false, image.offset());
        }
        if (b.fenced() && !beat.wantShutDown() && beat.appliedOffset() >= b.epoch()) {
            apply(new ControllerCommand.UnfenceBroker(b.id(), b.epoch()));
            b = image.brokers().get(beat.brokerId());
        }
        boolean leads = image.topics().values().stream().flatMap(t -> t.partitions().stream())
                .anyMatch(p -> p.leader() == beat.brokerId());
        return new HeartbeatReply(ErrorCode.NONE, b.fenced(), beat.wantShutDown() && (b.fenced() || !leads),
                image.offset());
    }

    /** Commits {@code command} as the next entry: the real cluster model applies it, listeners hear the image. */
    private synchronized CommandResult apply(ControllerCommand command) {
        ControllerLogic.Applied applied = logic.apply(image, command, image.offset() + 1);
        log.add(command);
        image = applied.image();
        ClusterImage published = image;
        publisher.execute(() -> listeners.forEach(l -> l.accept(published)));
        return applied.result();
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
