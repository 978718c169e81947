package io.odradek.coordinator.group;

/** A group as ListGroups reports it; the type is "classic" or, for a KIP-848 group, "consumer". */
public record GroupOverview(String groupId, String protocolType, String state, String type) {
}
