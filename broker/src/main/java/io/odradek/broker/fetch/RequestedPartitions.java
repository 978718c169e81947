package io.odradek.broker.fetch;

import io.odradek.wire.api.FetchApi.Request.FetchTopic;
import io.odradek.wire.api.FetchApi.Request.FetchTopic.FetchPartition;
import io.odradek.wire.schema.Struct;
import java.util.BitSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The partitions a fetch request names, each once: a partition named twice (in one topic entry or in two
 * entries of the same topic) is read once, at the place it was first named, with the parameters it was last
 * named with, as Kafka's FetchRequest.fetchData (a LinkedHashMap) reads it. Real fetchers never name one twice,
 * so the check for it allocates nothing in the usual case (a bit mask per topic) and the rare request that does
 * goes through a map.
 */
public final class RequestedPartitions {
    /** Above this index a partition is checked through the map rather than a bit set (bounds the bit set). */
    private static final int MAX_BITSET_INDEX = 1 << 16;
    /** Up to this many topic entries, they are compared pairwise rather than through a set. */
    private static final int PAIRWISE_TOPICS = 16;

    /** One partition of the request, with its topic's id (by id, v13+) or null, and name (null: unknown id). */
    @FunctionalInterface
    public interface Visitor {
        void accept(UUID topicId, String topic, Struct partition);
    }

    private RequestedPartitions() {
    }

    /**
     * Calls {@code visitor} for each distinct partition of {@code topics} in request order; topic ids are
     * resolved to names once per topic entry.
     */
    public static void forEach(List<Struct> topics, boolean byId, Function<UUID, String> topicNames, Visitor visitor) {
        if (!namesAPartitionTwice(topics, byId)) {
            for (Struct topic : topics) {
                UUID id = byId ? topic.get(FetchTopic.TOPIC_ID) : null;
                String name = byId ? topicNames.apply(id) : topic.get(FetchTopic.TOPIC);
                for (Struct part : topic.get(FetchTopic.PARTITIONS)) {
                    visitor.accept(id, name, part);
                }
            }
            return;
        }
        record Key(Object topic, int partition) {
        }
        record Named(UUID id, String name, Struct part) {
        }
        LinkedHashMap<Key, Named> distinct = new LinkedHashMap<>();
        for (Struct topic : topics) {
            UUID id = byId ? topic.get(FetchTopic.TOPIC_ID) : null;
            String name = byId ? topicNames.apply(id) : topic.get(FetchTopic.TOPIC);
            for (Struct part : topic.get(FetchTopic.PARTITIONS)) {
                // put keeps the first place and takes the last value, as Kafka's LinkedHashMap does.
                distinct.put(new Key(byId ? id : name, part.get(FetchPartition.PARTITION)), new Named(id, name, part));
            }
        }
        distinct.values().forEach(n -> visitor.accept(n.id(), n.name(), n.part()));
    }

    /** Whether the request may name a partition twice (true also when unsure: the map sorts it out). */
    static boolean namesAPartitionTwice(List<Struct> topics, boolean byId) {
        if (topics.size() > 1 && namesATopicTwice(topics, byId)) {
            return true;
        }
        BitSet high = null;
        for (Struct topic : topics) {
            List<Struct> parts = topic.get(FetchTopic.PARTITIONS);
            if (parts.size() < 2) {
                continue;
            }
            long low = 0L;
            if (high != null) {
                high.clear();
            }
            for (Struct part : parts) {
                int index = part.get(FetchPartition.PARTITION);
                if (index >= 0 && index < Long.SIZE) {
                    long bit = 1L << index;
                    if ((low & bit) != 0) {
                        return true;
                    }
                    low |= bit;
                } else if (index < 0 || index >= MAX_BITSET_INDEX) {
                    return true;
                } else {
                    if (high == null) {
                        high = new BitSet();
                    }
                    if (high.get(index)) {
                        return true;
                    }
                    high.set(index);
                }
            }
        }
        return false;
    }

    private static boolean namesATopicTwice(List<Struct> topics, boolean byId) {
        if (topics.size() <= PAIRWISE_TOPICS) {
            for (int i = 0; i < topics.size(); i++) {
                Object a = topicKey(topics.get(i), byId);
                for (int j = i + 1; j < topics.size(); j++) {
                    if (a != null && a.equals(topicKey(topics.get(j), byId))) {
                        return true;
                    }
                }
            }
            return false;
        }
        Set<Object> seen = new HashSet<>(topics.size() * 4 / 3 + 1);
        for (Struct topic : topics) {
            if (!seen.add(topicKey(topic, byId))) {
                return true;
            }
        }
        return false;
    }

    private static Object topicKey(Struct topic, boolean byId) {
        return byId ? topic.get(FetchTopic.TOPIC_ID) : topic.get(FetchTopic.TOPIC);
    }
}
