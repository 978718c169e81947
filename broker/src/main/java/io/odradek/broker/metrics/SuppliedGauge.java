package io.odradek.broker.metrics;

import java.util.function.Supplier;

/** A gauge read from its supplier when an exporter asks (ReplicaManager counts, consumer lag, ...). */
record SuppliedGauge(MetricName name, Supplier<? extends Number> supplier) implements Metric.Gauge {
    @Override
    public Object value() {
        return supplier.get();
    }
}
