package io.odradek.log;

import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * The one log line a full disk earns: at most one per log dir per {@link #INTERVAL_MS}, however many
 * writes fail meanwhile; the next line says how many failed in between.
 */
final class DiskFullLog {
    static final long INTERVAL_MS = 60_000L;
    private static final System.Logger LOG = System.getLogger(LogManager.class.getName());

    /** Per dir: when the last line was written and how many failures went unreported since. */
    private static final class State {
        long lastLoggedMs;
        long suppressed;
    }

    private final Clock clock;
    private final Map<Path, State> states = new HashMap<>();

    DiskFullLog(Clock clock) {
        this.clock = clock;
    }

    synchronized void report(Path dir, String what) {
        long now = clock.millis();
        State s = states.get(dir);
        if (s != null && now - s.lastLoggedMs < INTERVAL_MS) {
            s.suppressed++;
            return;
        }
        long earlier = s == null ? 0 : s.suppressed;
        if (s == null) {
            s = new State();
            states.put(dir, s);
        }
        s.lastLoggedMs = now;
        s.suppressed = 0;
        LOG.log(System.Logger.Level.ERROR, "Log directory " + dir + " is full (No space left on device): " + what
                + " failed" + (earlier > 0 ? " (and " + earlier + " more writes since the last report)" : "")
                + ". Writes to its partitions fail with KAFKA_STORAGE_ERROR until space is freed: delete topics "
                + "or records, or lower retention.");
    }
}
