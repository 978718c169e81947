package io.odradek.log.segment;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Kafka's {@code .index}: sparse 8-byte entries (int32 offset relative to the segment base, int32 file
 * position). As in Kafka, an entry's offset is the LAST offset of the batch that starts at that position,
 * which is what {@code kafka-dump-log --index-sanity-check} verifies.
 */
public final class OffsetIndex extends MappedIndex {
    public static final int ENTRY_SIZE = 8;

    /** An entry: absolute offset and byte position. */
    public record Entry(long offset, int position) {
    }

    public OffsetIndex(Path file, long baseOffset, int maxIndexSize, boolean writable) throws IOException {
        super(file, baseOffset, maxIndexSize, ENTRY_SIZE, writable);
    }

    public void append(long offset, int position) {
        int n = entries;
        if (n > 0 && offset <= offsetAt(n - 1)) {
            throw new IllegalArgumentException("offset " + offset + " not larger than last index entry " + offsetAt(n - 1));
        }
        mmap.putInt(slot(n), (int) (offset - baseOffset));
        mmap.putInt(slot(n) + 4, position);
        publishAppended();
    }

    private long offsetAt(int n) {
        return baseOffset + mmap.getInt(slot(n));
    }

    @Override
    protected long keyAt(int n) {
        return offsetAt(n);
    }

    private int positionAt(int n) {
        return mmap.getInt(slot(n) + 4);
    }

    /** The entry with the largest offset <= target, or (baseOffset, 0) when there is none. */
    public Entry lookup(long target) {
        int found = floorEntry(target);
        return found < 0 ? new Entry(baseOffset, 0) : new Entry(offsetAt(found), positionAt(found));
    }

    /** The last entry, or (baseOffset, 0). */
    public Entry lastEntry() {
        int n = entries;
        return n == 0 ? new Entry(baseOffset, 0) : new Entry(offsetAt(n - 1), positionAt(n - 1));
    }

    /** Entries strictly increasing in offset and position, all within {@code logSize}. */
    public boolean isConsistent(int logSize) {
        int n = entries;
        long prevOffset = baseOffset - 1;
        int prevPosition = -1;
        for (int i = 0; i < n; i++) {
            long o = offsetAt(i);
            int p = positionAt(i);
            if (o <= prevOffset || p <= prevPosition || p >= logSize) {
                return false;
            }
            prevOffset = o;
            prevPosition = p;
        }
        return true;
    }
}
