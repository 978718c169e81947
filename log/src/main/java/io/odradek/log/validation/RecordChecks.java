package io.odradek.log.validation;

import io.odradek.log.LogAppendException;
import io.odradek.log.LogAppendException.RecordError;
import io.odradek.log.LogConfig;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.RecordBatchHeader;
import java.util.ArrayList;
import java.util.List;

/**
 * What each well-framed record of one batch must satisfy, as Kafka's {@code LogValidator.validateRecord}:
 * a key on a compacted topic, then a timestamp within {@code message.timestamp.before/after.max.ms} of now
 * on a CreateTime topic (and no producer-set LogAppendTime on a LogAppendTime topic). Unlike framing
 * errors, which end the walk at once, these are collected for every record and reported together with
 * their record indexes (Produce v8+ record_errors), as Kafka's {@code processRecordErrors} does.
 * Offset deltas must be the record's index: Odradek stores a batch as sent and never rewrites it (Kafka
 * would recompress a compressed batch with other deltas, and keeps an uncompressed one's deltas as sent).
 * The one header field corrected, as Kafka's LogValidator corrects it, is a CreateTime batch's
 * maxTimestamp, when it is not the largest record timestamp: retention and producer expiry trust it.
 * At most {@value #MAX_REPORTED_ERRORS} record errors are kept (the rest are counted), so a batch of
 * millions of tiny bad records costs no more than their walk.
 */
public final class RecordChecks {
    static final int MAX_REPORTED_ERRORS = 100;

    private final String topic;
    private final int partition;
    private final boolean compacted;
    private final boolean createTimeTopic;
    private final long now;
    private final long beforeMaxMs;
    private final long afterMaxMs;
    private final int maxRecordBytes;

    private RecordBatchHeader header;
    private long baseOffset;
    private long baseTimestamp;
    private boolean logAppendTimeBatch;
    private long maxTimestamp;
    /** The largest record timestamp seen in this batch. */
    private long recordsMaxTimestamp;
    /** Allocated on the first rejected record only; at most MAX_REPORTED_ERRORS of errorCount. */
    private List<RecordError> errors;
    private int errorCount;
    private boolean timestampError;

    public RecordChecks(String topic, int partition, LogConfig config, long now) {
        this.topic = topic;
        this.partition = partition;
        this.compacted = config.isCompact();
        this.createTimeTopic = !config.isLogAppendTime();
        this.now = now;
        this.beforeMaxMs = config.timestampBeforeMaxMs();
        this.afterMaxMs = config.timestampAfterMaxMs();
        this.maxRecordBytes = config.maxDecompressedMessageBytes();
    }

    /** Starts the checks of the batch {@code h} points at. */
    void startBatch(RecordBatchHeader h) {
        header = h;
        recordsMaxTimestamp = RecordBatchHeader.NO_TIMESTAMP;
        errorCount = 0;
        baseOffset = h.baseOffset();
        baseTimestamp = h.baseTimestamp();
        logAppendTimeBatch = h.isLogAppendTime();
        maxTimestamp = h.maxTimestamp();
        errors = null;
        timestampError = false;
    }

    /** Kafka's {@code max.decompressed.message.bytes}: a decompressed record's body may not be larger. */
    int maxRecordBytes() {
        return maxRecordBytes;
    }

    /** Checks one record whose framing is valid; {@code keyLength} is -1 for a null key. */
    void record(int index, long timestampDelta, int offsetDelta, int keyLength, int valueLength) {
        if (offsetDelta != index) {
            throw invalid("Record " + index + " has offset delta " + offsetDelta + "; the records of a batch must have"
                    + " offset deltas 0, 1, 2, ... in topic partition " + partitionName() + ".");
        }
        if (compacted && keyLength < 0) {
            if (reported()) {
                add(index, "Compacted topic cannot accept message without key in topic partition " + partitionName() + ".");
            }
            return;
        }
        long timestamp = logAppendTimeBatch ? maxTimestamp : baseTimestamp + timestampDelta;
        recordsMaxTimestamp = Math.max(recordsMaxTimestamp, timestamp);
        if (createTimeTopic && timestamp != RecordBatchHeader.NO_TIMESTAMP) {
            long diff = now - timestamp;
            if (diff > beforeMaxMs || -diff > afterMaxMs) {
                timestampError = true;
                if (reported()) {
                    add(index, "Timestamp " + timestamp + " of message with offset " + (baseOffset + offsetDelta)
                            + " is out of range. The timestamp should be within [" + (now - beforeMaxMs) + ", "
                            + (now + afterMaxMs) + "]");
                }
            }
        } else if (logAppendTimeBatch) {
            timestampError = true;
            if (reported()) {
                add(index, "Invalid timestamp type in message DefaultRecord(offset=" + (baseOffset + offsetDelta)
                        + ", timestamp=" + timestamp + ", key=" + Math.max(0, keyLength) + " bytes, value="
                        + Math.max(0, valueLength) + " bytes). Producer should not set timestamp type to LogAppendTime.");
            }
        }
    }

    /** After the batch's last record: throws the collected record errors, as Kafka's processRecordErrors. */
    void endBatch() {
        if (errors == null) {
            if (!logAppendTimeBatch && maxTimestamp != recordsMaxTimestamp) {
                header.setCreateTimeMaxTimestamp(recordsMaxTimestamp);
            }
            return;
        }
        if (timestampError) {
            throw new LogAppendException(ErrorCode.INVALID_TIMESTAMP,
                    "One or more records have been rejected due to invalid timestamp", errors);
        }
        throw new LogAppendException(ErrorCode.INVALID_RECORD, "One or more records have been rejected due to "
                + errorCount + " record errors in total, and only showing the first three errors at most: "
                + errors.subList(0, Math.min(3, errors.size())), errors);
    }

    /** Counts one more record error; true while it is among the first MAX_REPORTED_ERRORS, whose message is kept. */
    private boolean reported() {
        return ++errorCount <= MAX_REPORTED_ERRORS;
    }

    private void add(int index, String message) {
        if (errors == null) {
            errors = new ArrayList<>(4);
        }
        errors.add(new RecordError(index, message));
    }

    private String partitionName() {
        return topic + "-" + partition;
    }

    static LogAppendException invalid(String message) {
        return new LogAppendException(ErrorCode.INVALID_RECORD, message);
    }
}
