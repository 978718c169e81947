package io.odradek.broker.metrics.http;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.metrics.BrokerMetrics;
import io.odradek.broker.metrics.MetricName;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * issue 11 (metrics-http): what operators see of a broker beyond the Kafka protocol: its gauges (registered
 * with {@link BrokerMetrics}, so JMX has them too), and, when {@code odradek.metrics.port} is set, the HTTP
 * server with {@code /metrics} (Kafka's meters named as the JMX exporter's Kafka rules name them, consumer lag
 * as kafka_exporter names it) and the probes {@code /health/live} and {@code /health/ready}.
 */
public final class BrokerOperations implements AutoCloseable {
    public static final String PORT = "odradek.metrics.port";
    public static final String HOST = "odradek.metrics.host";
    public static final String LIVENESS_TIMEOUT_MS = "odradek.metrics.liveness.timeout.ms";
    public static final String LAG_MAX_GROUPS = "odradek.metrics.consumer.lag.max.groups";
    public static final String LAG_TIMEOUT_MS = "odradek.metrics.consumer.lag.timeout.ms";

    private final BrokerHealth health;
    private final Map<MetricName, Supplier<Number>> gauges;
    private final MetricsHttpServer http;

    private BrokerOperations(BrokerHealth health, Map<MetricName, Supplier<Number>> gauges, MetricsHttpServer http) {
        this.health = health;
        this.gauges = gauges;
        this.http = http;
    }

    /** Registers the gauges and starts the HTTP server if a port is configured; call once the listeners are bound. */
    public static BrokerOperations start(BrokerMetrics metrics, ObservedBroker broker) {
        BrokerConfig config = broker.config();
        BrokerHealth health = new BrokerHealth(broker, Long.parseLong(config.get(LIVENESS_TIMEOUT_MS)));
        Map<MetricName, Supplier<Number>> gauges = BrokerGauges.register(metrics, broker, health);
        String port = config.get(PORT);
        if (port == null) {
            return new BrokerOperations(health, gauges, null);
        }
        ConsumerLagCollector lag = new ConsumerLagCollector(broker.groups(), broker.partitions(),
                Integer.parseInt(config.get(LAG_MAX_GROUPS)), Long.parseLong(config.get(LAG_TIMEOUT_MS)));
        try {
            return new BrokerOperations(health, gauges, MetricsHttpServer.start(config.get(HOST),
                    Integer.parseInt(port), metrics.registry(), List.of(lag), health));
        } catch (RuntimeException e) {
            health.close(); // its heartbeat thread
            throw e;
        }
    }

    public BrokerHealth health() {
        return health;
    }

    /** The gauges registered by this broker's services, by name (what JMX and /metrics read). */
    public Map<MetricName, Supplier<Number>> gauges() {
        return gauges;
    }

    /** The metrics/health HTTP port, or -1 when {@code odradek.metrics.port} is unset. */
    public int httpPort() {
        return http == null ? -1 : http.port();
    }

    /** Broker.close has begun: readiness answers 503 from now on, liveness stays 200 (the server answers until {@link #close}). */
    public void shuttingDown() {
        health.shuttingDown();
    }

    @Override
    public void close() {
        health.shuttingDown();
        if (http != null) {
            http.close();
        }
        health.close();
    }
}
