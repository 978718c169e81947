package io.odradek.log;

import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * The one log line a failure that leaves a log dir online earns (a full disk, an exhausted OS limit): at
 * most one per dir and kind per {@link #INTERVAL_MS}, however many writes fail meanwhile; the next line
 * says how many failed in between.
 */
final class StorageErrorLog {
    static final long INTERVAL_MS = 60_000L;
    private static final System.Logger LOG = System.getLogger(LogManager.class.getName());

    private record Key(Path dir, boolean diskFull) {
    }

    /** When the last line was written and how many failures went unreported since. */
    private static final class State {
        boolean logged;
        long lastLoggedMs;
        long suppressed;
    }

    private final Clock clock;
    private final Map<Key, State> states = new HashMap<>();

    StorageErrorLog(Clock clock) {
        this.clock = clock;
    }

    void diskFull(Path dir, String what) {
        long earlier = due(new Key(dir, true));
        if (earlier >= 0) {
            LOG.log(System.Logger.Level.ERROR, "Log directory " + dir + " is full (No space left on device): " + what
                    + " failed" + since(earlier) + ". Writes to its partitions fail with KAFKA_STORAGE_ERROR until "
                    + "space is freed: delete topics or records, or lower retention.");
        }
    }

    /** An OS limit of the process, not the dir, failed the operation (see {@link StorageLimits#explain}). */
    void osLimit(Path dir, String what, String limit) {
        long earlier = due(new Key(dir, false));
        if (earlier >= 0) {
            LOG.log(System.Logger.Level.ERROR, what + " in " + dir + " failed" + since(earlier) + ": " + limit
                    + ". The operation fails with KAFKA_STORAGE_ERROR; the log dir stays online.");
        }
    }

    /** The failures suppressed since the last line if a line is due now, else -1. */
    private synchronized long due(Key key) {
        long now = clock.millis();
        State s = states.computeIfAbsent(key, k -> new State());
        if (s.logged && now - s.lastLoggedMs < INTERVAL_MS) {
            s.suppressed++;
            return -1;
        }
        long earlier = s.suppressed;
        s.logged = true;
        s.lastLoggedMs = now;
        s.suppressed = 0;
        return earlier;
    }

    private static String since(long earlier) {
        return earlier > 0 ? " (and " + earlier + " more since the last report)" : "";
    }
}
