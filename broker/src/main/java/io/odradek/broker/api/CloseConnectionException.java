package io.odradek.broker.api;

/**
 * A handler's way to say "close this client's connection; nothing is wrong with the broker": thrown by
 * {@link ApiHandler#handle} or completing its future. The connection is closed after the responses before it
 * are written, with one rate-limited WARN line giving the reason and no stack trace (Kafka closes a
 * connection the same way when, say, an acks=0 produce fails, since closing is that client's only signal).
 * The message may hold client-supplied names: it is escaped before it is logged.
 */
public class CloseConnectionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CloseConnectionException(String reason) {
        super(reason, null, false, false);
    }
}
