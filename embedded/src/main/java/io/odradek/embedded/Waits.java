package io.odradek.embedded;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polling for a broker's state to be reached (its metadata image, its registration), with a bound. */
final class Waits {
    /** Short: each poll reads an in-memory image, and a test waits for nothing longer than it must. */
    private static final long POLL_MS = 5;

    private Waits() {
    }

    /**
     * Returns once {@code condition} holds; throws IllegalStateException after {@code timeout}, with
     * {@code state} (what was seen last) in the message.
     */
    static void until(String what, Duration timeout, BooleanSupplier condition, Supplier<String> state)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("timed out after " + timeout.toMillis() + " ms waiting for " + what
                        + "; last seen: " + state.get());
            }
            Thread.sleep(POLL_MS);
        }
    }
}
