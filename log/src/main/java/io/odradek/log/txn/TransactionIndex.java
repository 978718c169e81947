package io.odradek.log.txn;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A segment's {@code <base>.txnindex}: the transactions aborted by a marker in that segment, in Kafka's
 * byte format so {@code kafka-dump-log} reads it. Entries of 34 bytes, in marker-offset order:
 * <pre>
 * version int16 (0) | producerId int64 | firstOffset int64 | lastOffset int64 | lastStableOffset int64
 * </pre>
 * As in Kafka the file exists only once an entry was written (most segments never abort anything).
 *
 * <p>One writer (the log's append lock, or the loader/cleaner before the segment is published); readers
 * take no lock. The writer stores the channel before it publishes {@code size} (volatile), and readers read
 * {@code size} first, so they see only whole entries.
 */
public final class TransactionIndex {
    public static final String SUFFIX = ".txnindex";
    public static final int ENTRY_SIZE = 2 + 8 + 8 + 8 + 8;
    private static final short VERSION = 0;
    /** Entries read per positional read when scanning. */
    private static final int SCAN_ENTRIES = 64;

    private final long baseOffset;
    private volatile Path file;
    private volatile FileChannel channel;
    /** Bytes of whole entries. */
    private volatile long size;
    /** Marker offset of the last entry, -1 when empty: they must increase. */
    private long lastOffset = -1L;

    /** Opens {@code file} if it exists (a trailing partial entry is ignored and overwritten by the next append). */
    public TransactionIndex(Path file, long baseOffset) throws IOException {
        this.file = file;
        this.baseOffset = baseOffset;
        if (Files.exists(file)) {
            FileChannel ch = open(file);
            long length = ch.size();
            this.channel = ch;
            this.size = length - length % ENTRY_SIZE;
            if (size > 0) {
                lastOffset = readEntry(ch, size - ENTRY_SIZE).lastOffset();
            }
        }
    }

    public Path file() {
        return file;
    }

    /** True once the file exists (an entry was written, or it was there at open). */
    public boolean exists() {
        return channel != null;
    }

    public int entries() {
        return (int) (size / ENTRY_SIZE);
    }

    /** Writes one entry at the end, creating the file on the first. */
    public void append(AbortedTxn txn) throws IOException {
        if (txn.lastOffset() <= lastOffset) {
            throw new IllegalArgumentException("aborted transaction " + txn + " does not end after the last one ("
                    + lastOffset + ") in " + file);
        }
        FileChannel ch = channel;
        if (ch == null) {
            ch = open(file);
            channel = ch;
        }
        ByteBuffer buf = ByteBuffer.allocate(ENTRY_SIZE).putShort(VERSION).putLong(txn.producerId())
                .putLong(txn.firstOffset()).putLong(txn.lastOffset()).putLong(txn.lastStableOffset()).flip();
        long pos = size;
        while (buf.hasRemaining()) {
            pos += ch.write(buf, pos);
        }
        lastOffset = txn.lastOffset();
        size = pos;
    }

    /**
     * Kafka's collectAbortedTxns: adds to {@code out} the entries with lastOffset >= {@code fetchOffset} and
     * firstOffset < {@code upperBoundOffset}. Returns true when the search is complete (an entry's last
     * stable offset reached the upper bound, so no later segment can hold an overlapping transaction).
     */
    public boolean collect(long fetchOffset, long upperBoundOffset, List<AbortedTxn> out) throws IOException {
        long end = size;
        FileChannel ch = channel;
        if (end == 0) {
            return false;
        }
        // Marker offsets increase: skip the entries that ended before the fetch offset. Their last stable
        // offset is at most their marker + 1 <= fetchOffset, so none of them could have ended the search.
        long pos = firstEndingAtOrAfter(ch, fetchOffset, end);
        ByteBuffer buf = ByteBuffer.allocate(ENTRY_SIZE * SCAN_ENTRIES);
        while (pos < end) {
            buf.clear().limit((int) Math.min(buf.capacity(), end - pos));
            readFully(ch, buf, pos);
            while (buf.remaining() >= ENTRY_SIZE) {
                AbortedTxn txn = read(buf);
                if (txn.lastOffset() >= fetchOffset && txn.firstOffset() < upperBoundOffset) {
                    out.add(txn);
                }
                if (txn.lastStableOffset() >= upperBoundOffset) {
                    return true;
                }
            }
            pos += buf.limit();
        }
        return false;
    }

    /** Every entry, in order. */
    public List<AbortedTxn> all() throws IOException {
        List<AbortedTxn> out = new ArrayList<>(entries());
        long end = size;
        FileChannel ch = channel;
        for (long pos = 0; pos < end; pos += ENTRY_SIZE) {
            out.add(readEntry(ch, pos));
        }
        return out;
    }

    /** Byte position of the first entry whose marker offset is >= {@code offset} (binary search), or {@code end}. */
    private static long firstEndingAtOrAfter(FileChannel ch, long offset, long end) throws IOException {
        long lo = 0;
        long hi = end / ENTRY_SIZE;
        ByteBuffer one = ByteBuffer.allocate(8);
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            one.clear();
            readFully(ch, one, mid * ENTRY_SIZE + 18);
            if (one.getLong(0) < offset) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo * ENTRY_SIZE;
    }

    /**
     * Kafka's sanity check at load: whole entries of version 0 whose marker offsets increase within
     * [baseOffset, nextOffset). False means the index must be rebuilt.
     */
    public boolean isConsistent(long nextOffset) throws IOException {
        FileChannel ch = channel;
        if (ch == null) {
            return true;
        }
        if (ch.size() != size) {
            return false;
        }
        long previous = baseOffset - 1;
        for (long pos = 0; pos < size; pos += ENTRY_SIZE) {
            ByteBuffer buf = ByteBuffer.allocate(ENTRY_SIZE);
            readFully(ch, buf, pos);
            if (buf.getShort(0) != VERSION) {
                return false;
            }
            AbortedTxn txn = read(buf);
            if (txn.lastOffset() <= previous || txn.lastOffset() >= nextOffset || txn.firstOffset() > txn.lastOffset()) {
                return false;
            }
            previous = txn.lastOffset();
        }
        return true;
    }

    /** Drops the entries whose marker is at or after {@code offset} (the log was truncated there). */
    public void truncateTo(long offset) throws IOException {
        FileChannel ch = channel;
        if (ch == null) {
            return;
        }
        long keep = firstEndingAtOrAfter(ch, offset, size);
        ch.truncate(keep);
        size = keep;
        lastOffset = keep == 0 ? -1L : readEntry(ch, keep - ENTRY_SIZE).lastOffset();
    }

    /** Removes every entry (recovery rebuilds them); the file stays if it existed. */
    public void reset() throws IOException {
        FileChannel ch = channel;
        if (ch != null) {
            ch.truncate(0);
        }
        size = 0;
        lastOffset = -1L;
    }

    public void flush() throws IOException {
        FileChannel ch = channel;
        if (ch != null) {
            ch.force(true);
        }
    }

    public void close() throws IOException {
        FileChannel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }

    /** Renames the file if it exists; later appends create it under the new name. */
    public void renameTo(Path target) throws IOException {
        if (channel != null || Files.exists(file)) {
            Files.move(file, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        file = target;
    }

    public void closeAndDelete() throws IOException {
        close();
        Files.deleteIfExists(file);
    }

    private static FileChannel open(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    private static AbortedTxn readEntry(FileChannel ch, long pos) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(ENTRY_SIZE);
        readFully(ch, buf, pos);
        return read(buf);
    }

    private static AbortedTxn read(ByteBuffer buf) {
        buf.getShort(); // version, checked at load
        return new AbortedTxn(buf.getLong(), buf.getLong(), buf.getLong(), buf.getLong());
    }

    private static void readFully(FileChannel ch, ByteBuffer dst, long position) throws IOException {
        long p = position;
        while (dst.hasRemaining()) {
            int n = ch.read(dst, p);
            if (n < 0) {
                throw new EOFException("transaction index ends at " + p + ", before " + (position + dst.limit()));
            }
            p += n;
        }
        dst.flip();
    }

    @Override
    public String toString() {
        return "TransactionIndex(" + file.getFileName() + ", entries=" + entries() + ")";
    }
}
