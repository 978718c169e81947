package io.odradek.coordinator.group;

import io.odradek.coordinator.group.streams.ConfiguredTopology;
import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.StreamsGroupRecord;
import io.odradek.coordinator.offsets.TopicPartition;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A streams group (KIP-1071) as its records describe it: epochs, topology, members with their current tasks,
 * the target assignment, and its committed offsets. Changed only by replay, except the in-memory
 * {@link #configured} topology, which the heartbeat refreshes from the topics that exist now.
 */
final class StreamsGroup {
    final String groupId;
    int groupEpoch;
    long metadataHash;
    int validatedTopologyEpoch = -1;
    Map<String, String> lastAssignmentConfigs = Map.of();
    int assignmentEpoch;
    StreamsGroupRecord.StreamsTopology topology;
    final Map<String, StreamsGroupMember> members = new LinkedHashMap<>();
    final Map<String, StreamsGroupRecord.Tasks> targets = new HashMap<>();
    final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    /** The topology checked against the topics at the last heartbeat; null before any. */
    ConfiguredTopology configured;
    /** A member asked for the whole application to shut down (in memory, as in Kafka, until the group empties). */
    boolean shutdownRequested;
    /**
     * Bumped (in memory, as in Kafka) after each write that changes a member or its tasks: a member whose heartbeat
     * carries another epoch is sent every member's partitions by endpoint again.
     */
    int endpointInformationEpoch;

    StreamsGroup(String groupId) {
        this.groupId = groupId;
    }

    StreamsGroupMember member(String memberId) {
        return memberId == null ? null : members.get(memberId);
    }

    StreamsGroupMember staticMember(String instanceId) {
        if (instanceId == null) {
            return null;
        }
        for (StreamsGroupMember m : members.values()) {
            if (m.metadata != null && instanceId.equals(m.metadata.instanceId())) {
                return m;
            }
        }
        return null;
    }

    StreamsGroupRecord.Tasks target(String memberId) {
        return targets.getOrDefault(memberId, StreamsGroupRecord.Tasks.EMPTY);
    }

    boolean isEmpty() {
        return members.isEmpty();
    }

    /**
     * Kafka's StreamsGroupState, by its display name: Empty, NotReady (the topology's topics were not found ready
     * at the last group epoch), Assigning, Reconciling, Stable.
     */
    String state() {
        if (members.isEmpty()) {
            return "Empty";
        }
        if (topology == null || topology.epoch() != validatedTopologyEpoch) {
            return "NotReady";
        }
        if (assignmentEpoch != groupEpoch) {
            return "Assigning";
        }
        for (StreamsGroupMember m : members.values()) {
            if (m.memberEpoch() != assignmentEpoch || m.state() != MemberState.STABLE) {
                return "Reconciling";
            }
        }
        return "Stable";
    }

    /** The member holding the active task now (assigned or still revoking it), other than {@code except}; null if none. */
    String activeOwner(String subtopology, int partition, String except) {
        for (StreamsGroupMember m : members.values()) {
            if (m.memberId.equals(except)) {
                continue;
            }
            StreamsGroupRecord.MemberAssignment a = m.assignment;
            if (a.assigned().active().getOrDefault(subtopology, java.util.Set.of()).contains(partition)
                    || a.pendingRevocation().active().getOrDefault(subtopology, java.util.Set.of()).contains(partition)) {
                return m.memberId;
            }
        }
        return null;
    }

    /**
     * Whether a member other than {@code except} and {@code replaced}, of the process, still holds (or revokes)
     * the task as standby or warm-up, or also as active when {@code orActive}.
     */
    boolean heldOnProcess(String processId, String subtopology, int partition, String except, String replaced, boolean orActive) {
        for (StreamsGroupMember m : members.values()) {
            if (m.memberId.equals(except) || m.memberId.equals(replaced) || m.metadata == null
                    || !java.util.Objects.equals(m.metadata.processId(), processId)) {
                continue;
            }
            StreamsGroupRecord.MemberAssignment a = m.assignment;
            for (StreamsGroupRecord.Tasks t : java.util.List.of(a.assigned(), a.pendingRevocation())) {
                if (t.standby().getOrDefault(subtopology, java.util.Set.of()).contains(partition)
                        || t.warmup().getOrDefault(subtopology, java.util.Set.of()).contains(partition)
                        || orActive && t.active().getOrDefault(subtopology, java.util.Set.of()).contains(partition)) {
                    return true;
                }
            }
        }
        return false;
    }
}
