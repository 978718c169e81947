package io.odradek.log.segment;

import io.odradek.log.FileSlice;
import io.odradek.log.LogConfig;
import io.odradek.log.OffsetAndTimestamp;
import io.odradek.log.txn.TransactionIndex;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.batch.RecordBatchReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.function.Predicate;

/**
 * One segment: {@code <base>.log} holding record batches exactly as Kafka writes them, plus its sparse
 * {@code .index} and {@code .timeindex}, and the {@code .txnindex} of the transactions aborted in it (a
 * file only once there is one). Only the owning log's append lock writes; reads are lock-free
 * positional reads bounded by a size the writer publishes after the bytes are on the channel.
 *
 * <p>Resources: the indexes are mapped only while in use ({@link MappedIndex}), but the log file's channel
 * stays open for the segment's life (fetches hand it to sendfile), so a broker holds one file descriptor
 * per segment: partitions x segments must stay below {@code ulimit -n} (see odradek.max.partitions).
 */
public final class Segment {
    public static final String LOG_SUFFIX = ".log";
    public static final String INDEX_SUFFIX = ".index";
    public static final String TIME_INDEX_SUFFIX = ".timeindex";
    public static final String TXN_INDEX_SUFFIX = TransactionIndex.SUFFIX;
    public static final String DELETED_SUFFIX = ".deleted";

    private final long baseOffset;
    private final int indexIntervalBytes;
    private final int maxIndexSize;
    private Path logFile;
    private final FileChannel channel;
    private final OffsetIndex offsetIndex;
    private final TimeIndex timeIndex;
    private final TransactionIndex txnIndex;
    private final long createdMs;

    /** Bytes of whole batches in the file, published after they are written. */
    private volatile int size;
    /** One past the last offset in this segment (== baseOffset when empty). */
    private volatile long nextOffset;
    /** Largest batch maxTimestamp in the segment and the last offset of its batch, -1 when unknown. */
    private volatile long maxTimestamp = -1;
    private volatile long offsetOfMaxTimestamp = -1;
    private int bytesSinceLastIndexEntry;
    /** maxTimestamp of the first batch: segment.ms counts from it, as in Kafka. */
    private long firstBatchTimestamp = -1;

    private Segment(Path dir, long baseOffset, LogConfig config, boolean active, long nowMs, String fileSuffix)
            throws IOException {
        this.baseOffset = baseOffset;
        this.indexIntervalBytes = config.indexIntervalBytes();
        this.maxIndexSize = config.segmentIndexBytes();
        this.logFile = dir.resolve(fileName(baseOffset) + LOG_SUFFIX + fileSuffix);
        this.channel = FileChannel.open(logFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            this.offsetIndex = new OffsetIndex(dir.resolve(fileName(baseOffset) + INDEX_SUFFIX + fileSuffix),
                    baseOffset, maxIndexSize, active);
            this.timeIndex = new TimeIndex(dir.resolve(fileName(baseOffset) + TIME_INDEX_SUFFIX + fileSuffix),
                    baseOffset, maxIndexSize, active);
            this.txnIndex = new TransactionIndex(dir.resolve(fileName(baseOffset) + TXN_INDEX_SUFFIX + fileSuffix),
                    baseOffset);
        } catch (IOException | RuntimeException e) {
            // e.g. a roll on a full disk: the retry must not find one more descriptor gone each time
            channel.close();
            throw e;
        }
        this.size = (int) Math.min(channel.size(), Integer.MAX_VALUE);
        this.nextOffset = baseOffset;
        this.createdMs = nowMs;
    }

    /** A new, empty active segment. */
    public static Segment create(Path dir, long baseOffset, LogConfig config, long nowMs) throws IOException {
        return create(dir, baseOffset, config, nowMs, "");
    }

    /**
     * A new, empty segment whose three files carry {@code fileSuffix} after their usual names (the cleaner
     * builds a segment as {@code .cleaned} files, then {@link #renameFiles renames} them into place).
     */
    public static Segment create(Path dir, long baseOffset, LogConfig config, long nowMs, String fileSuffix)
            throws IOException {
        // A leftover file at this base offset would be data we do not account for.
        Files.deleteIfExists(dir.resolve(fileName(baseOffset) + LOG_SUFFIX + fileSuffix));
        Files.deleteIfExists(dir.resolve(fileName(baseOffset) + INDEX_SUFFIX + fileSuffix));
        Files.deleteIfExists(dir.resolve(fileName(baseOffset) + TIME_INDEX_SUFFIX + fileSuffix));
        Files.deleteIfExists(dir.resolve(fileName(baseOffset) + TXN_INDEX_SUFFIX + fileSuffix));
        return new Segment(dir, baseOffset, config, true, nowMs, fileSuffix);
    }

    /** Opens existing files without validating them; follow with {@link #recover} or {@link #loadFromIndexes}. */
    public static Segment open(Path dir, long baseOffset, LogConfig config, boolean active, long nowMs)
            throws IOException {
        return new Segment(dir, baseOffset, config, active, nowMs, "");
    }

    /**
     * Kafka's 20-digit, zero-padded file name prefix. Padded by hand: String.format's first call loads the
     * locale data (tens of ms at startup).
     */
    public static String fileName(long offset) {
        String digits = Long.toString(offset);
        return "0".repeat(Math.max(0, 20 - digits.length())) + digits;
    }

    public long baseOffset() {
        return baseOffset;
    }

    public int size() {
        return size;
    }

    public long nextOffset() {
        return nextOffset;
    }

    public FileChannel channel() {
        return channel;
    }

    public Path logFile() {
        return logFile;
    }

    public OffsetIndex offsetIndex() {
        return offsetIndex;
    }

    public TimeIndex timeIndex() {
        return timeIndex;
    }

    /** The transactions aborted by markers in this segment; the log appends to it as markers arrive. */
    public TransactionIndex txnIndex() {
        return txnIndex;
    }

    public long maxTimestamp() {
        return maxTimestamp;
    }

    public long offsetOfMaxTimestamp() {
        return offsetOfMaxTimestamp;
    }

    /** Kafka's retention clock: the largest batch timestamp, or the file's mtime when there is none. */
    public long largestTimestamp() throws IOException {
        long ts = maxTimestamp;
        return ts >= 0 ? ts : Files.getLastModifiedTime(logFile).toMillis();
    }

    /**
     * Kafka's roll rule: full for this append, older than segment.ms (measured from the first batch's
     * timestamp, else creation time), an index full, or offsets no longer fitting the int32 relative form.
     */
    public boolean shouldRoll(LogConfig config, int appendBytes, long appendMaxTimestamp, long appendLastOffset,
                              long nowMs) {
        if (size == 0) {
            return false;
        }
        long waited = firstBatchTimestamp >= 0 ? appendMaxTimestamp - firstBatchTimestamp : nowMs - createdMs;
        return (long) size + appendBytes > config.segmentBytes()
                || waited > config.segmentMs()
                || offsetIndex.isFull() || timeIndex.isFull()
                || appendLastOffset - baseOffset > Integer.MAX_VALUE;
    }

    /**
     * Writes already-validated, already-stamped batches at the end of the file, then indexes them. The
     * caller's buffer is written as is (position/limit untouched); no copy of the record bytes is made.
     */
    public void append(ByteBuffer batches) throws IOException {
        int start = size;
        ByteBuffer src = batches.duplicate();
        long pos = start;
        try {
            while (src.hasRemaining()) {
                pos += channel.write(src, pos);
            }
        } catch (IOException e) {
            // A partial write (e.g. the disk filled up) must not linger past the end readers and recovery
            // trust; cutting it off needs no space. Best effort: recovery would cut a torn tail anyway.
            try {
                channel.truncate(start);
            } catch (IOException ignored) {
                e.addSuppressed(ignored);
            }
            throw e;
        }
        // Publish the bytes before any index entry can point at them.
        size = (int) pos;

        RecordBatchHeader h = new RecordBatchHeader(batches, batches.position());
        int physical = start;
        for (int p = batches.position(); p < batches.limit(); p += h.totalSize()) {
            h.wrap(batches, p);
            indexBatch(h.lastOffset(), h.maxTimestamp(), physical, h.totalSize());
            physical += h.totalSize();
        }
        nextOffset = h.lastOffset() + 1;
    }

    /** Kafka's per-batch index rule: an entry once more than index.interval.bytes went by unindexed. */
    private void indexBatch(long lastOffset, long batchMaxTimestamp, int position, int batchSize) throws IOException {
        if (firstBatchTimestamp < 0 && position == 0) {
            firstBatchTimestamp = batchMaxTimestamp;
        }
        if (batchMaxTimestamp > maxTimestamp) {
            offsetOfMaxTimestamp = lastOffset;
            maxTimestamp = batchMaxTimestamp;
        }
        if (bytesSinceLastIndexEntry > indexIntervalBytes) {
            offsetIndex.append(lastOffset, position);
            timeIndex.maybeAppend(maxTimestamp, offsetOfMaxTimestamp, false);
            bytesSinceLastIndexEntry = 0;
        }
        bytesSinceLastIndexEntry += batchSize;
    }

    /**
     * Trusts the files (clean shutdown) and derives the in-memory state from the indexes plus a header
     * scan from the last offset-index entry. Returns false when the indexes do not fit the log file, in
     * which case the caller runs {@link #recover}.
     */
    public boolean loadFromIndexes() throws IOException {
        boolean indexesMissing = !offsetIndex.existedAtOpen() || !timeIndex.existedAtOpen();
        if ((size > 0 && indexesMissing) || !offsetIndex.isConsistent(size)) {
            return false;
        }
        TimeIndex.Entry lastTime = timeIndex.lastEntry();
        if (lastTime.timestamp() >= 0) {
            maxTimestamp = lastTime.timestamp();
            offsetOfMaxTimestamp = lastTime.offset();
        }
        OffsetIndex.Entry last = offsetIndex.lastEntry();
        BatchHeaderReader reader = new BatchHeaderReader(channel);
        int pos = last.position();
        long next = baseOffset;
        while (pos < size) {
            RecordBatchHeader h = reader.read(pos, size);
            if (h == null || h.magic() != RecordBatchHeader.MAGIC_V2 || h.lastOffset() < next
                    || h.batchLength() < RecordBatchHeader.MIN_BATCH_LENGTH) {
                return false;
            }
            next = h.lastOffset() + 1;
            if (h.maxTimestamp() > maxTimestamp) {
                maxTimestamp = h.maxTimestamp();
                offsetOfMaxTimestamp = h.lastOffset();
            }
            pos += h.totalSize();
        }
        if (pos != size || !timeIndex.isConsistent(next) || !txnIndex.isConsistent(next)) {
            return false;
        }
        nextOffset = next;
        bytesSinceLastIndexEntry = size - last.position();
        RecordBatchHeader first = reader.read(0, size);
        firstBatchTimestamp = first == null ? -1 : first.maxTimestamp();
        releaseIndexes();
        return true;
    }

    /**
     * Validates every batch (size bounds, magic, CRC32C, increasing offsets), truncates the file at the
     * first bad one and rebuilds both sparse indexes. The transaction index is emptied: rebuilding it takes
     * the producer state from before this segment, which the log replays afterwards. Returns the number of
     * bytes cut off.
     */
    public int recover(long minBaseOffset) throws IOException {
        offsetIndex.reset(maxIndexSize);
        timeIndex.reset(maxIndexSize);
        txnIndex.reset();
        maxTimestamp = -1;
        offsetOfMaxTimestamp = -1;
        firstBatchTimestamp = -1;
        bytesSinceLastIndexEntry = 0;
        long fileSize = channel.size();
        BatchHeaderReader reader = new BatchHeaderReader(channel);
        ByteBuffer batch = ByteBuffer.allocate(0);
        long next = Math.max(baseOffset, minBaseOffset);
        int pos = 0;
        while (pos < fileSize) {
            RecordBatchHeader h = reader.read(pos, fileSize);
            if (h == null || h.magic() != RecordBatchHeader.MAGIC_V2
                    || h.batchLength() < RecordBatchHeader.MIN_BATCH_LENGTH
                    || (long) pos + h.totalSize() > fileSize
                    || h.baseOffset() < next || h.lastOffsetDelta() < 0
                    || h.lastOffset() - baseOffset > Integer.MAX_VALUE) {
                break;
            }
            int total = h.totalSize();
            if (batch.capacity() < total) {
                batch = ByteBuffer.allocate(Math.max(total, batch.capacity() * 2));
            }
            batch.clear().limit(total);
            readFully(batch, pos);
            RecordBatchHeader whole = new RecordBatchHeader(batch, 0);
            if (!whole.isValidCrc()) {
                break;
            }
            indexBatch(whole.lastOffset(), whole.maxTimestamp(), pos, total);
            next = whole.lastOffset() + 1;
            pos += total;
        }
        int truncated = (int) (fileSize - pos);
        if (truncated > 0) {
            channel.truncate(pos);
        }
        size = pos;
        nextOffset = pos == 0 ? baseOffset : next;
        releaseIndexes();
        return truncated;
    }

    private void readFully(ByteBuffer dst, long position) throws IOException {
        long p = position;
        while (dst.hasRemaining()) {
            int n = channel.read(dst, p);
            if (n < 0) {
                throw new IOException("unexpected end of " + logFile);
            }
            p += n;
        }
        dst.flip();
    }

    /**
     * A slice starting at the batch holding {@code startOffset}, or null when no batch below
     * {@code endPosition} has lastOffset >= startOffset. At least the whole first batch (KIP-74), otherwise
     * up to {@code maxBytes}. {@code endOffset} is the offset of the batch starting at {@code endPosition}
     * (the read's bound, the next segment's base or the log end): the slice's upper bound offset when it
     * reaches there.
     */
    public FileSlice read(long startOffset, int maxBytes, int endPosition, long endOffset) throws IOException {
        int pos = offsetIndex.lookup(startOffset).position();
        BatchHeaderReader reader = new BatchHeaderReader(channel);
        while (pos < endPosition) {
            RecordBatchHeader h = reader.read(pos, endPosition);
            if (h == null) {
                return null;
            }
            if (h.lastOffset() >= startOffset) {
                int available = endPosition - pos;
                int size = Math.min(Math.max(h.totalSize(), Math.min(Math.max(maxBytes, 0), available)), available);
                return new FileSlice(channel, pos, size, h.baseOffset(),
                        upperBound(pos + size, size == h.totalSize() ? h.lastOffset() + 1 : -1L,
                                endPosition, endOffset));
            }
            pos += h.totalSize();
        }
        return null;
    }

    /**
     * The upper bound offset of a slice ending at {@code sliceEnd}, without reading the log file: the read's
     * end offset when it reaches the end, the offset after the first batch when that batch is all there is
     * ({@code afterFirstBatch}, -1 otherwise), else the first offset-index entry at or past the slice end
     * (Kafka's fetchUpperBoundOffset), never past the read's end.
     */
    private long upperBound(int sliceEnd, long afterFirstBatch, int endPosition, long endOffset) throws IOException {
        if (sliceEnd >= endPosition) {
            return endOffset;
        }
        if (afterFirstBatch >= 0) {
            return afterFirstBatch;
        }
        OffsetIndex.Entry next = offsetIndex.firstAtOrAfterPosition(sliceEnd);
        return next == null ? endOffset : Math.min(next.offset(), endOffset);
    }

    /**
     * Kafka's LogSegment.findOffsetByTimestamp: the first record with timestamp >= {@code ts} and offset >=
     * {@code minOffset}, or null. The time index and a header scan pick the batch (its maxTimestamp >= ts);
     * only then is that one batch read and its records walked, decompressing as far as the match.
     */
    public OffsetAndTimestamp findByTimestamp(long ts, long minOffset, int endPosition) throws IOException {
        TimeIndex.Entry hint = timeIndex.lookup(ts);
        int pos = offsetIndex.lookup(Math.max(hint.offset(), minOffset)).position();
        BatchHeaderReader reader = new BatchHeaderReader(channel);
        while (pos < endPosition) {
            RecordBatchHeader h = reader.read(pos, endPosition);
            if (h == null) {
                return null;
            }
            int total = h.totalSize();
            if (h.maxTimestamp() >= ts && h.lastOffset() >= minOffset) {
                OffsetAndTimestamp hit;
                if (h.isLogAppendTime()) {
                    // every record carries the batch's timestamp: no need to look inside
                    hit = new OffsetAndTimestamp(Math.max(h.baseOffset(), minOffset), h.maxTimestamp());
                } else {
                    RecordBatchHeader batch = readBatch(pos, total, endPosition);
                    hit = batch == null ? null : firstRecord(batch, r -> r.timestamp() >= ts && r.offset() >= minOffset);
                }
                if (hit != null) {
                    return hit;
                }
            }
            pos += total;
        }
        return null;
    }

    /**
     * Kafka's answer to ListOffsets -3: the first record carrying this segment's largest timestamp, or null
     * for a segment without timestamps. Headers find the batch from the tracked offset; only that batch's
     * records are read (not even that for LogAppendTime, where the first record is the answer).
     */
    public OffsetAndTimestamp maxTimestampRecord() throws IOException {
        long ts = maxTimestamp;
        long batchLastOffset = offsetOfMaxTimestamp;
        // Read last: the appender publishes the size before the timestamps, so the batch lies below it.
        int end = size;
        if (ts < 0) {
            return null;
        }
        int pos = offsetIndex.lookup(batchLastOffset).position();
        BatchHeaderReader reader = new BatchHeaderReader(channel);
        while (pos < end) {
            RecordBatchHeader h = reader.read(pos, end);
            if (h == null) {
                return null;
            }
            // ">=": an append racing with us may have raised the max since ts was read; answer with the newer one.
            if (h.maxTimestamp() >= ts) {
                long max = h.maxTimestamp();
                OffsetAndTimestamp atBase = new OffsetAndTimestamp(h.baseOffset(), max);
                if (h.isLogAppendTime()) {
                    return atBase;
                }
                RecordBatchHeader batch = readBatch(pos, h.totalSize(), end);
                OffsetAndTimestamp hit = batch == null ? null : firstRecord(batch, r -> r.timestamp() == max);
                // No record matches only if the producer's header lied (Kafka rewrites it on append; we do not).
                return hit != null ? hit : atBase;
            }
            pos += h.totalSize();
        }
        return null;
    }

    /** The whole batch at {@code position}, or null when it does not end before {@code endPosition}. */
    private RecordBatchHeader readBatch(int position, int totalSize, int endPosition) throws IOException {
        if ((long) position + totalSize > endPosition) {
            return null;
        }
        ByteBuffer buf = ByteBuffer.allocate(totalSize);
        readFully(buf, position);
        return new RecordBatchHeader(buf, 0);
    }

    /**
     * The offset and timestamp of the first record of {@code batch} that {@code match}es. A batch whose
     * records cannot be decoded (we accept compressed batches without decompressing them, unlike Kafka)
     * answers at batch granularity: its base offset and max timestamp.
     */
    private static OffsetAndTimestamp firstRecord(RecordBatchHeader batch, Predicate<RecordBatchReader> match) {
        try (RecordBatchReader records = RecordBatchReader.open(batch)) {
            while (records.next()) {
                if (match.test(records)) {
                    return new OffsetAndTimestamp(records.offset(), records.timestamp());
                }
            }
            return null;
        } catch (IOException undecodable) {
            return new OffsetAndTimestamp(batch.baseOffset(), batch.maxTimestamp());
        }
    }

    /**
     * Calls {@code visitor} with each batch from {@code fromOffset} on: data batches as their header only,
     * control batches (transaction markers, a few dozen bytes) whole, so their record can be read.
     */
    public void forEachBatchFrom(long fromOffset, java.util.function.Consumer<RecordBatchHeader> visitor)
            throws IOException {
        int end = size;
        int pos = offsetIndex.lookup(fromOffset).position();
        BatchHeaderReader reader = new BatchHeaderReader(channel);
        while (pos < end) {
            RecordBatchHeader h = reader.read(pos, end);
            if (h == null) {
                return;
            }
            int total = h.totalSize();
            if (h.lastOffset() >= fromOffset) {
                RecordBatchHeader whole = h.isControlBatch() ? readBatch(pos, total, end) : h;
                if (whole == null) {
                    return;
                }
                visitor.accept(whole);
            }
            pos += total;
        }
    }

    /**
     * Where a truncation to {@code offset} cuts this segment: the first batch whose last offset is at or
     * after it, by byte position and base offset; {@code (size, -1)} when every batch ends before it.
     */
    public record Cut(int position, long batchBaseOffset) {
    }

    /** See {@link Cut}. */
    public Cut cutAt(long offset) throws IOException {
        int end = size;
        int pos = offsetIndex.lookup(offset).position();
        BatchHeaderReader reader = new BatchHeaderReader(channel);
        while (pos < end) {
            RecordBatchHeader h = reader.read(pos, end);
            if (h == null) {
                break;
            }
            if (h.lastOffset() >= offset) {
                return new Cut(pos, h.baseOffset());
            }
            pos += h.totalSize();
        }
        return new Cut(end, -1L);
    }

    /**
     * Kafka's LogSegment.truncateTo for a follower's divergent tail: keeps the bytes before {@code position}
     * (a batch boundary from {@link #cutAt}), the index entries and aborted transactions below
     * {@code nextOffset} (the offset at the cut), recomputes the largest timestamp, and forces the cut. The
     * segment is inactive afterwards (the log appends to a new one), so the bytes past the cut are never
     * written again: a reader still holding the older log end reads at most up to the cut, a batch boundary,
     * and never different data. The size shrinks before the file does, so readers of the new end never look
     * past the cut.
     */
    public void truncateTo(int position, long nextOffset) throws IOException {
        size = position;
        this.nextOffset = nextOffset;
        offsetIndex.truncateTo(nextOffset);
        timeIndex.truncateTo(nextOffset);
        txnIndex.truncateTo(nextOffset);
        // Kafka's loadLargestTimestamp: the last time-index entry left, then the batches after it.
        TimeIndex.Entry lastTime = timeIndex.lastEntry();
        long max = lastTime.timestamp();
        long maxAt = max < 0 ? -1L : lastTime.offset();
        int pos = max < 0 ? 0 : offsetIndex.lookup(maxAt).position();
        BatchHeaderReader reader = new BatchHeaderReader(channel);
        while (pos < position) {
            RecordBatchHeader h = reader.read(pos, position);
            if (h == null) {
                break;
            }
            if (h.maxTimestamp() > max) {
                max = h.maxTimestamp();
                maxAt = h.lastOffset();
            }
            pos += h.totalSize();
        }
        maxTimestamp = max;
        offsetOfMaxTimestamp = maxAt;
        channel.truncate(position);
        channel.force(true);
        onBecomeInactive();
    }

    /** Records the final max timestamp and trims both indexes, as Kafka does when a segment stops being active. */
    public void onBecomeInactive() throws IOException {
        timeIndex.maybeAppend(maxTimestamp, offsetOfMaxTimestamp, true);
        offsetIndex.trimToValidSize();
        timeIndex.trimToValidSize();
    }

    public void flush() throws IOException {
        channel.force(true);
        offsetIndex.flush();
        timeIndex.flush();
        txnIndex.flush();
    }

    /**
     * Unmaps both indexes if nobody uses them and they were last used {@code idleNanos} ago or earlier (0:
     * if unused now); the next lookup or append maps them again. Returns the mappings released.
     */
    public int unmapIdleIndexes(long idleNanos) {
        return (offsetIndex.unmapIfIdle(idleNanos) ? 1 : 0) + (timeIndex.unmapIfIdle(idleNanos) ? 1 : 0);
    }

    /** After loading: a segment's indexes are mapped again only when something uses them. */
    private void releaseIndexes() {
        unmapIdleIndexes(0);
    }

    /** Clean close: final time-index entry, indexes trimmed, data forced, mappings released. */
    public void close() throws IOException {
        if (!channel.isOpen()) {
            return;
        }
        onBecomeInactive();
        flush();
        channel.close();
        offsetIndex.close();
        timeIndex.close();
        txnIndex.close();
    }

    /** Renames the files with the {@code .deleted} suffix; the channels stay usable for in-flight reads. */
    public void renameToDeleted() throws IOException {
        Path deleted = logFile.resolveSibling(logFile.getFileName() + DELETED_SUFFIX);
        Files.move(logFile, deleted, StandardCopyOption.REPLACE_EXISTING);
        logFile = deleted;
        txnIndex.renameTo(txnIndex.file().resolveSibling(txnIndex.file().getFileName() + DELETED_SUFFIX));
        offsetIndex.renameTo(offsetIndex.file().resolveSibling(offsetIndex.file().getFileName() + DELETED_SUFFIX));
        timeIndex.renameTo(timeIndex.file().resolveSibling(timeIndex.file().getFileName() + DELETED_SUFFIX));
    }

    /**
     * Renames the files to their usual names followed by {@code fileSuffix} ("" for the live names), the
     * log file first and the transaction index before the sparse indexes: a crash part way leaves a segment
     * missing a sparse index, which recovery rebuilds together with its transaction index. The channels and
     * mappings stay usable.
     */
    public void renameFiles(String fileSuffix) throws IOException {
        Path dir = logFile.getParent();
        Path log = dir.resolve(fileName(baseOffset) + LOG_SUFFIX + fileSuffix);
        Files.move(logFile, log, StandardCopyOption.ATOMIC_MOVE);
        logFile = log;
        txnIndex.renameTo(dir.resolve(fileName(baseOffset) + TXN_INDEX_SUFFIX + fileSuffix));
        offsetIndex.renameTo(dir.resolve(fileName(baseOffset) + INDEX_SUFFIX + fileSuffix));
        timeIndex.renameTo(dir.resolve(fileName(baseOffset) + TIME_INDEX_SUFFIX + fileSuffix));
    }

    /** Closes the channel, releases the index mappings and unlinks the files. */
    public void closeAndDeleteFiles() throws IOException {
        channel.close();
        Files.deleteIfExists(logFile);
        offsetIndex.deleteFile();
        timeIndex.deleteFile();
        txnIndex.closeAndDelete();
    }

    @Override
    public String toString() {
        return "Segment(" + logFile.getFileName() + ", size=" + size + ", next=" + nextOffset + ")";
    }
}
