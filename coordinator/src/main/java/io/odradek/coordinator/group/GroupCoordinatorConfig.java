package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.OffsetsTopic;
import java.util.HashMap;
import java.util.Map;

/**
 * The group coordinator's settings, read from the broker's configuration under Kafka's keys with
 * Kafka's defaults.
 *
 * @param offsetsTopicPartitions          {@code offsets.topic.num.partitions} (50)
 * @param offsetsTopicSegmentBytes        {@code offsets.topic.segment.bytes} (100 MiB)
 * @param initialRebalanceDelayMs         {@code group.initial.rebalance.delay.ms} (3000): how long a new group
 *                                        waits for more members before its first rebalance completes
 * @param minSessionTimeoutMs             {@code group.min.session.timeout.ms} (6000)
 * @param maxSessionTimeoutMs             {@code group.max.session.timeout.ms} (1800000)
 * @param maxGroupSize                    {@code group.max.size} (unbounded)
 * @param offsetsRetentionMs              {@code offsets.retention.minutes} (7 days), in ms
 * @param offsetsRetentionCheckIntervalMs {@code offsets.retention.check.interval.ms} (600000)
 * @param offsetMetadataMaxBytes          {@code offset.metadata.max.bytes} (4096)
 * @param newMemberJoinTimeoutMs          how long a new member's first JoinGroup may stay parked (Kafka's
 *                                        internal 5 minutes): its socket is muted, so disconnects go unseen
 * @param offsetCommitTimeoutMs           {@code offsets.commit.timeout.ms} (5000): Kafka's bound on every
 *                                        coordinator write's wait for its commit (COORDINATOR_NOT_AVAILABLE after)
 * @param consumer                        settings of KIP-848 consumer-protocol groups
 */
public record GroupCoordinatorConfig(int offsetsTopicPartitions, int offsetsTopicSegmentBytes,
        int initialRebalanceDelayMs, int minSessionTimeoutMs, int maxSessionTimeoutMs, int maxGroupSize,
        long offsetsRetentionMs, long offsetsRetentionCheckIntervalMs, int offsetMetadataMaxBytes,
        int newMemberJoinTimeoutMs, int offsetCommitTimeoutMs, ConsumerGroupConfig consumer) {

    public static GroupCoordinatorConfig defaults() {
        return from(Map.of());
    }

    /**
     * From broker properties under Kafka's keys; absent keys take Kafka's defaults.
     *
     * @throws IllegalArgumentException when a consumer group timeout is outside its Kafka bounds
     */
    public static GroupCoordinatorConfig from(Map<String, String> props) {
        return new GroupCoordinatorConfig(
                intOf(props, "offsets.topic.num.partitions", 50),
                intOf(props, "offsets.topic.segment.bytes", 104_857_600),
                intOf(props, "group.initial.rebalance.delay.ms", 3000),
                intOf(props, "group.min.session.timeout.ms", 6000),
                intOf(props, "group.max.session.timeout.ms", 1_800_000),
                intOf(props, "group.max.size", Integer.MAX_VALUE),
                longOf(props, "offsets.retention.minutes", 10_080) * 60_000L,
                longOf(props, "offsets.retention.check.interval.ms", 600_000),
                intOf(props, "offset.metadata.max.bytes", 4096),
                5 * 60 * 1000,
                intOf(props, "offsets.commit.timeout.ms", 5000),
                ConsumerGroupConfig.from(props));
    }

    /** The same settings with a different initial rebalance delay (tests use 0). */
    public GroupCoordinatorConfig withInitialRebalanceDelayMs(int delayMs) {
        return new GroupCoordinatorConfig(offsetsTopicPartitions, offsetsTopicSegmentBytes, delayMs,
                minSessionTimeoutMs, maxSessionTimeoutMs, maxGroupSize, offsetsRetentionMs,
                offsetsRetentionCheckIntervalMs, offsetMetadataMaxBytes, newMemberJoinTimeoutMs, offsetCommitTimeoutMs, consumer);
    }

    /** The same settings over an existing {@code __consumer_offsets}, whose partition count wins over the config. */
    public GroupCoordinatorConfig withOffsetsTopicPartitions(int partitions) {
        return new GroupCoordinatorConfig(partitions, offsetsTopicSegmentBytes, initialRebalanceDelayMs,
                minSessionTimeoutMs, maxSessionTimeoutMs, maxGroupSize, offsetsRetentionMs,
                offsetsRetentionCheckIntervalMs, offsetMetadataMaxBytes, newMemberJoinTimeoutMs, offsetCommitTimeoutMs, consumer);
    }

    /** Topic configs for {@code __consumer_offsets}. */
    public Map<String, String> offsetsTopicConfigs() {
        Map<String, String> configs = new HashMap<>(OffsetsTopic.CONFIGS);
        configs.put("segment.bytes", Integer.toString(offsetsTopicSegmentBytes));
        return configs;
    }

    private static int intOf(Map<String, String> props, String key, int def) {
        String v = props.get(key);
        return v == null || v.isBlank() ? def : Integer.parseInt(v.trim());
    }

    private static long longOf(Map<String, String> props, String key, long def) {
        String v = props.get(key);
        return v == null || v.isBlank() ? def : Long.parseLong(v.trim());
    }
}
