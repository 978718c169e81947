package io.odradek.broker.cluster;

import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.PartitionRegistration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The cluster as this broker's handlers see it. In a cluster: the newest metadata image this broker has
 * applied and the line to the controller quorum. On a single node started without {@code process.roles}:
 * an image made from the local topic catalog with this broker alone, leading every partition (replicas and
 * ISR [us], epoch 0; a partition whose log dir is offline has no leader), and no controller.
 */
public interface ClusterView {
    ClusterImage image();

    int localBrokerId();

    /**
     * This broker's first listener (PLAINTEXT by default). Handlers answer with the endpoints of the listener a
     * request came on ({@code context.session().listenerName()}), not this one (issue 10).
     */
    String clientListener();

    /** The controller quorum; empty on a single node without process.roles. */
    Optional<ControllerChannel> controller();

    /** Completes with the local image once it has applied metadata offset {@code offset} (at once if it has). */
    CompletableFuture<ClusterImage> awaitApplied(long offset);

    /** Whether this broker's own log of the partition is in an offline log dir (an I/O error took it down). */
    default boolean isLocalLogOffline(String topic, int partition) {
        return false;
    }

    /**
     * The replicas of a partition of {@code image} that cannot serve, as Kafka's metadata reports them:
     * those on a fenced or unregistered broker, and this broker's own when its log dir is offline.
     */
    default List<Integer> offlineReplicas(ClusterImage image, String topic, PartitionRegistration partition,
            int index) {
        List<Integer> offline = new ArrayList<>();
        for (int replica : partition.replicas()) {
            BrokerRegistration b = image.brokers().get(replica);
            if (b == null || b.fenced() || (replica == localBrokerId() && isLocalLogOffline(topic, index))) {
                offline.add(replica);
            }
        }
        return offline;
    }
}
