package io.odradek.coordinator.share;

/**
 * One range of a share partition's persisted in-flight state, as Kafka persists it (PersisterStateBatch,
 * the StateBatches of WriteShareGroupState and of {@code __share_group_state}'s ShareSnapshot/ShareUpdate).
 *
 * @param deliveryState Kafka's RecordState id: 0 AVAILABLE, 2 ACKNOWLEDGED, 4 ARCHIVED (1 ACQUIRED is never
 *                      persisted: a restart makes acquired records available again)
 */
public record StateBatch(long firstOffset, long lastOffset, byte deliveryState, short deliveryCount) {
    public static final byte AVAILABLE = 0;
    public static final byte ACQUIRED = 1;
    public static final byte ACKNOWLEDGED = 2;
    public static final byte ARCHIVED = 4;
}
