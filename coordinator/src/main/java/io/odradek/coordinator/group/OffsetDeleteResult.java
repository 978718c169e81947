package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.wire.ErrorCode;
import java.util.Map;

/** An OffsetDelete response: a group-level error, or one error (NONE when deleted) per partition. */
public record OffsetDeleteResult(ErrorCode error, Map<TopicPartition, ErrorCode> partitions) {
    public static OffsetDeleteResult error(ErrorCode error) {
        return new OffsetDeleteResult(error, Map.of());
    }
}
