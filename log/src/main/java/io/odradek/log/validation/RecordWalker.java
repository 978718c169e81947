package io.odradek.log.validation;

import io.odradek.wire.batch.RecordBatchHeader;

/**
 * Entry point of the record walk: every record of one v2 batch whose header has been validated (CRC,
 * sizes, codec 0-4, count == lastOffsetDelta + 1), in place for an uncompressed batch, by streaming
 * decompression for a compressed one. Throws {@code LogAppendException} for the first framing error, or
 * with every record error once the batch has been read.
 */
public final class RecordWalker {
    private RecordWalker() {
    }

    public static void walk(RecordBatchHeader h, RecordChecks checks) {
        checks.startBatch(h);
        if (h.compressionType() == 0) {
            UncompressedRecords.walk(h, checks);
        } else {
            CompressedRecords.walk(h, checks);
        }
        checks.endBatch();
    }
}
