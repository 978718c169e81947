package io.odradek.broker.cluster;

import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.ControllerChannel;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A ClusterView for tests: a hand-made image (a cluster of several brokers) or a controller's current one,
 * seen from one of the brokers, optionally with a controller channel.
 */
public final class TestClusterView implements ClusterView {
    private final Supplier<ClusterImage> image;
    private final int localBrokerId;
    private final ControllerChannel controller;

    private TestClusterView(Supplier<ClusterImage> image, int localBrokerId, ControllerChannel controller) {
        this.image = image;
        this.localBrokerId = localBrokerId;
        this.controller = controller;
    }

    /** A fixed image seen from broker {@code localBrokerId}; {@code controller} may be null (none). */
    public static TestClusterView of(ClusterImage image, int localBrokerId, ControllerChannel controller) {
        return new TestClusterView(() -> image, localBrokerId, controller);
    }

    /** An image whose content the test changes as it goes (a controller applying commands). */
    public static TestClusterView of(Supplier<ClusterImage> image, int localBrokerId, ControllerChannel controller) {
        return new TestClusterView(image, localBrokerId, controller);
    }

    @Override
    public ClusterImage image() {
        return image.get();
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
        return Optional.ofNullable(controller);
    }

    @Override
    public CompletableFuture<ClusterImage> awaitApplied(long offset) {
        return CompletableFuture.completedFuture(image());
    }
}
