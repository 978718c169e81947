package io.odradek.coordinator.offsets;

/**
 * A consumer group's epoch as stored in a ConsumerGroupMetadataValue record (key type 3).
 *
 * @param epoch        the group epoch, bumped whenever members, subscriptions or subscribed topics change
 * @param metadataHash a hash of the subscribed topics (names, ids, partition counts): when it changes the
 *                     group rebalances (Kafka's KIP-1101 field; our hash function is our own)
 */
public record ConsumerGroupEpoch(int epoch, long metadataHash) {
}
