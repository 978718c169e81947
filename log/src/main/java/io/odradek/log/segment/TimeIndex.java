package io.odradek.log.segment;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Kafka's {@code .timeindex}: 12-byte entries (int64 timestamp, int32 relative offset). Each entry holds
 * the largest batch timestamp seen so far in the segment and the last offset of the batch that carried it,
 * so timestamps strictly increase and a lookup can stop at the first entry beyond its target.
 */
public final class TimeIndex extends MappedIndex {
    public static final int ENTRY_SIZE = 12;
    public static final long NO_TIMESTAMP = -1L;

    /** An entry: timestamp and absolute offset. */
    public record Entry(long timestamp, long offset) {
    }

    public TimeIndex(Path file, long baseOffset, int maxIndexSize, boolean writable) throws IOException {
        super(file, baseOffset, maxIndexSize, ENTRY_SIZE, writable);
    }

    private long timestampAt(int n) {
        return mmap.getLong(slot(n));
    }

    @Override
    protected long keyAt(int n) {
        return timestampAt(n);
    }

    private long offsetAt(int n) {
        return baseOffset + mmap.getInt(slot(n) + 8);
    }

    /**
     * Appends when {@code timestamp} is larger than the last entry's. {@code skipFullCheck} lets a
     * rolling segment record its final max even when the index is full, as Kafka does.
     */
    public void maybeAppend(long timestamp, long offset, boolean skipFullCheck) {
        int n = entries;
        if (timestamp < 0 || (n > 0 && timestamp <= timestampAt(n - 1))) {
            return;
        }
        if (isFull()) {
            if (skipFullCheck) {
                return;
            }
            throw new IllegalStateException("time index " + file() + " is full");
        }
        mmap.putLong(slot(n), timestamp);
        mmap.putInt(slot(n) + 8, (int) (offset - baseOffset));
        publishAppended();
    }

    /** The entry with the largest timestamp <= target, or (-1, baseOffset) when there is none. */
    public Entry lookup(long target) {
        int found = floorEntry(target);
        return found < 0 ? new Entry(NO_TIMESTAMP, baseOffset) : new Entry(timestampAt(found), offsetAt(found));
    }

    /** The last entry, or (-1, baseOffset). */
    public Entry lastEntry() {
        int n = entries;
        return n == 0 ? new Entry(NO_TIMESTAMP, baseOffset) : new Entry(timestampAt(n - 1), offsetAt(n - 1));
    }

    /** Timestamps and offsets never decrease, timestamps strictly increase, offsets stay below {@code nextOffset}. */
    public boolean isConsistent(long nextOffset) {
        int n = entries;
        long prevTs = -1;
        long prevOffset = baseOffset;
        for (int i = 0; i < n; i++) {
            long ts = timestampAt(i);
            long o = offsetAt(i);
            if (ts <= prevTs || o < prevOffset || o >= Math.max(nextOffset, baseOffset + 1)) {
                return false;
            }
            prevTs = ts;
            prevOffset = o;
        }
        return true;
    }
}
