package io.odradek.broker.metrics.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.odradek.broker.metrics.MetricRegistry;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The broker's operations HTTP server (the JDK's HttpServer with the Prometheus Java client's scrape handler):
 * {@code /metrics} in the format the scraper asks for (Prometheus text 0.0.4, OpenMetrics, or protobuf; gzip
 * when accepted; {@code name[]=} filters), and the probes of {@link HealthHandler} on every other path.
 * Scrapes run on their own two threads (the consumer lag collector may take seconds); the server's thread only
 * hands them over and answers the probes, so a probe never waits behind a scrape.
 * Its own registry, not the client's global one: two brokers in one JVM (tests, embedded) never mix.
 */
public final class MetricsHttpServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService probes;
    private final ExecutorService scrapes;

    private MetricsHttpServer(HttpServer server, ExecutorService probes, ExecutorService scrapes) {
        this.server = server;
        this.probes = probes;
        this.scrapes = scrapes;
    }

    /** Binds {@code host:port} (port 0: any free one, see {@link #port()}) and serves until closed. */
    public static MetricsHttpServer start(String host, int port, MetricRegistry metrics, List<MultiCollector> more,
            BrokerHealth health) {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new KafkaMetricsCollector(metrics));
        more.forEach(registry::register);
        ExecutorService probes = Executors.newSingleThreadExecutor(daemon("odradek-metrics-http-probes"));
        ExecutorService scrapes = Executors.newFixedThreadPool(2, daemon("odradek-metrics-http-scrape-"));
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 3);
            server.setExecutor(probes);
            server.createContext("/metrics", new OnExecutor(new MetricsHandler(registry), scrapes));
            server.createContext("/", new HealthHandler(health));
            server.start();
            return new MetricsHttpServer(server, probes, scrapes);
        } catch (IOException e) {
            probes.shutdownNow();
            scrapes.shutdownNow();
            throw new UncheckedIOException("cannot serve metrics on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** The bound port. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Stops at once (no scrape is worth delaying a shutdown for). */
    @Override
    public void close() {
        server.stop(0);
        probes.shutdownNow();
        scrapes.shutdownNow();
    }

    private static ThreadFactory daemon(String prefix) {
        AtomicInteger threads = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix.endsWith("-") ? prefix + threads.getAndIncrement() : prefix);
            t.setDaemon(true);
            return t;
        };
    }

    /** Runs {@code handler} on {@code executor} (the JDK server lets an exchange finish on another thread). */
    private record OnExecutor(HttpHandler handler, ExecutorService executor) implements HttpHandler {
        @Override
        public void handle(HttpExchange exchange) {
            try {
                executor.execute(() -> {
                    try {
                        handler.handle(exchange);
                    } catch (IOException | RuntimeException e) {
                        exchange.close(); // the client sees the connection end
                    }
                });
            } catch (RejectedExecutionException e) {
                exchange.close(); // closing down
            }
        }
    }
}
