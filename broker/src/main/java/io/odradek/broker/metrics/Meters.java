package io.odradek.broker.metrics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * The broker's registry: every metric by name, what exporters read ({@link #metrics()}), and whoever follows
 * additions and removals (the JMX exporter registers an MBean per metric). Adding or removing a metric is rare
 * (start, a topic's first use or deletion, a service's gauge); the meters themselves are updated without it.
 */
public final class Meters implements MetricRegistry {
    /** Told of each metric added or removed (on the thread that added or removed it). */
    public interface Listener {
        void added(Metric metric);

        void removed(Metric metric);
    }

    private final Map<MetricName, Metric> metrics = new ConcurrentHashMap<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final LongSupplier nanoClock;

    public Meters(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    @Override
    public Collection<Metric> metrics() {
        return List.copyOf(metrics.values());
    }

    /** The metric of that name, or null. */
    public Metric get(MetricName name) {
        return metrics.get(name);
    }

    /** The meter of that name, made and registered if there is none (a metric of another kind there: an error). */
    public RateMeter meter(MetricName name, String eventType) {
        return existingOrAdded(name, RateMeter.class, () -> new RateMeter(name, eventType, nanoClock));
    }

    /** The histogram of that name, made and registered if there is none. */
    public RecentHistogram histogram(MetricName name) {
        return existingOrAdded(name, RecentHistogram.class, () -> new RecentHistogram(name));
    }

    /** Registers {@code metric}, replacing (and unregistering) one of that name. */
    public void put(Metric metric) {
        Metric old = metrics.put(metric.name(), metric);
        if (old != null) {
            listeners.forEach(l -> l.removed(old));
        }
        listeners.forEach(l -> l.added(metric));
    }

    /** Unregisters the metric of that name, if any. */
    public void remove(MetricName name) {
        Metric old = metrics.remove(name);
        if (old != null) {
            listeners.forEach(l -> l.removed(old));
        }
    }

    /** Follows additions and removals from now on, after being told of every metric registered so far. */
    public void addListener(Listener listener) {
        listeners.add(listener);
        metrics.values().forEach(listener::added);
    }

    /** The meters, for the ticker. */
    void forEachMeter(java.util.function.Consumer<RateMeter> action) {
        for (Metric m : metrics.values()) {
            if (m instanceof RateMeter meter) {
                action.accept(meter);
            }
        }
    }

    /** Every registered metric's name (tests, close). */
    public List<MetricName> names() {
        return new ArrayList<>(metrics.keySet());
    }

    private <T extends Metric> T existingOrAdded(MetricName name, Class<T> kind, java.util.function.Supplier<T> make) {
        Metric existing = metrics.get(name);
        if (existing == null) {
            T made = make.get();
            existing = metrics.putIfAbsent(name, made);
            if (existing == null) {
                listeners.forEach(l -> l.added(made));
                return made;
            }
        }
        if (!kind.isInstance(existing)) {
            throw new IllegalStateException(name.mbeanName() + " is already registered as " + existing.getClass().getSimpleName());
        }
        return kind.cast(existing);
    }
}
