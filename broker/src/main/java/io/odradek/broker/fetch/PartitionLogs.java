package io.odradek.broker.fetch;

import io.odradek.broker.topics.TopicService;
import io.odradek.log.PartitionLog;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.replication.partition.Partitions;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * What the data path needs from the topic layer: its logs and leader epochs (for the {@link Partitions}
 * registry) and topic id lookups (for requests that name topics by id). An interface so handlers can be
 * tested against plain logs in a temp dir.
 */
public interface PartitionLogs extends Partitions.Source {
    Optional<String> topicName(UUID topicId);

    /** A topic id's name, or null: what the fetch path asks once per topic of every request by id. */
    default String topicNameOrNull(UUID topicId) {
        return topicName(topicId).orElse(null);
    }

    Optional<UUID> topicId(String topic);

    static PartitionLogs of(TopicService topics) {
        return new PartitionLogs() {
            @Override
            public Optional<PartitionLog> partitionLog(String topic, int partition) {
                return topics.partitionLog(topic, partition);
            }

            @Override
            public OptionalInt leaderEpoch(String topic, int partition) {
                Optional<TopicInfo> info = topics.topic(topic);
                return info.isPresent() ? OptionalInt.of(info.get().leaderEpoch(partition)) : OptionalInt.empty();
            }

            @Override
            public Optional<String> topicName(UUID topicId) {
                return topics.topicName(topicId);
            }

            @Override
            public String topicNameOrNull(UUID topicId) {
                return topics.topicNameOrNull(topicId);
            }

            @Override
            public Optional<UUID> topicId(String topic) {
                return topics.topicId(topic);
            }
        };
    }
}
