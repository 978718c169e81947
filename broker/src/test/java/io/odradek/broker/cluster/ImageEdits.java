package io.odradek.broker.cluster;

import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.TopicImage;
import java.util.Collection;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Hand-made cluster images for the test ClusterViews: each edit gives the image one applied record later
 * (offset + 1), the same cluster and producer-id counter, with one part replaced.
 */
public final class ImageEdits {
    private ImageEdits() {
    }

    /** A broker with one PLAINTEXT endpoint and incarnation id (0, id). */
    public static BrokerRegistration plaintextBroker(int id, long epoch, String host, int port, String rack,
            boolean fenced) {
        return new BrokerRegistration(id, epoch, new UUID(0, id), List.of(new Endpoint("PLAINTEXT", host, port)), rack,
                fenced, false);
    }

    /** The image with these brokers registered (replacing any with the same id). */
    public static ClusterImage withBrokers(ClusterImage image, Collection<BrokerRegistration> added) {
        SortedMap<Integer, BrokerRegistration> brokers = new TreeMap<>(image.brokers());
        for (BrokerRegistration broker : added) {
            brokers.put(broker.id(), broker);
        }
        return new ClusterImage(image.offset() + 1, image.clusterId(), brokers, image.topics(), image.nextProducerId());
    }

    /** The image with this topic (replacing any of the same name). */
    public static ClusterImage withTopic(ClusterImage image, TopicImage topic) {
        SortedMap<String, TopicImage> topics = new TreeMap<>(image.topics());
        topics.put(topic.name(), topic);
        return new ClusterImage(image.offset() + 1, image.clusterId(), image.brokers(), topics, image.nextProducerId());
    }

    /** The image after a producer-id block was handed out: the counter now at {@code nextProducerId}. */
    public static ClusterImage withNextProducerId(ClusterImage image, long nextProducerId) {
        return new ClusterImage(image.offset() + 1, image.clusterId(), image.brokers(), image.topics(), nextProducerId);
    }
}
