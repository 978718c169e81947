package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.wire.ErrorCode;
import java.util.Map;

/**
 * Committed offsets of one group, in the order asked (or every committed partition, by topic, when all
 * were asked for). A partition without a committed offset maps to null: offset -1, metadata "".
 */
public record OffsetFetchResult(ErrorCode error, Map<TopicPartition, OffsetAndMetadata> offsets) {
    public static OffsetFetchResult error(ErrorCode error) {
        return new OffsetFetchResult(error, Map.of());
    }
}
