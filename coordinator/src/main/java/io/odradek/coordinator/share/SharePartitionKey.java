package io.odradek.coordinator.share;

import java.util.UUID;

/** One share partition: a share group's view of one topic partition (Kafka's SharePartitionKey). */
public record SharePartitionKey(String groupId, UUID topicId, int partition) {
    /**
     * Kafka's share-coordinator key, {@code groupId:topicId:partition}: FindCoordinator (key type 2, SHARE)
     * names it, and its {@code String.hashCode} picks the {@code __share_group_state} partition.
     */
    public String coordinatorKey() {
        return groupId + ":" + topicId + ":" + partition;
    }
}
