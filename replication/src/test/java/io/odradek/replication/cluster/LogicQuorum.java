package io.odradek.replication.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A one-node "quorum" for store tests: applies each command with the real ControllerLogic at the next offset and
 * keeps the commands it was given. {@link #onApplied} sees each new image before the command's future completes
 * (a test sets it to hand the image to its store, as the broker's image thread would).
 */
public final class LogicQuorum implements ControllerChannel {
    public final ControllerLogic logic = new ControllerLogic(ControllerSettings.DEFAULTS);
    public final List<ControllerCommand> submitted = new ArrayList<>();
    public ClusterImage image = ClusterImage.EMPTY;
    public Consumer<ClusterImage> onApplied = image -> { };

    @Override
    public synchronized CompletableFuture<CommandResult> submit(ControllerCommand command) {
        submitted.add(command);
        ControllerLogic.Applied applied = logic.apply(image, command, image.offset() + 1);
        image = applied.image();
        onApplied.accept(image);
        return CompletableFuture.completedFuture(applied.result());
    }

    @Override
    public CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat heartbeat) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<QuorumInfo> describeQuorum() {
        throw new UnsupportedOperationException();
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
