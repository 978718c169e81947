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

    public TopicInfo withConfigs(Map<String, String> newConfigs) {
        return new TopicInfo(name, id, partitions, newConfigs, internal);
    }
}
