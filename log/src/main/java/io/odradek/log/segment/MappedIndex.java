package io.odradek.log.segment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A fixed-width entry file, memory-mapped like Kafka's AbstractIndex, but lazily (Kafka's LazyIndex): the
 * file is mapped on first use and unmapped again once it has been idle (see {@link #unmapIfIdle}), so a
 * broker with thousands of partitions holds mappings only for the indexes in use, not two per segment
 * (vm.max_map_count). The active segment's index is preallocated to segment.index.bytes and trimmed to its
 * entries when the segment rolls or closes, so a cleanly closed index file's length is exactly
 * entries * entrySize.
 *
 * <p>One writer (the log's append lock); readers take no log lock. Readers read {@code entries} (volatile)
 * before any entry, so they only see entries that are completely written. Every use of the mapping is
 * bracketed by {@link #acquire} and {@link #release}, which count users under a small lock; a mapping is
 * released only while nobody uses it. One that is replaced while in use (a resize, a close) is retired
 * and released when the last user leaves, because touching an unmapped buffer crashes the JVM.
 */
abstract class MappedIndex {
    protected final long baseOffset;
    private final int entrySize;
    private volatile Path file;
    protected volatile int entries;
    private volatile int maxEntries;
    private final boolean existedAtOpen;

    private final Object mapLock = new Object();
    /** The current mapping, or null while unmapped (guarded by mapLock). */
    private MappedByteBuffer mmap;
    /** The file length the mapping covers (guarded by mapLock). */
    private int fileSize;
    /** Users between acquire and release (guarded by mapLock). */
    private int users;
    /** Replaced mappings still possibly in use, released when users drops to 0 (guarded by mapLock). */
    private final List<MappedByteBuffer> retired = new ArrayList<>(0);
    private volatile long lastUsedNanos = System.nanoTime();
    private boolean closed;
    /**
     * Bytes from the start known to be backed by allocated pages (written through the channel). The
     * preallocated file is sparse; a store into a hole of a mapping on a full disk is a SIGBUS, not an
     * IOException, so the writer allocates each page with a positional write before storing into it.
     */
    private int allocatedUpTo;
    private static final int PAGE = 4096;

    MappedIndex(Path file, long baseOffset, int maxIndexSize, int entrySize, boolean writable) throws IOException {
        this.file = file;
        this.baseOffset = baseOffset;
        this.entrySize = entrySize;
        boolean existed = Files.exists(file);
        this.existedAtOpen = existed;
        long length = existed ? Files.size(file) : 0;
        this.entries = (int) (length / entrySize);
        this.allocatedUpTo = roundUpToPage(entries * entrySize);
        synchronized (mapLock) {
            resize(writable ? roundDown(Math.max(maxIndexSize, entries * entrySize)) : entries * entrySize);
        }
    }

    private static int roundUpToPage(int bytes) {
        return (int) Math.min(Integer.MAX_VALUE, ((long) bytes + PAGE - 1) / PAGE * PAGE);
    }

    /**
     * Makes sure the bytes up to {@code end} are backed by disk blocks before the writer stores into the
     * mapping there: zeros written through a channel, which fails with "No space left on device" where a
     * store would crash the JVM. Only bytes past every entry are written, so no entry is overwritten.
     * Called by the single writer.
     */
    protected final void allocateUpTo(int end) throws IOException {
        if (end <= allocatedUpTo) {
            return;
        }
        int from = Math.max(allocatedUpTo, entries * entrySize);
        int to;
        synchronized (mapLock) {
            to = Math.min(roundUpToPage(end), fileSize);
        }
        if (to > from) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ByteBuffer zeros = ByteBuffer.allocate(to - from);
                long pos = from;
                while (zeros.hasRemaining()) {
                    pos += ch.write(zeros, pos);
                }
            }
        }
        allocatedUpTo = Math.max(to, end);
    }

    private int roundDown(int size) {
        return size / entrySize * entrySize;
    }

    /** Sets the file's length; the current mapping (if any) is retired. Caller holds mapLock. */
    private void resize(int size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            if (ch.size() != size) {
                ch.truncate(size);
                if (ch.size() < size) {
                    // FileChannel.truncate never grows: extend with a single byte at the end (a sparse file).
                    ch.write(ByteBuffer.allocate(1), size - 1);
                }
            }
        }
        retireMapping();
        fileSize = size;
        maxEntries = size / entrySize;
    }

    /** Drops the current mapping: released now if unused, else when the last user leaves. Holds mapLock. */
    private void retireMapping() {
        if (mmap != null) {
            retired.add(mmap);
            mmap = null;
            releaseRetiredIfUnused();
        }
    }

    private void releaseRetiredIfUnused() {
        if (users == 0 && !retired.isEmpty()) {
            for (MappedByteBuffer m : retired) {
                Unmapper.unmap(m);
            }
            retired.clear();
        }
    }

    /**
     * The mapping, mapped now if needed, counted as in use until {@link #release}; null once the index is
     * closed (callers then answer as for an empty index: the segment's files are gone).
     */
    protected final MappedByteBuffer acquire() throws IOException {
        synchronized (mapLock) {
            if (closed) {
                return null;
            }
            if (mmap == null) {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    mmap = ch.map(FileChannel.MapMode.READ_WRITE, 0, fileSize);
                }
            }
            users++;
            lastUsedNanos = System.nanoTime();
            return mmap;
        }
    }

    protected final void release() {
        synchronized (mapLock) {
            users--;
            releaseRetiredIfUnused();
        }
    }

    /**
     * Unmaps the index if it is mapped, nobody uses it and it was last used at least {@code idleNanos} ago
     * (0: now if unused). Dirty pages are forced first, so a later {@link #flush} of the unmapped index has
     * nothing left to do. Returns whether a mapping was released.
     */
    public boolean unmapIfIdle(long idleNanos) {
        synchronized (mapLock) {
            if (mmap == null || users > 0 || System.nanoTime() - lastUsedNanos < idleNanos) {
                return false;
            }
            mmap.force();
            retireMapping();
            return true;
        }
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
    protected abstract long keyAt(ByteBuffer map, int n);

    /** Binary search over the first {@code n} entries: the last whose key is <= target, or -1. */
    protected int floorEntry(ByteBuffer map, int n, long target) {
        int lo = 0;
        int hi = n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (keyAt(map, mid) <= target) {
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
        synchronized (mapLock) {
            resize(roundDown(maxIndexSize));
            allocatedUpTo = 0;
        }
    }

    /** Shrinks the file to the entries it holds, as Kafka does when a segment becomes inactive. */
    public void trimToValidSize() throws IOException {
        synchronized (mapLock) {
            resize(entries * entrySize);
        }
    }

    /** Keeps only the first {@code n} entries. */
    protected void truncateEntries(int n) {
        entries = Math.min(entries, n);
    }

    /** Forces the mapping; an unmapped index was forced when it was unmapped. */
    public void flush() {
        synchronized (mapLock) {
            if (mmap != null) {
                mmap.force();
            }
        }
    }

    public void renameTo(Path target) throws IOException {
        synchronized (mapLock) {
            Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
            file = target;
        }
    }

    /**
     * Releases the mapping for good (when no reader uses it any more); later lookups answer as an empty
     * index. The file stays.
     */
    public void close() {
        synchronized (mapLock) {
            closed = true;
            entries = 0;
            retireMapping();
        }
    }

    public void deleteFile() throws IOException {
        close();
        Files.deleteIfExists(file);
    }
}
