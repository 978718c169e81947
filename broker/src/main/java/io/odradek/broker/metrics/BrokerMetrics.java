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

    /** The dispatcher's per-request report. */
    public RequestMetrics requests() {
        return RequestMetrics.NONE;
    }

    @Override
    public void close() {
    }
}
