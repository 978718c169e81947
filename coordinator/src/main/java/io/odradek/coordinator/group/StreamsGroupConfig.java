package io.odradek.coordinator.group;

import io.odradek.coordinator.group.streams.StickyTaskAssignor;
import io.odradek.coordinator.group.streams.TaskAssignor;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Streams groups' settings (KIP-1071): the broker's group.streams.* keys with Kafka 4.4's defaults, the dynamic
 * group configs that override some of them per group ({@code streams.session.timeout.ms},
 * {@code streams.heartbeat.interval.ms}, {@code streams.num.standby.replicas}), and the task assignor.
 *
 * @param assignor makes the assignor of one coordinator partition (called on its thread, once)
 */
public record StreamsGroupConfig(int sessionTimeoutMs, int heartbeatIntervalMs, int maxSize, int numStandbyReplicas,
        GroupConfigSource groupConfigs, Supplier<TaskAssignor> assignor) {

    /** How often members report their task offsets (Kafka's streams.task.offset.interval.ms default). */
    public static final int TASK_OFFSET_INTERVAL_MS = 60_000;
    /** Kafka Streams' acceptable.recovery.lag default, which Kafka 4.4's coordinator answers. */
    public static final long ACCEPTABLE_RECOVERY_LAG = 10_000;

    /** The broker's keys, the groups' dynamic configs, and Kafka's sticky task assignor. */
    public static StreamsGroupConfig from(Map<String, String> props, GroupConfigSource groupConfigs) {
        return from(props, groupConfigs, StickyTaskAssignor::new);
    }

    public static StreamsGroupConfig from(Map<String, String> props, GroupConfigSource groupConfigs, Supplier<TaskAssignor> assignor) {
        return new StreamsGroupConfig(
                intOf(props, "group.streams.session.timeout.ms", 45_000),
                intOf(props, "group.streams.heartbeat.interval.ms", 5000),
                intOf(props, "group.streams.max.size", Integer.MAX_VALUE),
                intOf(props, "group.streams.num.standby.replicas", 0),
                groupConfigs, assignor);
    }

    int sessionTimeoutMs(String groupId) {
        return intOf(groupConfigs.configs(groupId), "streams.session.timeout.ms", sessionTimeoutMs);
    }

    int heartbeatIntervalMs(String groupId) {
        return intOf(groupConfigs.configs(groupId), "streams.heartbeat.interval.ms", heartbeatIntervalMs);
    }

    int numStandbyReplicas(String groupId) {
        return intOf(groupConfigs.configs(groupId), "streams.num.standby.replicas", numStandbyReplicas);
    }

    private static int intOf(Map<String, String> props, String key, int def) {
        String v = props.get(key);
        if (v == null || v.isBlank()) {
            return def;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return def;
        }
    }
}
