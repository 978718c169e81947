package io.odradek.broker.coordinators;

import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.cluster.TestClusterView;
import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerLogic;
import io.odradek.replication.cluster.ControllerSettings;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.QuorumInfo;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A controller without a quorum for tests: each submitted command is applied at once with the real
 * {@link ControllerLogic}, as every controller of the Ratis quorum applies it. {@link #view} gives a broker's
 * ClusterView over the resulting images.
 */
final class ModelController implements ControllerChannel {
    private final ControllerLogic logic = new ControllerLogic(ControllerSettings.DEFAULTS);
    private ClusterImage image = ClusterImage.EMPTY;

    /** Registers brokers (client endpoint PLAINTEXT://host-<id>:<9090+id>) and lets them in. */
    ModelController withBrokers(int... ids) {
        for (int id : ids) {
            long epoch = submit(new ControllerCommand.RegisterBroker(id, new UUID(1, id),
                    List.of(new Endpoint("PLAINTEXT", "host-" + id, 9090 + id)), null, "cluster-id")).join().value();
            submit(new ControllerCommand.UnfenceBroker(id, epoch)).join();
        }
        return this;
    }

    @Override
    public synchronized CompletableFuture<CommandResult> submit(ControllerCommand command) {
        ControllerLogic.Applied applied = logic.apply(image, command, image.offset() + 1);
        image = applied.image();
        return CompletableFuture.completedFuture(applied.result());
    }

    @Override
    public synchronized ClusterImage image() {
        return image;
    }

    ClusterView view(int brokerId) {
        return TestClusterView.of(this::image, brokerId, this);
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
    public void addListener(Consumer<ClusterImage> listener) {
    }

    @Override
    public void close() {
    }
}
