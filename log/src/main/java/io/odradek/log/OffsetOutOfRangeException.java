package io.odradek.log;

import io.odradek.wire.ErrorCode;

/** A read asked for an offset below the log start offset or above the log end offset. */
public class OffsetOutOfRangeException extends LogException {
    private static final long serialVersionUID = 1L;

    public OffsetOutOfRangeException(String message) {
        super(ErrorCode.OFFSET_OUT_OF_RANGE, message);
    }
}
