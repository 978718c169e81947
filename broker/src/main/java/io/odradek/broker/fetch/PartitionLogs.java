package io.odradek.broker.fetch;

import io.odradek.broker.topics.TopicService;
import io.odradek.log.PartitionLog;
import java.util.Optional;
import java.util.UUID;

/**
 * What the data-path handlers need to find a partition's log: the lookups of {@link TopicService}, kept
 * to an interface so handlers can be tested against plain logs in a temp dir.
 */
public interface PartitionLogs {
    Optional<PartitionLog> partitionLog(String topic, int partition);

    Optional<String> topicName(UUID topicId);

    Optional<UUID> topicId(String topic);

    static PartitionLogs of(TopicService topics) {
        return new PartitionLogs() {
            @Override
            public Optional<PartitionLog> partitionLog(String topic, int partition) {
                return topics.partitionLog(topic, partition);
            }

            @Override
            public Optional<String> topicName(UUID topicId) {
                return topics.topicName(topicId);
            }

            @Override
            public Optional<UUID> topicId(String topic) {
                return topics.topicId(topic);
            }
        };
    }
}
