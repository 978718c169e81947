package io.odradek.broker.network;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Logs at most one line per interval for each kind of event, counting what it dropped, so a misbehaving
 * client cannot flood the log, and one flood (oversize frames, say) does not hide another kind's first line.
 * Kinds are fixed strings chosen by the caller, never client-supplied, so the map stays small.
 */
final class RateLimitedLog {
    private final System.Logger log;
    private final long intervalNanos;
    private final ConcurrentMap<String, Window> windows = new ConcurrentHashMap<>();

    RateLimitedLog(System.Logger log, long intervalMillis) {
        this.log = log;
        this.intervalNanos = intervalMillis * 1_000_000L;
    }

    /** One kind's interval: when it last logged and how many lines it dropped since. */
    private final class Window {
        final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - intervalNanos);
        final AtomicLong suppressed = new AtomicLong();
    }

    void warn(String kind, String message) {
        log(System.Logger.Level.WARNING, kind, message);
    }

    void info(String kind, String message) {
        log(System.Logger.Level.INFO, kind, message);
    }

    /** A broker fault: logged with its stack trace, but still at most one per interval. */
    void error(String kind, String message, Throwable cause) {
        String suffix = admit(kind);
        if (suffix != null) {
            log.log(System.Logger.Level.ERROR, message + suffix, cause);
        }
    }

    private void log(System.Logger.Level level, String kind, String message) {
        String suffix = admit(kind);
        if (suffix != null) {
            log.log(level, message + suffix);
        }
    }

    /** Null if this kind's line is suppressed; else what to append (the count of lines suppressed since the last). */
    private String admit(String kind) {
        Window window = windows.computeIfAbsent(kind, k -> new Window());
        long now = System.nanoTime();
        long last = window.lastLogged.get();
        if (now - last >= intervalNanos && window.lastLogged.compareAndSet(last, now)) {
            long dropped = window.suppressed.getAndSet(0);
            return dropped == 0 ? "" : " (" + dropped + " similar lines suppressed)";
        }
        window.suppressed.incrementAndGet();
        return null;
    }
}
