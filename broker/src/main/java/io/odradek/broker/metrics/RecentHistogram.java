package io.odradek.broker.metrics;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Kafka's request-time histograms (TotalTimeMs, LocalTimeMs, RequestBytes) with Yammer's attributes: count, min,
 * max, mean and standard deviation over every value, and percentiles over the last {@value #SIZE} values (Yammer's
 * default reservoir size), kept in a fixed ring. Kafka's histograms use Yammer's exponentially decaying reservoir,
 * which locks and allocates per update; the ring keeps what matters for the percentiles (recent values) with bounded
 * memory: an update is a few atomic adds and one slot write, no lock, no allocation. Percentiles are computed when
 * read (a copy and sort of at most {@value #SIZE} longs).
 */
public final class RecentHistogram implements Metric.Histogram {
    static final int SIZE = 1028;

    private final MetricName name;
    private final AtomicLong count = new AtomicLong();
    private final AtomicLongArray recent = new AtomicLongArray(SIZE);
    private final LongAdder sum = new LongAdder();
    private final DoubleAdder sumOfSquares = new DoubleAdder();
    private final LongAccumulator min = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator max = new LongAccumulator(Math::max, Long.MIN_VALUE);

    RecentHistogram(MetricName name) {
        this.name = name;
    }

    public void update(long value) {
        long n = count.getAndIncrement();
        recent.lazySet((int) (n % SIZE), value);
        sum.add(value);
        sumOfSquares.add((double) value * value);
        min.accumulate(value);
        max.accumulate(value);
    }

    @Override
    public MetricName name() {
        return name;
    }

    @Override
    public long count() {
        return count.get();
    }

    @Override
    public double min() {
        return count.get() == 0 ? 0.0 : min.get();
    }

    @Override
    public double max() {
        return count.get() == 0 ? 0.0 : max.get();
    }

    @Override
    public double mean() {
        long n = count.get();
        return n == 0 ? 0.0 : sum.sum() / (double) n;
    }

    /** The sample standard deviation (n - 1), as Yammer's; 0 for fewer than two values. */
    @Override
    public double stdDev() {
        long n = count.get();
        if (n < 2) {
            return 0.0;
        }
        double total = sum.sum();
        double variance = (sumOfSquares.sum() - total * total / n) / (n - 1);
        return variance <= 0 ? 0.0 : Math.sqrt(variance);
    }

    @Override
    public double percentile(double quantile) {
        return percentile(snapshot(), quantile);
    }

    /** The recent values, sorted. */
    long[] snapshot() {
        int n = (int) Math.min(count.get(), SIZE);
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = recent.get(i);
        }
        Arrays.sort(values);
        return values;
    }

    /** Yammer's Snapshot.getValue: linear interpolation between the values around position quantile * (n + 1). */
    static double percentile(long[] sorted, double quantile) {
        if (quantile < 0.0 || quantile > 1.0 || Double.isNaN(quantile)) {
            throw new IllegalArgumentException(quantile + " is not in [0..1]");
        }
        if (sorted.length == 0) {
            return 0.0;
        }
        double pos = quantile * (sorted.length + 1);
        if (pos < 1) {
            return sorted[0];
        }
        if (pos >= sorted.length) {
            return sorted[sorted.length - 1];
        }
        double lower = sorted[(int) pos - 1];
        double upper = sorted[(int) pos];
        return lower + (pos - Math.floor(pos)) * (upper - lower);
    }

    @Override
    public String toString() {
        return name.mbeanName() + " count=" + count();
    }
}
