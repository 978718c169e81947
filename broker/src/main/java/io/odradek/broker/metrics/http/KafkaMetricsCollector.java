package io.odradek.broker.metrics.http;

import io.odradek.broker.metrics.Metric;
import io.odradek.broker.metrics.MetricName;
import io.odradek.broker.metrics.MetricRegistry;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Map;

/**
 * The broker's own meters ({@link MetricRegistry}, what JMX shows too) read at each scrape and named as
 * {@link PrometheusNames} says: nothing is counted twice, the registry is the one source.
 */
final class KafkaMetricsCollector implements MultiCollector {
    private static final System.Logger LOG = System.getLogger(KafkaMetricsCollector.class.getName());

    private final MetricRegistry registry;

    KafkaMetricsCollector(MetricRegistry registry) {
        this.registry = registry;
    }

    @Override
    public MetricSnapshots collect() {
        Families families = new Families();
        for (Metric metric : registry.metrics()) {
            try {
                add(families, metric);
            } catch (RuntimeException e) { // one broken gauge must not take the whole scrape down
                LOG.log(System.Logger.Level.DEBUG, "skipping " + metric.name().mbeanName() + ": " + e);
            }
        }
        return families.build();
    }

    static void add(Families families, Metric metric) {
        MetricName name = metric.name();
        Map<String, String> labels = PrometheusNames.labels(name);
        String help = name.group() + ":type=" + name.type() + ",name=" + name.name();
        if (metric instanceof Metric.Meter meter) {
            count(families, name, help, labels, meter.count());
        } else if (metric instanceof Metric.Gauge gauge) {
            Object value = gauge.value();
            Double number = value instanceof Number n ? Double.valueOf(n.doubleValue())
                    : value instanceof Boolean b ? Double.valueOf(b ? 1 : 0) : null;
            if (number != null) {
                families.add(PrometheusNames.base(name), Families.Kind.GAUGE, help + " Value", labels, number);
            }
        } else if (metric instanceof Metric.Histogram histogram) {
            String base = PrometheusNames.base(name);
            for (int i = 0; i < PrometheusNames.QUANTILES.length; i++) {
                Map<String, String> withQuantile = new java.util.TreeMap<>(labels);
                withQuantile.put("quantile", PrometheusNames.QUANTILE_LABELS[i]);
                families.add(base, Families.Kind.GAUGE, help + " Percentiles", withQuantile,
                        histogram.percentile(PrometheusNames.QUANTILES[i]));
            }
            count(families, name, help, labels, histogram.count());
        }
    }

    /** Count: the PerSec rule's counter, else the generic {@code _count} rule's (untyped: see PrometheusNames). */
    private static void count(Families families, MetricName name, String help, Map<String, String> labels, long count) {
        String counter = PrometheusNames.perSecCounter(name);
        if (counter != null) {
            families.add(counter, Families.Kind.COUNTER, help + " Count", labels, count);
        } else {
            families.add(PrometheusNames.count(name), Families.Kind.UNTYPED, help + " Count", labels, count);
        }
    }
}
