package io.odradek.log;

import io.odradek.wire.ErrorCode;

/** An append was rejected before anything was written; the log files are untouched. */
public class LogAppendException extends LogException {
    private static final long serialVersionUID = 1L;

    public LogAppendException(ErrorCode errorCode, String message) {
        super(errorCode, message);
    }
}
