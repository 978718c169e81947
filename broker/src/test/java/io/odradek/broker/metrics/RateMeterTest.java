package io.odradek.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Meters as Kafka's Yammer meters report them, on a clock the test moves (no sleeps). */
class RateMeterTest {
    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final RateMeter meter = new RateMeter(TopicMeters.name("MessagesInPerSec", null), "messages", nanos::get);

    void advanceSeconds(long seconds) {
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(seconds));
    }

    @Test
    void countsEveryMarkAndReportsNoRateBeforeTheFirstTick() {
        meter.mark();
        meter.mark(41);
        assertThat(meter.count()).isEqualTo(42);
        assertThat(meter.oneMinuteRate()).isZero();
        assertThat(meter.fiveMinuteRate()).isZero();
        assertThat(meter.fifteenMinuteRate()).isZero();
        assertThat(meter.eventType()).isEqualTo("messages");
        assertThat(meter.rateUnit()).isEqualTo(TimeUnit.SECONDS);
    }

    @Test
    void firstTickSetsEveryRateToThatTicksInstantRate() {
        meter.mark(50); // 50 events in a 5 s tick: 10 per second
        advanceSeconds(5);
        meter.tick();
        assertThat(meter.oneMinuteRate()).isCloseTo(10.0, within(1e-9));
        assertThat(meter.fiveMinuteRate()).isCloseTo(10.0, within(1e-9));
        assertThat(meter.fifteenMinuteRate()).isCloseTo(10.0, within(1e-9));
    }

    @Test
    void ratesDecayAsYammersAfterTheEventsStop() {
        meter.mark(50);
        meter.tick();
        for (int i = 0; i < 12; i++) { // one quiet minute
            meter.tick();
        }
        // Yammer's EWMA: each quiet tick multiplies the rate by exp(-5 / 60 / minutes); a minute is 12 ticks.
        assertThat(meter.oneMinuteRate()).isCloseTo(10.0 * Math.exp(-1), within(1e-9));
        assertThat(meter.fiveMinuteRate()).isCloseTo(10.0 * Math.exp(-1.0 / 5), within(1e-9));
        assertThat(meter.fifteenMinuteRate()).isCloseTo(10.0 * Math.exp(-1.0 / 15), within(1e-9));
        assertThat(meter.count()).isEqualTo(50);
    }

    @Test
    void aTickCountsOnlyTheEventsSinceThePreviousTick() {
        meter.mark(50);
        meter.tick(); // 10/s
        meter.mark(100);
        meter.tick(); // this tick: 20/s
        double alpha = 1 - Math.exp(-5 / 60.0);
        assertThat(meter.oneMinuteRate()).isCloseTo(10.0 + alpha * (20.0 - 10.0), within(1e-9));
    }

    @Test
    void meanRateIsTheCountOverTheTimeSinceTheMeterWasMade() {
        assertThat(meter.meanRate()).isZero();
        meter.mark(300);
        advanceSeconds(60);
        assertThat(meter.meanRate()).isCloseTo(5.0, within(1e-9));
    }
}
