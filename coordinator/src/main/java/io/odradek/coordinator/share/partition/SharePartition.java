package io.odradek.coordinator.share.partition;

import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongUnaryOperator;

/**
 * SEAM (issue 12 contract; the share-partition engineer replaces this skeleton). The in-flight state of one
 * share partition on its partition's leader (Kafka's SharePartition): which offsets from the start offset on
 * are Available, Acquired (by which member, until when), Acknowledged or Archived, with delivery counts;
 * persisted through the {@link SharePersister} on every change that must survive a restart. Thread-safe:
 * ShareFetch and ShareAcknowledge call it from any event loop; lock timeouts fire on {@link ShareTimers}.
 */
public final class SharePartition {
    /**
     * @param offsetForReset the log's offset for the auto.offset.reset policy: called with -2 (earliest), -1 (latest)
     *                       or a timestamp (by_duration), answers the offset (ListOffsets semantics)
     * @param onAvailable    called (on any thread) whenever records become acquirable again (released, lock timed
     *                       out, start offset moved): the broker wakes share fetches parked on this partition
     */
    public SharePartition(SharePartitionKey key, SharePartitionSettings settings, SharePersister persister, ShareTimers timers,
            LongUnaryOperator offsetForReset, Runnable onAvailable) {
        throw new UnsupportedOperationException("issue 12 seam: not written yet");
    }

    public SharePartitionKey key() {
        throw new UnsupportedOperationException();
    }

    /**
     * Reads the persisted state (ReadShareGroupState under this leader epoch); a partition the group never
     * initialized starts at offsetForReset(auto.offset.reset). Completes once the partition can serve; fails
     * with a {@link io.odradek.coordinator.runtime.CoordinatorException}-like error code the fetch answers
     * for the partition (NOT_LEADER_OR_FOLLOWER, FENCED_STATE_EPOCH, ...). Later calls return the same future.
     */
    public CompletableFuture<ErrorCode> initialize(int leaderEpoch) {
        throw new UnsupportedOperationException();
    }

    /** Where the next fetch for this partition reads from: the first offset that may be acquired. */
    public long nextFetchOffset() {
        throw new UnsupportedOperationException();
    }

    /** Whether anything can be acquired now (false when the in-flight limit is reached and nothing is available). */
    public boolean canAcquireRecords() {
        throw new UnsupportedOperationException();
    }

    /**
     * Acquires for {@code memberId} up to {@code maxRecords} acquirable offsets of the given batches (read from
     * the log at {@link #nextFetchOffset}, headers only; {@code highWatermark} bounds them), starting their
     * locks. Records past the delivery count limit are archived instead. Returns the acquired ranges in offset
     * order, each with its delivery count after this delivery (1 on the first); empty when none.
     */
    public List<AcquiredRecords> acquire(String memberId, List<LogBatch> batches, int maxRecords, long highWatermark) {
        throw new UnsupportedOperationException();
    }

    /**
     * Applies a member's acknowledgements: ACCEPT (Acknowledged), RELEASE (Available again, delivery count kept),
     * REJECT (Archived), RENEW (lock restarted), GAP (Archived: no record there). Each offset must be Acquired by
     * this member (INVALID_RECORD_STATE otherwise; INVALID_REQUEST for a malformed batch). Completes with NONE
     * once the change is persisted, or the error for the partition.
     */
    public CompletableFuture<ErrorCode> acknowledge(String memberId, List<Acknowledgement> acknowledgements) {
        throw new UnsupportedOperationException();
    }

    /** The member's share session ended or it left the group: what it holds becomes available again. */
    public CompletableFuture<ErrorCode> releaseAcquiredRecords(String memberId) {
        throw new UnsupportedOperationException();
    }

    /** The log's start offset moved (retention, DeleteRecords): offsets below it are gone. */
    public void updateLogStartOffset(long logStartOffset) {
        throw new UnsupportedOperationException();
    }

    /** The partition is no longer led here, or the group's state was deleted: cancel the lock timers. */
    public void close() {
        throw new UnsupportedOperationException();
    }
}
