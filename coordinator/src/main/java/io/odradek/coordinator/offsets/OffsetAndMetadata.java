package io.odradek.coordinator.offsets;

/**
 * A committed offset as stored in {@code __consumer_offsets}.
 *
 * @param leaderEpoch       the leader epoch the client saw, or -1
 * @param metadata          client metadata, never null ("" when none)
 * @param commitTimestampMs when the coordinator accepted the commit
 * @param expireTimestampMs an explicit expiry (OffsetCommit v2-4 retention_time_ms), or -1 to use
 *                          {@code offsets.retention.minutes}
 */
public record OffsetAndMetadata(long offset, int leaderEpoch, String metadata, long commitTimestampMs,
        long expireTimestampMs) {
    public static final long NO_OFFSET = -1L;
    public static final int NO_LEADER_EPOCH = -1;
    public static final long NO_EXPIRE_TIMESTAMP = -1L;

    public OffsetAndMetadata {
        metadata = metadata == null ? "" : metadata;
    }

    public boolean hasExpireTimestamp() {
        return expireTimestampMs != NO_EXPIRE_TIMESTAMP;
    }
}
