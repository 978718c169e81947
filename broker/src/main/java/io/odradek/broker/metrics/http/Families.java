package io.odradek.broker.metrics.http;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The metric families of one scrape, filled sample by sample: samples of the same name form one family, whose
 * type is theirs, or untyped when they disagree (as the JMX exporter does); a second sample with the same name
 * and labels is dropped (the first wins).
 */
final class Families {
    enum Kind { COUNTER, GAUGE, UNTYPED }

    private static final class Family {
        Kind kind;
        final String help;
        final Map<Labels, Double> samples = new LinkedHashMap<>();

        Family(Kind kind, String help) {
            this.kind = kind;
            this.help = help;
        }
    }

    private final Map<String, Family> families = new LinkedHashMap<>();

    /** {@code name} without a counter's {@code _total} (the exposition adds it). */
    void add(String name, Kind kind, String help, Map<String, String> labels, double value) {
        Family family = families.computeIfAbsent(name, n -> new Family(kind, help));
        if (family.kind != kind) {
            family.kind = Kind.UNTYPED;
        }
        Labels.Builder b = Labels.builder();
        labels.forEach(b::label);
        family.samples.putIfAbsent(b.build(), value);
    }

    MetricSnapshots build() {
        MetricSnapshots.Builder out = MetricSnapshots.builder();
        families.forEach((name, family) -> out.metricSnapshot(snapshot(name, family)));
        return out.build();
    }

    private static MetricSnapshot snapshot(String name, Family family) {
        switch (family.kind) {
            case COUNTER: {
                CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(family.help);
                family.samples.forEach((labels, v) -> b.dataPoint(
                        CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(v).build()));
                return b.build();
            }
            case GAUGE: {
                GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(family.help);
                family.samples.forEach((labels, v) -> b.dataPoint(
                        GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(v).build()));
                return b.build();
            }
            default: {
                UnknownSnapshot.Builder b = UnknownSnapshot.builder().name(name).help(family.help);
                family.samples.forEach((labels, v) -> b.dataPoint(
                        UnknownSnapshot.UnknownDataPointSnapshot.builder().labels(labels).value(v).build()));
                return b.build();
            }
        }
    }
}
