package io.odradek.broker.metrics;

import io.odradek.broker.BrokerConfig;
import java.util.List;

/**
 * issue 11 (metrics): the broker's meters. SEAM (integrator): the metrics engineer replaces this with the real
 * registry, request meters, topic meters and the JMX exporter; the signatures below are the contract.
 */
public final class BrokerMetrics implements AutoCloseable {
    private BrokerMetrics() {
    }

    public static BrokerMetrics create(BrokerConfig config) {
        return new BrokerMetrics();
    }

    /** What the exporters read. */
    public MetricRegistry registry() {
        return List::of;
    }

    /**
     * Registers a gauge read at each scrape (JMX attribute Value; a Prometheus gauge), replacing one of that name.
     * For meters that other parts of the broker own (partition counts, controller state, connection counts).
     */
    public void gauge(MetricName name, java.util.function.Supplier<? extends Number> value) {
    }

    /** Unregisters the metric of that name, if any (a deleted topic's meters). */
    public void remove(MetricName name) {
    }

    /** The dispatcher's per-request report. */
    public RequestMetrics requests() {
        return RequestMetrics.NONE;
    }

    @Override
    public void close() {
    }
}
