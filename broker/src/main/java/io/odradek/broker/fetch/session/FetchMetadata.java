package io.odradek.broker.fetch.session;

/** The session id and epoch values of KIP-227, as Kafka's FetchMetadata names them. */
public final class FetchMetadata {
    /** session_id 0: no session. */
    public static final int INVALID_SESSION_ID = 0;
    /** epoch 0: a full request that asks for a new session. */
    public static final int INITIAL_EPOCH = 0;
    /** epoch -1: a full request that wants no session. */
    public static final int FINAL_EPOCH = -1;

    private FetchMetadata() {
    }

    /** Whether a request with this epoch is a full one (it names every partition it wants). */
    public static boolean isFull(int epoch) {
        return epoch == INITIAL_EPOCH || epoch == FINAL_EPOCH;
    }

    /** The epoch after this one: 1 after 0, wrapping from Integer.MAX_VALUE to 1; -1 stays -1. */
    public static int nextEpoch(int epoch) {
        if (epoch < 0) {
            return FINAL_EPOCH;
        }
        return epoch == Integer.MAX_VALUE ? 1 : epoch + 1;
    }
}
