package io.odradek.coordinator.offsets;

import java.util.List;

/**
 * A classic group as persisted in a group metadata record (Kafka's GroupMetadataValue): enough to bring
 * a group back after a restart in the Stable state (members with their assignments) or Empty.
 *
 * @param protocolType          "" for a group without one (simple consumers committing offsets)
 * @param protocol              the selected protocol, or null when the group is empty
 * @param leader                the leader's member id, or null
 * @param currentStateTimestamp when the group entered its current state, or -1
 */
public record StoredGroup(String protocolType, int generation, String protocol, String leader,
        long currentStateTimestamp, List<StoredMember> members) {
    public StoredGroup {
        protocolType = protocolType == null ? "" : protocolType;
        members = List.copyOf(members);
    }

    /** One member; {@code subscription} is its metadata for the selected protocol. */
    public record StoredMember(String memberId, String groupInstanceId, String clientId, String clientHost,
            int rebalanceTimeoutMs, int sessionTimeoutMs, byte[] subscription, byte[] assignment) {
    }
}
