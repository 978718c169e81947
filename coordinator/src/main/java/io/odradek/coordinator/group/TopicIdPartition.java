package io.odradek.coordinator.group;

import java.util.UUID;

/** A partition of a topic, by topic id: how consumer-protocol groups name partitions. */
record TopicIdPartition(UUID topicId, int partition) {
}
