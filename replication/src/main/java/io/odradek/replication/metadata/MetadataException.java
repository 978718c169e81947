package io.odradek.replication.metadata;

import io.odradek.wire.ErrorCode;

/** A metadata change that was refused, with the Kafka error code and message a client should see. */
public final class MetadataException extends RuntimeException {
    private final ErrorCode error;

    public MetadataException(ErrorCode error, String message) {
        super(message);
        this.error = error;
    }

    public ErrorCode error() {
        return error;
    }
}
