package io.odradek.coordinator.share.partition;

/**
 * What governs one share partition, resolved from the group's dynamic configs over the broker's defaults.
 * A SharePartition made with a supplier of these reads them on each use, as Kafka reads its group config
 * provider, so a group config change reaches partitions already open.
 *
 * @param recordLockDurationMs    share.record.lock.duration.ms (broker: group.share.record.lock.duration.ms, 30000)
 * @param deliveryCountLimit      share.delivery.count.limit (broker: group.share.delivery.count.limit, 5)
 * @param maxInFlightRecords      share.partition.max.record.locks (broker: group.share.partition.max.record.locks, 2000)
 * @param autoOffsetReset         share.auto.offset.reset: "latest" (Kafka's default), "earliest" or "by_duration:&lt;ISO-8601&gt;"
 * @param readCommitted           share.isolation.level is read_committed (default read_uncommitted)
 */
public record SharePartitionSettings(long recordLockDurationMs, int deliveryCountLimit, int maxInFlightRecords,
        String autoOffsetReset, boolean readCommitted) {
}
