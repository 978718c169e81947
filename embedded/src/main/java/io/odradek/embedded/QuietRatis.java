package io.odradek.embedded;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An embedded cluster's Ratis quorum logs each of its settings and every election step at INFO, dozens of lines per
 * node: in a test's output that hides what matters. Its level goes to WARNING, unless the user set one for it (or
 * configured java.util.logging from a file, whose levels then hold).
 */
final class QuietRatis {
    /** Held: java.util.logging keeps loggers weakly, and a collected one would forget the level. */
    private static final Logger RATIS = Logger.getLogger("org.apache.ratis");

    private QuietRatis() {
    }

    static synchronized void apply() {
        if (RATIS.getLevel() == null && System.getProperty("java.util.logging.config.file") == null
                && System.getProperty("java.util.logging.config.class") == null) {
            RATIS.setLevel(Level.WARNING);
        }
    }
}
