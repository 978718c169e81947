package io.odradek.coordinator.group;

import java.util.Map;

/**
 * Settings of share groups (KIP-932), under Kafka's broker keys with Kafka 4.4's defaults and bounds (a
 * group's own {@code share.session.timeout.ms} / {@code share.heartbeat.interval.ms}, set through
 * {@link GroupConfigSource}, win over these).
 *
 * @param sessionTimeoutMs           {@code group.share.session.timeout.ms} (45000): a member that does not
 *                                   heartbeat this long is fenced
 * @param heartbeatIntervalMs        {@code group.share.heartbeat.interval.ms} (5000), told to members
 * @param maxSize                    {@code group.share.max.size} (200)
 * @param initializeRetryIntervalMs  {@code group.share.initialize.retry.interval.ms} (30000): a partition whose
 *                                   share state initialization has not completed after this long is tried again
 */
public record ShareGroupConfig(int sessionTimeoutMs, int heartbeatIntervalMs, int maxSize, int initializeRetryIntervalMs) {

    public static ShareGroupConfig defaults() {
        return from(Map.of());
    }

    /**
     * From broker properties; absent keys take Kafka's defaults.
     *
     * @throws IllegalArgumentException when a timeout is outside its Kafka bounds
     */
    public static ShareGroupConfig from(Map<String, String> props) {
        int session = intOf(props, "group.share.session.timeout.ms", 45_000);
        int minSession = intOf(props, "group.share.min.session.timeout.ms", 45_000);
        int maxSession = intOf(props, "group.share.max.session.timeout.ms", 60_000);
        int heartbeat = intOf(props, "group.share.heartbeat.interval.ms", 5_000);
        int minHeartbeat = intOf(props, "group.share.min.heartbeat.interval.ms", 5_000);
        int maxHeartbeat = intOf(props, "group.share.max.heartbeat.interval.ms", 15_000);
        within("group.share.session.timeout.ms", session, minSession, maxSession);
        within("group.share.heartbeat.interval.ms", heartbeat, minHeartbeat, maxHeartbeat);
        if (heartbeat >= session) {
            throw new IllegalArgumentException("group.share.heartbeat.interval.ms (" + heartbeat
                    + ") must be less than group.share.session.timeout.ms (" + session + ")");
        }
        int maxSize = intOf(props, "group.share.max.size", 200);
        if (maxSize < 1 || maxSize > 1000) {
            throw new IllegalArgumentException("group.share.max.size (" + maxSize + ") must be between 1 and 1000");
        }
        return new ShareGroupConfig(session, heartbeat, maxSize, intOf(props, "group.share.initialize.retry.interval.ms", 30_000));
    }

    /** The session timeout of this group: its own config, else the broker's. */
    int sessionTimeoutMs(Map<String, String> groupConfigs) {
        return intOf(groupConfigs, "share.session.timeout.ms", sessionTimeoutMs);
    }

    /** The heartbeat interval of this group: its own config, else the broker's. */
    int heartbeatIntervalMs(Map<String, String> groupConfigs) {
        return intOf(groupConfigs, "share.heartbeat.interval.ms", heartbeatIntervalMs);
    }

    private static void within(String key, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(key + " (" + value + ") must be between " + min + " and " + max);
        }
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
