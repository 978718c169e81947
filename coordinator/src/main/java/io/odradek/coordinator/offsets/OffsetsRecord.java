package io.odradek.coordinator.offsets;

/** One record of {@code __consumer_offsets}, decoded. A null value is a tombstone. */
public sealed interface OffsetsRecord {
    String groupId();

    /** A committed offset of one partition (key type 1), or its deletion. */
    record OffsetCommit(String groupId, TopicPartition partition, OffsetAndMetadata value) implements OffsetsRecord {
    }

    /** A classic group's metadata (key type 2), or the group's deletion. */
    record GroupMetadata(String groupId, StoredGroup value) implements OffsetsRecord {
    }
}
