package io.odradek.log;

import io.odradek.wire.ErrorCode;
import java.util.List;

/**
 * An append was rejected before anything was written; the log files are untouched. Per-record failures
 * (a compacted topic's missing key, an out-of-range timestamp) come with the records' errors, which
 * Produce v8+ returns as record_errors, as Kafka's {@code RecordValidationException} does.
 */
public class LogAppendException extends LogException {
    private static final long serialVersionUID = 1L;

    /** One rejected record: {@code batchIndex} is the record's index in its batch (Kafka's field name). */
    public record RecordError(int batchIndex, String message) {
    }

    private final List<RecordError> recordErrors;

    public LogAppendException(ErrorCode errorCode, String message) {
        this(errorCode, message, List.of());
    }

    public LogAppendException(ErrorCode errorCode, String message, List<RecordError> recordErrors) {
        super(errorCode, message);
        this.recordErrors = List.copyOf(recordErrors);
    }

    /** The rejected records, in order; empty when the batch as a whole is malformed. */
    public List<RecordError> recordErrors() {
        return recordErrors;
    }
}
