package io.odradek.log;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.RecordBatchHeader;
import java.nio.ByteBuffer;

/**
 * Header-level checks of the batches a producer sent, all done before anything is written so a rejected
 * append leaves the log untouched. Records are never decoded or decompressed.
 */
public final class BatchValidator {
    private BatchValidator() {
    }

    /** Validates every batch in {@code records[position, limit)}; returns how many batches there are. */
    public static int validate(ByteBuffer records, int maxMessageBytes) {
        int pos = records.position();
        int limit = records.limit();
        if (pos >= limit) {
            throw new LogAppendException(ErrorCode.CORRUPT_MESSAGE, "no record batch in the request");
        }
        RecordBatchHeader h = new RecordBatchHeader(records, pos);
        int count = 0;
        while (pos < limit) {
            h.wrap(records, pos);
            int remaining = limit - pos;
            if (remaining <= RecordBatchHeader.MAGIC_OFFSET) {
                throw corrupt("truncated batch header at byte " + pos);
            }
            byte magic = h.magic();
            if (magic == 0 || magic == 1) {
                throw new LogAppendException(ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT,
                        "message format v" + magic + " is not supported, only v2");
            }
            if (magic != RecordBatchHeader.MAGIC_V2) {
                throw corrupt("invalid magic " + magic + " at byte " + pos);
            }
            int batchLength = h.batchLength();
            if (batchLength < RecordBatchHeader.MIN_BATCH_LENGTH) {
                throw corrupt("batch length " + batchLength + " is below the header size");
            }
            long total = (long) batchLength + RecordBatchHeader.LOG_OVERHEAD;
            if (total > maxMessageBytes) {
                throw new LogAppendException(ErrorCode.MESSAGE_TOO_LARGE, "batch of " + total
                        + " bytes exceeds max.message.bytes " + maxMessageBytes);
            }
            if (total > remaining) {
                throw corrupt("batch of " + total + " bytes runs past the end of the records (" + remaining + " left)");
            }
            if (!h.isValidCrc()) {
                throw corrupt("CRC32C mismatch in batch at byte " + pos);
            }
            int recordsCount = h.recordsCount();
            if (recordsCount < 1) {
                throw new LogAppendException(ErrorCode.INVALID_RECORD, "batch has " + recordsCount + " records");
            }
            if (h.lastOffsetDelta() != recordsCount - 1) {
                throw new LogAppendException(ErrorCode.INVALID_RECORD, "lastOffsetDelta " + h.lastOffsetDelta()
                        + " does not match " + recordsCount + " records");
            }
            pos += (int) total;
            count++;
        }
        return count;
    }

    private static LogAppendException corrupt(String message) {
        return new LogAppendException(ErrorCode.CORRUPT_MESSAGE, message);
    }
}
