package io.odradek.log.segment;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A fixed-width entry file, memory-mapped like Kafka's AbstractIndex. The active segment's index is
 * preallocated to segment.index.bytes and trimmed to its entries when the segment rolls or closes, so a
 * cleanly closed index file's length is exactly entries * entrySize.
 *
 * <p>One writer (the log's append lock); readers use absolute gets on the mapping and read {@code entries}
 * (volatile) before any entry, so they only see entries that are completely written.
 */
abstract class MappedIndex {
    protected final long baseOffset;
    private final int entrySize;
    private Path file;
    protected volatile MappedByteBuffer mmap;
    protected volatile int entries;
    private int maxEntries;
    private final boolean existedAtOpen;

    MappedIndex(Path file, long baseOffset, int maxIndexSize, int entrySize, boolean writable) throws IOException {
        this.file = file;
        this.baseOffset = baseOffset;
        this.entrySize = entrySize;
        boolean existed = Files.exists(file);
        this.existedAtOpen = existed;
        long length = existed ? Files.size(file) : 0;
        this.entries = (int) (length / entrySize);
        map(writable ? roundDown(Math.max(maxIndexSize, entries * entrySize)) : entries * entrySize);
    }

    private int roundDown(int size) {
        return size / entrySize * entrySize;
    }

    private void map(int size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            if (ch.size() != size) {
                ch.truncate(size);
                if (ch.size() < size) {
                    // FileChannel.truncate never grows: extend with a single byte at the end (a sparse file).
                    ch.write(java.nio.ByteBuffer.allocate(1), size - 1);
                }
            }
            mmap = ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
        }
        maxEntries = size / entrySize;
    }

    /** False when the file had to be created: a non-empty segment then needs its index rebuilt. */
    public boolean existedAtOpen() {
        return existedAtOpen;
    }

    public int entries() {
        return entries;
    }

    public boolean isFull() {
        return entries >= maxEntries;
    }

    public long baseOffset() {
        return baseOffset;
    }

    public Path file() {
        return file;
    }

    /** Bytes the entries occupy. */
    public int sizeInBytes() {
        return entries * entrySize;
    }

    /** Called with the writer's lock held, after the entry bytes are in the mapping. */
    protected void publishAppended() {
        if (entries >= maxEntries) {
            throw new IllegalStateException("index " + file + " is full");
        }
        entries = entries + 1;
    }

    protected int slot(int n) {
        return n * entrySize;
    }

    /** The value entries are sorted by: an offset index's offsets, a time index's timestamps. */
    protected abstract long keyAt(int n);

    /** Binary search: the last entry whose key is <= target, or -1 when there is none. */
    protected int floorEntry(long target) {
        int lo = 0;
        int hi = entries - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (keyAt(mid) <= target) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** Forgets every entry (before a rebuild); keeps the preallocated size. */
    public void reset(int maxIndexSize) throws IOException {
        entries = 0;
        map(roundDown(maxIndexSize));
    }

    /** Shrinks the file to the entries it holds, as Kafka does when a segment becomes inactive. */
    public void trimToValidSize() throws IOException {
        map(entries * entrySize);
    }

    /** Keeps only the first {@code n} entries. */
    protected void truncateEntries(int n) {
        entries = Math.min(entries, n);
    }

    public void flush() {
        mmap.force();
    }

    public void renameTo(Path target) throws IOException {
        Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
        file = target;
    }

    public void deleteFile() throws IOException {
        Files.deleteIfExists(file);
    }
}
