package io.odradek.log;

import io.odradek.log.CleanerBatches.RawRecord;
import io.odradek.log.CleanerTransactionScan.LastRecord;
import io.odradek.log.segment.Segment;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.log.txn.ControlBatches;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.batch.RecordBatchReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Kafka's log cleaner for {@code cleanup.policy=compact}, transaction-aware as Kafka's {@code Cleaner}. One
 * instance is one cleaning pass over a log; it reads segments through their channels (no lock) and hands
 * finished files to the log to swap in.
 *
 * <p>{@link #begin} runs pass 0 ({@link CleanerTransactionScan}: aborted transactions, open ones, each
 * producer's last record) and pass 1 (key -> last offset). Both stop at the <em>first uncleanable
 * offset</em>: the least of the first unstable offset (oldest transaction without a stable marker), the
 * caller's stable end (high watermark) and the active segment's base. Pass 2 ({@link #rewrite}) copies
 * each segment below that offset, in log order, into a new segment of {@code <base>.log.cleaned} (+
 * {@code .index.cleaned}, {@code .timeindex.cleaned}), indexing as it appends, forces it and renames its
 * files {@code .swap}, the log file first: from that rename on the cleaned segment is committed, and the
 * log (or, after a crash, its loader) replaces the original with it. Batches at or after the first
 * uncleanable offset (in the segment holding it) are copied as they are, and the transaction index
 * entries of the abort markers among them carried over. A leftover {@code .cleaned} file is an unfinished clean and
 * is simply deleted; the loader deletes leftover {@code .index.swap}/{@code .timeindex.swap} files and
 * rebuilds the indexes.
 *
 * <p>Rules (Kafka's {@code Cleaner.cleanInto}, {@code CleanedTransactionMetadata}, {@code MemoryRecords.filterTo}):
 * <ul>
 * <li>Offsets never change: a rewritten v2 batch keeps its base offset, lastOffsetDelta, producer
 *     id/epoch/base sequence, transactional/control attributes and leader epoch; records keep their offset
 *     deltas. Records of committed transactions are filtered record by record like any others.</li>
 * <li>Aborted transactions: their data batches are dropped whole and their records never enter the offset
 *     map, so they never supersede an older value.</li>
 * <li>Markers: a marker is discardable once this pass met no batch of its transaction; the first pass that
 *     finds it so stamps it with a delete horizon (now + delete.retention.ms), a pass after the horizon
 *     drops it. Other control records are kept.</li>
 * <li>Tombstones (KIP-534): the first clean that keeps a tombstone stamps its batch with a delete horizon
 *     (in the base timestamp, with the record timestamp deltas re-based on it); a clean past the horizon
 *     drops the tombstone.</li>
 * <li>A producer's last data batch (or, with no data left, its latest marker), and the batch ending right
 *     before the first uncleanable offset, are kept even when emptied, as Kafka's header-only empty batch,
 *     so producer state rebuilt from the log keeps the last sequence and epoch; only for producers the
 *     log's producer state still holds (one removed by producer-id expiry keeps nothing, as in Kafka).</li>
 * <li>Simplifications: compressed batches are kept whole if any record is retained (never re-compressed),
 *     so their tombstones only go when a newer record supersedes them; records without a key are kept;
 *     segments are cleaned one for one (no merging; an emptied segment stays as an empty file).</li>
 * </ul>
 */
final class LogCleaner {
    static final String CLEANED_SUFFIX = ".cleaned";
    static final String SWAP_SUFFIX = ".swap";

    /** Pass 1's result: key -> last offset below the first uncleanable offset (aborted records excluded). */
    private final Map<ByteBuffer, Long> latest;
    private final long firstUncleanableOffset;
    private final Map<Long, LastRecord> lastRecords;
    /** Carried from segment to segment through pass 2, as Kafka carries it across segment groups. */
    private final CleanedTransactions transactions;

    private LogCleaner(Map<ByteBuffer, Long> latest, long firstUncleanableOffset, Map<Long, LastRecord> lastRecords,
                       List<AbortedTxn> aborted) {
        this.latest = latest;
        this.firstUncleanableOffset = firstUncleanableOffset;
        this.lastRecords = lastRecords;
        this.transactions = new CleanedTransactions(aborted);
    }

    /**
     * What rewriting one segment produced: the cleaned segment (indexed, forced, its files named
     * {@code .swap}), bytes before/after, the earliest delete horizon it left, and the entries of its
     * transaction index (see {@link #cleanedTxnIndex}).
     */
    record Rewritten(Segment cleaned, long bytesBefore, long bytesAfter, long minDeleteHorizonMs,
                     List<AbortedTxn> abortedTxns) {
    }

    /**
     * Passes 0 and 1 over {@code segments} (each read up to its end position, which for the active one is
     * given). {@code stableEnd} is the offset from which the log may still change (the high watermark; the
     * log end on one node): neither a marker nor a key from there on counts. {@code activeProducer} tells
     * which producer ids the log's producer state still holds.
     */
    static LogCleaner begin(List<Segment> segments, Segment active, int activeEnd, long stableEnd,
                            Predicate<Long> activeProducer) throws IOException {
        CleanerTransactionScan.Result txns = CleanerTransactionScan.scan(segments, active, activeEnd, stableEnd);
        // Kafka keeps the last batch only of producers its producer state still holds
        // (lastRecordsOfActiveProducers): one that producer-id expiry removed loses it like any other batch.
        Map<Long, LastRecord> lastRecords = new HashMap<>(txns.lastRecords());
        lastRecords.keySet().removeIf(pid -> !activeProducer.test(pid));
        long bound = Math.min(Math.min(txns.firstUnstableOffset(), stableEnd), active.baseOffset());
        CleanedTransactions mapTxns = new CleanedTransactions(txns.aborted());
        Map<ByteBuffer, Long> latest = new HashMap<>();
        for (Segment s : segments) {
            if (s.baseOffset() >= bound) {
                break;
            }
            CleanerBatches.forEachBatch(s.channel(), s == active ? activeEnd : s.size(), h -> {
                if (h.baseOffset() >= bound) {
                    return;
                }
                if (h.isControlBatch()) {
                    mapTxns.onControlBatchRead(h, ControlBatches.controlType(h));
                    return;
                }
                if (mapTxns.onBatchRead(h)) {
                    return; // aborted: its keys must never supersede anything
                }
                try (RecordBatchReader records = RecordBatchReader.open(h)) {
                    while (records.next()) {
                        byte[] key = records.key();
                        if (key != null) {
                            latest.put(ByteBuffer.wrap(key), records.offset());
                        }
                    }
                } catch (IOException undecodable) {
                    // its records cannot supersede anything; pass 2 keeps the batch whole
                }
            });
        }
        return new LogCleaner(latest, bound, lastRecords, txns.aborted());
    }

    /** Nothing at or after this offset is cleaned in this pass. */
    long firstUncleanableOffset() {
        return firstUncleanableOffset;
    }

    /** Whether {@link #rewrite} has anything to clean in {@code segment}: it starts below the first uncleanable offset. */
    boolean cleans(Segment segment) {
        return segment.baseOffset() < firstUncleanableOffset;
    }

    /**
     * Pass 2 for one inactive segment (segments must be given in log order): appends the kept batches to a
     * new {@code .cleaned} segment (its indexes are built as it goes, as for any append), trims and forces
     * it, then renames its files to {@code .swap}. The caller swaps it in (or deletes it); on failure
     * nothing is left behind.
     */
    Rewritten rewrite(Segment segment, Path dir, LogConfig config, long nowMs) throws IOException {
        long deleteRetentionMs = config.deleteRetentionMs();
        Segment cleaned = Segment.create(dir, segment.baseOffset(), config, nowMs, CLEANED_SUFFIX);
        long[] minHorizon = {Long.MAX_VALUE};
        List<AbortedTxn> aborted;
        try {
            CleanerBatches.forEachBatch(segment.channel(), segment.size(), h -> {
                ByteBuffer kept = filter(h, nowMs, deleteRetentionMs);
                if (kept == null) {
                    return;
                }
                RecordBatchHeader k = new RecordBatchHeader(kept, 0);
                if (k.hasDeleteHorizonMs() && k.baseTimestamp() > nowMs) {
                    minHorizon[0] = Math.min(minHorizon[0], k.baseTimestamp());
                }
                cleaned.append(kept);
            });
            // Its transaction index is written before it is forced and renamed.
            aborted = cleanedTxnIndex(segment);
            for (AbortedTxn txn : aborted) {
                cleaned.txnIndex().append(txn);
            }
            cleaned.onBecomeInactive();
            cleaned.flush();
            cleaned.renameFiles(SWAP_SUFFIX);
        } catch (IOException | RuntimeException e) {
            try {
                cleaned.closeAndDeleteFiles();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return new Rewritten(cleaned, segment.size(), cleaned.size(), minHorizon[0], aborted);
    }

    /**
     * The entries of the cleaned segment's transaction index, in marker order: first the aborted
     * transactions whose markers (below the first uncleanable offset) this pass kept with data of them met,
     * as Kafka's CleanedTransactionMetadata decides; then the original entries whose marker lies at or after
     * the first uncleanable offset. Those markers, and every batch from that offset on, are copied untouched
     * and never reach the bookkeeping, so their entries carry over as they were: without them a
     * read_committed consumer would receive the aborted records still in the log.
     */
    private List<AbortedTxn> cleanedTxnIndex(Segment segment) throws IOException {
        List<AbortedTxn> entries = new ArrayList<>(transactions.drainRetainedAborted());
        for (AbortedTxn original : segment.txnIndex().all()) {
            if (original.lastOffset() >= firstUncleanableOffset) {
                entries.add(original);
            }
        }
        return entries;
    }

    /** The batch to write for {@code h} (the original bytes, or a rebuilt batch), or null to drop it. */
    private ByteBuffer filter(RecordBatchHeader h, long nowMs, long deleteRetentionMs) {
        ByteBuffer whole = CleanerBatches.whole(h);
        if (h.baseOffset() >= firstUncleanableOffset) {
            return whole;
        }
        boolean control = h.isControlBatch();
        // Kafka piggy-backs marker removal on the tombstone horizon: a marker goes once its transaction has
        // no data left (canDiscard) and the horizon stamped on it then has passed.
        boolean canDiscard = control
                ? transactions.onControlBatchRead(h, ControlBatches.controlType(h))
                : transactions.onBatchRead(h);
        boolean discardRecords = control
                ? canDiscard && h.hasDeleteHorizonMs() && h.baseTimestamp() <= nowMs
                : canDiscard;
        boolean retainEmpty = CleanerTransactionScan.isLastRecordOfProducer(h, lastRecords)
                || h.lastOffset() + 1 == firstUncleanableOffset;
        ByteBuffer kept;
        if (discardRecords || h.recordsCount() == 0) {
            kept = null;
        } else if (control) {
            kept = canDiscard && !h.hasDeleteHorizonMs() ? withHorizon(h, whole, nowMs + deleteRetentionMs) : whole;
        } else if ((h.attributes() & CleanerBatches.COMPRESSION_MASK) != 0) {
            kept = anyRetained(h) ? whole : null;
        } else {
            kept = filterUncompressed(new RecordBatchHeader(whole, 0), whole, nowMs, deleteRetentionMs);
        }
        if (kept == null && retainEmpty) {
            return h.recordsCount() == 0 ? whole : CleanerBatches.empty(h);
        }
        return kept;
    }

    private boolean isLatest(byte[] key, long offset) {
        Long last = latest.get(ByteBuffer.wrap(key));
        return last == null || last == offset;
    }

    private boolean anyRetained(RecordBatchHeader h) {
        try (RecordBatchReader records = RecordBatchReader.open(h)) {
            while (records.next()) {
                byte[] key = records.key();
                if (key == null || isLatest(key, records.offset())) {
                    return true;
                }
            }
            return false;
        } catch (IOException undecodable) {
            return true;
        }
    }

    /** A marker batch (uncompressed, at position 0 of {@code whole}) stamped with a delete horizon. */
    private static ByteBuffer withHorizon(RecordBatchHeader h, ByteBuffer whole, long horizon) {
        RecordBatchHeader w = new RecordBatchHeader(whole, 0);
        List<RawRecord> records = (h.attributes() & CleanerBatches.COMPRESSION_MASK) == 0 ? CleanerBatches.records(w) : null;
        return records == null ? whole : CleanerBatches.rebuild(w, records, horizon);
    }

    /** The retained records of an uncompressed batch; null when none is. */
    private ByteBuffer filterUncompressed(RecordBatchHeader h, ByteBuffer whole, long nowMs, long deleteRetentionMs) {
        List<RawRecord> records = CleanerBatches.records(h);
        if (records == null) {
            return whole; // malformed: never lose bytes we cannot read
        }
        boolean hasHorizon = h.hasDeleteHorizonMs();
        boolean horizonPassed = hasHorizon && nowMs >= h.baseTimestamp();
        List<RawRecord> kept = new ArrayList<>(records.size());
        boolean keptTombstone = false;
        for (RawRecord r : records) {
            byte[] key = r.key();
            boolean latestForKey = key == null || isLatest(key, h.baseOffset() + r.offsetDelta());
            if (latestForKey && !(r.tombstone() && key != null && horizonPassed)) {
                kept.add(r);
                keptTombstone |= r.tombstone() && key != null;
            }
        }
        boolean stampHorizon = keptTombstone && !hasHorizon;
        if (kept.isEmpty()) {
            return null;
        }
        if (kept.size() == records.size() && !stampHorizon) {
            return whole;
        }
        return CleanerBatches.rebuild(h, kept, stampHorizon ? nowMs + deleteRetentionMs : -1L);
    }
}
