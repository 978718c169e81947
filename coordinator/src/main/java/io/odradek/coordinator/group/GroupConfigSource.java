package io.odradek.coordinator.group;

import java.util.Map;

/**
 * The dynamic configs of groups: what IncrementalAlterConfigs sets on a GROUP resource (32) and
 * {@code kafka-configs --entity-type groups} shows, keyed by Kafka's group config names
 * ({@code share.auto.offset.reset}, {@code share.record.lock.duration.ms}, {@code share.delivery.count.limit},
 * {@code share.session.timeout.ms}, {@code consumer.session.timeout.ms}, {@code streams.num.standby.replicas}, ...).
 * Only keys set for the group appear; callers fall back to the broker's group.* defaults. Thread-safe and cheap
 * (read on heartbeats and share fetches).
 */
@FunctionalInterface
public interface GroupConfigSource {
    /** The configs set for this group; empty when none. */
    Map<String, String> configs(String groupId);

    GroupConfigSource NONE = groupId -> Map.of();
}
