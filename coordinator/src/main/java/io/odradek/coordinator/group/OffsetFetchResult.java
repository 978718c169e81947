package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.wire.ErrorCode;
import java.util.Map;
import java.util.Set;

/**
 * Committed offsets of one group, in the order asked (or every committed partition, by topic, when all
 * were asked for). A partition without a committed offset maps to null: offset -1, metadata "".
 *
 * @param unstable the partitions with a transactional offset commit still pending, when the fetch asked
 *                 for stable offsets (require_stable): they answer UNSTABLE_OFFSET_COMMIT and offset -1
 */
public record OffsetFetchResult(ErrorCode error, Map<TopicPartition, OffsetAndMetadata> offsets, Set<TopicPartition> unstable) {
    public OffsetFetchResult {
        unstable = Set.copyOf(unstable);
    }

    public OffsetFetchResult(ErrorCode error, Map<TopicPartition, OffsetAndMetadata> offsets) {
        this(error, offsets, Set.of());
    }

    public static OffsetFetchResult error(ErrorCode error) {
        return new OffsetFetchResult(error, Map.of());
    }

    /** The partition's error: UNSTABLE_OFFSET_COMMIT while a transactional commit of it is pending, else NONE. */
    public ErrorCode partitionError(TopicPartition tp) {
        return unstable.contains(tp) ? ErrorCode.UNSTABLE_OFFSET_COMMIT : ErrorCode.NONE;
    }
}
