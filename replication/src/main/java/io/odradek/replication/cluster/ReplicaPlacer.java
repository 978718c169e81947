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
        if (replicationFactor <= 0) {
            throw invalid("Invalid replication factor " + replicationFactor
                    + ": the replication factor must be positive.");
        }
        List<BrokerRegistration> usable = new ArrayList<>();
        for (BrokerRegistration b : brokers) {
            if (!b.fenced() && !b.inControlledShutdown()) {
                usable.add(b);
            }
        }
        if (usable.isEmpty() && !brokers.isEmpty()) {
            throw invalid("All brokers are currently fenced, or have all their log directories cordoned.");
        }
        if (replicationFactor > usable.size()) {
            throw invalid("The target replication factor of " + replicationFactor + " cannot be reached because only "
                    + usable.size() + " broker(s) are registered or some brokers have all their log directories "
                    + "cordoned.");
        }
        RackList racks = new RackList(new Random(seed), usable);
        List<List<Integer>> placements = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            placements.add(List.copyOf(racks.place(replicationFactor)));
        }
        return placements;
    }

    private static MetadataException invalid(String message) {
        return new MetadataException(ErrorCode.INVALID_REPLICATION_FACTOR, message);
    }

    /**
     * One rack's brokers in a shuffled order, handed out from a rotating offset: within one "epoch" (one
     * partition) each broker at most once; each new epoch starts one further along.
     */
    private static final class BrokerList {
        private final List<Integer> brokers = new ArrayList<>();
        private int epoch;
        private int index;
        private int offset;

        int next(int nextEpoch) {
            if (epoch != nextEpoch) {
                epoch = nextEpoch;
                index = 0;
                offset = (offset + 1) % brokers.size();
            }
            if (index >= brokers.size()) {
                return -1;
            }
            int broker = brokers.get((index + offset) % brokers.size());
            index++;
            return broker;
        }

        void shuffle(Random random) {
            Collections.shuffle(brokers, random);
            offset = random.nextInt(brokers.size());
        }
    }

    /** The racks in a shuffled order; brokers without a rack form one rack of their own (as Kafka's empty rack). */
    private static final class RackList {
        private final Random random;
        private final List<String> rackNames;
        private final Map<String, BrokerList> racks = new TreeMap<>();
        private final int brokerCount;
        private int epoch;
        private int offset;

        RackList(Random random, List<BrokerRegistration> brokers) {
            this.random = random;
            for (BrokerRegistration b : brokers) {
                racks.computeIfAbsent(b.rack() == null ? "" : b.rack(), r -> new BrokerList()).brokers.add(b.id());
            }
            this.brokerCount = brokers.size();
            this.rackNames = new ArrayList<>(racks.keySet());
            shuffle();
        }

        private void shuffle() {
            for (BrokerList rack : racks.values()) {
                rack.shuffle(random);
            }
            Collections.shuffle(rackNames, random);
            offset = random.nextInt(rackNames.size());
        }

        /** The next partition's replicas: the leader from the rack at the offset, followers from the racks after it. */
        List<Integer> place(int replicationFactor) {
            // After as many partitions as brokers, reshuffle so the next round does not repeat the same sets.
            if (epoch == brokerCount && brokerCount > 1) {
                shuffle();
                epoch = 0;
            }
            if (offset == rackNames.size()) {
                offset = 0;
            }
            List<Integer> replicas = new ArrayList<>(replicationFactor);
            int firstRack = offset;
            while (true) {
                int broker = racks.get(rackNames.get(firstRack)).next(epoch);
                if (broker >= 0) {
                    replicas.add(broker);
                    break;
                }
                firstRack = (firstRack + 1) % rackNames.size();
            }
            int rack = offset;
            offset++;
            while (replicas.size() < replicationFactor) {
                rack = (rack + 1) % rackNames.size();
                int broker = racks.get(rackNames.get(rack)).next(epoch);
                if (broker >= 0) {
                    replicas.add(broker);
                }
            }
            epoch++;
            return replicas;
        }
    }

    static long seed(UUID topicId, int firstPartition) {
        return topicId.getMostSignificantBits() ^ Long.rotateLeft(topicId.getLeastSignificantBits(), 17)
                ^ (firstPartition * 0x9E3779B97F4A7C15L);
    }
}
