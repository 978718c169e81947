package io.odradek.replication.partition;

import io.odradek.replication.fetcher.ClientSecurity;

/**
 * The broker's replication configuration, Kafka's keys and defaults: {@code replica.lag.time.max.ms} (30000),
 * {@code replica.fetch.max.bytes} per partition (1 MiB), {@code replica.fetch.response.max.bytes} (10 MiB),
 * {@code replica.fetch.wait.max.ms} (500), {@code replica.fetch.min.bytes} (1),
 * {@code replica.fetch.backoff.ms} (1000), {@code num.replica.fetchers} (1), {@code replica.socket.timeout.ms}
 * (30000), the listener followers fetch through ({@code inter.broker.listener.name}) and how they connect to it
 * (TLS, SASL: {@code clientSecurity}; PLAINTEXT by default).
 */
public record ReplicationSettings(long replicaLagTimeMaxMs, int fetchMaxBytes, int fetchResponseMaxBytes,
        int fetchWaitMaxMs, int fetchMinBytes, long fetchBackoffMs, int numFetchers, int socketTimeoutMs,
        String listenerName, ClientSecurity clientSecurity) {
    public static final ReplicationSettings DEFAULTS = new ReplicationSettings(30_000L, 1_048_576, 10_485_760,
            500, 1, 1_000L, 1, 30_000, "PLAINTEXT");

    /** Fetching from a PLAINTEXT inter-broker listener. */
    public ReplicationSettings(long replicaLagTimeMaxMs, int fetchMaxBytes, int fetchResponseMaxBytes,
            int fetchWaitMaxMs, int fetchMinBytes, long fetchBackoffMs, int numFetchers, int socketTimeoutMs,
            String listenerName) {
        this(replicaLagTimeMaxMs, fetchMaxBytes, fetchResponseMaxBytes, fetchWaitMaxMs, fetchMinBytes, fetchBackoffMs,
                numFetchers, socketTimeoutMs, listenerName, ClientSecurity.PLAINTEXT);
    }

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
                fetchMinBytes, fetchBackoffMs, numFetchers, socketTimeoutMs, name, clientSecurity);
    }

    public ReplicationSettings withReplicaLagTimeMaxMs(long ms) {
        return new ReplicationSettings(ms, fetchMaxBytes, fetchResponseMaxBytes, fetchWaitMaxMs,
                fetchMinBytes, fetchBackoffMs, numFetchers, socketTimeoutMs, listenerName, clientSecurity);
    }

    /** How fetchers connect to the inter-broker listener (issue 10, listeners). */
    public ReplicationSettings withClientSecurity(ClientSecurity security) {
        return new ReplicationSettings(replicaLagTimeMaxMs, fetchMaxBytes, fetchResponseMaxBytes, fetchWaitMaxMs,
                fetchMinBytes, fetchBackoffMs, numFetchers, socketTimeoutMs, listenerName, security);
    }
}
