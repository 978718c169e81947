package io.odradek.coordinator.offsets;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A consumer-protocol member's current assignment as stored in a ConsumerGroupCurrentMemberAssignmentValue
 * record (key type 8): its epochs, reconciliation state and partitions by topic id, each partition with the
 * member epoch at which it was assigned (Kafka 4.4's AssignmentEpochs: a commit from an older epoch is
 * accepted for a partition the member already had then).
 *
 * @param state                       Kafka's MemberState byte: 0 stable, 1 unrevoked partitions,
 *                                    2 unreleased partitions, 127 unknown
 * @param assignedPartitions          topic id -> partition -> assignment epoch
 * @param partitionsPendingRevocation the same, for partitions the member must give up first
 */
public record ConsumerMemberAssignment(int memberEpoch, int previousMemberEpoch, byte state,
        Map<UUID, Map<Integer, Integer>> assignedPartitions, Map<UUID, Map<Integer, Integer>> partitionsPendingRevocation) {
    public static final ConsumerMemberAssignment INITIAL = new ConsumerMemberAssignment(0, 0, (byte) 0, Map.of(), Map.of());

    public ConsumerMemberAssignment {
        assignedPartitions = copy(assignedPartitions);
        partitionsPendingRevocation = copy(partitionsPendingRevocation);
    }

    /** An immutable, sorted copy without empty topics. */
    private static Map<UUID, Map<Integer, Integer>> copy(Map<UUID, Map<Integer, Integer>> in) {
        Map<UUID, Map<Integer, Integer>> out = new TreeMap<>();
        in.forEach((topic, partitions) -> {
            if (!partitions.isEmpty()) {
                out.put(topic, Collections.unmodifiableMap(new TreeMap<>(partitions)));
            }
        });
        return Collections.unmodifiableMap(out);
    }
}
