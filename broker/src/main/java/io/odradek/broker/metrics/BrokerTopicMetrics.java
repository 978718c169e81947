package io.odradek.broker.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kafka's BrokerTopicStats: the broker-wide {@code BrokerTopicMetrics} meters and each topic's, made on the topic's
 * first use and dropped (with their MBeans) when it is deleted. Handlers look a topic's meters up once per topic per
 * request ({@link #topic}: one map read after the first time).
 */
public final class BrokerTopicMetrics {
    private final Meters meters;
    private final TopicMeters allTopics;
    private final Map<String, TopicMeters> topics = new ConcurrentHashMap<>();

    BrokerTopicMetrics(Meters meters) {
        this.meters = meters;
        this.allTopics = new TopicMeters(meters, null, null);
    }

    /** The broker-wide meters. */
    public TopicMeters allTopics() {
        return allTopics;
    }

    /** The meters of {@code topic} (an existing topic: every name given here gets its own meters until removed). */
    public TopicMeters topic(String topic) {
        TopicMeters found = topics.get(topic);
        return found != null ? found : topics.computeIfAbsent(topic, t -> new TopicMeters(meters, t, allTopics));
    }

    /** A deleted topic's meters go (Kafka's BrokerTopicStats.removeMetrics); the broker-wide counts keep theirs. */
    public void remove(String topic) {
        if (topics.remove(topic) != null) {
            for (String meter : TopicMeters.PER_TOPIC) {
                meters.remove(TopicMeters.name(meter, topic));
            }
        }
    }
}
