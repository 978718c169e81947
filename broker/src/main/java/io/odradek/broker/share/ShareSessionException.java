package io.odradek.broker.share;

import io.odradek.wire.ErrorCode;

/**
 * A share session refusal the whole request is answered with (Kafka's top-level ShareFetch/ShareAcknowledge
 * errors): SHARE_SESSION_NOT_FOUND, INVALID_SHARE_SESSION_EPOCH, SHARE_SESSION_LIMIT_REACHED, INVALID_REQUEST.
 */
public final class ShareSessionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient ErrorCode error;

    public ShareSessionException(ErrorCode error, String message) {
        super(message, null, false, false);
        this.error = error;
    }

    public ErrorCode error() {
        return error;
    }
}
