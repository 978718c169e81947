package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.TopicPartition;
import java.util.List;

/**
 * An OffsetCommit. A generation of -1 with an empty member id is a commit from outside group
 * management (a consumer using {@code assign()}, the admin client), accepted while the group is empty.
 *
 * @param retentionTimeMs an explicit retention (v2-v4), or -1 for {@code offsets.retention.minutes}
 */
public record OffsetCommitRequest(String groupId, int generationId, String memberId, String groupInstanceId,
        long retentionTimeMs, List<Partition> partitions, short apiVersion) {
    public OffsetCommitRequest {
        memberId = memberId == null ? "" : memberId;
        partitions = List.copyOf(partitions);
    }

    /**
     * One partition's offset; metadata may be null (stored as "").
     *
     * @param commitTimestampMs the commit time the client gives (OffsetCommit v1), or {@link #NOW}: stored as
     *     the offset's commit timestamp, from which its retention is counted (Kafka 3.9 did the same)
     */
    public record Partition(TopicPartition partition, long offset, int leaderEpoch, String metadata, long commitTimestampMs) {
        /** The commit timestamp meaning "the time the coordinator stores it" (Kafka's DEFAULT_TIMESTAMP). */
        public static final long NOW = -1L;

        public Partition(TopicPartition partition, long offset, int leaderEpoch, String metadata) {
            this(partition, offset, leaderEpoch, metadata, NOW);
        }
    }
}
