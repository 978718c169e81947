package io.odradek.broker.network;

import java.util.concurrent.atomic.AtomicLong;

/** Logs at most one line per interval, counting what it dropped, so a misbehaving client cannot flood the log. */
final class RateLimitedLog {
    private final System.Logger log;
    private final long intervalNanos;
    private final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - Long.MAX_VALUE / 2);
    private final AtomicLong suppressed = new AtomicLong();

    RateLimitedLog(System.Logger log, long intervalMillis) {
        this.log = log;
        this.intervalNanos = intervalMillis * 1_000_000L;
    }

    void warn(String message) {
        long now = System.nanoTime();
        long last = lastLogged.get();
        if (now - last >= intervalNanos && lastLogged.compareAndSet(last, now)) {
            long dropped = suppressed.getAndSet(0);
            log.log(System.Logger.Level.WARNING, dropped == 0 ? message : message + " (" + dropped + " similar lines suppressed)");
        } else {
            suppressed.incrementAndGet();
        }
    }
}
