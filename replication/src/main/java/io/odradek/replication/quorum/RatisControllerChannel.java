package io.odradek.replication.quorum;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.QuorumInfo;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A node's {@link ControllerChannel} over Ratis. API commit: bodies follow.
 *
 * <p>From broker code: {@code ControllerChannel channel = RatisControllerChannel.open(quorumConfig);} starts this
 * node's voter when {@code quorumConfig.controller()} and closes it with the channel.
 */
public final class RatisControllerChannel implements ControllerChannel {
    /**
     * A channel for this node; {@code localVoter} is this node's running voter (images come from its state
     * machine) or null on a broker-only node (images are polled from the leader). Does not close {@code localVoter}.
     */
    public RatisControllerChannel(QuorumConfig config, RatisQuorum localVoter) {
    }

    /** Starts this node's voter when it has the controller role, and a channel that closes it on close(). */
    public static RatisControllerChannel open(QuorumConfig config) throws IOException {
        throw new UnsupportedOperationException("in progress");
    }

    @Override
    public CompletableFuture<CommandResult> submit(ControllerCommand command) {
        throw new UnsupportedOperationException("in progress");
    }

    @Override
    public CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat heartbeat) {
        throw new UnsupportedOperationException("in progress");
    }

    @Override
    public CompletableFuture<QuorumInfo> describeQuorum() {
        throw new UnsupportedOperationException("in progress");
    }

    @Override
    public ClusterImage image() {
        return ClusterImage.EMPTY;
    }

    @Override
    public void addListener(Consumer<ClusterImage> listener) {
    }

    @Override
    public void close() {
    }
}
