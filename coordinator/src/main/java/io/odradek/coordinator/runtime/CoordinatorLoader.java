package io.odradek.coordinator.runtime;

import io.odradek.wire.batch.RecordBatchBuilder;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.batch.RecordBatchReader;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads a coordinator partition back into its records, and builds the batch a write appends: the two
 * ends of the same format, so what load replays is exactly what was written.
 */
public final class CoordinatorLoader {
    private static final System.Logger LOG = System.getLogger(CoordinatorLoader.class.getName());
    private static final int READ_CHUNK = 1 << 20;
    private static final int MAX_CHUNK = 1 << 28;

    private CoordinatorLoader() {
    }

    /** The records as one uncompressed batch, every record stamped {@code nowMs}. */
    public static <R> ByteBuffer batch(RecordSerde<R> serde, List<R> records, long nowMs) {
        RecordBatchBuilder batch = new RecordBatchBuilder(nowMs);
        for (R r : records) {
            batch.append(serde.key(r), serde.value(r));
        }
        return batch.build();
    }

    /**
     * Hands every record from the log's start to its committed end to {@code sink}, in log order. Control
     * batches, compressed batches and records of types the serde does not keep are skipped; a record that
     * does not parse is logged and skipped, so one bad record cannot keep a coordinator from loading.
     *
     * @param name the partition, for log lines
     * @return the number of records replayed
     */
    public static <R> long replay(CoordinatorLog log, RecordSerde<R> serde, Consumer<R> sink, String name) {
        long offset = log.startOffset();
        long end = log.committedEndOffset();
        int chunk = READ_CHUNK;
        long count = 0;
        while (offset < end) {
            ByteBuffer buf = log.read(offset, chunk);
            if (!buf.hasRemaining()) {
                break;
            }
            RecordBatchHeader h = new RecordBatchHeader(buf, buf.position());
            int pos = buf.position();
            long next = offset;
            while (buf.limit() - pos >= RecordBatchHeader.HEADER_SIZE) {
                h.wrap(buf, pos);
                if (h.totalSize() > buf.limit() - pos || h.baseOffset() >= end) {
                    break; // cut short by the read size (read it again from its start), or not committed
                }
                if (h.lastOffset() >= offset && !h.isControlBatch()) {
                    count += replayBatch(h, offset, serde, sink, name);
                }
                next = h.lastOffset() + 1;
                pos += h.totalSize();
            }
            if (next == offset) {
                if (chunk >= MAX_CHUNK) {
                    throw new IllegalStateException("no whole batch in " + chunk + " bytes at offset " + offset + " of " + name);
                }
                chunk *= 2; // a batch larger than the read size
                continue;
            }
            offset = next;
        }
        return count;
    }

    private static <R> long replayBatch(RecordBatchHeader h, long fromOffset, RecordSerde<R> serde, Consumer<R> sink, String name) {
        if (h.compressionType() != 0) {
            LOG.log(System.Logger.Level.WARNING, "skipping compressed batch at offset " + h.baseOffset() + " of " + name);
            return 0;
        }
        long count = 0;
        for (RecordBatchReader.Record r : RecordBatchReader.records(h)) {
            if (r.offset() < fromOffset) {
                continue;
            }
            R record;
            try {
                record = serde.decode(r.key(), r.value());
            } catch (IllegalArgumentException e) {
                LOG.log(System.Logger.Level.WARNING, "skipping unreadable record at offset " + r.offset() + " of "
                        + name + ": " + e.getMessage());
                continue;
            }
            if (record != null) {
                sink.accept(record);
                count++;
            }
        }
        return count;
    }
}
