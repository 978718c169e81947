package io.odradek.replication.cluster;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A broker's line to the metadata quorum (implemented over Apache Ratis in replication/quorum): submits
 * commands, heartbeats, and delivers every new committed image in order.
 */
public interface ControllerChannel extends AutoCloseable {
    /** Completes once the command is committed and applied by the leader; retries NOT_CONTROLLER internally. */
    CompletableFuture<CommandResult> submit(ControllerCommand command);

    CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat heartbeat);

    CompletableFuture<QuorumInfo> describeQuorum();

    /** The newest image this node has. */
    ClusterImage image();

    /** Called with each newer image, in offset order, on one thread (never an event loop). */
    void addListener(Consumer<ClusterImage> listener);

    @Override
    void close();
}
