package io.odradek.broker.handlers;

import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.Endpoint;

/**
 * How the metadata answers (Metadata, DescribeTopicPartitions) see brokers of an image, by the rules of
 * Kafka's KRaft metadata cache: a broker is reachable when it is registered, unfenced and has an endpoint
 * for the listener the request came on (offline replicas: {@link io.odradek.broker.cluster.ClusterView#offlineReplicas}).
 */
final class PartitionStates {
    private PartitionStates() {
    }

    /** A live broker's endpoint of {@code listener}, or null (unregistered, fenced or without that listener). */
    static Endpoint aliveEndpoint(ClusterImage image, int brokerId, String listener) {
        BrokerRegistration b = image.brokers().get(brokerId);
        return b == null || b.fenced() ? null : b.endpoint(listener);
    }
}
