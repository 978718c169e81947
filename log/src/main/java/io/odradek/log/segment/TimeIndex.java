package io.odradek.log.segment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * Kafka's {@code .timeindex}: 12-byte entries (int64 timestamp, int32 relative offset). Each entry holds
 * the largest batch timestamp seen so far in the segment and the last offset of the batch that carried it,
 * so timestamps strictly increase and a lookup can stop at the first entry beyond its target. Mapped only
 * while in use (see {@link MappedIndex}); an empty or closed index answers without mapping anything.
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

    private long timestampAt(ByteBuffer map, int n) {
        return map.getLong(slot(n));
    }

    @Override
    protected long keyAt(ByteBuffer map, int n) {
        return timestampAt(map, n);
    }

    private long offsetAt(ByteBuffer map, int n) {
        return baseOffset + map.getInt(slot(n) + 8);
    }

    /**
     * Appends when {@code timestamp} is larger than the last entry's. {@code skipFullCheck} lets a
     * rolling segment record its final max even when the index is full, as Kafka does.
     */
    public void maybeAppend(long timestamp, long offset, boolean skipFullCheck) throws IOException {
        if (timestamp < 0) {
            return;
        }
        if (!isFull()) {
            allocateUpTo(slot(entries + 1));
        }
        MappedByteBuffer map = acquire();
        if (map == null) {
            throw new IOException("time index " + file() + " is closed");
        }
        try {
            int n = entries;
            if (n > 0 && timestamp <= timestampAt(map, n - 1)) {
                return;
            }
            if (isFull()) {
                if (skipFullCheck) {
                    return;
                }
                throw new IllegalStateException("time index " + file() + " is full");
            }
            map.putLong(slot(n), timestamp);
            map.putInt(slot(n) + 8, (int) (offset - baseOffset));
            publishAppended();
        } finally {
            release();
        }
    }

    /** The entry with the largest timestamp <= target, or (-1, baseOffset) when there is none. */
    public Entry lookup(long target) throws IOException {
        int n = entries;
        MappedByteBuffer map = n == 0 ? null : acquire();
        if (map == null) {
            return new Entry(NO_TIMESTAMP, baseOffset);
        }
        try {
            int found = floorEntry(map, n, target);
            return found < 0 ? new Entry(NO_TIMESTAMP, baseOffset) : new Entry(timestampAt(map, found), offsetAt(map, found));
        } finally {
            release();
        }
    }

    /** Drops the entries pointing at offsets at or after {@code offset} (the log was truncated there). */
    public void truncateTo(long offset) throws IOException {
        int n = entries;
        MappedByteBuffer map = n == 0 ? null : acquire();
        if (map == null) {
            return;
        }
        try {
            int keep = n;
            while (keep > 0 && offsetAt(map, keep - 1) >= offset) {
                keep--;
            }
            truncateEntries(keep);
        } finally {
            release();
        }
    }

    /** The last entry, or (-1, baseOffset). */
    public Entry lastEntry() throws IOException {
        int n = entries;
        MappedByteBuffer map = n == 0 ? null : acquire();
        if (map == null) {
            return new Entry(NO_TIMESTAMP, baseOffset);
        }
        try {
            return new Entry(timestampAt(map, n - 1), offsetAt(map, n - 1));
        } finally {
            release();
        }
    }

    /** Timestamps and offsets never decrease, timestamps strictly increase, offsets stay below {@code nextOffset}. */
    public boolean isConsistent(long nextOffset) throws IOException {
        int n = entries;
        MappedByteBuffer map = n == 0 ? null : acquire();
        if (map == null) {
            return true;
        }
        try {
            long prevTs = -1;
            long prevOffset = baseOffset;
            for (int i = 0; i < n; i++) {
                long ts = timestampAt(map, i);
                long o = offsetAt(map, i);
                if (ts <= prevTs || o < prevOffset || o >= Math.max(nextOffset, baseOffset + 1)) {
                    return false;
                }
                prevTs = ts;
                prevOffset = o;
            }
            return true;
        } finally {
            release();
        }
    }
}
