package io.odradek.replication.metadata;

import java.util.Map;
import java.util.UUID;

/**
 * A topic as the cluster metadata knows it. {@code configs} holds only the topic-level overrides
 * (Kafka's TOPIC_CONFIG source); effective values come from layering them over the broker defaults.
 */
public record TopicInfo(String name, UUID id, int partitions, Map<String, String> configs, boolean internal) {
    public TopicInfo {
        configs = Map.copyOf(configs);
    }

    /** Kafka's first leader epoch. Until the controller records elections, every partition is in its first. */
    public static final int INITIAL_LEADER_EPOCH = 0;

    /** The current leader epoch of one of this topic's partitions: 0 on a single node, where no election happens. */
    public int leaderEpoch(int partition) {
        return INITIAL_LEADER_EPOCH;
    }

    public TopicInfo withConfigs(Map<String, String> newConfigs) {
        return new TopicInfo(name, id, partitions, newConfigs, internal);
    }
}
