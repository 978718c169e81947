package io.odradek.broker.quota;

/**
 * A rate measured over sample windows, as Kafka's {@code Rate} over a {@code WindowedSum} (kafka-clients 4.4):
 * values are summed into samples of {@code windowMs}; a sample starts at the first value recorded after the
 * previous one's window ended; {@code samples + 1} samples are kept in a ring and a sample whose last value
 * is {@code samples * windowMs} old is emptied. The rate is the sum of the samples divided by the time since
 * the oldest sample started.
 *
 * <p>One deliberate difference from Kafka: Kafka measures a young rate (less than {@code samples - 1}
 * windows of history) as if that history were there, so a new client may send up to
 * {@code quota * (samples - 1) * window} (10 MB at 1 MB/s) before its first throttle, and a client that keeps
 * sending as fast as it can sees that burst again each time the burst's sample expires (every ~11 s),
 * averaging well above its quota over any ten seconds. Here a young rate is measured over the time it has
 * really existed, but never less than one window: a new client gets one window's worth at once, then is held
 * to its quota. That is what makes "a 1 MB/s quota holds a producer to within 10%" true over ten seconds.
 *
 * <p>Times are milliseconds from the caller's clock, so tests drive it by hand. Thread-safe.
 */
final class SampledRate {
    private final int samples;
    private final long windowMs;
    private final Sample[] ring;
    private int size;
    private int current;

    private static final class Sample {
        long startMs;
        long lastEventMs;
        double value;

        Sample(long now) {
            reset(now);
        }

        void reset(long now) {
            startMs = now;
            lastEventMs = now;
            value = 0;
        }
    }

    SampledRate(QuotaWindows windows) {
        this.samples = windows.samples();
        this.windowMs = windows.windowMs();
        this.ring = new Sample[samples + 1];
    }

    /** Adds a value (negative to take one back, as Kafka unrecords a throttled fetch) at {@code nowMs}. */
    synchronized void record(double value, long nowMs) {
        Sample sample = current(nowMs);
        if (nowMs - sample.startMs >= windowMs) {
            sample = advance(nowMs);
        }
        sample.value += value;
        sample.lastEventMs = nowMs;
    }

    /** The rate per second at {@code nowMs}. */
    synchronized double measure(long nowMs) {
        purgeObsolete(nowMs);
        double total = 0;
        for (int i = 0; i < size; i++) {
            total += ring[i].value;
        }
        return total / (windowSizeMs(nowMs) / 1000.0);
    }

    /** The time the rate is measured over at {@code nowMs}: since the oldest sample began, at least one window. */
    synchronized long windowSizeMs(long nowMs) {
        purgeObsolete(nowMs);
        long elapsed = nowMs - oldest(nowMs).startMs;
        return Math.max(elapsed, windowMs);
    }

    /** The most recent value recorded, for expiring rates nobody has used for a while. */
    synchronized long lastEventMs() {
        long last = Long.MIN_VALUE;
        for (int i = 0; i < size; i++) {
            last = Math.max(last, ring[i].lastEventMs);
        }
        return last;
    }

    private Sample current(long nowMs) {
        if (size == 0) {
            ring[0] = new Sample(nowMs);
            size = 1;
        }
        return ring[current];
    }

    private Sample advance(long nowMs) {
        current = (current + 1) % ring.length;
        if (current >= size) {
            ring[current] = new Sample(nowMs);
            size++;
        } else {
            ring[current].reset(nowMs);
        }
        return ring[current];
    }

    private Sample oldest(long nowMs) {
        Sample oldest = current(nowMs);
        for (int i = 0; i < size; i++) {
            if (ring[i].startMs < oldest.startMs) {
                oldest = ring[i];
            }
        }
        return oldest;
    }

    private void purgeObsolete(long nowMs) {
        long expireAge = samples * windowMs;
        for (int i = 0; i < size; i++) {
            if (nowMs - ring[i].lastEventMs >= expireAge) {
                ring[i].reset(nowMs);
            }
        }
    }
}
