package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.ConsumerMemberAssignment;
import io.odradek.coordinator.offsets.ConsumerMemberSubscription;
import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.TopicPartition;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One consumer-protocol (KIP-848) group: its epochs, members, target assignment and committed offsets.
 * Its state changes only by replaying records ({@link ConsumerGroupProtocol#replay}), on load and after
 * each write alike, so what is in memory is what the log says. It also tracks which member holds each
 * partition (assigned or still being revoked): a partition goes to its next owner only once it is free.
 * Confined to its coordinator partition's thread.
 */
final class ConsumerGroup {
    final String groupId;
    int groupEpoch;
    long metadataHash;
    int assignmentEpoch;
    /** Insertion order, so descriptions list members as they joined. */
    final Map<String, ConsumerGroupMember> members = new LinkedHashMap<>();
    /** Instance id to member id, for static members. */
    final Map<String, String> staticMembers = new HashMap<>();
    /** Member id to its target partitions by topic id. */
    final Map<String, Map<UUID, Set<Integer>>> targetAssignment = new HashMap<>();
    /** Every partition some member holds or is revoking, to that member's id. */
    private final Map<TopicIdPartition, String> owners = new HashMap<>();
    final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();

    ConsumerGroup(String groupId) {
        this.groupId = groupId;
    }

    ConsumerGroupState state() {
        if (members.isEmpty()) {
            return ConsumerGroupState.EMPTY;
        }
        if (groupEpoch > assignmentEpoch) {
            return ConsumerGroupState.ASSIGNING;
        }
        for (ConsumerGroupMember m : members.values()) {
            if (!m.isReconciledTo(assignmentEpoch)) {
                return ConsumerGroupState.RECONCILING;
            }
        }
        return ConsumerGroupState.STABLE;
    }

    boolean isEmpty() {
        return members.isEmpty();
    }

    ConsumerGroupMember member(String memberId) {
        return members.get(memberId);
    }

    ConsumerGroupMember staticMember(String instanceId) {
        String id = instanceId == null ? null : staticMembers.get(instanceId);
        return id == null ? null : members.get(id);
    }

    Map<UUID, Set<Integer>> target(String memberId) {
        return targetAssignment.getOrDefault(memberId, Map.of());
    }

    /** The member holding (or revoking) the partition, or null when it is free. */
    String owner(UUID topicId, int partition) {
        return owners.get(new TopicIdPartition(topicId, partition));
    }

    // ------------------------------------------------------------------ replay

    ConsumerGroupMember getOrCreateMember(String memberId) {
        return members.computeIfAbsent(memberId, ConsumerGroupMember::new);
    }

    void updateSubscription(String memberId, ConsumerMemberSubscription subscription) {
        ConsumerGroupMember m = getOrCreateMember(memberId);
        if (m.instanceId() != null && !m.instanceId().equals(subscription.instanceId())) {
            staticMembers.remove(m.instanceId(), memberId);
        }
        m.subscription = subscription;
        if (subscription.instanceId() != null) {
            staticMembers.put(subscription.instanceId(), memberId);
        }
    }

    void updateAssignment(String memberId, ConsumerMemberAssignment assignment) {
        ConsumerGroupMember m = getOrCreateMember(memberId);
        releasePartitions(m);
        m.assignment = assignment;
        holdPartitions(m);
    }

    /** Removes the member and its target assignment; the caller has cancelled its timers. */
    ConsumerGroupMember removeMember(String memberId) {
        ConsumerGroupMember m = members.remove(memberId);
        if (m != null) {
            releasePartitions(m);
            if (m.instanceId() != null) {
                staticMembers.remove(m.instanceId(), memberId);
            }
        }
        targetAssignment.remove(memberId);
        return m;
    }

    private void releasePartitions(ConsumerGroupMember m) {
        forEachHeld(m.assignment, tp -> owners.remove(tp, m.memberId));
    }

    private void holdPartitions(ConsumerGroupMember m) {
        forEachHeld(m.assignment, tp -> owners.put(tp, m.memberId));
    }

    private static void forEachHeld(ConsumerMemberAssignment a, Consumer<TopicIdPartition> action) {
        a.assignedPartitions().forEach((topic, parts) -> parts.keySet().forEach(p -> action.accept(new TopicIdPartition(topic, p))));
        a.partitionsPendingRevocation().forEach((topic, parts) -> parts.keySet().forEach(p -> action.accept(new TopicIdPartition(topic, p))));
    }

    @Override
    public String toString() {
        return "consumer group " + groupId + " (" + state().kafkaName() + ", epoch " + groupEpoch + ", assignment epoch "
                + assignmentEpoch + ", " + members.size() + " members)";
    }
}
