package io.odradek.coordinator.share.partition;

import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * A range of in-flight offsets (Kafka's InFlightBatch): one state for the whole range while its records move
 * together, split into one state per offset the first time they must differ. Guarded by the partition's lock.
 */
final class InFlightBatch {
    final long firstOffset;
    final long lastOffset;
    private InFlightState batchState;
    private NavigableMap<Long, InFlightState> offsetStates;

    InFlightBatch(long firstOffset, long lastOffset, InFlightState state) {
        this.firstOffset = firstOffset;
        this.lastOffset = lastOffset;
        this.batchState = state;
    }

    boolean split() {
        return offsetStates != null;
    }

    /** The state of the whole range; only while not split. */
    InFlightState batchState() {
        if (batchState == null) {
            throw new IllegalStateException("batch " + firstOffset + "-" + lastOffset + " is tracked per offset");
        }
        return batchState;
    }

    /** The per-offset states; only once split. */
    NavigableMap<Long, InFlightState> offsetStates() {
        if (offsetStates == null) {
            throw new IllegalStateException("batch " + firstOffset + "-" + lastOffset + " is tracked as a whole");
        }
        return offsetStates;
    }

    /** Tracks the records one by one from now on, each starting from the batch's state and lock. */
    void splitPerOffset() {
        if (offsetStates != null) {
            return;
        }
        offsetStates = new TreeMap<>();
        for (long offset = firstOffset; offset <= lastOffset; offset++) {
            offsetStates.put(offset, batchState.copy());
        }
        batchState.dropLock();
        batchState = null;
    }

    /** Calls {@code action} with each offset (or the whole range's first offset and state when not split) in order. */
    void forEachState(BiConsumer<Long, InFlightState> action) {
        if (offsetStates == null) {
            action.accept(firstOffset, batchState);
        } else {
            offsetStates.forEach(action);
        }
    }

    /** Records whose state is terminal from {@code from} on. */
    int terminalCount(long from) {
        if (offsetStates == null) {
            long first = Math.max(from, firstOffset);
            return batchState.state().terminal() && first <= lastOffset ? (int) (lastOffset - first + 1) : 0;
        }
        int n = 0;
        for (var e : offsetStates.tailMap(from, true).entrySet()) {
            if (e.getValue().state().terminal()) {
                n++;
            }
        }
        return n;
    }

    @Override
    public String toString() {
        return firstOffset + "-" + lastOffset + " " + (offsetStates == null ? batchState : offsetStates);
    }
}
