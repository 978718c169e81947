package io.odradek.embedded;

import java.util.logging.Level;
import org.apache.ratis.util.ExitUtils;
import java.util.logging.Logger;

/**
 * Ratis as a guest in someone else's JVM. It ends the process (System.exit) when its server cannot start, e.g. its
 * port was taken: embedded, that would kill the user's test run, so Ratis is told to throw instead (its
 * ExitUtils.disableSystemExit, JVM-wide), and the cluster start sees the failure and retries on new ports.
 *
 * <p>And an embedded cluster's Ratis quorum logs each of its settings and every election step at INFO, dozens of lines per
 * node: in a test's output that hides what matters. Its level goes to WARNING, unless the user set one for it (or
 * configured java.util.logging from a file, whose levels then hold).
 */
final class EmbeddedRatis {
    /** Held: java.util.logging keeps loggers weakly, and a collected one would forget the level. */
    private static final Logger RATIS = Logger.getLogger("org.apache.ratis");

    private EmbeddedRatis() {
    }

    static synchronized void apply() {
        ExitUtils.disableSystemExit();
        if (RATIS.getLevel() == null && System.getProperty("java.util.logging.config.file") == null
                && System.getProperty("java.util.logging.config.class") == null) {
            RATIS.setLevel(Level.WARNING);
        }
    }
}
