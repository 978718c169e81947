package io.odradek.coordinator.runtime;

import io.odradek.wire.ErrorCode;

/**
 * Why the runtime did not run an operation, or why its write failed: the error a client gets
 * (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, ...).
 */
public final class CoordinatorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode error;

    public CoordinatorException(ErrorCode error, String message) {
        super(message, null, false, false);
        this.error = error;
    }

    public ErrorCode error() {
        return error;
    }
}
