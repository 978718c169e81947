package io.odradek.replication.partition;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
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
