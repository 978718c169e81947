package io.odradek.coordinator.share;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;

/** One share partition: a share group's view of one topic partition (Kafka's SharePartitionKey). */
public record SharePartitionKey(String groupId, UUID topicId, int partition) {
    /**
     * Kafka's share-coordinator key, {@code groupId:topicId:partition} with the topic id as Kafka prints a Uuid
     * (URL-safe base64 of its 16 bytes, no padding): FindCoordinator (key type 2, SHARE) names it, and its
     * {@code String.hashCode} picks the {@code __share_group_state} partition, so it must be Kafka's string.
     */
    public String coordinatorKey() {
        ByteBuffer bytes = ByteBuffer.allocate(16).putLong(topicId.getMostSignificantBits()).putLong(topicId.getLeastSignificantBits());
        return groupId + ":" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array()) + ":" + partition;
    }

    /**
     * The share partition a coordinator key names, parsed as Kafka's SharePartitionKey.getInstance(String) does
     * (the group id may itself hold colons).
     *
     * @throws IllegalArgumentException when the key is empty, has fewer than three parts, an empty group id, a
     *                                  topic id that is not a base64 Uuid, or a partition that is not a number
     */
    public static SharePartitionKey parse(String coordinatorKey) {
        if (coordinatorKey == null || coordinatorKey.isEmpty()) {
            throw new IllegalArgumentException("Share partition key cannot be empty");
        }
        String[] parts = coordinatorKey.split(":");
        if (parts.length < 3) {
            throw new IllegalArgumentException("Invalid key format: expected - groupId:topicId:partition, found -  " + coordinatorKey);
        }
        String groupId = String.join(":", Arrays.copyOfRange(parts, 0, parts.length - 2));
        if (groupId.trim().isEmpty()) {
            throw new IllegalArgumentException("GroupId must not be empty");
        }
        byte[] id = Base64.getUrlDecoder().decode(parts[parts.length - 2]);
        if (id.length != 16) {
            throw new IllegalArgumentException("Unable to convert a base64 string to a Uuid: " + parts[parts.length - 2]);
        }
        ByteBuffer bytes = ByteBuffer.wrap(id);
        return new SharePartitionKey(groupId, new UUID(bytes.getLong(), bytes.getLong()), Integer.parseInt(parts[parts.length - 1]));
    }
}
