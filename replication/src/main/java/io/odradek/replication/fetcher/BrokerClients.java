package io.odradek.replication.fetcher;

import java.util.HashMap;
import java.util.Map;

/**
 * One {@link BrokerClient} per other broker, for senders that talk to many (transaction markers,
 * AddPartitionsToTxn verification): reused while the broker's endpoint stays the same, replaced when it
 * re-registers elsewhere. Each client serialises its own requests; use one pool per sending thread or
 * accept that requests to the same broker queue behind each other.
 */
public final class BrokerClients implements AutoCloseable {
    private record Target(String host, int port) {
    }

    private record Entry(Target target, BrokerClient client) {
    }

    private final String clientId;
    private final int connectTimeoutMs;
    private final int requestTimeoutMs;
    private final Map<Integer, Entry> clients = new HashMap<>();

    public BrokerClients(String clientId, int connectTimeoutMs, int requestTimeoutMs) {
        this.clientId = clientId;
        this.connectTimeoutMs = connectTimeoutMs;
        this.requestTimeoutMs = requestTimeoutMs;
    }

    /** The client to {@code brokerId} at {@code host:port}; a client to an older endpoint is closed. */
    public synchronized BrokerClient get(int brokerId, String host, int port) {
        Target target = new Target(host, port);
        Entry e = clients.get(brokerId);
        if (e != null && e.target().equals(target)) {
            return e.client();
        }
        if (e != null) {
            e.client().close();
        }
        BrokerClient client = new BrokerClient(host, port, clientId, connectTimeoutMs, requestTimeoutMs);
        clients.put(brokerId, new Entry(target, client));
        return client;
    }

    /** Forgets (and closes) the client to a broker that left the cluster. */
    public synchronized void remove(int brokerId) {
        Entry e = clients.remove(brokerId);
        if (e != null) {
            e.client().close();
        }
    }

    @Override
    public synchronized void close() {
        clients.values().forEach(e -> e.client().close());
        clients.clear();
    }
}
