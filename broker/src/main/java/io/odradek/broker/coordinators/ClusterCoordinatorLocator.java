package io.odradek.broker.coordinators;

import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.sharestate.ShareStateTopic;
import io.odradek.broker.txn.TransactionStateTopic;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import java.util.function.Consumer;

/**
 * FindCoordinator in a cluster (Kafka's KafkaApis.getCoordinator): the coordinator of a key is the leader
 * of its partition of the internal topic ({@code abs(key.hashCode()) % partitions}, by the topic's partition
 * count in the metadata image), at that broker's endpoint of the request's listener. COORDINATOR_NOT_AVAILABLE
 * when the topic does not exist yet (its creation is started, as Kafka does), the partition has no leader,
 * or the leader has no endpoint of that listener. Whether the leader has finished loading the partition is
 * the coordinator's to say (COORDINATOR_LOAD_IN_PROGRESS on its requests).
 */
public final class ClusterCoordinatorLocator implements CoordinatorLocator {
    private final ClusterView cluster;
    private final Consumer<String> createTopic;

    /**
     * @param createTopic starts creating an internal topic that does not exist (by name), in the background;
     *                    called on every lookup until the image holds it
     */
    public ClusterCoordinatorLocator(ClusterView cluster, Consumer<String> createTopic) {
        this.cluster = cluster;
        this.createTopic = createTopic;
    }

    @Override
    public Coordinator find(byte keyType, String key, String listener) {
        String topicName = switch (keyType) {
            case GROUP -> OffsetsTopic.NAME;
            case SHARE -> ShareStateTopic.NAME; // Kafka places a share key by the same rule, in __share_group_state
            default -> TransactionStateTopic.NAME;
        };
        ClusterImage image = cluster.image();
        TopicImage topic = image.topic(topicName).orElse(null);
        if (topic == null || topic.partitions().isEmpty()) {
            createTopic.accept(topicName);
            return Coordinator.notAvailable();
        }
        PartitionRegistration partition = topic.partition(OffsetsTopic.partitionFor(key == null ? "" : key, topic.partitions().size()));
        if (partition == null || !partition.hasLeader()) {
            return Coordinator.notAvailable();
        }
        BrokerRegistration leader = image.broker(partition.leader()).orElse(null);
        Endpoint endpoint = leader == null ? null : leader.endpoint(listener);
        if (endpoint == null) {
            return Coordinator.notAvailable();
        }
        return Coordinator.at(leader.id(), endpoint.host(), endpoint.port());
    }
}
