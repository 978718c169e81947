package io.odradek.coordinator.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Settings of KIP-848 consumer-protocol groups, under Kafka's keys with Kafka 4.x's defaults and bounds
 * (Kafka refuses to start with a session timeout or heartbeat interval outside its min/max keys, and so
 * do we; tests lower the minimums to run fast).
 *
 * @param sessionTimeoutMs    {@code group.consumer.session.timeout.ms} (45000): a member that does not
 *                            heartbeat this long is fenced
 * @param heartbeatIntervalMs {@code group.consumer.heartbeat.interval.ms} (5000), told to members
 * @param maxSize             {@code group.consumer.max.size} (unbounded)
 * @param assignors           {@code group.consumer.assignors} ("uniform,range"): the names members may ask
 *                            for; the first is the default
 */
public record ConsumerGroupConfig(int sessionTimeoutMs, int heartbeatIntervalMs, int maxSize, List<String> assignors) {
    public ConsumerGroupConfig {
        assignors = List.copyOf(assignors);
    }

    static ConsumerGroupConfig from(Map<String, String> props) {
        int session = intOf(props, "group.consumer.session.timeout.ms", 45_000);
        int minSession = intOf(props, "group.consumer.min.session.timeout.ms", 45_000);
        int maxSession = intOf(props, "group.consumer.max.session.timeout.ms", 60_000);
        int heartbeat = intOf(props, "group.consumer.heartbeat.interval.ms", 5_000);
        int minHeartbeat = intOf(props, "group.consumer.min.heartbeat.interval.ms", 5_000);
        int maxHeartbeat = intOf(props, "group.consumer.max.heartbeat.interval.ms", 15_000);
        within("group.consumer.session.timeout.ms", session, "group.consumer.min.session.timeout.ms", minSession,
                "group.consumer.max.session.timeout.ms", maxSession);
        within("group.consumer.heartbeat.interval.ms", heartbeat, "group.consumer.min.heartbeat.interval.ms", minHeartbeat,
                "group.consumer.max.heartbeat.interval.ms", maxHeartbeat);
        if (heartbeat >= session) {
            throw new IllegalArgumentException("group.consumer.heartbeat.interval.ms (" + heartbeat
                    + ") must be less than group.consumer.session.timeout.ms (" + session + ")");
        }
        List<String> assignors = new ArrayList<>();
        String list = props.getOrDefault("group.consumer.assignors", "uniform,range");
        for (String name : list.split(",")) {
            String n = assignorName(name.trim());
            if (!n.isEmpty() && !assignors.contains(n)) {
                assignors.add(n);
            }
        }
        if (assignors.isEmpty()) {
            throw new IllegalArgumentException("group.consumer.assignors must name at least one assignor");
        }
        return new ConsumerGroupConfig(session, heartbeat, intOf(props, "group.consumer.max.size", Integer.MAX_VALUE), assignors);
    }

    /** Kafka's keys also take class names; ours are "uniform" and "range". */
    private static String assignorName(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        if (v.endsWith(".uniformassignor")) {
            return "uniform";
        }
        if (v.endsWith(".rangeassignor")) {
            return "range";
        }
        if (!v.isEmpty() && !v.equals("uniform") && !v.equals("range")) {
            throw new IllegalArgumentException("group.consumer.assignors: unknown assignor " + value
                    + " (known: uniform, range)");
        }
        return v;
    }

    private static void within(String key, int value, String minKey, int min, String maxKey, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(key + " (" + value + ") must be between " + minKey + " (" + min
                    + ") and " + maxKey + " (" + max + ")");
        }
    }

    private static int intOf(Map<String, String> props, String key, int def) {
        String v = props.get(key);
        return v == null || v.isBlank() ? def : Integer.parseInt(v.trim());
    }
}
