package io.odradek.coordinator.offsets;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * A share group's records in {@code __consumer_offsets} (Kafka 4.4's ShareGroup*Key/Value schemas, key types
 * 10-15), encoded by {@link ShareGroupRecordCodec}. As for consumer groups, one record per piece of state, so
 * a heartbeat writes only what changed; a null value is a tombstone.
 */
public non-sealed interface ShareGroupRecord extends OffsetsRecord {

    /** A member's subscription (key type 10); its tombstone removes the member. */
    record MemberMetadata(String groupId, String memberId, MemberSubscription value) implements ShareGroupRecord {
    }

    /** The group's epoch and the hash of its subscribed topics (key type 11); its tombstone deletes the group. */
    record GroupMetadata(String groupId, GroupEpoch value) implements ShareGroupRecord {
    }

    /** The epoch of the group's target assignment (key type 12), or its deletion with the group. */
    record TargetAssignmentMetadata(String groupId, Integer assignmentEpoch) implements ShareGroupRecord {
    }

    /** A member's target assignment, topic id to partitions (key type 13), or its removal. */
    record TargetAssignmentMember(String groupId, String memberId, Map<UUID, Set<Integer>> partitions)
            implements ShareGroupRecord {
    }

    /** A member's current assignment and epochs (key type 14), or its removal. */
    record CurrentAssignment(String groupId, String memberId, MemberAssignment value) implements ShareGroupRecord {
    }

    /**
     * Which topic partitions have share state (key type 15): initializing (SharePersister.initialize under
     * way), initialized (assignable), and topics whose state is being deleted; its tombstone goes with the group.
     */
    record StatePartitionMetadata(String groupId, StatePartitions value) implements ShareGroupRecord {
    }

    record MemberSubscription(String rackId, String clientId, String clientHost, List<String> subscribedTopicNames) {
        public MemberSubscription {
            subscribedTopicNames = List.copyOf(subscribedTopicNames);
        }
    }

    record GroupEpoch(int epoch, long metadataHash) {
    }

    /** @param state Kafka's MemberState value (0 STABLE for share members, which never revoke) */
    record MemberAssignment(int memberEpoch, int previousMemberEpoch, byte state, Map<UUID, Set<Integer>> partitions) {
        public static final MemberAssignment INITIAL = new MemberAssignment(0, 0, (byte) 0, Map.of());

        public MemberAssignment {
            partitions = sorted(partitions);
        }
    }

    /** One topic's partitions in the state metadata, with the topic's name as Kafka records it. */
    record TopicPartitions(String topicName, Set<Integer> partitions) {
        public TopicPartitions {
            partitions = Set.copyOf(new TreeSet<>(partitions));
        }
    }

    record StatePartitions(Map<UUID, TopicPartitions> initializing, Map<UUID, TopicPartitions> initialized,
            Map<UUID, String> deleting) {
        public static final StatePartitions EMPTY = new StatePartitions(Map.of(), Map.of(), Map.of());

        public StatePartitions {
            initializing = Map.copyOf(initializing);
            initialized = Map.copyOf(initialized);
            deleting = Map.copyOf(deleting);
        }
    }

    /** An immutable copy with sorted partitions (equality does not depend on the caller's collections). */
    private static Map<UUID, Set<Integer>> sorted(Map<UUID, Set<Integer>> partitions) {
        Map<UUID, Set<Integer>> out = new TreeMap<>();
        partitions.forEach((t, p) -> {
            if (!p.isEmpty()) {
                out.put(t, Set.copyOf(new TreeSet<>(p)));
            }
        });
        return Map.copyOf(out);
    }
}
