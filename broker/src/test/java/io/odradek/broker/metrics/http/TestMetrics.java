package io.odradek.broker.metrics.http;

import io.odradek.broker.metrics.Metric;
import io.odradek.broker.metrics.MetricName;
import java.util.Map;

/** Small Metric implementations for tests (the real registry is the metrics engineer's). */
final class TestMetrics {
    private TestMetrics() {
    }

    static MetricName name(String mbean) {
        // "group:type=T,name=N,k=v,..." -> MetricName
        int colon = mbean.indexOf(':');
        String group = mbean.substring(0, colon);
        String type = null;
        String name = null;
        Map<String, String> tags = new java.util.LinkedHashMap<>();
        for (String part : mbean.substring(colon + 1).split(",")) {
            String[] kv = part.split("=", 2);
            switch (kv[0]) {
                case "type" -> type = kv[1];
                case "name" -> name = kv[1];
                default -> tags.put(kv[0], kv[1]);
            }
        }
        return new MetricName(group, type, name, tags);
    }

    record Meter(MetricName name, long count) implements Metric.Meter {
        @Override
        public double meanRate() {
            return 1.5;
        }

        @Override
        public double oneMinuteRate() {
            return 2.5;
        }

        @Override
        public double fiveMinuteRate() {
            return 3.5;
        }

        @Override
        public double fifteenMinuteRate() {
            return 4.5;
        }

        @Override
        public String eventType() {
            return "messages";
        }
    }

    record Gauge(MetricName name, Object value) implements Metric.Gauge {
    }

    /** percentile(q) = q * 100, so each quantile's value says which it is. */
    record Histogram(MetricName name, long count) implements Metric.Histogram {
        @Override
        public double min() {
            return 1;
        }

        @Override
        public double max() {
            return 100;
        }

        @Override
        public double mean() {
            return 50;
        }

        @Override
        public double stdDev() {
            return 5;
        }

        @Override
        public double percentile(double quantile) {
            return quantile * 100;
        }
    }
}
