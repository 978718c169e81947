package io.odradek.coordinator.group;

import io.odradek.wire.ErrorCode;

/** A request the group coordinator refuses, with the error code and message the client gets. */
final class GroupException extends RuntimeException {
    final ErrorCode error;

    GroupException(ErrorCode error, String message) {
        super(message, null, false, false);
        this.error = error;
    }
}
