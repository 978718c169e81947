package io.odradek.broker.handlers;

import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * The error a client sees when a request to the controller quorum failed rather than answered: a
 * {@link MetadataException}'s own error, REQUEST_TIMED_OUT when the quorum did not answer in time (no
 * majority), else UNKNOWN_SERVER_ERROR.
 */
final class ControllerFailures {
    private ControllerFailures() {
    }

    static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    static ErrorCode error(Throwable failure) {
        Throwable t = unwrap(failure);
        if (t instanceof MetadataException e) {
            return e.error();
        }
        return t instanceof TimeoutException ? ErrorCode.REQUEST_TIMED_OUT : ErrorCode.UNKNOWN_SERVER_ERROR;
    }

    static String message(Throwable failure) {
        return String.valueOf(unwrap(failure).getMessage());
    }
}
