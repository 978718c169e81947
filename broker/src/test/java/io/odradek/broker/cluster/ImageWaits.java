package io.odradek.broker.cluster;

import io.odradek.broker.Broker;
import io.odradek.replication.cluster.ClusterImage;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Waiting, in the tests that start real brokers, for a broker's cluster image to reach a state. */
final class ImageWaits {
    private ImageWaits() {
    }

    /** The broker's first image to satisfy {@code condition}, polled every 20 ms; fails after the timeout. */
    static ClusterImage await(Broker broker, long timeoutSeconds, Predicate<ClusterImage> condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            ClusterImage image = broker.cluster().image();
            if (condition.test(image)) {
                return image;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("broker " + broker.config().nodeId() + " never saw the expected image: "
                + broker.cluster().image());
    }

    /** True once {@code count} brokers are registered and none is fenced. */
    static boolean allUnfenced(ClusterImage image, int count) {
        return image.brokers().size() == count && image.brokers().values().stream().noneMatch(r -> r.fenced());
    }
}
