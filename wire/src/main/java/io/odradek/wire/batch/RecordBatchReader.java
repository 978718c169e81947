package io.odradek.wire.batch;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the records of uncompressed magic-v2 batches, such as those {@link RecordBatchBuilder} writes.
 * Used where the broker replays its own internal logs; the produce/fetch paths never decode records.
 */
public final class RecordBatchReader {
    private RecordBatchReader() {
    }

    /** One record with its absolute offset and timestamp; key and value are copies, value null for a tombstone. */
    public record Record(long offset, long timestamp, byte[] key, byte[] value) {
    }

    /**
     * The records of the whole batch that {@code header} points at; {@code header.totalSize()} bytes must
     * be present in its buffer.
     *
     * @throws IllegalArgumentException for a compressed batch or records that overrun the batch
     */
    public static List<Record> records(RecordBatchHeader header) {
        if (header.compressionType() != 0) {
            throw new IllegalArgumentException("compressed batch (codec " + header.compressionType()
                    + ") at offset " + header.baseOffset());
        }
        ByteBuffer in = header.buffer().duplicate();
        int end = header.position() + header.totalSize();
        in.limit(end).position(header.position() + RecordBatchHeader.HEADER_SIZE);
        int count = header.recordsCount();
        List<Record> out = new ArrayList<>(Math.max(0, Math.min(count, 1024)));
        try {
            for (int i = 0; i < count; i++) {
                int length = readVarint(in);
                int recordEnd = in.position() + length;
                if (length < 0 || recordEnd > end) {
                    throw new IllegalArgumentException("record " + i + " overruns its batch");
                }
                in.get(); // attributes
                long timestampDelta = readVarlong(in);
                int offsetDelta = readVarint(in);
                byte[] key = readBytes(in);
                byte[] value = readBytes(in);
                in.position(recordEnd); // headers are skipped
                out.add(new Record(header.baseOffset() + offsetDelta, header.baseTimestamp() + timestampDelta, key, value));
            }
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("records overrun the batch at offset " + header.baseOffset(), e);
        }
        return out;
    }

    private static byte[] readBytes(ByteBuffer in) {
        int length = readVarint(in);
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    static int readVarint(ByteBuffer in) {
        int raw = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            byte b = in.get();
            raw |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new IllegalArgumentException("varint longer than 5 bytes");
    }

    static long readVarlong(ByteBuffer in) {
        long raw = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            byte b = in.get();
            raw |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new IllegalArgumentException("varlong longer than 10 bytes");
    }
}
