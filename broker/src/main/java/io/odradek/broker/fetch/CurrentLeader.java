package io.odradek.broker.fetch;

import io.odradek.broker.cluster.ClusterView;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.partition.Partition;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * KIP-951's answer to a client that reached a broker which does not lead the partition (NOT_LEADER_OR_FOLLOWER,
 * FENCED_LEADER_EPOCH): the current leader's id and epoch, and its endpoint, so the client goes there
 * without a metadata round trip. As Kafka's KafkaApis.getCurrentLeader: the leader and epoch this broker knows,
 * from its metadata image or, when newer, from its local replica (the two are updated one after the other), the
 * endpoint only for an unfenced broker with the listener the request came on. Built only on those error paths.
 *
 * @param leaderId    -1 when there is no leader
 * @param leaderEpoch -1 when unknown
 * @param node        the leader's registration when it is alive and reachable on the request's listener, else null
 * @param endpoint    the leader's endpoint of that listener, null with {@code node}
 */
public record CurrentLeader(int leaderId, int leaderEpoch, BrokerRegistration node, Endpoint endpoint) {

    /**
     * The leader of {@code topic}-{@code partition}; {@code local} is the Partition here, or null if none;
     * {@code listener} the listener the request came on.
     */
    public static CurrentLeader of(ClusterView cluster, String topic, int partition, Partition local, String listener) {
        ClusterImage image = cluster.image();
        Optional<PartitionRegistration> registration = topic == null ? Optional.empty() : image.partition(topic, partition);
        int leader = registration.map(PartitionRegistration::leader).orElse(-1);
        int epoch = registration.map(PartitionRegistration::leaderEpoch).orElse(-1);
        if (local != null && local.leaderEpoch() > epoch) {
            // The replica was told of a newer leader than the image this view holds yet (they are updated apart).
            leader = local.leaderId();
            epoch = local.leaderEpoch();
        }
        BrokerRegistration node = leader < 0 ? null : image.brokers().get(leader);
        Endpoint endpoint = node == null || node.fenced() ? null : node.endpoint(listener);
        return endpoint == null ? new CurrentLeader(leader, epoch, null, null) : new CurrentLeader(leader, epoch, node, endpoint);
    }

    /** Adds this leader's node to a response's NodeEndpoints (by id, each once), if it has one. */
    public void addTo(Map<Integer, CurrentLeader> nodeEndpoints) {
        if (endpoint != null) {
            nodeEndpoints.putIfAbsent(leaderId, this);
        }
    }

    /** A fresh, ordered collector for a response's NodeEndpoints. */
    public static Map<Integer, CurrentLeader> newNodeEndpoints() {
        return new TreeMap<>();
    }
}
