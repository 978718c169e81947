package io.odradek.broker.share;

import io.odradek.coordinator.share.partition.SharePartitionSettings;
import java.util.Map;
import java.util.function.Function;

/**
 * The broker's share-group settings the share fetch path uses, with Kafka 4.4's keys and defaults
 * (ShareGroupConfig): the group.share.* defaults a group's own dynamic configs (share.*) override, and the
 * share session cache's size. Read from the broker config when the keys are declared there; a key the
 * config does not know takes Kafka's default (the groupconfigs part declares the group.share.* keys).
 *
 * @param recordLockDurationMs group.share.record.lock.duration.ms (30000)
 * @param deliveryCountLimit   group.share.delivery.count.limit (5)
 * @param maxRecordLocks       group.share.partition.max.record.locks (2000)
 * @param maxShareSessions     group.share.max.share.sessions (2000): share sessions per broker
 */
public record ShareGroupDefaults(int recordLockDurationMs, int deliveryCountLimit, int maxRecordLocks,
        int maxShareSessions) {
    public static final String RECORD_LOCK_DURATION_MS = "group.share.record.lock.duration.ms";
    public static final String DELIVERY_COUNT_LIMIT = "group.share.delivery.count.limit";
    public static final String PARTITION_MAX_RECORD_LOCKS = "group.share.partition.max.record.locks";
    public static final String MAX_SHARE_SESSIONS = "group.share.max.share.sessions";

    /** Group dynamic config keys (GroupConfig) read when a share partition is made. */
    public static final String GROUP_RECORD_LOCK_DURATION_MS = "share.record.lock.duration.ms";
    public static final String GROUP_DELIVERY_COUNT_LIMIT = "share.delivery.count.limit";
    public static final String GROUP_PARTITION_MAX_RECORD_LOCKS = "share.partition.max.record.locks";
    public static final String GROUP_AUTO_OFFSET_RESET = "share.auto.offset.reset";
    public static final String GROUP_ISOLATION_LEVEL = "share.isolation.level";

    public static final ShareGroupDefaults KAFKA = new ShareGroupDefaults(30000, 5, 2000, 2000);

    /** The defaults from a broker config's values ({@code get} answers null for a key it does not hold). */
    public static ShareGroupDefaults from(Function<String, String> get) {
        return new ShareGroupDefaults(
                intOr(get.apply(RECORD_LOCK_DURATION_MS), KAFKA.recordLockDurationMs),
                intOr(get.apply(DELIVERY_COUNT_LIMIT), KAFKA.deliveryCountLimit),
                intOr(get.apply(PARTITION_MAX_RECORD_LOCKS), KAFKA.maxRecordLocks),
                intOr(get.apply(MAX_SHARE_SESSIONS), KAFKA.maxShareSessions));
    }

    /**
     * A share partition's settings: the group's dynamic configs over these defaults (Kafka reads them when it
     * makes the SharePartition). Values the group holds were validated when they were set.
     */
    public SharePartitionSettings settingsFor(Map<String, String> groupConfigs) {
        return new SharePartitionSettings(
                recordLockDurationMs(groupConfigs),
                intOr(groupConfigs.get(GROUP_DELIVERY_COUNT_LIMIT), deliveryCountLimit),
                intOr(groupConfigs.get(GROUP_PARTITION_MAX_RECORD_LOCKS), maxRecordLocks),
                groupConfigs.getOrDefault(GROUP_AUTO_OFFSET_RESET, "latest"),
                readCommitted(groupConfigs));
    }

    /** The lock duration a ShareFetch response reports (AcquisitionLockTimeoutMs): the group's, else the broker's. */
    public int recordLockDurationMs(Map<String, String> groupConfigs) {
        return intOr(groupConfigs.get(GROUP_RECORD_LOCK_DURATION_MS), recordLockDurationMs);
    }

    /** share.isolation.level is read_committed (Kafka's default: read_uncommitted). */
    public static boolean readCommitted(Map<String, String> groupConfigs) {
        return "read_committed".equalsIgnoreCase(groupConfigs.get(GROUP_ISOLATION_LEVEL));
    }

    private static int intOr(String value, int fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
