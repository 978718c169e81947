package io.odradek.log.segment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * Kafka's {@code .index}: sparse 8-byte entries (int32 offset relative to the segment base, int32 file
 * position). As in Kafka, an entry's offset is the LAST offset of the batch that starts at that position,
 * which is what {@code kafka-dump-log --index-sanity-check} verifies. Mapped only while in use (see
 * {@link MappedIndex}); an empty or closed index answers without mapping anything.
 */
public final class OffsetIndex extends MappedIndex {
    public static final int ENTRY_SIZE = 8;

    /** An entry: absolute offset and byte position. */
    public record Entry(long offset, int position) {
    }

    public OffsetIndex(Path file, long baseOffset, int maxIndexSize, boolean writable) throws IOException {
        super(file, baseOffset, maxIndexSize, ENTRY_SIZE, writable);
    }

    public void append(long offset, int position) throws IOException {
        allocateUpTo(slot(entries + 1));
        MappedByteBuffer map = acquire();
        if (map == null) {
            throw new IOException("index " + file() + " is closed");
        }
        try {
            int n = entries;
            if (n > 0 && offset <= offsetAt(map, n - 1)) {
                throw new IllegalArgumentException("offset " + offset + " not larger than last index entry "
                        + offsetAt(map, n - 1));
            }
            map.putInt(slot(n), (int) (offset - baseOffset));
            map.putInt(slot(n) + 4, position);
            publishAppended();
        } finally {
            release();
        }
    }

    private long offsetAt(ByteBuffer map, int n) {
        return baseOffset + map.getInt(slot(n));
    }

    @Override
    protected long keyAt(ByteBuffer map, int n) {
        return offsetAt(map, n);
    }

    private int positionAt(ByteBuffer map, int n) {
        return map.getInt(slot(n) + 4);
    }

    /** The entry with the largest offset <= target, or (baseOffset, 0) when there is none. */
    public Entry lookup(long target) throws IOException {
        int n = entries;
        MappedByteBuffer map = n == 0 ? null : acquire();
        if (map == null) {
            return new Entry(baseOffset, 0);
        }
        try {
            int found = floorEntry(map, n, target);
            return found < 0 ? new Entry(baseOffset, 0) : new Entry(offsetAt(map, found), positionAt(map, found));
        } finally {
            release();
        }
    }

    /**
     * Kafka's OffsetIndex.fetchUpperBoundOffset: the first entry whose position is at or after
     * {@code position} (its offset is the last offset of a batch starting there or later), or null when
     * no entry lies that far. One binary search over the mapped entries; no log file I/O.
     */
    public Entry firstAtOrAfterPosition(int position) throws IOException {
        int n = entries;
        MappedByteBuffer map = n == 0 ? null : acquire();
        if (map == null) {
            return null;
        }
        try {
            int lo = 0;
            int hi = n - 1;
            int found = -1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (positionAt(map, mid) >= position) {
                    found = mid;
                    hi = mid - 1;
                } else {
                    lo = mid + 1;
                }
            }
            return found < 0 ? null : new Entry(offsetAt(map, found), positionAt(map, found));
        } finally {
            release();
        }
    }

    /** Drops the entries of batches ending at or after {@code offset} (the log was truncated there). */
    public void truncateTo(long offset) throws IOException {
        int n = entries;
        MappedByteBuffer map = n == 0 ? null : acquire();
        if (map == null) {
            return;
        }
        try {
            truncateEntries(floorEntry(map, n, offset - 1) + 1);
        } finally {
            release();
        }
    }

    /** The last entry, or (baseOffset, 0). */
    public Entry lastEntry() throws IOException {
        int n = entries;
        MappedByteBuffer map = n == 0 ? null : acquire();
        if (map == null) {
            return new Entry(baseOffset, 0);
        }
        try {
            return new Entry(offsetAt(map, n - 1), positionAt(map, n - 1));
        } finally {
            release();
        }
    }

    /** Entries strictly increasing in offset and position, all within {@code logSize}. */
    public boolean isConsistent(int logSize) throws IOException {
        int n = entries;
        MappedByteBuffer map = n == 0 ? null : acquire();
        if (map == null) {
            return true;
        }
        try {
            long prevOffset = baseOffset - 1;
            int prevPosition = -1;
            for (int i = 0; i < n; i++) {
                long o = offsetAt(map, i);
                int p = positionAt(map, i);
                if (o <= prevOffset || p <= prevPosition || p >= logSize) {
                    return false;
                }
                prevOffset = o;
                prevPosition = p;
            }
            return true;
        } finally {
            release();
        }
    }
}
