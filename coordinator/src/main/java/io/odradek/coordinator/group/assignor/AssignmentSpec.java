package io.odradek.coordinator.group.assignor;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * What an assignor assigns from.
 *
 * @param members         member id to its subscription and previous target, sorted by member id
 * @param partitionCounts every subscribed topic that exists, by id, to its partition count
 */
public record AssignmentSpec(Map<String, Member> members, Map<UUID, Integer> partitionCounts) {
    public AssignmentSpec {
        members = new TreeMap<>(members);
        partitionCounts = Map.copyOf(partitionCounts);
    }

    /**
     * One member.
     *
     * @param instanceId its static instance id, or null
     * @param topics     the existing topics it subscribes to
     * @param current    its previous target assignment (stickiness starts from it)
     */
    public record Member(String instanceId, Set<UUID> topics, Map<UUID, Set<Integer>> current) {
        public Member {
            topics = Set.copyOf(topics);
            current = Map.copyOf(current);
        }
    }

    /** Whether every member subscribes to the same topics. */
    public boolean homogeneous() {
        Set<UUID> first = null;
        for (Member m : members.values()) {
            if (first == null) {
                first = m.topics();
            } else if (!first.equals(m.topics())) {
                return false;
            }
        }
        return true;
    }
}
