package io.odradek.coordinator.offsets;

import java.util.Map;

/** The internal topic that holds committed offsets and group metadata, and how groups map onto it. */
public final class OffsetsTopic {
    public static final String NAME = "__consumer_offsets";

    /**
     * Kafka's topic configs for it: compacted, and (unlike user topics) never deleted by age, since the
     * coordinator expires offsets itself and writes tombstones.
     */
    public static final Map<String, String> CONFIGS = Map.of(
            "cleanup.policy", "compact",
            "retention.ms", "-1",
            "compression.type", "producer");

    private OffsetsTopic() {
    }

    /** Kafka's rule: {@code Utils.abs(groupId.hashCode()) % partitions}, with Java's String hash. */
    public static int partitionFor(String groupId, int partitions) {
        int hash = groupId.hashCode();
        return (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % partitions;
    }
}
