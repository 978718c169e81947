package io.odradek.log.producer;

import io.odradek.log.LogAppendException;
import io.odradek.log.txn.CompletedTxn;
import io.odradek.log.txn.ControlBatches;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.EndTxnMarker;
import io.odradek.wire.batch.RecordBatchHeader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Producer state of one partition, like Kafka's ProducerStateManager: per producer id the current epoch,
 * the last {@value ProducerEntry#BATCHES_TO_RETAIN} batches, its open transaction and the coordinator epoch
 * of its last marker; and the open transactions ordered by first offset, so the first unstable offset is
 * the first key. Changed under the log's append lock only; {@link #producers()} may be read from any
 * thread (entries are replaced, never changed, once published), and so may
 * {@link #hasOngoingTransaction(long, short)}. The verification guards ({@link VerificationGuard}) are
 * handed out from any thread and dropped under the append lock.
 */
public final class ProducerStateManager {
    private static final long[] NO_TXNS = new long[0];
    private final Map<Long, ProducerEntry> producers = new ConcurrentHashMap<>();
    /** Open transactions: first offset -> producer id. */
    private final TreeMap<Long, Long> ongoing = new TreeMap<>();
    /**
     * Decided transactions whose marker may not be replicated yet (Kafka's unreplicatedTxns): first offset ->
     * marker offset. They hold the LSO until the high watermark passes the marker.
     */
    private final TreeMap<Long, Long> unreplicated = new TreeMap<>();
    /** Kafka's verificationStates: the guard of each producer whose transaction the coordinator is being asked about. */
    private final Map<Long, VerificationGuard> verifications = new ConcurrentHashMap<>();
    /** The open transactions and their epochs as last published, for {@link #hasOngoingTransaction}. */
    private volatile OpenTransactions open = OpenTransactions.NONE;

    /** Starts validating one append; nothing changes until {@link ProducerAppend#commit()}. */
    public ProducerAppend begin() {
        return new ProducerAppend((short) 0, null, false);
    }

    /**
     * As {@link #begin()} for batches replicated from the leader (Kafka's AppendOrigin.REPLICATION): the
     * leader has checked them, so nothing is refused for an old producer epoch, a sequence (none is checked,
     * no duplicate is looked for) or an old coordinator epoch; the state simply follows the batches, each at
     * the offsets it carries. Only a non-transactional batch inside an open transaction is refused, as Kafka's
     * ProducerAppendInfo does for every origin.
     */
    public ProducerAppend beginReplication() {
        return new ProducerAppend((short) 0, null, true);
    }

    /**
     * As {@link #begin()}, for a marker written under {@code markerTransactionVersion} (WriteTxnMarkers v2's
     * TransactionVersion, KIP-1228; 0 for older requests): from 2 on the marker carries the epoch the
     * coordinator bumped, so the producer's current epoch itself is already too old.
     */
    public ProducerAppend begin(short markerTransactionVersion) {
        return new ProducerAppend(markerTransactionVersion, null, false);
    }

    /**
     * As {@link #begin()} for a client's batches that needed transaction verification (Kafka's append with a
     * requestVerificationGuard): a transactional batch whose transaction is not open at its epoch is refused
     * with INVALID_TXN_STATE unless {@code guard} is still this producer's current guard. Null checks nothing.
     */
    public ProducerAppend begin(VerificationGuard guard) {
        return new ProducerAppend((short) 0, guard, false);
    }

    /**
     * Kafka's hasOngoingTransaction: whether {@code producerId} has a transaction open here at exactly this
     * epoch. Safe from any thread and allocation-free: it reads the snapshot of open transactions published
     * whenever one opens, ends or changes epoch (which may trail an append in progress; the append's own
     * check under the lock is the one that counts).
     */
    public boolean hasOngoingTransaction(long producerId, short epoch) {
        return open.contains(producerId, epoch);
    }

    /** Republishes the open transactions; called whenever one opens, ends or changes epoch. */
    private void publishOpen() {
        open = OpenTransactions.of(ongoing.values(), producers);
    }

    /**
     * Publishes the open transactions once loading is done: {@link #put} and {@link #replay} leave that to
     * this one call, as nothing asks before the log is published.
     */
    public void loaded() {
        publishOpen();
    }

    /**
     * Kafka's maybeCreateVerificationStateEntry: the guard for a verification of {@code producerId}'s
     * transaction starting now, shared with the verifications already under way at the same or a newer
     * epoch, a new one otherwise. It lives until a marker or the batch that opens the transaction drops it,
     * or until it expires with the producers ({@link #removeExpiredProducers}).
     */
    public VerificationGuard startVerification(long producerId, short epoch, boolean supportsEpochBump, long nowMs) {
        return verifications.compute(producerId, (id, old) -> old != null && old.epoch() >= epoch ? old
                : new VerificationGuard(epoch, supportsEpochBump, nowMs));
    }

    /** The producer's current verification guard, or null when none is under way. */
    public VerificationGuard verificationGuard(long producerId) {
        return verifications.get(producerId);
    }

    public ProducerEntry entry(long producerId) {
        return producers.get(producerId);
    }

    public Map<Long, ProducerEntry> producers() {
        return Collections.unmodifiableMap(producers);
    }

    /** Adds a producer read from a snapshot, with its open transaction if it has one; see {@link #loaded}. */
    void put(ProducerEntry entry) {
        producers.put(entry.producerId(), entry);
        if (entry.hasOpenTransaction()) {
            ongoing.put(entry.currentTxnFirstOffset(), entry.producerId());
        }
    }

    /** First offset of the oldest open transaction, Long.MAX_VALUE when none (decided ones not counted). */
    public long firstUndecidedOffset() {
        return ongoing.isEmpty() ? Long.MAX_VALUE : ongoing.firstKey();
    }

    /** The decided transactions whose markers may not be replicated yet, as [first offset, marker offset] pairs by first offset. */
    public long[] unreplicatedTxns() {
        if (unreplicated.isEmpty()) {
            return NO_TXNS;
        }
        long[] pairs = new long[2 * unreplicated.size()];
        int i = 0;
        for (Map.Entry<Long, Long> txn : unreplicated.entrySet()) {
            pairs[i++] = txn.getKey();
            pairs[i++] = txn.getValue();
        }
        return pairs;
    }

    /** Forgets the decided transactions whose markers are below {@code highWatermark}; true if any went. */
    public boolean onHighWatermarkUpdated(long highWatermark) {
        return !unreplicated.isEmpty() && unreplicated.values().removeIf(marker -> marker < highWatermark);
    }

    /**
     * Kafka's onLogStartOffsetIncremented: decided transactions whose marker lies below the new log start
     * are gone with their records, so they no longer hold the first unstable offset. True if any went.
     */
    public boolean onLogStartOffsetIncremented(long logStartOffset) {
        return !unreplicated.isEmpty() && unreplicated.values().removeIf(marker -> marker < logStartOffset);
    }

    /**
     * Kafka's lastStableOffset(completedTxn), asked before {@link #completeTxn}: the first offset of the oldest
     * transaction still open once this one is done, else the offset after its marker.
     */
    public long lastStableOffset(CompletedTxn txn) {
        for (Map.Entry<Long, Long> open : ongoing.entrySet()) {
            if (open.getValue() != txn.producerId()) {
                return open.getKey();
            }
        }
        return txn.lastOffset() + 1;
    }

    /**
     * The transaction's marker is in the log (and, if aborted, in the transaction index): it is decided, and
     * holds the LSO only until the high watermark passes its marker.
     */
    public void completeTxn(CompletedTxn txn) {
        ongoing.remove(txn.firstOffset());
        unreplicated.put(txn.firstOffset(), txn.lastOffset());
        publishOpen();
    }

    /**
     * Removes the producers whose last batch timestamp is {@code expirationMs} or more before {@code nowMs},
     * unless they have a transaction open (Kafka's ProducerStateManager.removeExpiredProducers). A producer
     * coming back afterwards is accepted at any sequence, as a new one. Returns how many went.
     */
    public int removeExpiredProducers(long nowMs, long expirationMs) {
        int before = producers.size();
        producers.values().removeIf(e -> !e.hasOpenTransaction() && nowMs - e.lastTimestamp() >= expirationMs);
        // Kafka drops verification guards after the same time: their batch never came (or was refused).
        verifications.values().removeIf(g -> nowMs - g.createdMs() >= expirationMs);
        return before - producers.size();
    }

    /**
     * Takes over the producers and transactions of {@code rebuilt} (Kafka's truncateAndReload: a truncation
     * rebuilt the state from a snapshot and the batches left). Entries are swapped one by one for entries
     * nobody else holds, so lock-free readers see each producer whole; verification guards stay. Under the
     * append lock.
     */
    public void replaceWith(ProducerStateManager rebuilt) {
        producers.keySet().retainAll(rebuilt.producers.keySet());
        producers.putAll(rebuilt.producers);
        ongoing.clear();
        ongoing.putAll(rebuilt.ongoing);
        unreplicated.clear();
        unreplicated.putAll(rebuilt.unreplicated);
        publishOpen();
    }

    public void clear() {
        producers.clear();
        ongoing.clear();
        unreplicated.clear();
        verifications.clear();
        open = OpenTransactions.NONE;
    }

    /**
     * Applies a batch read back from the log (recovery): no validation, the log is the truth. Control
     * batches must be whole in {@code h}'s buffer. Returns the transaction a marker ended, or null; the
     * caller indexes it if aborted, then calls {@link #completeTxn}. Only the loader calls this, before the
     * log is published, so it changes entries in place, and calls {@link #loaded} when done.
     */
    public CompletedTxn replay(RecordBatchHeader h) {
        long pid = h.producerId();
        if (pid < 0) {
            return null;
        }
        ProducerEntry e = producers.computeIfAbsent(pid, id -> new ProducerEntry(id, h.producerEpoch()));
        if (h.producerEpoch() != e.epoch()) {
            e.bumpEpoch(h.producerEpoch());
        }
        e.touch(h.maxTimestamp());
        if (h.isControlBatch()) {
            EndTxnMarker marker = ControlBatches.marker(h);
            if (marker == null) {
                return null;
            }
            CompletedTxn done = e.hasOpenTransaction()
                    ? new CompletedTxn(pid, e.currentTxnFirstOffset(), h.baseOffset(), !marker.commit()) : null;
            e.endTransaction(marker.coordinatorEpoch());
            return done;
        }
        if (h.baseSequence() != RecordBatchHeader.NO_SEQUENCE) {
            e.addBatch(new BatchMetadata(h.baseSequence(), h.lastSequence(), h.baseOffset(), h.lastOffset(),
                    h.maxTimestamp()));
        }
        if (h.isTransactional() && !e.hasOpenTransaction()) {
            e.beginTransaction(h.baseOffset());
            ongoing.put(h.baseOffset(), pid);
        }
        return null;
    }

    static boolean inSequence(int lastSeq, int nextSeq) {
        return nextSeq == lastSeq + 1L || (nextSeq == 0 && lastSeq == Integer.MAX_VALUE);
    }

    /** The producer-state effect of one append, staged on copies so a rejected append leaves no trace. */
    public final class ProducerAppend {
        private final Map<Long, ProducerEntry> staged = new HashMap<>();
        /** Created on first use, so a plain append allocates no lists. */
        private List<ProducerEntry> started;
        private List<CompletedTxn> completed;
        /** The verification guards this append drops once committed, by producer; null until one is. */
        private Map<Long, VerificationGuard> verified;
        private final short markerTransactionVersion;
        private final VerificationGuard guard;
        /** Batches from the leader: Kafka's AppendOrigin.REPLICATION skips the epoch, sequence and guard checks. */
        private final boolean replication;
        /** An open transaction's producer changed epoch: the published open transactions are out of date. */
        private boolean openChanged;

        private ProducerAppend(short markerTransactionVersion, VerificationGuard guard, boolean replication) {
            this.markerTransactionVersion = markerTransactionVersion;
            this.guard = guard;
            this.replication = replication;
        }

        /**
         * Checks one batch that will get offsets [assignedBase, assignedBase + lastOffsetDelta]. Returns the
         * original batch when this is a retry of one already in the log, else null; throws when the epoch,
         * sequence, transaction state or (for a marker, whose batch must be whole in {@code h}'s buffer) the
         * coordinator epoch is wrong, with the error Kafka's ProducerAppendInfo gives.
         */
        public BatchMetadata validate(RecordBatchHeader h, long assignedBase) {
            long pid = h.producerId();
            if (pid < 0) {
                return null;
            }
            short epoch = h.producerEpoch();
            int firstSeq = h.baseSequence();
            ProducerEntry e = staged.get(pid);
            if (e == null) {
                ProducerEntry current = producers.get(pid);
                if (current == null) {
                    // Kafka accepts any first sequence from a producer id it has not seen (e.g. after expiry).
                    e = new ProducerEntry(pid, epoch);
                } else {
                    e = current.copy();
                }
                staged.put(pid, e);
            }
            boolean known = producers.containsKey(pid);
            short epochBefore = e.epoch();
            BatchMetadata duplicate = replication ? replicate(h, assignedBase, e, pid, epoch, firstSeq)
                    : validate(h, assignedBase, e, pid, epoch, firstSeq, known);
            openChanged |= e.hasOpenTransaction() && e.epoch() != epochBefore;
            return duplicate;
        }

        private BatchMetadata validate(RecordBatchHeader h, long assignedBase, ProducerEntry e, long pid, short epoch,
                int firstSeq, boolean known) {
            checkProducerEpoch(e, epoch, h.isControlBatch());
            if (h.isTransactional()) {
                checkVerified(e, h, epoch);
            }
            if (h.isControlBatch()) {
                endTransaction(e, h, assignedBase);
                return null;
            }
            if (firstSeq == RecordBatchHeader.NO_SEQUENCE) {
                // a coordinator's batch (transactional offset commits): epoch checked, no sequence
                if (epoch > e.epoch()) {
                    e.bumpEpoch(epoch);
                }
            } else {
                BatchMetadata duplicate = checkSequence(e, h, epoch, firstSeq, known);
                if (duplicate != null) {
                    return duplicate;
                }
                e.addBatch(new BatchMetadata(firstSeq, h.lastSequence(), assignedBase,
                        assignedBase + h.lastOffsetDelta(), h.maxTimestamp()));
            }
            e.touch(h.maxTimestamp());
            if (e.hasOpenTransaction() && !h.isTransactional()) {
                throw new LogAppendException(ErrorCode.INVALID_TXN_STATE, "producer " + pid
                        + " sent a non-transactional batch while its transaction from offset "
                        + e.currentTxnFirstOffset() + " is open");
            }
            if (!e.hasOpenTransaction() && h.isTransactional()) {
                e.beginTransaction(assignedBase);
                if (started == null) {
                    started = new ArrayList<>(1);
                }
                started.add(e);
            }
            return null;
        }

        /**
         * A replicated batch (Kafka's ProducerAppendInfo with origin REPLICATION): the entry takes the batch's
         * epoch whatever it is (Kafka's maybeUpdateProducerEpoch), keeps its sequence and offsets, and opens or
         * ends the transaction; a marker's coordinator epoch is taken even if older (Kafka logs and goes on).
         */
        private BatchMetadata replicate(RecordBatchHeader h, long baseOffset, ProducerEntry e, long pid, short epoch,
                                        int firstSeq) {
            if (h.isControlBatch()) {
                EndTxnMarker marker = ControlBatches.marker(h);
                if (marker == null) {
                    return null; // a control batch holding no marker changes no producer
                }
                if (e.hasOpenTransaction()) {
                    if (completed == null) {
                        completed = new ArrayList<>(1);
                    }
                    completed.add(new CompletedTxn(pid, e.currentTxnFirstOffset(), baseOffset, !marker.commit()));
                }
                if (epoch != e.epoch()) {
                    e.bumpEpoch(epoch);
                }
                e.endTransaction(marker.coordinatorEpoch());
                e.touch(h.maxTimestamp());
                return null;
            }
            if (epoch != e.epoch()) {
                e.bumpEpoch(epoch);
            }
            if (firstSeq != RecordBatchHeader.NO_SEQUENCE) {
                e.addBatch(new BatchMetadata(firstSeq, h.lastSequence(), baseOffset, baseOffset + h.lastOffsetDelta(),
                        h.maxTimestamp()));
            }
            e.touch(h.maxTimestamp());
            if (e.hasOpenTransaction() && !h.isTransactional()) {
                throw new LogAppendException(ErrorCode.INVALID_TXN_STATE, "Expected transactional write from producer "
                        + pid + " at offset " + baseOffset + ": its transaction from offset "
                        + e.currentTxnFirstOffset() + " is open");
            }
            if (!e.hasOpenTransaction() && h.isTransactional()) {
                e.beginTransaction(baseOffset);
                if (started == null) {
                    started = new ArrayList<>(1);
                }
                started.add(e);
            }
            return null;
        }

        /**
         * Kafka's checkProducerEpoch: an older epoch is refused with INVALID_PRODUCER_EPOCH (abortable; Kafka
         * 2.7+ no longer answers PRODUCER_FENCED here), for data and markers alike. A transaction-version-2
         * marker must carry a newer epoch than the producer's, except a retry of a marker already written
         * (same epoch, no transaction open, or the epoch at its maximum).
         */
        private void checkProducerEpoch(ProducerEntry e, short epoch, boolean marker) {
            boolean bumpedMarker = marker && markerTransactionVersion >= 2;
            if (bumpedMarker ? epoch > e.epoch() : epoch >= e.epoch()) {
                return;
            }
            if (bumpedMarker && epoch == e.epoch() && (!e.hasOpenTransaction() || epoch == Short.MAX_VALUE)) {
                return; // an idempotent retry of the marker
            }
            throw new LogAppendException(ErrorCode.INVALID_PRODUCER_EPOCH, "producer " + e.producerId() + " epoch "
                    + epoch + " is " + (bumpedMarker ? "not newer than" : "older than") + " the current epoch "
                    + e.epoch());
        }

        /**
         * Kafka's analyzeAndValidateProducerState guard check, and the guard's end (its updateProducers): a
         * data batch that does not continue a transaction open at its epoch needs the guard its verification
         * got, still current; any transactional batch then drops the guard, except a transaction-version-2
         * marker at the guard's epoch (the guard belongs to the next transaction, already being verified).
         */
        private void checkVerified(ProducerEntry e, RecordBatchHeader h, short epoch) {
            long pid = e.producerId();
            VerificationGuard current = verifications.get(pid);
            if (!h.isControlBatch() && guard != null && !(e.hasOpenTransaction() && e.epoch() == epoch)
                    && current != guard) { // the NONE guard is never current
                throw new LogAppendException(ErrorCode.INVALID_TXN_STATE, "Record was not part of an ongoing "
                        + "transaction: producer " + pid + " epoch " + epoch + " has no transaction open on this "
                        + "partition and its verification is no longer current");
            }
            if (current != null && !(h.isControlBatch() && current.supportsEpochBump() && current.epoch() == epoch)) {
                if (verified == null) {
                    verified = new HashMap<>(4);
                }
                verified.put(pid, current);
            }
        }

        /** The duplicate when this batch is a retry, else null; throws when it is out of sequence. */
        private BatchMetadata checkSequence(ProducerEntry e, RecordBatchHeader h, short epoch, int firstSeq,
                                            boolean known) {
            long pid = e.producerId();
            if (epoch > e.epoch()) {
                if (firstSeq != 0 && known) {
                    throw new LogAppendException(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, "producer " + pid
                            + " started epoch " + epoch + " at sequence " + firstSeq + " instead of 0");
                }
                e.bumpEpoch(epoch);
                return null;
            }
            BatchMetadata duplicate = e.findDuplicate(epoch, firstSeq, h.lastSequence());
            if (duplicate != null) {
                return duplicate;
            }
            int lastSeq = e.lastSeq();
            boolean ok = lastSeq == -1 ? (firstSeq == 0 || !known) : inSequence(lastSeq, firstSeq);
            if (!ok) {
                throw new LogAppendException(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, "producer " + pid
                        + " epoch " + epoch + ": sequence " + firstSeq + " does not follow " + lastSeq);
            }
            return null;
        }

        /**
         * Kafka's appendEndTxnMarker: the coordinator epoch may not go back; the open transaction (if any)
         * ends at the marker's offset. A marker for a producer without an open transaction is still written.
         */
        private void endTransaction(ProducerEntry e, RecordBatchHeader h, long markerOffset) {
            EndTxnMarker marker = ControlBatches.marker(h);
            if (marker == null) {
                throw new LogAppendException(ErrorCode.INVALID_RECORD, "control batch of producer " + e.producerId()
                        + " holds no transaction marker");
            }
            if (marker.coordinatorEpoch() < e.coordinatorEpoch()) {
                throw new LogAppendException(ErrorCode.TRANSACTION_COORDINATOR_FENCED, "marker for producer "
                        + e.producerId() + " has coordinator epoch " + marker.coordinatorEpoch()
                        + ", older than the current " + e.coordinatorEpoch());
            }
            if (e.hasOpenTransaction()) {
                if (completed == null) {
                    completed = new ArrayList<>(1);
                }
                completed.add(new CompletedTxn(e.producerId(), e.currentTxnFirstOffset(), markerOffset, !marker.commit()));
            }
            if (h.producerEpoch() > e.epoch()) {
                e.bumpEpoch(h.producerEpoch());
            }
            e.endTransaction(marker.coordinatorEpoch());
            e.touch(h.maxTimestamp());
        }

        /** The transactions this append's markers end, in offset order. */
        public List<CompletedTxn> completedTxns() {
            return completed == null ? List.of() : completed;
        }

        /**
         * Makes the staged state current and opens the transactions this append started; call once the
         * batches are in the file, then index and {@link #completeTxn complete} {@link #completedTxns()}.
         */
        public void commit() {
            producers.putAll(staged);
            if (verified != null) {
                // Only the guards this append saw: a verification started since then keeps its own.
                verified.forEach(verifications::remove);
            }
            if (started != null) {
                for (ProducerEntry e : started) {
                    if (e.hasOpenTransaction()) {
                        ongoing.put(e.currentTxnFirstOffset(), e.producerId());
                    }
                }
            }
            // Ended transactions are published by completeTxn.
            if (openChanged || started != null) {
                publishOpen();
            }
        }
    }
}
