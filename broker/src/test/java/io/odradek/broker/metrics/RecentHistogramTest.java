package io.odradek.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Request-time histograms with Yammer's attributes. */
class RecentHistogramTest {
    final RecentHistogram histogram = new RecentHistogram(RequestMeters.name("TotalTimeMs", "Produce"));

    @Test
    void anEmptyHistogramReadsZeroEverywhere() {
        assertThat(histogram.count()).isZero();
        assertThat(histogram.min()).isZero();
        assertThat(histogram.max()).isZero();
        assertThat(histogram.mean()).isZero();
        assertThat(histogram.stdDev()).isZero();
        assertThat(histogram.percentile(0.99)).isZero();
    }

    @Test
    void oneToAHundredHaveYammersPercentilesAndMoments() {
        for (int v = 1; v <= 100; v++) {
            histogram.update(v);
        }
        assertThat(histogram.count()).isEqualTo(100);
        assertThat(histogram.min()).isEqualTo(1.0);
        assertThat(histogram.max()).isEqualTo(100.0);
        assertThat(histogram.mean()).isEqualTo(50.5);
        assertThat(histogram.stdDev()).isCloseTo(29.011491975882016, within(1e-9)); // sample standard deviation
        // Yammer's Snapshot: position q * (n + 1), interpolated.
        assertThat(histogram.percentile(0.5)).isCloseTo(50.5, within(1e-9));
        assertThat(histogram.percentile(0.75)).isCloseTo(75.75, within(1e-9));
        assertThat(histogram.percentile(0.95)).isCloseTo(95.95, within(1e-9));
        assertThat(histogram.percentile(0.99)).isCloseTo(99.99, within(1e-9));
        assertThat(histogram.percentile(0.999)).isEqualTo(100.0);
        assertThat(histogram.percentile(0.001)).isEqualTo(1.0);
    }

    @Test
    void percentilesFollowTheMostRecentValuesWhileCountAndExtremesCoverAll() {
        histogram.update(1_000_000); // an old outlier
        for (int i = 0; i < RecentHistogram.SIZE; i++) {
            histogram.update(7);
        }
        assertThat(histogram.count()).isEqualTo(RecentHistogram.SIZE + 1);
        assertThat(histogram.max()).isEqualTo(1_000_000.0);
        assertThat(histogram.min()).isEqualTo(7.0);
        assertThat(histogram.percentile(0.999)).isEqualTo(7.0); // the outlier left the reservoir
        assertThat(histogram.snapshot()).hasSize(RecentHistogram.SIZE);
    }
}
