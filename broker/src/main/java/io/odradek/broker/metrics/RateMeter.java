package io.odradek.broker.metrics;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Kafka's Yammer meter (MessagesInPerSec, RequestsPerSec, ...): a count and its 1/5/15-minute exponentially weighted
 * rates and mean rate, per second. {@link #mark} is the hot path: one {@link LongAdder} add, no lock, no allocation.
 * The rates move on {@link #tick()}, every 5 s from the broker's one metrics ticker (as Yammer's meters tick),
 * which feeds the events counted since the last tick to the three averages.
 */
public final class RateMeter implements Metric.Meter {
    private final MetricName name;
    private final String eventType;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private final LongAdder count = new LongAdder();
    /** The count at the last tick (only the ticking thread writes it). */
    private long ticked;
    private final Ewma m1 = Ewma.overMinutes(1);
    private final Ewma m5 = Ewma.overMinutes(5);
    private final Ewma m15 = Ewma.overMinutes(15);

    RateMeter(MetricName name, String eventType, LongSupplier nanoClock) {
        this.name = name;
        this.eventType = eventType;
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
    }

    /** One event. */
    public void mark() {
        count.increment();
    }

    /** {@code events} events (messages, bytes). */
    public void mark(long events) {
        count.add(events);
    }

    /** Moves the rates by the events counted since the last tick; called every {@value Ewma#TICK_SECONDS} s. */
    void tick() {
        long now = count.sum();
        long events = now - ticked;
        ticked = now;
        m1.tick(events);
        m5.tick(events);
        m15.tick(events);
    }

    @Override
    public MetricName name() {
        return name;
    }

    @Override
    public long count() {
        return count.sum();
    }

    /** Events per second since the meter was made (0 before any), as Yammer's mean rate. */
    @Override
    public double meanRate() {
        long events = count.sum();
        if (events == 0) {
            return 0.0;
        }
        long elapsed = nanoClock.getAsLong() - startNanos;
        return elapsed <= 0 ? 0.0 : events / (double) elapsed * TimeUnit.SECONDS.toNanos(1);
    }

    @Override
    public double oneMinuteRate() {
        return m1.rate(TimeUnit.SECONDS);
    }

    @Override
    public double fiveMinuteRate() {
        return m5.rate(TimeUnit.SECONDS);
    }

    @Override
    public double fifteenMinuteRate() {
        return m15.rate(TimeUnit.SECONDS);
    }

    @Override
    public String eventType() {
        return eventType;
    }

    @Override
    public String toString() {
        return name.mbeanName() + " count=" + count();
    }
}
