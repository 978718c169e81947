package io.odradek.log;

import io.odradek.log.segment.Segment;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.log.txn.ControlBatches;
import io.odradek.wire.batch.EndTxnMarker;
import io.odradek.wire.batch.RecordBatchHeader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pass 0 of a clean: what the batch headers of the whole log say about transactions and producers. Kafka's
 * cleaner reads the same facts from the transaction index ({@code collectAbortedTransactions}), the producer
 * state ({@code lastRecordsOfActiveProducers}) and the log's first unstable offset; here they come from the
 * log itself, so the cleaner depends on nothing but the segments.
 *
 * <ul>
 * <li>A transaction of a producer starts at its first transactional data batch after its previous marker
 *     and ends at its next control batch; an abort marker makes it an {@link AbortedTxn}.</li>
 * <li>A transaction without a marker below {@code stableEnd} is unstable (open, or its marker is not yet
 *     committed): the first offset of the oldest one is the first unstable offset.</li>
 * <li>Each producer's last record is Kafka's {@code LastRecord}: the last offset of its last data batch
 *     (-1 when only markers of it are left) and its latest epoch.</li>
 * </ul>
 */
final class CleanerTransactionScan {
    /** A producer's last data offset (-1: none left) and latest epoch, as Kafka's LastRecord. */
    record LastRecord(long lastDataOffset, short producerEpoch) {
    }

    /**
     * @param aborted aborted transactions in order of their first offset
     * @param firstUnstableOffset first offset of the oldest transaction without a stable marker, or
     *                            Long.MAX_VALUE when there is none
     * @param lastRecords producer id -> its last record
     */
    record Result(List<AbortedTxn> aborted, long firstUnstableOffset, Map<Long, LastRecord> lastRecords) {
    }

    private CleanerTransactionScan() {
    }

    /**
     * Scans {@code segments} in order (the active one up to {@code activeEnd}); markers at or after
     * {@code stableEnd} do not end a transaction.
     */
    static Result scan(List<Segment> segments, Segment active, int activeEnd, long stableEnd) throws IOException {
        Map<Long, Long> openTxnStart = new HashMap<>();
        Map<Long, LastRecord> lastRecords = new HashMap<>();
        List<AbortedTxn> aborted = new ArrayList<>();
        for (Segment s : segments) {
            CleanerBatches.forEachBatch(s.channel(), s == active ? activeEnd : s.size(), h -> {
                long pid = h.producerId();
                if (pid < 0) {
                    return;
                }
                LastRecord previous = lastRecords.get(pid);
                long lastData = h.isControlBatch() ? (previous == null ? -1L : previous.lastDataOffset()) : h.lastOffset();
                lastRecords.put(pid, new LastRecord(lastData, h.producerEpoch()));
                if (h.baseOffset() >= stableEnd || !h.isTransactional()) {
                    return;
                }
                if (!h.isControlBatch()) {
                    openTxnStart.putIfAbsent(pid, h.baseOffset());
                    return;
                }
                Long first = openTxnStart.remove(pid);
                if (first != null && ControlBatches.controlType(h) == EndTxnMarker.ABORT_TYPE) {
                    long lastStable = openTxnStart.isEmpty() ? h.lastOffset() + 1 : Collections.min(openTxnStart.values());
                    aborted.add(new AbortedTxn(pid, first, h.lastOffset(), lastStable));
                }
            });
        }
        long firstUnstable = openTxnStart.isEmpty() ? Long.MAX_VALUE : Collections.min(openTxnStart.values());
        aborted.sort((a, b) -> Long.compare(a.firstOffset(), b.firstOffset()));
        return new Result(aborted, firstUnstable, lastRecords);
    }

    /** Kafka's rule for the batch that must survive as its producer's last (possibly emptied) batch. */
    static boolean isLastRecordOfProducer(RecordBatchHeader h, Map<Long, LastRecord> lastRecords) {
        if (h.producerId() < 0) {
            return false;
        }
        LastRecord last = lastRecords.get(h.producerId());
        if (last == null) {
            return false;
        }
        if (last.lastDataOffset() >= 0) {
            return h.lastOffset() == last.lastDataOffset();
        }
        return h.isControlBatch() && h.producerEpoch() == last.producerEpoch();
    }
}
