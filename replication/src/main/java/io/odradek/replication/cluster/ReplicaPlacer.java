package io.odradek.replication.cluster;

import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Places new partitions' replicas the way Kafka's StripedReplicaPlacer does: brokers grouped by rack, each
 * partition's leader taken round robin over the racks and the followers from the following racks, so
 * replicas of one partition land on as many racks as possible and leaderships spread evenly. Only usable
 * brokers take replicas: unfenced and not in controlled shutdown (Kafka may add fenced brokers as followers
 * when short of unfenced ones; we refuse instead, so a new partition starts fully in sync). Kafka shuffles
 * with a random generator; ours is seeded from the topic id (which the submitter drew at random) and the
 * first new partition's index, so every controller computes the same placement and topics still start
 * at different brokers.
 */
public final class ReplicaPlacer {
    private ReplicaPlacer() {
    }

    /**
     * Replicas for partitions {@code firstPartition .. firstPartition + count - 1} of topic {@code topicId},
     * over the usable brokers of {@code image}. Throws INVALID_REPLICATION_FACTOR (with Kafka's message,
     * without the "Unable to replicate..." prefix callers add) when the factor cannot be met.
     */
    public static List<List<Integer>> place(ClusterImage image, UUID topicId, int firstPartition, int count,
            int replicationFactor) {
        return place(image.brokers().values(), seed(topicId, firstPartition), count, replicationFactor);
    }

    /** The same, over explicit brokers and seed. */
    public static List<List<Integer>> place(Collection<BrokerRegistration> brokers, long seed, int count,
            int replicationFactor) {
        throw new UnsupportedOperationException("API: body follows");
    }

    static long seed(UUID topicId, int firstPartition) {
        return topicId.getMostSignificantBits() ^ Long.rotateLeft(topicId.getLeastSignificantBits(), 17)
                ^ (firstPartition * 0x9E3779B97F4A7C15L);
    }
}
