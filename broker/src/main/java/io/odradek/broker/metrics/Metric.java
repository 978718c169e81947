package io.odradek.broker.metrics;

import java.util.concurrent.TimeUnit;

/**
 * issue 11 (metrics): one registered metric, of the three kinds Kafka's broker exposes (Yammer metrics): meters
 * (a count and its rates, e.g. MessagesInPerSec), gauges (a value read when asked, e.g. UnderReplicatedPartitions)
 * and histograms (e.g. a request's TotalTimeMs). Exporters (JMX, Prometheus) read them when scraped.
 */
public sealed interface Metric permits Metric.Meter, Metric.Gauge, Metric.Histogram {
    MetricName name();

    /** A count of events and its rates per {@link #rateUnit()} (Yammer's Meter: Count, MeanRate, 1/5/15-minute rates). */
    non-sealed interface Meter extends Metric {
        long count();

        double meanRate();

        double oneMinuteRate();

        double fiveMinuteRate();

        double fifteenMinuteRate();

        /** What is counted ("messages", "bytes", "requests"), Yammer's EventType. */
        String eventType();

        default TimeUnit rateUnit() {
            return TimeUnit.SECONDS;
        }
    }

    /** A value read when asked (a Number for anything an exporter shows). */
    non-sealed interface Gauge extends Metric {
        Object value();
    }

    /** A distribution of values (Yammer's Histogram/Timer attributes: Count, Min, Max, Mean, StdDev, percentiles). */
    non-sealed interface Histogram extends Metric {
        long count();

        double min();

        double max();

        double mean();

        double stdDev();

        /** The value below which {@code quantile} (0..1) of the recent values lie; 0 when there are none. */
        double percentile(double quantile);
    }
}
