package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.ShareGroupRecord;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * One share group (KIP-932): its epochs, members, target assignment and which topic partitions have share
 * state. Its state changes only by replaying records ({@link ShareGroupProtocol#replay}), on load and after each
 * write alike. Members never revoke: a member's assignment is its target as soon as it heartbeats. Confined to
 * its coordinator partition's thread.
 */
final class ShareGroup {
    /** Kafka's ShareGroupState, as ListGroups and ShareGroupDescribe name it. */
    enum State {
        EMPTY("Empty"), STABLE("Stable");

        final String kafkaName;

        State(String kafkaName) {
            this.kafkaName = kafkaName;
        }
    }

    final String groupId;
    int groupEpoch;
    long metadataHash;
    int assignmentEpoch;
    /** Insertion order, so descriptions list members as they joined. */
    final Map<String, ShareGroupMember> members = new LinkedHashMap<>();
    /** Member id to its target partitions by topic id. */
    final Map<String, Map<UUID, Set<Integer>>> targetAssignment = new HashMap<>();
    /** Initializing, initialized and deleting share partitions (record type 15). */
    ShareGroupRecord.StatePartitions statePartitions = ShareGroupRecord.StatePartitions.EMPTY;

    ShareGroup(String groupId) {
        this.groupId = groupId;
    }

    State state() {
        return members.isEmpty() ? State.EMPTY : State.STABLE;
    }

    boolean isEmpty() {
        return members.isEmpty();
    }

    ShareGroupMember member(String memberId) {
        return members.get(memberId);
    }

    Map<UUID, Set<Integer>> target(String memberId) {
        return targetAssignment.getOrDefault(memberId, Map.of());
    }

    /** Topic id to partitions with initialized share state. */
    Map<UUID, Set<Integer>> initializedPartitions() {
        Map<UUID, Set<Integer>> out = new HashMap<>();
        statePartitions.initialized().forEach((id, t) -> out.put(id, new HashSet<>(t.partitions())));
        return out;
    }

    /** The topic names any member subscribes to. */
    Set<String> subscribedTopicNames() {
        Set<String> out = new HashSet<>();
        members.values().forEach(m -> out.addAll(m.subscription.subscribedTopicNames()));
        return out;
    }
}
