package io.odradek.coordinator.transaction;

import io.odradek.wire.ErrorCode;

/** A request the transaction state refuses, with the error the client gets (no stack trace: it is an answer). */
final class TransactionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient ErrorCode error;

    TransactionException(ErrorCode error, String message) {
        super(message, null, false, false);
        this.error = error;
    }

    ErrorCode error() {
        return error;
    }
}
