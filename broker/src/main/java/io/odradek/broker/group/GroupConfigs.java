package io.odradek.broker.group;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.config.DynamicBrokerConfig;
import io.odradek.coordinator.group.GroupConfigSource;
import io.odradek.coordinator.share.partition.SharePartitionSettings;
import io.odradek.replication.config.DynamicConfigStore;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The dynamic configs of groups as the broker uses them (issue 12): {@link #configs} is what is stored for a group
 * (the {@link GroupConfigSource} the coordinator and share partitions read), and the typed getters give the
 * effective value of one key for a group the way Kafka's GroupConfigManager does: the group's value, moved into
 * the broker's current group.*.min/max range if the bounds changed since it was set (Kafka's GroupConfig.evaluate,
 * which logs the clamp; so do we not: these are read on hot paths), else the broker's group.* default (its value
 * in force, dynamic layers included). Lock-free: a volatile read of the store's snapshot and a map lookup.
 */
public final class GroupConfigs implements GroupConfigSource {
    private final DynamicConfigStore store;
    private final Supplier<BrokerConfig> broker;

    public GroupConfigs(DynamicConfigStore store, Supplier<BrokerConfig> broker) {
        this.store = store;
        this.broker = broker;
    }

    /** Over a broker's dynamic config: its store holds the group configs, its current config the defaults. */
    public GroupConfigs(DynamicBrokerConfig broker) {
        this(broker.store(), broker::current);
    }

    /** Group configs kept nowhere: every group has the broker's defaults (tests, tools). */
    public static GroupConfigs defaults(BrokerConfig broker) {
        return new GroupConfigs(new io.odradek.replication.config.InMemoryDynamicConfigStore(), () -> broker);
    }

    @Override
    public Map<String, String> configs(String groupId) {
        return store.groupConfigs(groupId);
    }

    /** Every group with dynamic configs (what ListConfigResources lists for GROUP), in id order. */
    public Map<String, Map<String, String>> all() {
        return store.groupConfigs();
    }

    // ---- consumer groups (KIP-848)

    public int consumerSessionTimeoutMs(String groupId) {
        return bounded(groupId, GroupConfigDef.CONSUMER_SESSION_TIMEOUT_MS, "group.consumer.session.timeout.ms",
                "group.consumer.min.session.timeout.ms", "group.consumer.max.session.timeout.ms");
    }

    public int consumerHeartbeatIntervalMs(String groupId) {
        return bounded(groupId, GroupConfigDef.CONSUMER_HEARTBEAT_INTERVAL_MS, "group.consumer.heartbeat.interval.ms",
                "group.consumer.min.heartbeat.interval.ms", "group.consumer.max.heartbeat.interval.ms");
    }

    // ---- share groups (KIP-932)

    public int shareSessionTimeoutMs(String groupId) {
        return bounded(groupId, GroupConfigDef.SHARE_SESSION_TIMEOUT_MS, "group.share.session.timeout.ms",
                "group.share.min.session.timeout.ms", "group.share.max.session.timeout.ms");
    }

    public int shareHeartbeatIntervalMs(String groupId) {
        return bounded(groupId, GroupConfigDef.SHARE_HEARTBEAT_INTERVAL_MS, "group.share.heartbeat.interval.ms",
                "group.share.min.heartbeat.interval.ms", "group.share.max.heartbeat.interval.ms");
    }

    public int shareRecordLockDurationMs(String groupId) {
        return bounded(groupId, GroupConfigDef.SHARE_RECORD_LOCK_DURATION_MS, "group.share.record.lock.duration.ms",
                "group.share.min.record.lock.duration.ms", "group.share.max.record.lock.duration.ms");
    }

    public int shareDeliveryCountLimit(String groupId) {
        return bounded(groupId, GroupConfigDef.SHARE_DELIVERY_COUNT_LIMIT, "group.share.delivery.count.limit",
                "group.share.min.delivery.count.limit", "group.share.max.delivery.count.limit");
    }

    public int sharePartitionMaxRecordLocks(String groupId) {
        return bounded(groupId, GroupConfigDef.SHARE_PARTITION_MAX_RECORD_LOCKS,
                "group.share.partition.max.record.locks", "group.share.min.partition.max.record.locks",
                "group.share.max.partition.max.record.locks");
    }

    /** group.share.max.share.sessions: share sessions this broker holds (a broker key only). */
    public int shareMaxShareSessions() {
        return brokerInt("group.share.max.share.sessions");
    }

    /**
     * Everything a share partition of {@code groupId} is governed by, resolved now (the share partition asks on
     * each use, as Kafka reads its group config provider): share.record.lock.duration.ms, share.delivery.count.limit,
     * share.partition.max.record.locks, share.auto.offset.reset and share.isolation.level.
     */
    public SharePartitionSettings sharePartitionSettings(String groupId) {
        return new SharePartitionSettings(shareRecordLockDurationMs(groupId), shareDeliveryCountLimit(groupId),
                sharePartitionMaxRecordLocks(groupId), shareAutoOffsetReset(groupId), shareReadCommitted(groupId));
    }

    /** share.auto.offset.reset: "latest" (default), "earliest" or "by_duration:&lt;ISO-8601&gt;" (no broker key). */
    public String shareAutoOffsetReset(String groupId) {
        return stringValue(groupId, GroupConfigDef.SHARE_AUTO_OFFSET_RESET);
    }

    /** share.isolation.level: "read_uncommitted" (default) or "read_committed" (no broker key). */
    public String shareIsolationLevel(String groupId) {
        return stringValue(groupId, GroupConfigDef.SHARE_ISOLATION_LEVEL);
    }

    public boolean shareReadCommitted(String groupId) {
        return shareIsolationLevel(groupId).equals("read_committed");
    }

    /** share.renew.acknowledge.enable (default true; no broker key). */
    public boolean shareRenewAcknowledgeEnable(String groupId) {
        return Boolean.parseBoolean(stringValue(groupId, GroupConfigDef.SHARE_RENEW_ACKNOWLEDGE_ENABLE));
    }

    // ---- streams groups (KIP-1071)

    public int streamsSessionTimeoutMs(String groupId) {
        return bounded(groupId, GroupConfigDef.STREAMS_SESSION_TIMEOUT_MS, "group.streams.session.timeout.ms",
                "group.streams.min.session.timeout.ms", "group.streams.max.session.timeout.ms");
    }

    public int streamsHeartbeatIntervalMs(String groupId) {
        return bounded(groupId, GroupConfigDef.STREAMS_HEARTBEAT_INTERVAL_MS, "group.streams.heartbeat.interval.ms",
                "group.streams.min.heartbeat.interval.ms", "group.streams.max.heartbeat.interval.ms");
    }

    public int streamsNumStandbyReplicas(String groupId) {
        int value = intOr(groupId, GroupConfigDef.STREAMS_NUM_STANDBY_REPLICAS, "group.streams.num.standby.replicas");
        return Math.min(value, brokerInt("group.streams.max.standby.replicas"));
    }

    public int streamsInitialRebalanceDelayMs(String groupId) {
        return intOr(groupId, GroupConfigDef.STREAMS_INITIAL_REBALANCE_DELAY_MS, "group.streams.initial.rebalance.delay.ms");
    }

    /** The group's value moved into [min, max] of the broker's bounds now, else the broker's default. */
    private int bounded(String groupId, String key, String brokerKey, String minKey, String maxKey) {
        String set = configs(groupId).get(key);
        if (set == null) {
            return brokerInt(brokerKey);
        }
        int value = Integer.parseInt(set.trim());
        return Math.max(brokerInt(minKey), Math.min(brokerInt(maxKey), value));
    }

    private int intOr(String groupId, String key, String brokerKey) {
        String set = configs(groupId).get(key);
        return set == null ? brokerInt(brokerKey) : Integer.parseInt(set.trim());
    }

    private String stringValue(String groupId, String key) {
        String set = configs(groupId).get(key);
        return set != null ? set.trim() : GroupConfigDef.key(key).key().defaultValue();
    }

    private int brokerInt(String key) {
        return Integer.parseInt(broker.get().get(key).trim());
    }
}
