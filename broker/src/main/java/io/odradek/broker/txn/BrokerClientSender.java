package io.odradek.broker.txn;

import io.odradek.broker.cluster.ClusterView;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.fetcher.BrokerClient;
import io.odradek.replication.fetcher.BrokerClients;
import io.odradek.replication.fetcher.ClientSecurity;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * {@link InterBrokerSender} over replication's blocking {@link BrokerClient}s (a {@link BrokerClients} pool):
 * one connection and one thread per destination broker (its calls block that thread, never an event loop;
 * requests to one broker go one at a time, in order). The destination's address is its endpoint of
 * {@code listener} in the newest metadata image, looked up at every send, so a broker that restarts
 * elsewhere is reached there. A failed call fails its future (IOException: refused, broken, timed out) and
 * the next one reconnects; the callers retry.
 */
public final class BrokerClientSender implements InterBrokerSender, AutoCloseable {
    private final ClusterView cluster;
    private final String listener;
    private final String clientId;
    private final BrokerClients clients;
    private final Map<Integer, ExecutorService> threads = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * @param listener         the inter-broker listener's name (whose endpoints the image holds)
     * @param clientId         the request header's client id, e.g. "broker-1-txn-markers"
     * @param requestTimeoutMs how long to wait for an answer (Kafka's request.timeout.ms, 30 s); a marker
     *                         waits on the other side until it is committed
     */
    public BrokerClientSender(ClusterView cluster, String listener, String clientId, int connectTimeoutMs, int requestTimeoutMs) {
        this(cluster, listener, clientId, connectTimeoutMs, requestTimeoutMs, ClientSecurity.PLAINTEXT);
    }

    /** As above, connecting as {@code security} says (TLS, SASL: the inter-broker listener's protocol). */
    public BrokerClientSender(ClusterView cluster, String listener, String clientId, int connectTimeoutMs,
            int requestTimeoutMs, ClientSecurity security) {
        this.cluster = cluster;
        this.listener = listener;
        this.clientId = clientId;
        this.clients = new BrokerClients(clientId, connectTimeoutMs, requestTimeoutMs, security);
    }

    @Override
    public CompletableFuture<Struct> send(int brokerId, ApiSpec api, short version, Struct request) {
        if (closed) {
            return CompletableFuture.failedFuture(new IOException("inter-broker sender " + clientId + " is closed"));
        }
        BrokerRegistration broker = cluster.image().broker(brokerId).orElse(null);
        Endpoint endpoint = broker == null ? null : broker.endpoint(listener);
        if (endpoint == null) {
            return CompletableFuture.failedFuture(new IOException("broker " + brokerId + " has no " + listener
                    + " endpoint in the metadata"));
        }
        ExecutorService thread = threads.computeIfAbsent(brokerId, this::newThread);
        try {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return clients.get(brokerId, endpoint.host(), endpoint.port()).send(api, version, request);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, thread);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new IOException("inter-broker sender " + clientId + " is closed"));
        }
    }

    private ExecutorService newThread(int brokerId) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, clientId + "-to-" + brokerId);
            t.setDaemon(true);
            return t;
        });
    }

    /** Stops the threads once the calls already queued are done, and closes every connection. */
    @Override
    public void close() {
        closed = true;
        threads.values().forEach(ExecutorService::shutdown);
        threads.clear();
        clients.close(); // waits for a call in progress on that connection (each is bounded by its timeouts)
    }
}
