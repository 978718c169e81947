package io.odradek.coordinator.share.partition;

import io.odradek.log.txn.AbortedTxn;
import java.util.ArrayList;
import java.util.List;

/**
 * read_committed: the fetched batches that belong to aborted transactions (Kafka's
 * fetchAbortedTransactionRecordBatches). A transactional batch is aborted when its producer has an aborted
 * transaction that began at or before it and whose abort marker comes after it; the marker batch itself is
 * not (the consumer acknowledges control records as gaps).
 */
final class AbortedBatches {
    private AbortedBatches() {
    }

    static List<LogBatch> of(List<LogBatch> batches, List<AbortedTxn> aborted) {
        List<LogBatch> out = new ArrayList<>();
        if (aborted == null || aborted.isEmpty()) {
            return out;
        }
        for (LogBatch b : batches) {
            if (!b.transactional() || b.producerId() < 0) {
                continue;
            }
            for (AbortedTxn txn : aborted) {
                if (txn.producerId() == b.producerId() && txn.firstOffset() <= b.baseOffset() && b.lastOffset() < txn.lastOffset()) {
                    out.add(b);
                    break;
                }
            }
        }
        return out;
    }

    /** The acquired ranges without the offsets of the given (aborted) batches. */
    static List<AcquiredRecords> without(List<AcquiredRecords> acquired, List<LogBatch> removed) {
        List<AcquiredRecords> out = new ArrayList<>();
        for (AcquiredRecords a : acquired) {
            long first = a.firstOffset();
            for (LogBatch r : removed) {
                if (r.lastOffset() < first || r.baseOffset() > a.lastOffset()) {
                    continue;
                }
                if (r.baseOffset() > first) {
                    out.add(new AcquiredRecords(first, r.baseOffset() - 1, a.deliveryCount()));
                }
                first = Math.max(first, r.lastOffset() + 1);
            }
            if (first <= a.lastOffset()) {
                out.add(new AcquiredRecords(first, a.lastOffset(), a.deliveryCount()));
            }
        }
        return out;
    }
}
