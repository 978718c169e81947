package io.odradek.replication.partition;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.QuorumInfo;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A controller that records what is submitted and answers each command with the future the test chose
 * (by default: applied at once, no error). Images are the test's to apply.
 */
final class RecordingController implements ControllerChannel {
    final List<ControllerCommand> submitted = new CopyOnWriteArrayList<>();
    /** The answer to give the next submits; replace it to hold or refuse them. */
    volatile java.util.function.Supplier<CompletableFuture<CommandResult>> answer =
            () -> CompletableFuture.completedFuture(CommandResult.ok(1, List.of(), 0));

    List<ControllerCommand.AlterPartition> alterPartitions() {
        return submitted.stream().filter(c -> c instanceof ControllerCommand.AlterPartition)
                .map(c -> (ControllerCommand.AlterPartition) c).toList();
    }

    @Override
    public CompletableFuture<CommandResult> submit(ControllerCommand command) {
        submitted.add(command);
        return answer.get();
    }

    @Override
    public CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat heartbeat) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("no heartbeats in this test"));
    }

    @Override
    public CompletableFuture<QuorumInfo> describeQuorum() {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("no quorum in this test"));
    }

    /** The image ISR eligibility is judged from: brokers 1-3 registered (epoch 42), unfenced. */
    volatile ClusterImage image = imageWithBrokers(false);

    static ClusterImage imageWithBrokers(boolean broker3Fenced) {
        java.util.TreeMap<Integer, BrokerRegistration> brokers = new java.util.TreeMap<>();
        for (int id = 1; id <= 3; id++) {
            brokers.put(id, new BrokerRegistration(id, 42, new java.util.UUID(0, id),
                    List.of(new Endpoint("PLAINTEXT", "127.0.0.1", 9090 + id)), null, id == 3 && broker3Fenced, false));
        }
        return new ClusterImage(1, "cluster", brokers, new java.util.TreeMap<>(), 0);
    }

    @Override
    public ClusterImage image() {
        return image;
    }

    @Override
    public void addListener(Consumer<ClusterImage> listener) {
    }

    @Override
    public void close() {
    }
}
