package io.odradek.log;

import io.odradek.log.txn.AbortedTxn;
import io.odradek.wire.batch.EndTxnMarker;
import io.odradek.wire.batch.RecordBatchHeader;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The transaction state a cleaning pass carries while it walks the log in offset order (Kafka's
 * {@code CleanedTransactionMetadata}): which producers are inside an aborted or a committed transaction,
 * so that aborted data batches are dropped, and a marker is discardable only once no batch of its
 * transaction was met in this pass.
 */
final class CleanedTransactions {
    /** Aborted transactions not reached yet, by first offset. */
    private final PriorityQueue<AbortedTxn> pendingAborted =
            new PriorityQueue<>((a, b) -> Long.compare(a.firstOffset(), b.firstOffset()));
    private final Set<Long> ongoingCommitted = new HashSet<>();
    /** Producer id -> its aborted transaction in progress, and whether a batch of it was met. */
    private final Map<Long, AbortedInProgress> ongoingAborted = new HashMap<>();
    /** Aborted transactions whose marker this pass kept with data still before it: the cleaned txn index. */
    private final List<AbortedTxn> retainedAborted = new ArrayList<>();

    private static final class AbortedInProgress {
        final AbortedTxn txn;
        boolean batchSeen;

        AbortedInProgress(AbortedTxn txn) {
            this.txn = txn;
        }
    }

    CleanedTransactions(Collection<AbortedTxn> aborted) {
        pendingAborted.addAll(aborted);
    }

    /**
     * A control batch was reached; returns true when it may be discarded: an empty (already cleaned)
     * control batch, or a marker none of whose transaction's batches was met in this pass. Non-transaction
     * control records are never discardable.
     */
    boolean onControlBatchRead(RecordBatchHeader h, short controlType) {
        startAbortedUpTo(h.lastOffset());
        if (h.recordsCount() == 0) {
            return true;
        }
        long pid = h.producerId();
        if (controlType == EndTxnMarker.ABORT_TYPE) {
            AbortedInProgress txn = ongoingAborted.remove(pid);
            if (txn != null && txn.batchSeen) {
                retainedAborted.add(txn.txn);
                return false;
            }
            return true;
        }
        if (controlType == EndTxnMarker.COMMIT_TYPE) {
            return !ongoingCommitted.remove(pid);
        }
        return false;
    }

    /** A data batch was reached; returns true when it belongs to an aborted transaction (drop it). */
    boolean onBatchRead(RecordBatchHeader h) {
        startAbortedUpTo(h.lastOffset());
        if (!h.isTransactional()) {
            return false;
        }
        AbortedInProgress txn = ongoingAborted.get(h.producerId());
        if (txn != null) {
            txn.batchSeen = true;
            return true;
        }
        ongoingCommitted.add(h.producerId());
        return false;
    }

    /** The aborted transactions retained since the last call (for the transaction index of one cleaned segment). */
    List<AbortedTxn> drainRetainedAborted() {
        List<AbortedTxn> out = List.copyOf(retainedAborted);
        retainedAborted.clear();
        return out;
    }

    private void startAbortedUpTo(long offset) {
        while (!pendingAborted.isEmpty() && pendingAborted.peek().firstOffset() <= offset) {
            AbortedTxn txn = pendingAborted.poll();
            ongoingAborted.putIfAbsent(txn.producerId(), new AbortedInProgress(txn));
        }
    }
}
