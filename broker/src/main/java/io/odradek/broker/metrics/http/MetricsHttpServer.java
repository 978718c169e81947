package io.odradek.broker.metrics.http;

import io.odradek.broker.metrics.MetricRegistry;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The broker's operations HTTP server (the Prometheus Java client's exporter on the JDK's HttpServer):
 * {@code /metrics} in the format the scraper asks for (Prometheus text 0.0.4, OpenMetrics, or protobuf; gzip
 * when accepted; {@code name[]=} filters), and the probes of {@link HealthHandler} on every other path.
 * Its own registry, not the client's global one: two brokers in one JVM (tests, embedded) never mix.
 */
public final class MetricsHttpServer implements AutoCloseable {
    private final HTTPServer server;

    private MetricsHttpServer(HTTPServer server) {
        this.server = server;
    }

    /** Binds {@code host:port} (port 0: any free one, see {@link #port()}) and serves until closed. */
    public static MetricsHttpServer start(String host, int port, MetricRegistry metrics, List<MultiCollector> more,
            BrokerHealth health) {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new KafkaMetricsCollector(metrics));
        more.forEach(registry::register);
        AtomicInteger threads = new AtomicInteger();
        // Two threads: a probe is never queued behind more than one slow scrape (each is bounded anyway).
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "odradek-metrics-http-" + threads.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
        try {
            return new MetricsHttpServer(HTTPServer.builder()
                    .hostname(host)
                    .port(port)
                    .registry(registry)
                    .executorService(executor)
                    .registerHealthHandler(false) // ours are /health/live and /health/ready
                    .defaultHandler(new HealthHandler(health))
                    .buildAndStart());
        } catch (IOException e) {
            executor.shutdownNow();
            throw new UncheckedIOException("cannot serve metrics on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** The bound port. */
    public int port() {
        return server.getPort();
    }

    /** Stops at once (no scrape is worth delaying a shutdown for). */
    @Override
    public void close() {
        server.close();
    }
}
