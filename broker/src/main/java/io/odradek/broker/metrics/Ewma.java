package io.odradek.broker.metrics;

import java.util.concurrent.TimeUnit;

/**
 * An exponentially weighted moving average of a rate, as Yammer's EWMA (what Kafka's OneMinuteRate, FiveMinuteRate
 * and FifteenMinuteRate are): fed the events counted in each {@link #TICK_SECONDS}-second tick, the first tick sets
 * the rate, each later one moves it by {@code alpha} towards that tick's instant rate. Ticked by one thread only
 * (the broker's metrics ticker, or a test); read from any.
 */
final class Ewma {
    static final int TICK_SECONDS = 5;
    private static final double TICK_NANOS = TimeUnit.SECONDS.toNanos(TICK_SECONDS);

    private final double alpha;
    private volatile double ratePerNano;
    private boolean initialized;

    private Ewma(double alpha) {
        this.alpha = alpha;
    }

    /** Yammer's alpha for an average over {@code minutes}, ticked every 5 s: 1 - exp(-5 / 60 / minutes). */
    static Ewma overMinutes(int minutes) {
        return new Ewma(1 - Math.exp(-TICK_SECONDS / 60.0 / minutes));
    }

    /** One tick: {@code events} happened in the last {@link #TICK_SECONDS} seconds. */
    void tick(long events) {
        double instant = events / TICK_NANOS;
        if (initialized) {
            ratePerNano += alpha * (instant - ratePerNano);
        } else {
            ratePerNano = instant;
            initialized = true;
        }
    }

    double rate(TimeUnit unit) {
        return ratePerNano * unit.toNanos(1);
    }
}
