package io.odradek.coordinator.runtime;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * One partition of a coordinator's internal topic ({@code __consumer_offsets}, later
 * {@code __transaction_state}) as the coordinator runtime writes and loads it. Implemented outside
 * {@code coordinator/} by whoever owns the partition (today an adapter over the local log; next the
 * replicated Partition).
 *
 * <p>The runtime calls {@link #append} from the partition's coordinator thread and never waits on the
 * future: an implementation may write on another thread and complete the future later, from any thread.
 * The runtime keeps at most one append per partition in flight, so appends arrive in order.
 */
public interface CoordinatorLog {
    /**
     * Appends one v2 record batch (uncompressed, base offset 0: the log assigns the offsets, and stamps
     * its leader epoch). Completes with the offset after the batch's last record once the batch is
     * committed (the high watermark has passed it); fails, with a {@link io.odradek.log.LogException}
     * naming the error where one applies, when it was not written or cannot be committed. The runtime
     * then maps that error for the client (see {@link CoordinatorErrors#ofAppendFailure}).
     */
    CompletableFuture<Long> append(ByteBuffer batch);

    /**
     * Appends the control batch that commits or aborts producer {@code producerId}'s transaction on this
     * partition (what WriteTxnMarkers does to a coordinator's partition). Completes with the offset after
     * the marker once committed; fails with a {@link io.odradek.log.LogException} naming the error where
     * one applies (INVALID_PRODUCER_EPOCH for an older producer epoch, TRANSACTION_COORDINATOR_FENCED for an
     * older coordinator epoch, NOT_LEADER_OR_FOLLOWER ...).
     */
    CompletableFuture<Long> appendMarker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit);

    /**
     * Completes once everything the log holds now is committed, so that a load reads all of it. A new leader
     * of a replicated partition may hold a tail its predecessor wrote that is committed only once the
     * followers have fetched it (Kafka loads to the log end for the same reason); the runtime loads after
     * this. One node: at once.
     */
    default CompletableFuture<Void> whenCaughtUp() {
        return CompletableFuture.completedFuture(null);
    }

    /** The first offset still in the log (load starts here). */
    long startOffset();

    /** The committed end: load reads every record below it. */
    long committedEndOffset();

    /**
     * Whole batches from the one holding {@code offset}, about {@code maxBytes} of them but always the
     * first whole (a batch larger than {@code maxBytes} comes whole); empty at the end. The buffer is the
     * caller's to keep.
     */
    ByteBuffer read(long offset, int maxBytes);

    /**
     * Deletes the records below {@code offset} (DeleteRecords: the log start offset moves up to it), for a
     * coordinator whose old records are no longer needed (the share coordinator's pruning). Fails by default.
     */
    default CompletableFuture<Void> deleteRecordsBefore(long offset) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("this log cannot delete records"));
    }
}
