package io.odradek.coordinator.share.partition;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * share.auto.offset.reset as the argument of the log's offset lookup (ListOffsets semantics): "earliest" -2,
 * "latest" -1 (Kafka's default), "by_duration:&lt;ISO-8601 duration&gt;" the timestamp that long ago.
 */
final class AutoOffsetReset {
    static final long EARLIEST = -2L;
    static final long LATEST = -1L;
    private static final String BY_DURATION = "by_duration:";

    private AutoOffsetReset() {
    }

    /** The ListOffsets timestamp for {@code policy} at {@code nowMs}; an unknown policy reads as latest. */
    static long timestampFor(String policy, long nowMs) {
        if (policy == null) {
            return LATEST;
        }
        String p = policy.trim().toLowerCase(Locale.ROOT);
        if (p.equals("earliest")) {
            return EARLIEST;
        }
        if (p.startsWith(BY_DURATION)) {
            try {
                Duration d = Duration.parse(policy.trim().substring(BY_DURATION.length()));
                return d.isNegative() ? LATEST : Math.max(0, nowMs - d.toMillis());
            } catch (DateTimeParseException | ArithmeticException e) {
                return LATEST;
            }
        }
        return LATEST;
    }
}
