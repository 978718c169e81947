package io.odradek.coordinator.group.assignor;

import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A server-side assignor of KIP-848 consumer groups: from the members' subscriptions and their previous
 * target assignment, the next target assignment. Pure: no I/O, deterministic for the same input.
 */
public interface PartitionAssignor {
    /** The name members ask for in ConsumerGroupHeartbeat's ServerAssignor ("uniform", "range"). */
    String name();

    /** Every member of the spec to its partitions by topic id (members with nothing map to an empty map). */
    Map<String, Map<UUID, Set<Integer>>> assign(AssignmentSpec spec);
}
