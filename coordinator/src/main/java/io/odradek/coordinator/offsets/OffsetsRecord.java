package io.odradek.coordinator.offsets;

import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** One record of {@code __consumer_offsets}, decoded. A null value is a tombstone. */
public sealed interface OffsetsRecord permits OffsetsRecord.OffsetCommit, OffsetsRecord.GroupMetadata,
        OffsetsRecord.ConsumerGroupMetadata, OffsetsRecord.ConsumerMemberMetadata, OffsetsRecord.ConsumerTargetAssignmentMetadata,
        OffsetsRecord.ConsumerTargetAssignmentMember, OffsetsRecord.ConsumerCurrentAssignment, ShareGroupRecord, StreamsGroupRecord {
    String groupId();

    /** A committed offset of one partition (key type 1), or its deletion. */
    record OffsetCommit(String groupId, TopicPartition partition, OffsetAndMetadata value) implements OffsetsRecord {
    }

    /** A classic group's metadata (key type 2), or the group's deletion. */
    record GroupMetadata(String groupId, StoredGroup value) implements OffsetsRecord {
    }

    // KIP-848 consumer groups: one record per piece of state, so a heartbeat writes only what changed.

    /** A consumer group's epoch (key type 3); its tombstone deletes the group. */
    record ConsumerGroupMetadata(String groupId, ConsumerGroupEpoch value) implements OffsetsRecord {
    }

    /** A member's subscription (key type 5); its tombstone removes the member. */
    record ConsumerMemberMetadata(String groupId, String memberId, ConsumerMemberSubscription value)
            implements OffsetsRecord {
    }

    /** The epoch of the group's target assignment (key type 6), or its deletion with the group. */
    record ConsumerTargetAssignmentMetadata(String groupId, Integer assignmentEpoch) implements OffsetsRecord {
    }

    /** A member's target assignment, topic id to partitions (key type 7), or its removal. */
    record ConsumerTargetAssignmentMember(String groupId, String memberId, Map<UUID, Set<Integer>> partitions)
            implements OffsetsRecord {
    }

    /** A member's current assignment and epochs (key type 8), or its removal. */
    record ConsumerCurrentAssignment(String groupId, String memberId, ConsumerMemberAssignment value)
            implements OffsetsRecord {
    }
}
