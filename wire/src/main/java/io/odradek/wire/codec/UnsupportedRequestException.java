package io.odradek.wire.codec;

/** A request for an API or version this broker does not handle. */
public class UnsupportedRequestException extends RuntimeException {
    public UnsupportedRequestException(String message) {
        super(message);
    }
}
