package io.odradek.broker.txn;

import io.odradek.broker.cluster.ClusterView;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.fetcher.BrokerClient;
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
 * {@link InterBrokerSender} over replication's blocking {@link BrokerClient}: one connection and one thread
 * per destination broker (its calls block that thread, never an event loop; requests to one broker go one at
 * a time, in order). The destination's address is its endpoint of {@code listener} in the newest metadata
 * image, looked up at every send, so a broker that restarts elsewhere is reached there. A failed call fails
 * its future (IOException: refused, broken, timed out) and the next one reconnects; the callers retry.
 */
public final class BrokerClientSender implements InterBrokerSender, AutoCloseable {
    private final ClusterView cluster;
    private final String listener;
    private final String clientId;
    private final int connectTimeoutMs;
    private final int requestTimeoutMs;
    private final Map<Integer, Link> links = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * @param listener         the inter-broker listener's name (whose endpoints the image holds)
     * @param clientId         the request header's client id, e.g. "broker-1-txn-markers"
     * @param requestTimeoutMs how long to wait for an answer (Kafka's request.timeout.ms, 30 s); a marker
     *                         waits on the other side until it is committed
     */
    public BrokerClientSender(ClusterView cluster, String listener, String clientId, int connectTimeoutMs, int requestTimeoutMs) {
        this.cluster = cluster;
        this.listener = listener;
        this.clientId = clientId;
        this.connectTimeoutMs = connectTimeoutMs;
        this.requestTimeoutMs = requestTimeoutMs;
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
        Link link = links.computeIfAbsent(brokerId, Link::new);
        try {
            return CompletableFuture.supplyAsync(() -> link.send(endpoint, api, version, request), link.thread);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new IOException("inter-broker sender " + clientId + " is closed"));
        }
    }

    /** Closes every connection once the calls already queued are done, and stops the threads. */
    @Override
    public void close() {
        closed = true;
        links.values().forEach(Link::close);
        links.clear();
    }

    /** The connection to one broker and the thread its calls run on. */
    private final class Link {
        final ExecutorService thread;
        /** Touched only on {@code thread}. */
        private BrokerClient client;

        Link(int brokerId) {
            this.thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, clientId + "-to-" + brokerId);
                t.setDaemon(true);
                return t;
            });
        }

        Struct send(Endpoint endpoint, ApiSpec api, short version, Struct request) {
            if (client != null && (!client.host().equals(endpoint.host()) || client.port() != endpoint.port())) {
                client.close(); // the broker re-registered elsewhere
                client = null;
            }
            if (client == null) {
                client = new BrokerClient(endpoint.host(), endpoint.port(), clientId, connectTimeoutMs, requestTimeoutMs);
            }
            try {
                return client.send(api, version, request);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The connection closes on the link's thread after the calls already queued; none is accepted after. */
        void close() {
            try {
                thread.execute(() -> {
                    if (client != null) {
                        client.close();
                    }
                });
            } catch (RejectedExecutionException e) {
                // already closed
            }
            thread.shutdown();
        }
    }
}
