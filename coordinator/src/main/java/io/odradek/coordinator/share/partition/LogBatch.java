package io.odradek.coordinator.share.partition;

/**
 * One record batch of a fetched file slice, from its header only (never its records): the share fetch
 * acquires offsets batch by batch and sends the slice as it is, with the acquired ranges beside it.
 *
 * @param producerId    the header's producer id (-1 for none); with {@code transactional}, what read_committed
 *                      needs to find the batches of aborted transactions
 * @param transactional the header's transactional attribute (a control batch, i.e. a commit/abort marker, is
 *                      transactional too but never aborted itself)
 */
public record LogBatch(long baseOffset, long lastOffset, long producerId, boolean transactional) {
    /** A batch whose transactional state does not matter (read_uncommitted, or a non-transactional producer). */
    public LogBatch(long baseOffset, long lastOffset) {
        this(baseOffset, lastOffset, -1L, false);
    }
}
