package io.odradek.replication.partition;

/** How far a read may go (Kafka's FetchIsolation). */
public enum FetchIsolation {
    /** Followers (and tools acting as replicas): up to the log end. */
    LOG_END,
    /** Consumers with read_uncommitted: up to the high watermark. */
    HIGH_WATERMARK,
    /** Consumers with read_committed: up to the last stable offset. */
    TXN_COMMITTED;

    /** Kafka's rule: replicas read to the log end, consumers by their isolation level (1 = read_committed). */
    public static FetchIsolation of(boolean fromReplica, byte isolationLevel) {
        if (fromReplica) {
            return LOG_END;
        }
        return isolationLevel == 1 ? TXN_COMMITTED : HIGH_WATERMARK;
    }
}
