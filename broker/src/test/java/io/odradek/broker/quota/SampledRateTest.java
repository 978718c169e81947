package io.odradek.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The windowed rate, driven by a hand-moved clock (11 windows of 1 s unless said). */
class SampledRateTest {
    private final SampledRate rate = new SampledRate(QuotaWindows.KAFKA_DEFAULTS);

    @Test
    void aYoungRateIsMeasuredOverAtLeastOneWindow() {
        rate.record(500_000, 1_000);
        assertThat(rate.windowSizeMs(1_000)).isEqualTo(1_000);
        assertThat(rate.measure(1_000)).isEqualTo(500_000.0);
        assertThat(rate.windowSizeMs(1_400)).isEqualTo(1_000);
    }

    @Test
    void anOlderRateIsMeasuredSinceItsOldestSampleBegan() {
        rate.record(1_000, 0);
        rate.record(1_000, 1_000); // a new sample: the first one's window is over
        rate.record(1_000, 2_500);
        assertThat(rate.windowSizeMs(3_000)).isEqualTo(3_000);
        assertThat(rate.measure(3_000)).isCloseTo(1_000.0, within(1e-9));
    }

    @Test
    void aSampleIsForgottenOnceItsLastValueIsElevenWindowsOld() {
        rate.record(10_000, 0);
        for (long t = 1_000; t <= 11_000; t += 1_000) {
            rate.record(100, t);
        }
        // At 11 s the first sample's last value is 11 windows old: it is emptied and restarts now.
        assertThat(rate.measure(11_000)).isCloseTo(11 * 100 / 10.0, within(1e-9));
        assertThat(rate.windowSizeMs(11_000)).isEqualTo(10_000);
    }

    @Test
    void valuesWithinOneWindowShareASample() {
        rate.record(100, 0);
        rate.record(100, 999);
        rate.record(100, 1_000);
        // Two samples (0 and 1000), window 1.5 s: 300 / 1.5.
        assertThat(rate.measure(1_500)).isCloseTo(200.0, within(1e-9));
    }

    @Test
    void takingAValueBackRestoresTheRate() {
        rate.record(1_000, 0);
        rate.record(5_000, 200);
        rate.record(-5_000, 200);
        assertThat(rate.measure(500)).isEqualTo(1_000.0);
    }

    @Test
    void aRateIdleForLongerThanAllItsWindowsStartsAfresh() {
        rate.record(1_000_000, 0);
        assertThat(rate.measure(60_000)).isZero();
        assertThat(rate.lastEventMs()).isEqualTo(60_000); // the emptied sample restarted at the last look
    }
}
