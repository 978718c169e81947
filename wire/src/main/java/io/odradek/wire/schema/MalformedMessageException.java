package io.odradek.wire.schema;

/** Bytes that do not parse as the message they claim to be. The connection that sent them is closed. */
public class MalformedMessageException extends RuntimeException {
    public MalformedMessageException(String message) {
        super(message);
    }

    public MalformedMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
