package io.odradek.broker.quota;

/**
 * The sample windows a client quota rate is measured over: {@code quota.window.num} samples of
 * {@code quota.window.size.seconds} each (Kafka's defaults: 11 of 1 second).
 */
public record QuotaWindows(int samples, int windowSeconds) {
    public static final QuotaWindows KAFKA_DEFAULTS = new QuotaWindows(11, 1);

    public QuotaWindows {
        if (samples < 1 || windowSeconds < 1) {
            throw new IllegalArgumentException("quota windows need at least one sample of at least one second");
        }
    }

    public long windowMs() {
        return windowSeconds * 1000L;
    }
}
