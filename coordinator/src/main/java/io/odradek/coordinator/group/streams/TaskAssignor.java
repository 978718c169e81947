package io.odradek.coordinator.group.streams;

import java.util.Map;
import java.util.Set;

/**
 * Assigns a streams group's tasks to its members (KIP-1071's server-side assignor; Kafka's
 * org.apache.kafka.coordinator.group.streams.assignor.TaskAssignor). A task is a subtopology id and a
 * partition number. Pure: no clock, no I/O; called on the group's coordinator thread.
 */
public interface TaskAssignor {
    /** The name members ask for (Kafka's: "sticky"). */
    String name();

    /** The new target assignment; every member of {@code group} appears in it (possibly with nothing). */
    GroupAssignment assign(GroupSpec group, TopologyDescriber topology);

    /** What the assignor knows of one member: its identity and what it holds now. */
    record MemberSpec(String instanceId, String rackId, String processId, Map<String, String> clientTags,
            Map<String, Set<Integer>> activeTasks, Map<String, Set<Integer>> standbyTasks,
            Map<String, Set<Integer>> warmupTasks) {
    }

    /**
     * The group as the assignor sees it.
     *
     * @param assignmentConfigs Kafka's keys, e.g. {@code num.standby.replicas}
     */
    record GroupSpec(Map<String, MemberSpec> members, Map<String, String> assignmentConfigs) {
    }

    /** One member's tasks in the new assignment, subtopology id to partitions. */
    record MemberAssignment(Map<String, Set<Integer>> activeTasks, Map<String, Set<Integer>> standbyTasks,
            Map<String, Set<Integer>> warmupTasks) {
        public static final MemberAssignment EMPTY = new MemberAssignment(Map.of(), Map.of(), Map.of());
    }

    /** The new assignment, member id to its tasks. */
    record GroupAssignment(Map<String, MemberAssignment> members) {
    }

    /** The topology's subtopologies as the assignor needs them. */
    interface TopologyDescriber {
        /** Subtopology ids, in a stable order. */
        java.util.List<String> subtopologies();

        /** How many tasks (partitions) the subtopology has: the max partition count of its source topics. */
        int maxNumInputPartitions(String subtopologyId);

        /** Whether the subtopology has state stores (standby tasks only for those). */
        boolean isStateful(String subtopologyId);
    }
}
