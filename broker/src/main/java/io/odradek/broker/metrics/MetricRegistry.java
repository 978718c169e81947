package io.odradek.broker.metrics;

import java.util.Collection;

/** issue 11 (metrics): every metric the broker has registered now; what exporters read at each scrape. */
public interface MetricRegistry {
    /** A snapshot of the registered metrics (safe to iterate while meters are added or removed). */
    Collection<Metric> metrics();
}
