package io.odradek.log;

/**
 * Outcome of {@link PartitionLog#append}.
 *
 * @param baseOffset     offset of the first record appended (or of the original append, for a duplicate)
 * @param lastOffset     offset of the last record appended
 * @param logStartOffset the log start offset after the append
 * @param logAppendTime  the broker time stamped into the batches, or -1 when the topic uses CreateTime
 * @param duplicate      true when the batch was a producer retry already in the log; nothing was written
 * @param leaderEpoch    the leader epoch the replication layer appended at (-1 when it did not say): an acks=all
 *                       wait is only satisfied while this broker still leads at that epoch
 */
public record AppendResult(long baseOffset, long lastOffset, long logStartOffset, long logAppendTime,
                           boolean duplicate, int leaderEpoch) {

    /** What the log itself returns: the epoch is the replication layer's to add. */
    public AppendResult(long baseOffset, long lastOffset, long logStartOffset, long logAppendTime, boolean duplicate) {
        this(baseOffset, lastOffset, logStartOffset, logAppendTime, duplicate, -1);
    }

    /** This result, made at {@code epoch}. */
    public AppendResult withLeaderEpoch(int epoch) {
        return new AppendResult(baseOffset, lastOffset, logStartOffset, logAppendTime, duplicate, epoch);
    }
}
