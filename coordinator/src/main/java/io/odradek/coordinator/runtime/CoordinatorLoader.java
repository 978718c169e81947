package io.odradek.coordinator.runtime;

import io.odradek.wire.batch.EndTxnMarker;
import io.odradek.wire.batch.RecordBatchBuilder;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.batch.RecordBatchReader;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads a coordinator partition back into its records, and builds the batch a write appends: the two
 * ends of the same format, so what load replays is exactly what was written.
 *
 * <p>Transactions (a transactional offset commit): the records of a transactional batch are handed over
 * with their producer id, as still pending for that producer; a later control batch's transaction marker
 * (commit or abort) for the producer says what becomes of them, as Kafka's loader does.
 */
public final class CoordinatorLoader {
    private static final System.Logger LOG = System.getLogger(CoordinatorLoader.class.getName());
    private static final int READ_CHUNK = 1 << 20;
    private static final int MAX_CHUNK = 1 << 28;

    private CoordinatorLoader() {
    }

    /** What load hands the records and transaction markers of a log to, in log order. */
    public interface Sink<R> {
        /**
         * One record at {@code offset}; {@code producerId} is {@link RecordBatchHeader#NO_PRODUCER_ID} unless
         * the record belongs to that producer's transaction (pending until its marker).
         */
        void record(long offset, long producerId, short producerEpoch, R record);

        /** The producer's transaction ended: its pending records are committed, or dropped. */
        void endTransaction(long producerId, short producerEpoch, boolean commit);
    }

    /** The records as one uncompressed batch, every record stamped {@code nowMs}. */
    public static <R> ByteBuffer batch(RecordSerde<R> serde, List<R> records, long nowMs) {
        return builder(serde, records, nowMs).build();
    }

    /**
     * The records as one uncompressed transactional batch of the producer (a transactional offset
     * commit): Kafka writes them so, and they stay invisible to load until the producer's commit marker.
     * No sequence: the log does not check a coordinator's sequences, as Kafka does not.
     */
    public static <R> ByteBuffer transactionalBatch(RecordSerde<R> serde, List<R> records, long nowMs,
            long producerId, short producerEpoch) {
        RecordBatchBuilder batch = builder(serde, records, nowMs)
                .producer(producerId, producerEpoch, RecordBatchHeader.NO_SEQUENCE)
                .transactional();
        return batch.build();
    }

    private static <R> RecordBatchBuilder builder(RecordSerde<R> serde, List<R> records, long nowMs) {
        RecordBatchBuilder batch = new RecordBatchBuilder(nowMs);
        for (R r : records) {
            batch.append(serde.key(r), serde.value(r));
        }
        return batch;
    }

    /**
     * The committed view for {@code sink}: non-transactional records at once, a transaction's records
     * when its commit marker comes (in their order), never those aborted or still open at the end.
     *
     * @return the number of records handed to {@code sink}
     */
    public static <R> long replay(CoordinatorLog log, RecordSerde<R> serde, Consumer<R> sink, String name) {
        Map<Long, List<R>> open = new HashMap<>();
        long[] count = new long[1];
        replay(log, serde, new Sink<R>() {
            @Override
            public void record(long offset, long producerId, short producerEpoch, R record) {
                if (producerId == RecordBatchHeader.NO_PRODUCER_ID) {
                    sink.accept(record);
                    count[0]++;
                } else {
                    open.computeIfAbsent(producerId, k -> new ArrayList<>()).add(record);
                }
            }

            @Override
            public void endTransaction(long producerId, short producerEpoch, boolean commit) {
                List<R> records = open.remove(producerId);
                if (commit && records != null) {
                    records.forEach(sink);
                    count[0] += records.size();
                }
            }
        }, name);
        return count[0];
    }

    /**
     * Hands every record and transaction marker from the log's start to its committed end to {@code sink},
     * in log order. Compressed batches, control records other than transaction markers and records of
     * types the serde does not keep are skipped; a record that does not parse is logged and skipped, so one
     * bad record cannot keep a coordinator from loading.
     *
     * @param name the partition, for log lines
     * @return the number of records replayed (markers not counted)
     */
    public static <R> long replay(CoordinatorLog log, RecordSerde<R> serde, Sink<R> sink, String name) {
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
                if (h.lastOffset() >= offset && h.isControlBatch()) {
                    replayControlBatch(h, offset, sink, name);
                } else if (h.lastOffset() >= offset) {
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

    /** A control batch: its transaction marker ends the producer's transaction; other control records are skipped. */
    private static <R> void replayControlBatch(RecordBatchHeader h, long fromOffset, Sink<R> sink, String name) {
        for (RecordBatchReader.Record r : RecordBatchReader.records(h)) {
            if (r.offset() < fromOffset) {
                continue;
            }
            ByteBuffer key = r.key() == null ? null : ByteBuffer.wrap(r.key());
            short type = EndTxnMarker.controlType(key);
            if (type != EndTxnMarker.COMMIT_TYPE && type != EndTxnMarker.ABORT_TYPE) {
                continue;
            }
            EndTxnMarker marker;
            try {
                marker = EndTxnMarker.parse(key, r.value() == null ? null : ByteBuffer.wrap(r.value()));
            } catch (IllegalArgumentException e) {
                LOG.log(System.Logger.Level.WARNING, "skipping unreadable transaction marker at offset " + r.offset()
                        + " of " + name + ": " + e.getMessage());
                continue;
            }
            sink.endTransaction(h.producerId(), h.producerEpoch(), marker.commit());
        }
    }

    private static <R> long replayBatch(RecordBatchHeader h, long fromOffset, RecordSerde<R> serde, Sink<R> sink, String name) {
        if (h.compressionType() != 0) {
            LOG.log(System.Logger.Level.WARNING, "skipping compressed batch at offset " + h.baseOffset() + " of " + name);
            return 0;
        }
        long producerId = h.isTransactional() ? h.producerId() : RecordBatchHeader.NO_PRODUCER_ID;
        short producerEpoch = h.isTransactional() ? h.producerEpoch() : RecordBatchHeader.NO_PRODUCER_EPOCH;
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
                sink.record(r.offset(), producerId, producerEpoch, record);
                count++;
            }
        }
        return count;
    }
}
