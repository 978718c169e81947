package io.odradek.coordinator.runtime;

import io.odradek.log.LogException;
import io.odradek.wire.ErrorCode;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The errors a coordinator answers with, as Kafka's coordinators map them. */
public final class CoordinatorErrors {
    private CoordinatorErrors() {
    }

    /** The error a client gets when a coordinator write failed with {@code failure} (Kafka's mapping). */
    public static ErrorCode ofAppendFailure(Throwable failure) {
        Throwable t = unwrap(failure);
        if (t instanceof CoordinatorException c) {
            return c.error();
        }
        if (!(t instanceof LogException e)) {
            return ErrorCode.UNKNOWN_SERVER_ERROR;
        }
        return switch (e.errorCode()) {
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT ->
                    ErrorCode.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR, NOT_COORDINATOR -> ErrorCode.NOT_COORDINATOR;
            // A transactional write refused by the producer's state: the client's own error, as in Kafka.
            case INVALID_PRODUCER_EPOCH, PRODUCER_FENCED, INVALID_TXN_STATE, INVALID_PRODUCER_ID_MAPPING,
                    TRANSACTION_COORDINATOR_FENCED, OUT_OF_ORDER_SEQUENCE_NUMBER -> e.errorCode();
            default -> ErrorCode.UNKNOWN_SERVER_ERROR; // MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE, INVALID_FETCH_SIZE, ...
        };
    }

    /**
     * The error of a transaction marker the runtime could not append: the log's own (Kafka's runtime passes
     * it on; WriteTxnMarkers answers it for the partition), UNKNOWN_SERVER_ERROR for anything else.
     */
    public static ErrorCode ofMarkerFailure(Throwable failure) {
        Throwable t = unwrap(failure);
        if (t instanceof CoordinatorException c) {
            return c.error();
        }
        return t instanceof LogException e ? e.errorCode() : ErrorCode.UNKNOWN_SERVER_ERROR;
    }

    /** The client's error when an operation's future failed with {@code failure}, or null for a bug. */
    public static ErrorCode of(Throwable failure) {
        return unwrap(failure) instanceof CoordinatorException c ? c.error() : null;
    }

    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
