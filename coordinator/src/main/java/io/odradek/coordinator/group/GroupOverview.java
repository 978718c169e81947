package io.odradek.coordinator.group;

/** A group as ListGroups reports it; the type is always "classic" here. */
public record GroupOverview(String groupId, String protocolType, String state, String type) {
}
