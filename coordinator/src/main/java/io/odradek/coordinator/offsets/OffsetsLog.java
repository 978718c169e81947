package io.odradek.coordinator.offsets;

import io.odradek.log.FileSlice;
import io.odradek.log.PartitionLog;
import io.odradek.wire.batch.RecordBatchBuilder;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.batch.RecordBatchReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;

/**
 * One partition of {@code __consumer_offsets} as the coordinator uses it: append records as one
 * uncompressed batch, and replay every record from the start on load. Callers serialise access per
 * partition (the partition's coordinator thread).
 */
public final class OffsetsLog {
    private static final System.Logger LOG = System.getLogger(OffsetsLog.class.getName());
    private static final int READ_CHUNK = 1 << 20;
    private static final int MAX_CHUNK = 1 << 28;

    private final PartitionLog log;

    public OffsetsLog(PartitionLog log) {
        this.log = log;
    }

    public int partition() {
        return log.partition();
    }

    /**
     * Appends the records as one batch; they are durable in the log (page cache, and fsync as configured)
     * when this returns.
     *
     * @throws io.odradek.log.LogException with the error code for the client
     */
    public void append(List<? extends OffsetsRecord> records, long nowMs) {
        if (records.isEmpty()) {
            return;
        }
        RecordBatchBuilder batch = new RecordBatchBuilder(nowMs);
        for (OffsetsRecord r : records) {
            batch.append(OffsetsRecordCodec.key(r), OffsetsRecordCodec.value(r));
        }
        log.append(batch.build(), 0);
    }

    /**
     * Reads the partition from its start to its end and hands every record to {@code sink} in log order.
     * Control batches, compressed batches and records of types we do not keep are skipped; a record that
     * does not parse is logged and skipped, so one bad record cannot keep a coordinator from loading.
     *
     * @return the number of records replayed
     */
    public long replay(Consumer<OffsetsRecord> sink) {
        long offset = log.logStartOffset();
        long end = log.logEndOffset();
        int chunk = READ_CHUNK;
        long count = 0;
        while (offset < end) {
            FileSlice slice = log.read(offset, chunk);
            if (slice.isEmpty()) {
                break;
            }
            ByteBuffer buf = readFully(slice);
            RecordBatchHeader h = new RecordBatchHeader(buf, 0);
            int pos = 0;
            long next = offset;
            while (buf.limit() - pos >= RecordBatchHeader.HEADER_SIZE) {
                h.wrap(buf, pos);
                if (h.totalSize() > buf.limit() - pos) {
                    break; // cut short by the read size: read it again from its start
                }
                if (h.lastOffset() >= offset && !h.isControlBatch()) {
                    count += replayBatch(h, offset, sink);
                }
                next = h.lastOffset() + 1;
                pos += h.totalSize();
            }
            if (next == offset) {
                if (chunk >= MAX_CHUNK) {
                    throw new IllegalStateException("no whole batch in " + chunk + " bytes at offset " + offset
                            + " of " + OffsetsTopic.NAME + "-" + log.partition());
                }
                chunk *= 2; // a batch larger than the read size
                continue;
            }
            offset = next;
        }
        return count;
    }

    private long replayBatch(RecordBatchHeader h, long fromOffset, Consumer<OffsetsRecord> sink) {
        if (h.compressionType() != 0) {
            LOG.log(System.Logger.Level.WARNING, "skipping compressed batch at offset " + h.baseOffset() + " of "
                    + OffsetsTopic.NAME + "-" + log.partition());
            return 0;
        }
        long count = 0;
        for (RecordBatchReader.Record r : RecordBatchReader.records(h)) {
            if (r.offset() < fromOffset) {
                continue;
            }
            OffsetsRecord record;
            try {
                record = OffsetsRecordCodec.decode(r.key(), r.value());
            } catch (IllegalArgumentException e) {
                LOG.log(System.Logger.Level.WARNING, "skipping unreadable record at offset " + r.offset() + " of "
                        + OffsetsTopic.NAME + "-" + log.partition() + ": " + e.getMessage());
                continue;
            }
            if (record != null) {
                sink.accept(record);
                count++;
            }
        }
        return count;
    }

    private static ByteBuffer readFully(FileSlice slice) {
        ByteBuffer buf = ByteBuffer.allocate(slice.size());
        try {
            long position = slice.position();
            while (buf.hasRemaining()) {
                int n = slice.channel().read(buf, position);
                if (n < 0) {
                    break;
                }
                position += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + OffsetsTopic.NAME, e);
        }
        return buf.flip();
    }
}
