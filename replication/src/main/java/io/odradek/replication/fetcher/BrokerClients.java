package io.odradek.replication.fetcher;

import java.util.HashMap;
import java.util.List;
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
    private final ClientSecurity security;
    private final Map<Integer, Entry> clients = new HashMap<>();

    public BrokerClients(String clientId, int connectTimeoutMs, int requestTimeoutMs) {
        this(clientId, connectTimeoutMs, requestTimeoutMs, ClientSecurity.PLAINTEXT);
    }

    /** Clients over the inter-broker listener's {@code security}. */
    public BrokerClients(String clientId, int connectTimeoutMs, int requestTimeoutMs, ClientSecurity security) {
        this.security = security;
        this.clientId = clientId;
        this.connectTimeoutMs = connectTimeoutMs;
        this.requestTimeoutMs = requestTimeoutMs;
    }

    /** The client to {@code brokerId} at {@code host:port}; a client to an older endpoint is closed. */
    public BrokerClient get(int brokerId, String host, int port) {
        Target target = new Target(host, port);
        BrokerClient client;
        Entry old;
        synchronized (this) {
            old = clients.get(brokerId);
            if (old != null && old.target().equals(target)) {
                return old.client();
            }
            client = new BrokerClient(host, port, clientId, connectTimeoutMs, requestTimeoutMs, security);
            clients.put(brokerId, new Entry(target, client));
        }
        // Outside the pool's lock: another thread may be in the middle of a send on the old client.
        if (old != null) {
            old.client().close();
        }
        return client;
    }

    /** Forgets (and closes) the client to a broker that left the cluster. */
    public void remove(int brokerId) {
        Entry e;
        synchronized (this) {
            e = clients.remove(brokerId);
        }
        if (e != null) {
            e.client().close();
        }
    }

    @Override
    public void close() {
        List<Entry> all;
        synchronized (this) {
            all = List.copyOf(clients.values());
            clients.clear();
        }
        all.forEach(e -> e.client().close());
    }
}
