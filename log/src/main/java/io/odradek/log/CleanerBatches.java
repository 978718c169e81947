package io.odradek.log;

import io.odradek.wire.batch.RecordBatchHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The byte-level work of the log cleaner: reading a segment batch by batch, splitting an uncompressed v2
 * batch into its records, and writing a batch back with fewer records, a delete horizon, or none at all.
 * Every batch written keeps the original's base offset, last offset delta, producer id/epoch, base
 * sequence, transactional/control attributes and leader epoch, as Kafka's {@code MemoryRecords.filterTo}
 * does, so offsets and producer state rebuilt from the cleaned log do not move.
 */
final class CleanerBatches {
    /** Attribute bit 6: the base timestamp holds the delete horizon (KIP-534). */
    static final short DELETE_HORIZON_FLAG = 0x40;
    static final int COMPRESSION_MASK = 0x07;
    private static final short TIMESTAMP_TYPE_FLAG = 0x08;

    private CleanerBatches() {
    }

    interface BatchVisitor {
        void accept(RecordBatchHeader wholeBatch) throws IOException;
    }

    /** Reads each whole batch below {@code end} into the heap, one at a time, in log order. */
    static void forEachBatch(FileChannel channel, int end, BatchVisitor visitor) throws IOException {
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
            visitor.accept(new RecordBatchHeader(batch, 0));
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

    /** The whole batch {@code h} wraps, as a buffer of its own (position 0). */
    static ByteBuffer whole(RecordBatchHeader h) {
        ByteBuffer original = h.buffer().duplicate();
        original.limit(h.position() + h.totalSize()).position(h.position());
        return original.slice();
    }

    /** One record of an uncompressed batch: where its bytes are and what the cleaner needs to know. */
    record RawRecord(int lengthStart, int start, int end, int restStart, long timestampDelta, int offsetDelta,
                     byte[] key, boolean tombstone) {
    }

    /**
     * The records of the uncompressed batch {@code h} (which must start at position 0 of its buffer), or
     * null when they cannot be framed (the cleaner then keeps the batch as it is).
     */
    static List<RawRecord> records(RecordBatchHeader h) {
        ByteBuffer buf = h.buffer();
        int count = h.recordsCount();
        List<RawRecord> out = new ArrayList<>(Math.max(0, count));
        Cursor c = new Cursor(buf, RecordBatchHeader.HEADER_SIZE, h.totalSize());
        try {
            for (int i = 0; i < count; i++) {
                int lengthStart = c.pos;
                int length = c.varint();
                int start = c.pos;
                int end = start + length;
                if (length < 0 || end > h.totalSize()) {
                    return null;
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
                out.add(new RawRecord(lengthStart, start, end, restStart, tsDelta, offsetDelta, key, tombstone));
            }
        } catch (IndexOutOfBoundsException malformed) {
            return null;
        }
        return out;
    }

    /**
     * A v2 batch with the same header fields as {@code h} (at position 0 of its buffer) but only
     * {@code kept}; with {@code horizon >= 0} the delete-horizon flag is set, the base timestamp becomes the
     * horizon and every record's timestamp delta is re-based on it (Kafka's MemoryRecordsBuilder does the same).
     */
    static ByteBuffer rebuild(RecordBatchHeader h, List<RawRecord> kept, long horizon) {
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
        short attributes = (short) (h.attributes() | (horizon >= 0 ? DELETE_HORIZON_FLAG : 0));
        long maxTimestamp = h.isLogAppendTime() ? h.maxTimestamp() : maxTs;
        return finish(out, h, attributes, newBase, maxTimestamp, kept.size());
    }

    /**
     * Kafka's empty batch ({@code DefaultRecordBatch.writeEmptyHeader}): the header of {@code h} without
     * records, kept only so the producer's last sequence and epoch, or the last offset of a cleaning round,
     * survive the clean. No compression, no delete horizon, base timestamp -1.
     */
    static ByteBuffer empty(RecordBatchHeader h) {
        ByteBuffer out = ByteBuffer.allocate(RecordBatchHeader.HEADER_SIZE).order(ByteOrder.BIG_ENDIAN);
        out.position(RecordBatchHeader.HEADER_SIZE);
        short attributes = (short) (h.attributes() & (TIMESTAMP_TYPE_FLAG | RecordBatchHeader.TRANSACTIONAL_FLAG
                | RecordBatchHeader.CONTROL_FLAG));
        return finish(out, h, attributes, RecordBatchHeader.NO_TIMESTAMP, h.maxTimestamp(), 0);
    }

    /** Writes the header of a batch whose records fill {@code out} from HEADER_SIZE to its position; stamps the CRC. */
    private static ByteBuffer finish(ByteBuffer out, RecordBatchHeader h, short attributes, long baseTimestamp,
                                     long maxTimestamp, int count) {
        int total = out.position();
        out.putLong(RecordBatchHeader.BASE_OFFSET_OFFSET, h.baseOffset());
        out.putInt(RecordBatchHeader.BATCH_LENGTH_OFFSET, total - RecordBatchHeader.LOG_OVERHEAD);
        out.putInt(RecordBatchHeader.PARTITION_LEADER_EPOCH_OFFSET, h.partitionLeaderEpoch());
        out.put(RecordBatchHeader.MAGIC_OFFSET, RecordBatchHeader.MAGIC_V2);
        out.putShort(RecordBatchHeader.ATTRIBUTES_OFFSET, attributes);
        out.putInt(RecordBatchHeader.LAST_OFFSET_DELTA_OFFSET, h.lastOffsetDelta());
        out.putLong(RecordBatchHeader.BASE_TIMESTAMP_OFFSET, baseTimestamp);
        out.putLong(RecordBatchHeader.MAX_TIMESTAMP_OFFSET, maxTimestamp);
        out.putLong(RecordBatchHeader.PRODUCER_ID_OFFSET, h.producerId());
        out.putShort(RecordBatchHeader.PRODUCER_EPOCH_OFFSET, h.producerEpoch());
        out.putInt(RecordBatchHeader.BASE_SEQUENCE_OFFSET, h.baseSequence());
        out.putInt(RecordBatchHeader.RECORDS_COUNT_OFFSET, count);
        CRC32C crc = new CRC32C();
        crc.update(out.duplicate().limit(total).position(RecordBatchHeader.ATTRIBUTES_OFFSET));
        out.putInt(RecordBatchHeader.CRC_OFFSET, (int) crc.getValue());
        return out.limit(total).position(0);
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
