package io.odradek.coordinator.group;

import io.odradek.wire.ErrorCode;
import java.util.Map;
import java.util.UUID;

/**
 * Results of the share group offset APIs (DescribeShareGroupOffsets 90, AlterShareGroupOffsets 91,
 * DeleteShareGroupOffsets 92), as the group coordinator answers them.
 */
public final class ShareGroupOffsets {
    private ShareGroupOffsets() {
    }

    /**
     * One partition of DescribeShareGroupOffsets: its start offset (the group's "offset") and leader epoch as
     * the share coordinator summarizes them, with deliveryCompleteCount for the lag; startOffset -1 for a
     * partition without share state.
     */
    public record PartitionOffset(int partition, ErrorCode error, String message, long startOffset, int leaderEpoch,
            int deliveryCompleteCount) {
        public static PartitionOffset none(int partition) {
            return new PartitionOffset(partition, ErrorCode.NONE, null, -1, -1, -1);
        }
    }

    /** A group's answer: its error, or per topic id its partitions. */
    public record Described(ErrorCode error, String message, Map<UUID, Map<Integer, PartitionOffset>> topics) {
        public static Described error(ErrorCode error, String message) {
            return new Described(error, message, Map.of());
        }
    }

    /** AlterShareGroupOffsets: a top-level error, or one per partition of each topic id. */
    public record Altered(ErrorCode error, String message, Map<UUID, Map<Integer, ErrorCode>> partitions) {
        public static Altered error(ErrorCode error, String message) {
            return new Altered(error, message, Map.of());
        }
    }

    /** DeleteShareGroupOffsets: a top-level error, or one per topic id. */
    public record Deleted(ErrorCode error, String message, Map<UUID, ErrorCode> topics) {
        public static Deleted error(ErrorCode error, String message) {
            return new Deleted(error, message, Map.of());
        }
    }
}
