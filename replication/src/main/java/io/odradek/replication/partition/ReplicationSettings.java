package io.odradek.replication.partition;

/**
 * The broker's replication configuration, Kafka's keys and defaults: {@code replica.lag.time.max.ms} (30000),
 * {@code replica.fetch.max.bytes} per partition (1 MiB), {@code replica.fetch.response.max.bytes} (10 MiB),
 * {@code replica.fetch.wait.max.ms} (500), {@code replica.fetch.min.bytes} (1),
 * {@code replica.fetch.backoff.ms} (1000), {@code num.replica.fetchers} (1), {@code replica.socket.timeout.ms}
 * (30000), and the listener followers fetch through ({@code inter.broker.listener.name}: the client listener).
 */
public record ReplicationSettings(long replicaLagTimeMaxMs, int fetchMaxBytes, int fetchResponseMaxBytes,
        int fetchWaitMaxMs, int fetchMinBytes, long fetchBackoffMs, int numFetchers, int socketTimeoutMs,
        String listenerName) {
    public static final ReplicationSettings DEFAULTS = new ReplicationSettings(30_000L, 1_048_576, 10_485_760,
            500, 1, 1_000L, 1, 30_000, "PLAINTEXT");

    public ReplicationSettings {
        if (numFetchers < 1) {
            throw new IllegalArgumentException("num.replica.fetchers must be at least 1, not " + numFetchers);
        }
        if (socketTimeoutMs < fetchWaitMaxMs) {
            throw new IllegalArgumentException("replica.socket.timeout.ms (" + socketTimeoutMs
                    + ") must be at least replica.fetch.wait.max.ms (" + fetchWaitMaxMs + ")");
        }
    }

    public ReplicationSettings withListenerName(String name) {
        return new ReplicationSettings(replicaLagTimeMaxMs, fetchMaxBytes, fetchResponseMaxBytes, fetchWaitMaxMs,
                fetchMinBytes, fetchBackoffMs, numFetchers, socketTimeoutMs, name);
    }

    public ReplicationSettings withReplicaLagTimeMaxMs(long ms) {
        return new ReplicationSettings(ms, fetchMaxBytes, fetchResponseMaxBytes, fetchWaitMaxMs,
                fetchMinBytes, fetchBackoffMs, numFetchers, socketTimeoutMs, listenerName);
    }
}
