package io.odradek.log;

import io.odradek.log.segment.Segment;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.batch.RecordBatchReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Kafka's log cleaner for {@code cleanup.policy=compact}, reduced to its core. Never touches the active
 * segment; reads segments through their channels (no lock) and hands finished files to the log to swap in.
 *
 * <p>Pass 1 ({@link #buildOffsetMap}) maps every key to its last offset over the whole log, the active
 * segment included. Pass 2 ({@link #rewrite}) copies one inactive segment into a new segment of
 * {@code <base>.log.cleaned} (+ {@code .index.cleaned}, {@code .timeindex.cleaned}), keeping a record iff it
 * is the latest for its key and indexing as it appends, forces it and renames its files {@code .swap}, the
 * log file first: from that rename on the cleaned segment is committed, and the log (or, after a crash, its
 * loader) replaces the original with it. All of this runs without the log's lock, so only renames remain
 * for the swap-in. A leftover {@code .cleaned} file is an unfinished clean and is simply deleted; the loader
 * deletes leftover {@code .index.swap}/{@code .timeindex.swap} files and rebuilds the indexes.
 *
 * <p>Rules and simplifications (see also Kafka's {@code LogCleaner} and {@code MemoryRecords.filterTo}):
 * <ul>
 * <li>Offsets never change: a rewritten v2 batch keeps its base offset, lastOffsetDelta, producer
 *     id/epoch/base sequence, attributes and leader epoch; retained records keep their offset deltas.</li>
 * <li>Tombstones (KIP-534): the first clean that keeps a tombstone stamps its batch with a delete horizon
 *     (now + delete.retention.ms, in the base timestamp, with the record timestamp deltas re-based on it);
 *     a later clean past the horizon drops the tombstone.</li>
 * <li>Compressed batches are kept whole if any record is retained and dropped otherwise (never
 *     re-compressed); their tombstones therefore only go when a newer record for the key supersedes them.</li>
 * <li>Control and transactional batches are kept as they are and do not supersede older records (so an
 *     aborted write can never remove a committed value). Records without a key are kept.</li>
 * <li>A batch emptied by cleaning is dropped unless it is its producer's last batch in the log, which is
 *     kept whole so idempotent-producer state rebuilt from the log keeps the last sequence.</li>
 * <li>Segments are cleaned one for one (no merging of small cleaned segments; an emptied segment stays
 *     as an empty file).</li>
 * </ul>
 */
final class LogCleaner {
    static final String CLEANED_SUFFIX = ".cleaned";
    static final String SWAP_SUFFIX = ".swap";
    /** Attribute bit 6: the base timestamp holds the delete horizon (KIP-534). */
    private static final short DELETE_HORIZON_FLAG = 0x40;
    private static final int COMPRESSION_MASK = 0x07;

    private LogCleaner() {
    }

    /** Pass 1's result: key -> last offset; producer id -> base offset of its last batch. */
    record OffsetMap(Map<ByteBuffer, Long> latest, Map<Long, Long> lastBatchOfProducer) {
        boolean isLatest(byte[] key, long offset) {
            Long last = latest.get(ByteBuffer.wrap(key));
            return last == null || last == offset;
        }
    }

    /**
     * What rewriting one segment produced: the cleaned segment (indexed, forced, its files named
     * {@code .swap}), bytes before/after and the earliest delete horizon it left.
     */
    record Rewritten(Segment cleaned, long bytesBefore, long bytesAfter, long minDeleteHorizonMs) {
    }

    /** Pass 1 over {@code segments} (each read up to its end position, which for the active one is given). */
    static OffsetMap buildOffsetMap(List<Segment> segments, Segment active, int activeEnd) throws IOException {
        Map<ByteBuffer, Long> latest = new HashMap<>();
        Map<Long, Long> producers = new HashMap<>();
        for (Segment s : segments) {
            int end = s == active ? activeEnd : s.size();
            forEachBatch(s.channel(), end, (h, pos) -> {
                if (h.producerId() >= 0) {
                    producers.put(h.producerId(), h.baseOffset());
                }
                if (h.isControlBatch() || h.isTransactional()) {
                    return;
                }
                try (RecordBatchReader records = RecordBatchReader.open(h)) {
                    while (records.next()) {
                        byte[] key = records.key();
                        if (key != null) {
                            latest.put(ByteBuffer.wrap(key), records.offset());
                        }
                    }
                } catch (IOException undecodable) {
                    // its records cannot supersede anything; pass 2 keeps the batch whole
                }
            });
        }
        return new OffsetMap(latest, producers);
    }

    /**
     * Pass 2 for one inactive segment: appends the kept batches to a new {@code .cleaned} segment (its
     * indexes are built as it goes, as for any append), trims and forces it, then renames its files to
     * {@code .swap}. The caller swaps it in (or deletes it); on failure nothing is left behind.
     */
    static Rewritten rewrite(Segment segment, Path dir, LogConfig config, OffsetMap map, long nowMs)
            throws IOException {
        long deleteRetentionMs = config.deleteRetentionMs();
        Segment cleaned = Segment.create(dir, segment.baseOffset(), config, nowMs, CLEANED_SUFFIX);
        long[] minHorizon = {Long.MAX_VALUE};
        try {
            forEachBatch(segment.channel(), segment.size(), (h, pos) -> {
                ByteBuffer kept = filter(h, map, nowMs, deleteRetentionMs);
                if (kept == null) {
                    return;
                }
                RecordBatchHeader k = new RecordBatchHeader(kept, 0);
                if ((k.attributes() & DELETE_HORIZON_FLAG) != 0 && k.baseTimestamp() > nowMs) {
                    minHorizon[0] = Math.min(minHorizon[0], k.baseTimestamp());
                }
                cleaned.append(kept);
            });
            cleaned.onBecomeInactive();
            cleaned.flush();
            cleaned.renameFiles(SWAP_SUFFIX);
        } catch (IOException | RuntimeException e) {
            try {
                cleaned.closeAndDeleteFiles();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return new Rewritten(cleaned, segment.size(), cleaned.size(), minHorizon[0]);
    }

    /** The batch to write for {@code h} (the original bytes, or a rebuilt batch), or null to drop it. */
    private static ByteBuffer filter(RecordBatchHeader h, OffsetMap map, long nowMs, long deleteRetentionMs)
            throws IOException {
        ByteBuffer original = h.buffer().duplicate();
        original.limit(h.position() + h.totalSize()).position(h.position());
        ByteBuffer whole = original.slice();
        if (h.isControlBatch() || h.isTransactional()) {
            return whole;
        }
        boolean lastOfProducer = h.producerId() >= 0
                && Long.valueOf(h.baseOffset()).equals(map.lastBatchOfProducer().get(h.producerId()));
        if ((h.attributes() & COMPRESSION_MASK) != 0) {
            return anyRetained(h, map) || lastOfProducer ? whole : null;
        }
        return filterUncompressed(new RecordBatchHeader(whole, 0), map, nowMs, deleteRetentionMs, lastOfProducer);
    }

    private static boolean anyRetained(RecordBatchHeader h, OffsetMap map) {
        try (RecordBatchReader records = RecordBatchReader.open(h)) {
            while (records.next()) {
                byte[] key = records.key();
                if (key == null || map.isLatest(key, records.offset())) {
                    return true;
                }
            }
            return false;
        } catch (IOException undecodable) {
            return true;
        }
    }

    /** One record of an uncompressed batch: where its bytes are and what the cleaner needs to know. */
    private record RawRecord(int lengthStart, int start, int end, int restStart, long timestampDelta, int offsetDelta,
                             boolean tombstone) {
    }

    private static ByteBuffer filterUncompressed(RecordBatchHeader h, OffsetMap map, long nowMs,
                                                 long deleteRetentionMs, boolean lastOfProducer) {
        ByteBuffer buf = h.buffer();
        boolean hasHorizon = (h.attributes() & DELETE_HORIZON_FLAG) != 0;
        boolean horizonPassed = hasHorizon && nowMs >= h.baseTimestamp();
        ArrayList<RawRecord> kept = new java.util.ArrayList<>();
        boolean keptTombstone = false;
        int count = h.recordsCount();
        Cursor c = new Cursor(buf, RecordBatchHeader.HEADER_SIZE, h.totalSize());
        try {
            for (int i = 0; i < count; i++) {
                int lengthStart = c.pos;
                int length = c.varint();
                int start = c.pos;
                int end = start + length;
                if (length < 0 || end > h.totalSize()) {
                    return buf.duplicate(); // malformed: never lose bytes we cannot read
                }
                c.pos++; // attributes
                long tsDelta = c.varlong();
                int offsetDelta = c.varint();
                int restStart = c.pos;
                int keyLength = c.varint();
                byte[] key = null;
                if (keyLength >= 0) {
                    key = new byte[keyLength];
                    buf.get(c.pos, key);
                    c.pos += keyLength;
                }
                boolean tombstone = c.varint() < 0;
                c.pos = end;
                long offset = h.baseOffset() + offsetDelta;
                boolean latest = key == null || map.isLatest(key, offset);
                if (latest && !(tombstone && key != null && horizonPassed)) {
                    kept.add(new RawRecord(lengthStart, start, end, restStart, tsDelta, offsetDelta, tombstone));
                    keptTombstone |= tombstone && key != null;
                }
            }
        } catch (IndexOutOfBoundsException malformed) {
            return buf.duplicate();
        }
        boolean stampHorizon = keptTombstone && !hasHorizon;
        if (kept.size() == count && !stampHorizon) {
            return buf.duplicate();
        }
        if (kept.isEmpty()) {
            return lastOfProducer ? buf.duplicate() : null;
        }
        return rebuild(h, kept, stampHorizon ? nowMs + deleteRetentionMs : -1L);
    }

    /**
     * A v2 batch with the same header fields as {@code h} but only {@code kept}; with {@code horizon >= 0}
     * the delete-horizon flag is set, the base timestamp becomes the horizon and every record's timestamp
     * delta is re-based on it (Kafka's MemoryRecordsBuilder does the same).
     */
    private static ByteBuffer rebuild(RecordBatchHeader h, List<RawRecord> kept, long horizon) {
        ByteBuffer src = h.buffer();
        long oldBase = h.baseTimestamp();
        long newBase = horizon >= 0 ? horizon : oldBase;
        ByteBuffer out = ByteBuffer.allocate(h.totalSize() + kept.size() * 20).order(ByteOrder.BIG_ENDIAN);
        out.position(RecordBatchHeader.HEADER_SIZE);
        long maxTs = RecordBatchHeader.NO_TIMESTAMP;
        for (RawRecord r : kept) {
            long ts = oldBase + r.timestampDelta();
            maxTs = Math.max(maxTs, ts);
            if (horizon < 0) {
                out.put(src.duplicate().limit(r.end()).position(r.lengthStart()));
                continue;
            }
            ByteBuffer body = ByteBuffer.allocate(r.end() - r.start() + 16);
            body.put(src.get(r.start())); // attributes
            putVarlong(body, ts - newBase);
            putVarint(body, r.offsetDelta());
            body.put(src.duplicate().limit(r.end()).position(r.restStart()));
            body.flip();
            putVarint(out, body.remaining());
            out.put(body);
        }
        int total = out.position();
        short attributes = (short) (h.attributes() | (horizon >= 0 ? DELETE_HORIZON_FLAG : 0));
        out.putLong(RecordBatchHeader.BASE_OFFSET_OFFSET, h.baseOffset());
        out.putInt(RecordBatchHeader.BATCH_LENGTH_OFFSET, total - RecordBatchHeader.LOG_OVERHEAD);
        out.putInt(RecordBatchHeader.PARTITION_LEADER_EPOCH_OFFSET, h.partitionLeaderEpoch());
        out.put(RecordBatchHeader.MAGIC_OFFSET, RecordBatchHeader.MAGIC_V2);
        out.putShort(RecordBatchHeader.ATTRIBUTES_OFFSET, attributes);
        out.putInt(RecordBatchHeader.LAST_OFFSET_DELTA_OFFSET, h.lastOffsetDelta());
        out.putLong(RecordBatchHeader.BASE_TIMESTAMP_OFFSET, newBase);
        out.putLong(RecordBatchHeader.MAX_TIMESTAMP_OFFSET, h.isLogAppendTime() ? h.maxTimestamp() : maxTs);
        out.putLong(RecordBatchHeader.PRODUCER_ID_OFFSET, h.producerId());
        out.putShort(RecordBatchHeader.PRODUCER_EPOCH_OFFSET, h.producerEpoch());
        out.putInt(RecordBatchHeader.BASE_SEQUENCE_OFFSET, h.baseSequence());
        out.putInt(RecordBatchHeader.RECORDS_COUNT_OFFSET, kept.size());
        CRC32C crc = new CRC32C();
        crc.update(out.duplicate().limit(total).position(RecordBatchHeader.ATTRIBUTES_OFFSET));
        out.putInt(RecordBatchHeader.CRC_OFFSET, (int) crc.getValue());
        return out.limit(total).position(0);
    }

    // ---------------------------------------------------------------- batches and varints

    private interface BatchVisitor {
        void accept(RecordBatchHeader wholeBatch, long position) throws IOException;
    }

    /** Reads each whole batch below {@code end} into the heap, one at a time. */
    private static void forEachBatch(FileChannel channel, int end, BatchVisitor visitor) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(RecordBatchHeader.HEADER_SIZE);
        long pos = 0;
        while (end - pos >= RecordBatchHeader.HEADER_SIZE) {
            readFully(channel, header.clear(), pos);
            int total = new RecordBatchHeader(header, 0).totalSize();
            if (total < RecordBatchHeader.HEADER_SIZE || pos + total > end) {
                throw new IOException("malformed batch at position " + pos);
            }
            ByteBuffer batch = ByteBuffer.allocate(total);
            readFully(channel, batch, pos);
            visitor.accept(new RecordBatchHeader(batch, 0), pos);
            pos += total;
        }
    }

    private static void readFully(FileChannel channel, ByteBuffer dst, long position) throws IOException {
        long p = position;
        while (dst.hasRemaining()) {
            int n = channel.read(dst, p);
            if (n < 0) {
                throw new IOException("unexpected end of segment at " + p);
            }
            p += n;
        }
        dst.flip();
    }

    /** Zig-zag varints over a buffer, as in Kafka's record format. */
    private static final class Cursor {
        private final ByteBuffer buf;
        private final int limit;
        int pos;

        Cursor(ByteBuffer buf, int pos, int limit) {
            this.buf = buf;
            this.pos = pos;
            this.limit = limit;
        }

        int varint() {
            return (int) varlong();
        }

        long varlong() {
            long raw = 0;
            for (int shift = 0; shift < 70; shift += 7) {
                if (pos >= limit) {
                    throw new IndexOutOfBoundsException("varint past the batch");
                }
                int b = buf.get(pos++);
                raw |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) {
                    return (raw >>> 1) ^ -(raw & 1);
                }
            }
            throw new IndexOutOfBoundsException("varint too long");
        }
    }

    private static void putVarint(ByteBuffer out, int value) {
        putVarlong(out, value);
    }

    private static void putVarlong(ByteBuffer out, long value) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & ~0x7fL) != 0) {
            out.put((byte) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        out.put((byte) v);
    }
}
