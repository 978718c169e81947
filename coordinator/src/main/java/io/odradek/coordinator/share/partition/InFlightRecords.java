package io.odradek.coordinator.share.partition;

import io.odradek.coordinator.share.StateBatch;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.IntSupplier;

/**
 * The in-flight records of one share partition and the rules that move them (Kafka's SharePartition cached
 * state): batches keyed by first offset between the start offset (everything below is done) and the end offset
 * (the last offset ever acquired), kept per batch and split per offset only when records of a batch part ways.
 * Not thread-safe: {@link SharePartition} calls it under its lock and does the persisting and notifying.
 */
final class InFlightRecords {
    /** Starts the acquisition lock of a newly acquired (or renewed) range. */
    interface Locks {
        AcquisitionLock lock(String memberId, long firstOffset, long lastOffset);
    }

    private final NavigableMap<Long, InFlightBatch> cache = new TreeMap<>();
    private final IntSupplier deliveryCountLimit;
    private final IntSupplier maxInFlightRecords;
    private final Locks locks;
    private long startOffset;
    private long endOffset;
    /** Set when records may have become available below the end offset: the next fetch offset must be searched. */
    private boolean findNextFetchOffset;

    InFlightRecords(int deliveryCountLimit, int maxInFlightRecords, Locks locks) {
        this(() -> deliveryCountLimit, () -> maxInFlightRecords, locks);
    }

    /** With limits read on each use (the group's configs may change while the partition is open). */
    InFlightRecords(IntSupplier deliveryCountLimit, IntSupplier maxInFlightRecords, Locks locks) {
        this.deliveryCountLimit = deliveryCountLimit;
        this.maxInFlightRecords = maxInFlightRecords;
        this.locks = locks;
    }

    /**
     * Kafka 4.4: from this many deliveries on, records are handed out in ever smaller groups, so that one bad
     * record does not use up the attempts of a whole batch.
     */
    private int throttleDeliveryCount() {
        return Math.max(2, (deliveryCountLimit.getAsInt() + 1) / 2);
    }

    long startOffset() {
        return startOffset;
    }

    long endOffset() {
        return endOffset;
    }

    NavigableMap<Long, InFlightBatch> batches() {
        return cache;
    }

    /**
     * Starts from persisted state: the start offset and the batches written before (their records Available,
     * Acknowledged or Archived, delivery counts kept). Offsets between them that were never written (acquired
     * when the previous leader stopped) are Available again, with their delivery count unknown (0).
     */
    void load(long start, List<StateBatch> persisted) {
        cache.clear();
        startOffset = start;
        long next = start;
        for (StateBatch b : persisted) {
            long first = Math.max(b.firstOffset(), next);
            if (b.lastOffset() < first) {
                continue;
            }
            if (first > next) {
                cache.put(next, new InFlightBatch(next, first - 1, new InFlightState(RecordState.AVAILABLE, 0, null, null)));
            }
            RecordState state = RecordState.ofPersisted(b.deliveryState());
            cache.put(first, new InFlightBatch(first, b.lastOffset(), new InFlightState(state, b.deliveryCount(), null, null)));
            next = b.lastOffset() + 1;
        }
        endOffset = cache.isEmpty() ? start : cache.lastEntry().getValue().lastOffset;
        findNextFetchOffset = !cache.isEmpty();
        advanceStartOffset();
    }

    // ---- fetching ----

    long nextFetchOffset() {
        boolean beyondCache = cache.isEmpty() || startOffset > cache.lastEntry().getValue().lastOffset;
        if (!findNextFetchOffset) {
            return beyondCache ? endOffset : endOffset + 1;
        }
        if (beyondCache) {
            findNextFetchOffset = false;
            return endOffset;
        }
        for (InFlightBatch batch : cache.values()) {
            if (batch.lastOffset < startOffset) {
                continue; // below the start offset nothing is acquired again
            }
            if (!batch.split()) {
                if (batch.batchState().acquirable()) {
                    return Math.max(batch.firstOffset, startOffset);
                }
            } else {
                for (Map.Entry<Long, InFlightState> e : batch.offsetStates().tailMap(startOffset, true).entrySet()) {
                    if (e.getValue().acquirable()) {
                        return e.getKey();
                    }
                }
            }
        }
        findNextFetchOffset = false;
        return endOffset + 1;
    }

    int inFlightCount() {
        return cache.isEmpty() ? 0 : (int) (endOffset - startOffset + 1);
    }

    boolean canAcquireRecords() {
        return nextFetchOffset() != endOffset + 1 || inFlightCount() < maxInFlightRecords.getAsInt();
    }

    /**
     * Acquires what the fetched batches offer (Kafka's acquire): new offsets as whole log batches (the last one
     * may run past maxRecords to its end; in record-limit mode exactly maxRecords), cached ranges as they are
     * when wholly available, else offset by offset. Bounded by max in-flight records.
     *
     * @param batches      the fetched batch headers, in offset order, already cut at the high watermark
     * @param fetchOffset  where the log was read from: available cached records below the first batch are gone
     *                     from the log (compaction) and get archived
     * @param batchSize    new offsets are handed out in ranges of about this many records (log batch aligned)
     */
    List<AcquiredRecords> acquire(String memberId, List<LogBatch> batches, long fetchOffset, int maxRecords, int batchSize,
            boolean recordLimit) {
        List<AcquiredRecords> result = new ArrayList<>();
        if (batches.isEmpty() || maxRecords <= 0) {
            return result;
        }
        long firstBase = batches.get(0).baseOffset();
        long lastOffsetToAcquire = batches.get(batches.size() - 1).lastOffset();
        long maxToAcquire = Math.min(maxRecords, (long) maxInFlightRecords.getAsInt() - inFlightCount());
        if (maxToAcquire <= 0) {
            // At the in-flight limit, only records already in flight (released, timed out) may go out again.
            if (fetchOffset > endOffset) {
                return result;
            }
            maxToAcquire = Math.min(maxRecords, endOffset - fetchOffset + 1);
            lastOffsetToAcquire = Math.min(lastOffsetToAcquire, endOffset);
        }
        archiveStaleBatches(fetchOffset, firstBase);

        // From the cached batch holding the first offset that may be acquired, so that cached ranges keep their
        // bounds (the fetch may have been read before the start offset moved into or past its first batch).
        long baseOffset = Math.max(firstBase, startOffset);
        Map.Entry<Long, InFlightBatch> floor = cache.floorEntry(baseOffset);
        if (floor != null && floor.getValue().lastOffset >= baseOffset) {
            baseOffset = floor.getKey();
        }
        if (baseOffset > lastOffsetToAcquire || firstBase > lastOffsetToAcquire) {
            return result; // everything fetched is below the start offset or past the in-flight limit
        }
        NavigableMap<Long, InFlightBatch> overlap = cache.subMap(baseOffset, true, lastOffsetToAcquire, true);
        if (overlap.isEmpty()) {
            acquireNew(memberId, batches, firstBase, lastOffsetToAcquire, batchSize, maxToAcquire, recordLimit, result);
            return result;
        }

        long acquired = 0;
        for (InFlightBatch batch : new ArrayList<>(overlap.values())) {
            if (acquired >= maxToAcquire) {
                break;
            }
            long remaining = maxToAcquire - acquired;
            boolean fullMatch = batch.firstOffset >= firstBase && batch.lastOffset <= lastOffsetToAcquire;
            boolean limitCutsBatch = recordLimit && batch.lastOffset - batch.firstOffset + 1 > remaining;
            boolean throttled = throttled(batch, firstBase, lastOffsetToAcquire);
            if (throttled && acquired > 0) {
                // Records near their delivery limit go out on their own, in a later fetch.
                return result;
            }
            if (!fullMatch || batch.split() || limitCutsBatch || throttled) {
                if (!batch.split()) {
                    if (!batch.batchState().acquirable()) {
                        continue;
                    }
                    batch.splitPerOffset();
                }
                long n = acquireOffsets(memberId, batch, firstBase, lastOffsetToAcquire, recordLimit, remaining, result);
                acquired += n;
                if (throttled && n > 0) {
                    return result;
                }
                continue;
            }
            InFlightState state = batch.batchState();
            if (!state.acquirable()) {
                continue;
            }
            state.acquire(memberId, locks.lock(memberId, batch.firstOffset, batch.lastOffset));
            result.add(new AcquiredRecords(batch.firstOffset, batch.lastOffset, (short) state.deliveryCount()));
            acquired += batch.lastOffset - batch.firstOffset + 1;
        }
        long lastCached = overlap.lastEntry().getValue().lastOffset;
        if (acquired < maxToAcquire && lastCached < lastOffsetToAcquire) {
            acquireNew(memberId, batches, lastCached + 1, lastOffsetToAcquire, batchSize, maxToAcquire - acquired, recordLimit, result);
        }
        return result;
    }

    /** Whether a cached range's available records have been delivered often enough to be handed out in small groups. */
    private boolean throttled(InFlightBatch batch, long first, long last) {
        if (!batch.split()) {
            // Only when it could be acquired now (Kafka checks the count alone, so a done batch stopped the fetch too).
            return batch.batchState().acquirable() && batch.batchState().deliveryCount() >= throttleDeliveryCount();
        }
        int max = 0;
        for (InFlightState s : batch.offsetStates().subMap(first, true, last, true).values()) {
            if (s.state() == RecordState.AVAILABLE) {
                max = Math.max(max, s.deliveryCount());
            }
        }
        return max >= throttleDeliveryCount();
    }

    private long acquireOffsets(String memberId, InFlightBatch batch, long first, long last, boolean recordLimit, long remaining,
            List<AcquiredRecords> result) {
        long acquired = 0;
        long throttledMax = -1;
        AcquisitionLock lock = null;
        for (Map.Entry<Long, InFlightState> e : batch.offsetStates().subMap(first, true, last, true).entrySet()) {
            InFlightState state = e.getValue();
            if (!state.acquirable()) {
                continue;
            }
            int count = state.deliveryCount();
            if (deliveryCountLimit.getAsInt() > 2 && count == deliveryCountLimit.getAsInt() - 1 && acquired > 0) {
                break; // its last attempt: alone, next time
            }
            if (count >= throttleDeliveryCount() && throttledMax < 0) {
                // Halved for every delivery past the throttle point (Kafka 4.4).
                throttledMax = Math.max(1, (long) batch.offsetStates().size() >> (count - throttleDeliveryCount() + 1));
            }
            long offset = e.getKey();
            if (lock == null || lock.lastOffset < offset) {
                // One lock per acquisition: it spans the rest of the range and times out only the offsets holding it.
                lock = locks.lock(memberId, offset, last);
            }
            state.acquire(memberId, lock);
            appendOrExtend(result, offset, (short) state.deliveryCount());
            acquired++;
            if (state.deliveryCount() == deliveryCountLimit.getAsInt() && deliveryCountLimit.getAsInt() > 2) {
                break;
            }
            if (recordLimit && acquired == remaining) {
                break;
            }
            if (throttledMax > 0 && acquired == throttledMax) {
                break;
            }
        }
        return acquired;
    }

    /** Adds one offset to the result, joining the previous range when contiguous with the same delivery count. */
    private static void appendOrExtend(List<AcquiredRecords> result, long offset, short deliveryCount) {
        AcquiredRecords last = result.isEmpty() ? null : result.get(result.size() - 1);
        if (last != null && last.lastOffset() + 1 == offset && last.deliveryCount() == deliveryCount) {
            result.set(result.size() - 1, new AcquiredRecords(last.firstOffset(), offset, deliveryCount));
        } else {
            result.add(new AcquiredRecords(offset, offset, deliveryCount));
        }
    }

    private void acquireNew(String memberId, List<LogBatch> batches, long first, long last, int batchSize, long maxRecords,
            boolean recordLimit, List<AcquiredRecords> result) {
        long firstAcquired = Math.max(first, startOffset); // never below the start offset: those are done
        if (cache.isEmpty() && endOffset > firstAcquired) {
            firstAcquired = endOffset; // the fetch started inside a log batch whose head is already done
        }
        // Cached ranges never overlap: start after any batch holding the first offset, end before the next one.
        Map.Entry<Long, InFlightBatch> holder = cache.floorEntry(firstAcquired);
        if (holder != null && holder.getValue().lastOffset >= firstAcquired) {
            firstAcquired = holder.getValue().lastOffset + 1;
        }
        Long nextCached = cache.higherKey(firstAcquired);
        if (nextCached != null) {
            last = Math.min(last, nextCached - 1);
        }
        if (firstAcquired > last) {
            return;
        }
        long lastAcquired = last;
        if (maxRecords < lastAcquired - firstAcquired + 1) {
            lastAcquired = Math.min(last, lastOffsetOfBatchWith(batches, firstAcquired + maxRecords - 1));
        }
        if (recordLimit && lastAcquired - firstAcquired + 1 > maxRecords) {
            // The cache keeps the whole log batch; only maxRecords of it are acquired, the rest stays available.
            InFlightBatch batch = new InFlightBatch(firstAcquired, lastAcquired, new InFlightState(RecordState.AVAILABLE, 0, null, null));
            batch.splitPerOffset();
            long lastTaken = firstAcquired + maxRecords - 1;
            AcquisitionLock lock = locks.lock(memberId, firstAcquired, lastTaken);
            for (InFlightState s : batch.offsetStates().subMap(firstAcquired, true, lastTaken, true).values()) {
                s.acquire(memberId, lock);
            }
            cache.put(firstAcquired, batch);
            result.add(new AcquiredRecords(firstAcquired, lastTaken, (short) 1));
            findNextFetchOffset = true;
        } else {
            for (long[] range : ranges(batches, firstAcquired, lastAcquired, recordLimit ? Integer.MAX_VALUE : batchSize)) {
                InFlightState state = new InFlightState(RecordState.ACQUIRED, 1, memberId, null);
                state.renew(locks.lock(memberId, range[0], range[1]));
                cache.put(range[0], new InFlightBatch(range[0], range[1], state));
                result.add(new AcquiredRecords(range[0], range[1], (short) 1));
            }
        }
        if (cache.firstKey() == firstAcquired) {
            startOffset = firstAcquired;
        }
        endOffset = Math.max(endOffset, lastAcquired);
    }

    /** New offsets cut into ranges of at least batchSize records, at log batch boundaries (Kafka's createBatches). */
    private static List<long[]> ranges(List<LogBatch> batches, long first, long last, int batchSize) {
        List<long[]> out = new ArrayList<>();
        long current = first;
        if (last - first + 1 > batchSize) {
            for (LogBatch b : batches) {
                if (b.baseOffset() > last) {
                    break;
                }
                if (b.baseOffset() - current >= batchSize) {
                    out.add(new long[] {current, b.baseOffset() - 1});
                    current = b.baseOffset();
                }
            }
        }
        out.add(new long[] {current, last});
        return out;
    }

    /** The last offset of the log batch holding {@code offset}, so acquisitions end on batch boundaries. */
    private static long lastOffsetOfBatchWith(List<LogBatch> batches, long offset) {
        LogBatch holder = null;
        for (LogBatch b : batches) {
            if (offset < b.baseOffset()) {
                break;
            }
            holder = b;
        }
        return holder != null && offset <= holder.lastOffset() ? holder.lastOffset() : offset;
    }

    /** Available cached records between the fetch offset and the first batch the log returned no longer exist. */
    private void archiveStaleBatches(long fetchOffset, long firstBase) {
        if (cache.isEmpty() || fetchOffset >= firstBase) {
            return;
        }
        Map.Entry<Long, InFlightBatch> floor = cache.floorEntry(fetchOffset);
        long from = floor != null && floor.getValue().lastOffset >= fetchOffset ? floor.getKey() : fetchOffset;
        if (archiveAvailable(fetchOffset, firstBase - 1, cache.subMap(from, true, firstBase, false))) {
            findNextFetchOffset = true;
        }
    }

    /**
     * read_committed: the records of aborted batches just acquired by {@code memberId} are archived at once
     * (never delivered; persisted with the next write, as Kafka). True when any was.
     */
    boolean archiveAcquired(String memberId, List<LogBatch> aborted) {
        boolean any = false;
        for (LogBatch b : aborted) {
            Map.Entry<Long, InFlightBatch> floor = cache.floorEntry(b.baseOffset());
            long from = floor != null && floor.getValue().lastOffset >= b.baseOffset() ? floor.getKey() : b.baseOffset();
            for (InFlightBatch batch : new ArrayList<>(cache.subMap(from, true, b.lastOffset(), true).values())) {
                boolean whole = batch.firstOffset >= b.baseOffset() && batch.lastOffset <= b.lastOffset();
                if (whole && !batch.split()) {
                    if (heldBy(batch.batchState(), memberId)) {
                        batch.batchState().archive();
                        any = true;
                    }
                    continue;
                }
                if (!batch.split()) {
                    if (!heldBy(batch.batchState(), memberId)) {
                        continue;
                    }
                    batch.splitPerOffset();
                }
                for (InFlightState s : batch.offsetStates().subMap(b.baseOffset(), true, b.lastOffset(), true).values()) {
                    if (heldBy(s, memberId)) {
                        s.archive();
                        any = true;
                    }
                }
            }
        }
        return any;
    }

    private static boolean heldBy(InFlightState s, String memberId) {
        return s.state() == RecordState.ACQUIRED && !s.inTransition() && memberId.equals(s.memberId());
    }

    // ---- acknowledging ----

    /**
     * Applies acknowledgements as transitions (appended to {@code changes}); NONE, or the error for the whole
     * request (the caller then rolls every change back). The batches are already validated for shape.
     */
    ErrorCode acknowledge(String memberId, List<Acknowledgement> acknowledgements, List<StateChange> changes) {
        for (Acknowledgement ack : acknowledgements) {
            if (ack.lastOffset() < startOffset) {
                continue; // already done with
            }
            Map.Entry<Long, InFlightBatch> floor = cache.floorEntry(ack.firstOffset());
            if (floor == null) {
                if (ack.firstOffset() < startOffset && ack.lastOffset() >= startOffset) {
                    floor = cache.floorEntry(startOffset);
                }
                if (floor == null) {
                    return ErrorCode.INVALID_RECORD_STATE;
                }
            }
            NavigableMap<Long, InFlightBatch> covered = cache.subMap(floor.getKey(), true, ack.lastOffset(), true);
            long lastCovered = covered.lastEntry().getValue().lastOffset;
            if (lastCovered < ack.firstOffset() || ack.lastOffset() > lastCovered) {
                return ErrorCode.INVALID_REQUEST; // offsets past what was ever acquired
            }
            for (InFlightBatch batch : covered.values()) {
                ErrorCode error = acknowledgeBatch(memberId, ack, batch, changes);
                if (error != ErrorCode.NONE) {
                    return error;
                }
            }
        }
        return ErrorCode.NONE;
    }

    private ErrorCode acknowledgeBatch(String memberId, Acknowledgement ack, InFlightBatch batch, List<StateChange> changes) {
        if (batch.lastOffset < startOffset) {
            return ErrorCode.NONE;
        }
        if (!batch.split()) {
            InFlightState state = batch.batchState();
            if (state.memberId() == null || !state.memberId().equals(memberId) || state.inTransition()) {
                return ErrorCode.INVALID_RECORD_STATE;
            }
        }
        boolean fullMatch = batch.firstOffset >= ack.firstOffset() && batch.lastOffset <= ack.lastOffset();
        boolean perOffsetTypes = ack.types().size() > 1;
        boolean startInside = batch.firstOffset < startOffset && batch.lastOffset >= startOffset;
        if (fullMatch && !batch.split() && !perOffsetTypes && !startInside) {
            return acknowledgeRange(memberId, batch, batch.batchState(), batch.firstOffset, batch.lastOffset, ack.types().get(0), changes);
        }
        if (!batch.split()) {
            if (batch.batchState().state() != RecordState.ACQUIRED) {
                return ErrorCode.INVALID_RECORD_STATE;
            }
            batch.splitPerOffset();
        }
        long from = Math.max(ack.firstOffset(), startOffset);
        AcquisitionLock renewal = null; // one fresh lock for all the offsets this ack renews here
        for (Map.Entry<Long, InFlightState> e : batch.offsetStates().subMap(from, true, ack.lastOffset(), true).entrySet()) {
            InFlightState state = e.getValue();
            if (state.state() != RecordState.ACQUIRED || state.inTransition() || !memberId.equals(state.memberId())) {
                return ErrorCode.INVALID_RECORD_STATE;
            }
            AcknowledgeType type = perOffsetTypes ? ack.types().get((int) (e.getKey() - ack.firstOffset())) : ack.types().get(0);
            if (type == AcknowledgeType.RENEW) {
                if (renewal == null) {
                    renewal = locks.lock(memberId, e.getKey(), Math.min(ack.lastOffset(), batch.lastOffset));
                }
                state.renew(renewal);
                continue;
            }
            ErrorCode error = acknowledgeRange(memberId, batch, state, e.getKey(), e.getKey(), type, changes);
            if (error != ErrorCode.NONE) {
                return error;
            }
        }
        return ErrorCode.NONE;
    }

    private ErrorCode acknowledgeRange(String memberId, InFlightBatch batch, InFlightState state, long first, long last,
            AcknowledgeType type, List<StateChange> changes) {
        if (state.state() != RecordState.ACQUIRED) {
            return ErrorCode.INVALID_RECORD_STATE;
        }
        if (type == AcknowledgeType.RENEW) {
            state.renew(locks.lock(memberId, first, last)); // nothing to persist
            return ErrorCode.NONE;
        }
        if (!state.startTransition(RecordState.afterAcknowledge(type), deliveryCountLimit.getAsInt())) {
            return ErrorCode.INVALID_RECORD_STATE;
        }
        changes.add(new StateChange(batch, state, new StateBatch(first, last, state.state().id, (short) state.deliveryCount())));
        return ErrorCode.NONE;
    }

    /** Everything {@code memberId} holds goes back: Available, or Archived at the delivery limit or below the start offset. */
    void release(String memberId, List<StateChange> changes) {
        for (InFlightBatch batch : cache.values()) {
            if (!batch.split()) {
                InFlightState state = batch.batchState();
                if (state.state() != RecordState.ACQUIRED || !memberId.equals(state.memberId()) || state.inTransition()) {
                    continue;
                }
                if (batch.firstOffset < startOffset && batch.lastOffset >= startOffset) {
                    batch.splitPerOffset();
                } else {
                    releaseRange(batch, state, batch.firstOffset, batch.lastOffset, changes);
                    continue;
                }
            }
            for (Map.Entry<Long, InFlightState> e : batch.offsetStates().entrySet()) {
                InFlightState state = e.getValue();
                if (state.state() == RecordState.ACQUIRED && memberId.equals(state.memberId()) && !state.inTransition()) {
                    releaseRange(batch, state, e.getKey(), e.getKey(), changes);
                }
            }
        }
    }

    private void releaseRange(InFlightBatch batch, InFlightState state, long first, long last, List<StateChange> changes) {
        RecordState next = last < startOffset ? RecordState.ARCHIVED : RecordState.AVAILABLE;
        if (state.startTransition(next, deliveryCountLimit.getAsInt())) {
            changes.add(new StateChange(batch, state, new StateBatch(first, last, state.state().id, (short) state.deliveryCount())));
        }
    }

    /** Commits (written) or rolls back (write failed) transitions; true when any record ended up available. */
    boolean complete(List<StateChange> changes, boolean commit) {
        boolean available = false;
        for (StateChange c : changes) {
            InFlightBatch batch = c.inFlight();
            if (batch.split() && batch.offsetStates().get(c.batch().firstOffset()) != c.state()) {
                // Made on the whole batch, which was split while the write was out (log start offset moved):
                // its offsets carry the transition now.
                for (Map.Entry<Long, InFlightState> e : batch.offsetStates().entrySet()) {
                    InFlightState s = e.getValue();
                    s.complete(commit, e.getKey() < startOffset);
                    available |= s.state() == RecordState.AVAILABLE;
                }
                continue;
            }
            c.state().complete(commit, c.batch().lastOffset() < startOffset);
            available |= c.state().state() == RecordState.AVAILABLE;
        }
        if (available) {
            findNextFetchOffset = true;
        }
        return available;
    }

    /**
     * A lock expired: the offsets still acquired under it become Available (Archived at the delivery limit or
     * below the start offset). Appends what to persist; true when any record became available.
     */
    boolean expire(AcquisitionLock lock, List<StateBatch> written) {
        boolean available = false;
        Map.Entry<Long, InFlightBatch> floor = cache.floorEntry(lock.firstOffset);
        if (floor == null) {
            return false;
        }
        for (InFlightBatch batch : new ArrayList<>(cache.subMap(floor.getKey(), true, lock.lastOffset, true).values())) {
            if (!batch.split()) {
                InFlightState state = batch.batchState();
                if (state.lock() != lock || state.state() != RecordState.ACQUIRED || state.inTransition()) {
                    continue;
                }
                if (batch.firstOffset < startOffset && batch.lastOffset >= startOffset) {
                    batch.splitPerOffset();
                } else {
                    available |= expireRange(state, batch.firstOffset, batch.lastOffset, written);
                    continue;
                }
            }
            for (Map.Entry<Long, InFlightState> e : batch.offsetStates().subMap(lock.firstOffset, true, lock.lastOffset, true).entrySet()) {
                InFlightState state = e.getValue();
                if (state.lock() == lock && state.state() == RecordState.ACQUIRED && !state.inTransition()) {
                    available |= expireRange(state, e.getKey(), e.getKey(), written);
                }
            }
        }
        if (available) {
            findNextFetchOffset = true;
        }
        return available;
    }

    private boolean expireRange(InFlightState state, long first, long last, List<StateBatch> written) {
        RecordState next = last < startOffset ? RecordState.ARCHIVED : RecordState.AVAILABLE;
        if (!state.update(next, deliveryCountLimit.getAsInt())) {
            return false;
        }
        written.add(new StateBatch(first, last, state.state().id, (short) state.deliveryCount()));
        return state.state() == RecordState.AVAILABLE;
    }

    // ---- the start offset ----

    /**
     * Moves the start offset past the leading Acknowledged/Archived records and drops the batches wholly
     * below it (a batch partly done stays until all of it is). True when the start offset moved.
     */
    boolean advanceStartOffset() {
        if (cache.isEmpty() || !startIsTerminal()) {
            return false;
        }
        long lastDone = -1;
        scan:
        for (InFlightBatch batch : cache.values()) {
            if (!batch.split()) {
                InFlightState s = batch.batchState();
                if (s.inTransition() || !s.state().terminal()) {
                    break;
                }
                lastDone = batch.lastOffset;
            } else {
                for (Map.Entry<Long, InFlightState> e : batch.offsetStates().entrySet()) {
                    if (e.getValue().inTransition() || !e.getValue().state().terminal()) {
                        break scan;
                    }
                    lastDone = e.getKey();
                }
            }
        }
        if (lastDone == -1) {
            return false;
        }
        long before = startOffset;
        long lastCached = cache.lastEntry().getValue().lastOffset;
        if (lastDone == lastCached) {
            // Never backwards: a log start offset move may already have put it past the cache.
            startOffset = Math.max(startOffset, lastCached + 1);
            endOffset = Math.max(endOffset, startOffset);
            cache.clear();
            return startOffset != before;
        }
        Map.Entry<Long, InFlightBatch> holder = cache.floorEntry(lastDone);
        if (lastDone == holder.getValue().lastOffset) {
            startOffset = Math.max(startOffset, cache.higherKey(lastDone));
            cache.headMap(holder.getKey(), true).clear();
        } else {
            startOffset = Math.max(startOffset, lastDone + 1);
            cache.headMap(holder.getKey(), false).clear();
        }
        return startOffset != before;
    }

    private boolean startIsTerminal() {
        Map.Entry<Long, InFlightBatch> e = cache.floorEntry(startOffset);
        if (e == null) {
            return false;
        }
        InFlightBatch batch = e.getValue();
        if (startOffset > batch.lastOffset) {
            return true; // the start offset sits in a hole of the log; the scan decides
        }
        InFlightState s = batch.split() ? batch.offsetStates().get(startOffset) : batch.batchState();
        return !s.inTransition() && s.state().terminal();
    }

    /**
     * The log start offset moved past the start offset (retention, DeleteRecords): available records below it
     * are archived and the start offset jumps there (persisted with the next write, as Kafka does). Acquired
     * records below it are archived when released or timed out. True when the start offset moved.
     */
    boolean moveLogStartOffset(long logStartOffset) {
        if (logStartOffset <= startOffset) {
            return false;
        }
        if (cache.isEmpty()) {
            startOffset = logStartOffset;
            endOffset = logStartOffset;
            return true;
        }
        if (archiveAvailable(startOffset, logStartOffset - 1, cache.headMap(logStartOffset, false))) {
            findNextFetchOffset = true;
        }
        startOffset = logStartOffset;
        endOffset = Math.max(endOffset, startOffset);
        return true;
    }

    /** Archives the Available records in [first, last] of the given batches; true when any was. */
    private boolean archiveAvailable(long first, long last, NavigableMap<Long, InFlightBatch> batches) {
        boolean any = false;
        for (InFlightBatch batch : new ArrayList<>(batches.values())) {
            boolean whole = batch.firstOffset >= first && batch.lastOffset <= last;
            if (whole && !batch.split()) {
                if (batch.batchState().state() == RecordState.AVAILABLE) {
                    batch.batchState().archive();
                    any = true;
                }
                continue;
            }
            if (!batch.split()) {
                if (batch.batchState().state() != RecordState.AVAILABLE) {
                    continue;
                }
                batch.splitPerOffset();
            }
            for (InFlightState s : batch.offsetStates().subMap(first, true, last, true).values()) {
                if (s.state() == RecordState.AVAILABLE) {
                    s.archive();
                    any = true;
                }
            }
        }
        return any;
    }

    /** Records at or after the start offset already Acknowledged or Archived (the write's DeliveryCompleteCount). */
    int deliveryCompleteCount() {
        int n = 0;
        for (InFlightBatch batch : cache.values()) {
            n += batch.terminalCount(startOffset);
        }
        return n;
    }

    /** The partition closes: no lock may fire any more. */
    void cancelLocks() {
        for (InFlightBatch batch : cache.values()) {
            batch.forEachState((offset, state) -> {
                if (state.lock() != null) {
                    state.lock().cancel();
                }
            });
        }
    }
}
