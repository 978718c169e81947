package io.odradek.log;

/**
 * Outcome of {@link PartitionLog#append}.
 *
 * @param baseOffset     offset of the first record appended (or of the original append, for a duplicate)
 * @param lastOffset     offset of the last record appended
 * @param logStartOffset the log start offset after the append
 * @param logAppendTime  the broker time stamped into the batches, or -1 when the topic uses CreateTime
 * @param duplicate      true when the batch was a producer retry already in the log; nothing was written
 */
public record AppendResult(long baseOffset, long lastOffset, long logStartOffset, long logAppendTime,
                           boolean duplicate) {
}
