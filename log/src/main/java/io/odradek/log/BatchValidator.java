package io.odradek.log;

import io.odradek.log.validation.RecordChecks;
import io.odradek.log.validation.RecordWalker;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.RecordBatchHeader;
import java.nio.ByteBuffer;

/**
 * Checks the batches a producer sent before anything is written, so a rejected append leaves the log
 * untouched; the batches are stored as received afterwards, never rewritten or recompressed.
 *
 * <p>Header checks, always made (Kafka's {@code UnifiedLog.analyzeAndValidateRecords} and
 * {@code LogValidator.validateBatch} for a client append): magic v2, sizes, max.message.bytes
 * (MESSAGE_TOO_LARGE), CRC32C (CORRUPT_MESSAGE), then INVALID_RECORD for codec 5-7, an offset range or
 * count that is empty or disagrees (count != lastOffsetDelta + 1), the control flag, a producer id without
 * a base sequence, and the transactional flag without a producer id.
 *
 * <p>Then, unless the broker runs with {@code odradek.produce.validation=header}, every record is walked
 * ({@link RecordWalker}): framing, count, offset deltas, keys on compacted topics, timestamps.
 */
public final class BatchValidator {
    private BatchValidator() {
    }

    /**
     * Validates every batch in {@code records[position, limit)} for an append to {@code topic}-{@code partition}
     * under {@code config} at time {@code now}; returns how many batches there are.
     *
     * @throws LogAppendException with Kafka's error code (and record errors) for the first bad batch
     */
    public static int validate(ByteBuffer records, LogConfig config, String topic, int partition, long now) {
        return validate(records, config, topic, partition, now, true);
    }

    /**
     * As {@link #validate(ByteBuffer, LogConfig, String, int, long)}; {@code fromClient} false is for batches
     * the broker writes itself (Kafka's AppendOrigin.COORDINATOR): they may carry the control flag
     * (transaction markers) and skip the producer-id/sequence checks, as in Kafka's validateBatch.
     * PartitionLog.append validates as a client; appendMarker and appendAsCoordinator as the broker.
     */
    public static int validate(ByteBuffer records, LogConfig config, String topic, int partition, long now,
                               boolean fromClient) {
        int pos = records.position();
        int limit = records.limit();
        if (pos >= limit) {
            throw new LogAppendException(ErrorCode.CORRUPT_MESSAGE, "no record batch in the request");
        }
        RecordBatchHeader h = new RecordBatchHeader(records, pos);
        RecordChecks checks = config.fullRecordValidation() ? new RecordChecks(topic, partition, config, now) : null;
        int count = 0;
        while (pos < limit) {
            h.wrap(records, pos);
            validateHeader(h, limit - pos, config.maxMessageBytes(), topic, partition, fromClient);
            if (checks != null) {
                RecordWalker.walk(h, checks);
            }
            pos += h.totalSize();
            count++;
        }
        return count;
    }

    /**
     * Checks batches fetched from the leader (Kafka's appendAsFollower, AppendOrigin.REPLICATION): framing,
     * magic, CRC32C and offset-count consistency as for any append, but no max.message.bytes ("already
     * accepted by the leader", Kafka's ignoreRecordSize), no record walk and no client-only checks; and their
     * offsets must increase from batch to batch (Kafka's OffsetsOutOfOrderException otherwise; gaps are fine:
     * a compacted leader log has them). Returns how many batches there are.
     */
    public static int validateReplicated(ByteBuffer records, String topic, int partition) {
        int pos = records.position();
        int limit = records.limit();
        if (pos >= limit) {
            throw new LogAppendException(ErrorCode.CORRUPT_MESSAGE, "no record batch in the fetched data");
        }
        RecordBatchHeader h = new RecordBatchHeader(records, pos);
        int count = 0;
        long previousLast = Long.MIN_VALUE;
        while (pos < limit) {
            h.wrap(records, pos);
            validateHeader(h, limit - pos, Integer.MAX_VALUE, topic, partition, false);
            if (h.baseOffset() <= previousLast) {
                throw new LogAppendException(ErrorCode.CORRUPT_MESSAGE, "Out of order offsets found in append to "
                        + topic + "-" + partition + ": batch at " + h.baseOffset() + " follows one ending at "
                        + previousLast);
            }
            previousLast = h.lastOffset();
            pos += h.totalSize();
            count++;
        }
        return count;
    }

    private static void validateHeader(RecordBatchHeader h, int remaining, int maxMessageBytes, String topic,
                                       int partition, boolean fromClient) {
        if (remaining <= RecordBatchHeader.MAGIC_OFFSET) {
            throw corrupt("truncated batch header at byte " + h.position());
        }
        byte magic = h.magic();
        if (magic == 0 || magic == 1) {
            throw new LogAppendException(ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT,
                    "message format v" + magic + " is not supported, only v2");
        }
        if (magic != RecordBatchHeader.MAGIC_V2) {
            throw corrupt("invalid magic " + magic + " at byte " + h.position());
        }
        int batchLength = h.batchLength();
        if (batchLength < RecordBatchHeader.MIN_BATCH_LENGTH) {
            throw corrupt("Record batch is corrupt (the size " + ((long) batchLength + RecordBatchHeader.LOG_OVERHEAD)
                    + " is smaller than the minimum allowed overhead " + RecordBatchHeader.HEADER_SIZE + ")");
        }
        long total = (long) batchLength + RecordBatchHeader.LOG_OVERHEAD;
        if (total > maxMessageBytes) {
            throw new LogAppendException(ErrorCode.MESSAGE_TOO_LARGE, "The record batch size in the append to "
                    + topic + "-" + partition + " is " + total + " bytes which exceeds the maximum configured value of "
                    + maxMessageBytes + ".");
        }
        if (total > remaining) {
            throw corrupt("batch of " + total + " bytes runs past the end of the records (" + remaining + " left)");
        }
        long stored = h.crc();
        long computed = h.computeCrc();
        if (stored != computed) {
            throw corrupt("Record is corrupt (stored crc = " + stored + ", computed CRC32C = " + computed
                    + ") in topic partition " + topic + "-" + partition + ".");
        }
        int codec = h.compressionType();
        if (codec > 4) {
            throw invalid("Unknown compression type id: " + codec);
        }
        int count = h.recordsCount();
        long countFromOffsets = (long) h.lastOffsetDelta() + 1;
        if (countFromOffsets <= 0) {
            throw invalid("Batch has an invalid offset range: [" + h.baseOffset() + ", " + h.lastOffset()
                    + "] in topic partition " + topic + "-" + partition + ".");
        }
        if (count <= 0) {
            throw invalid("Invalid reported count for record batch: " + count + " in topic partition " + topic + "-"
                    + partition + ".");
        }
        if (countFromOffsets != count) {
            throw invalid("Inconsistent batch offset range [" + h.baseOffset() + ", " + h.lastOffset()
                    + "] and count of records " + count + " in topic partition " + topic + "-" + partition + ".");
        }
        if (!fromClient) {
            return; // the count checks above hold for every origin: the log's offsets come from them
        }
        if (h.isControlBatch()) {
            throw invalid("Clients are not allowed to write control records in topic partition " + topic + "-"
                    + partition + ".");
        }
        boolean hasProducerId = h.producerId() > RecordBatchHeader.NO_PRODUCER_ID; // as Kafka's hasProducerId
        if (hasProducerId && h.baseSequence() < 0) {
            throw invalid("Invalid sequence number " + h.baseSequence() + " in record batch with producerId "
                    + h.producerId() + " in topic partition " + topic + "-" + partition + ".");
        }
        if (h.isTransactional() && h.producerId() < 0) {
            throw invalid("Transactional record batch without a producer id (" + h.producerId()
                    + ") in topic partition " + topic + "-" + partition + ".");
        }
    }

    private static LogAppendException corrupt(String message) {
        return new LogAppendException(ErrorCode.CORRUPT_MESSAGE, message);
    }

    private static LogAppendException invalid(String message) {
        return new LogAppendException(ErrorCode.INVALID_RECORD, message);
    }
}
