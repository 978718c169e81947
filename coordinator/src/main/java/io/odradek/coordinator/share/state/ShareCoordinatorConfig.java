package io.odradek.coordinator.share.state;

import java.util.Map;

/**
 * The share coordinator's settings, under Kafka 4.4's keys with Kafka's defaults (ShareCoordinatorConfig).
 *
 * @param stateTopicPartitions            {@code share.coordinator.state.topic.num.partitions} (50)
 * @param stateTopicReplicationFactor     {@code share.coordinator.state.topic.replication.factor} (3; whoever
 *                                        creates the topic caps it at what the cluster can give)
 * @param stateTopicMinIsr                {@code share.coordinator.state.topic.min.isr} (2)
 * @param stateTopicSegmentBytes          {@code share.coordinator.state.topic.segment.bytes} (104857600)
 * @param snapshotUpdateRecordsPerSnapshot {@code share.coordinator.snapshot.update.records.per.snapshot} (500,
 *                                        0-500): ShareUpdate records written for a share partition between
 *                                        two ShareSnapshots
 * @param pruneIntervalMs                 {@code share.coordinator.state.topic.prune.interval.ms} (300000): how often
 *                                        each loaded partition deletes its records no share partition needs
 * @param writeTimeoutMs                  {@code share.coordinator.write.timeout.ms} (5000): a write not committed
 *                                        by then answers COORDINATOR_NOT_AVAILABLE
 */
public record ShareCoordinatorConfig(int stateTopicPartitions, short stateTopicReplicationFactor, int stateTopicMinIsr,
        int stateTopicSegmentBytes, int snapshotUpdateRecordsPerSnapshot, int writeTimeoutMs, int pruneIntervalMs) {
    public static final String NUM_PARTITIONS = "share.coordinator.state.topic.num.partitions";
    public static final String REPLICATION_FACTOR = "share.coordinator.state.topic.replication.factor";
    public static final String MIN_ISR = "share.coordinator.state.topic.min.isr";
    public static final String SEGMENT_BYTES = "share.coordinator.state.topic.segment.bytes";
    public static final String UPDATE_RECORDS_PER_SNAPSHOT = "share.coordinator.snapshot.update.records.per.snapshot";
    public static final String WRITE_TIMEOUT_MS = "share.coordinator.write.timeout.ms";
    public static final String PRUNE_INTERVAL_MS = "share.coordinator.state.topic.prune.interval.ms";

    public ShareCoordinatorConfig(int stateTopicPartitions, short stateTopicReplicationFactor, int stateTopicMinIsr,
            int stateTopicSegmentBytes, int snapshotUpdateRecordsPerSnapshot, int writeTimeoutMs) {
        this(stateTopicPartitions, stateTopicReplicationFactor, stateTopicMinIsr, stateTopicSegmentBytes,
                snapshotUpdateRecordsPerSnapshot, writeTimeoutMs, 300_000);
    }

    public static ShareCoordinatorConfig defaults() {
        return from(Map.of());
    }

    /** From broker properties under Kafka's keys; absent keys take Kafka's defaults. */
    public static ShareCoordinatorConfig from(Map<String, String> props) {
        return new ShareCoordinatorConfig(
                intOf(props, NUM_PARTITIONS, 50),
                (short) intOf(props, REPLICATION_FACTOR, 3),
                intOf(props, MIN_ISR, 2),
                intOf(props, SEGMENT_BYTES, 104_857_600),
                intOf(props, UPDATE_RECORDS_PER_SNAPSHOT, 500),
                intOf(props, WRITE_TIMEOUT_MS, 5000),
                intOf(props, PRUNE_INTERVAL_MS, 300_000));
    }

    /** The same settings over an existing {@code __share_group_state}, whose partition count wins over the config. */
    public ShareCoordinatorConfig withStateTopicPartitions(int partitions) {
        return new ShareCoordinatorConfig(partitions, stateTopicReplicationFactor, stateTopicMinIsr, stateTopicSegmentBytes,
                snapshotUpdateRecordsPerSnapshot, writeTimeoutMs, pruneIntervalMs);
    }

    /**
     * Kafka's topic configs for {@code __share_group_state} (ShareCoordinatorService.shareGroupStateTopicConfigs):
     * never deleted by age ({@code retention.ms} -1) and not compacted (Kafka prunes records below the oldest
     * snapshot still needed instead), the producer's compression, {@code segment.bytes} from the config. Kafka
     * also sets {@code min.insync.replicas} to {@link #stateTopicMinIsr}: whoever creates the topic in a cluster
     * adds it, capped at the replication factor (one node leaves it at the broker default).
     */
    public Map<String, String> topicConfigs() {
        return Map.of(
                "cleanup.policy", "delete",
                "compression.type", "producer",
                "segment.bytes", Integer.toString(stateTopicSegmentBytes),
                "retention.ms", "-1");
    }

    private static int intOf(Map<String, String> props, String key, int def) {
        String v = props.get(key);
        return v == null || v.isBlank() ? def : Integer.parseInt(v.trim());
    }
}
