package io.odradek.broker.logging;

import java.io.PrintStream;
import java.util.Locale;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The broker's logging: {@code java.util.logging} set up in code (no config file, no logging library, so
 * nothing extra to load at startup). One line per record on stdout, INFO by default
 * ({@code -Dodradek.log.level=DEBUG} or {@code ODRADEK_LOG_LEVEL} to change it), Netty at WARNING.
 * A JUL configuration given with {@code -Djava.util.logging.config.file} is left alone.
 */
public final class LogSetup {
    public static final String MANAGER_PROPERTY = "java.util.logging.manager";
    public static final String LEVEL_PROPERTY = "odradek.log.level";

    // JUL holds loggers weakly: keep the ones we configure, or their levels vanish with a GC. Not created in a
    // static initialiser: that would start JUL before installLogManager() could choose its manager.
    private static Logger root;
    private static Logger netty;

    private LogSetup() {
    }

    /**
     * Makes JUL use {@link DeferredResetLogManager}. Must run before anything logs (the log manager is chosen
     * once); does nothing if the user picked another manager.
     */
    public static void installLogManager() {
        if (System.getProperty(MANAGER_PROPERTY) == null) {
            System.setProperty(MANAGER_PROPERTY, DeferredResetLogManager.class.getName());
        }
    }

    /** Replaces the root handlers with one compact stdout handler. */
    public static synchronized void configure() {
        if (System.getProperty("java.util.logging.config.file") != null
                || System.getProperty("java.util.logging.config.class") != null) {
            return;
        }
        Level level = parseLevel(levelSetting());
        root = Logger.getLogger("");
        netty = Logger.getLogger("io.netty");
        for (Handler h : root.getHandlers()) {
            root.removeHandler(h);
        }
        Handler out = new StdoutHandler(System.out);
        out.setFormatter(new OneLineFormatter());
        out.setLevel(Level.ALL);
        root.addHandler(out);
        root.setLevel(level);
        // Netty logs its platform probing at DEBUG/INFO; only its problems are worth a line.
        netty.setLevel(level.intValue() < Level.INFO.intValue() ? level : Level.WARNING);
    }

    /** Keep log output through the shutdown hooks (see {@link DeferredResetLogManager}). */
    public static void keepLoggingThroughShutdown() {
        DeferredResetLogManager.deferResets();
    }

    /** The last thing a shutdown hook does: flush and close the handlers. */
    public static void shutdown() {
        DeferredResetLogManager.resetNow();
    }

    private static String levelSetting() {
        String level = System.getProperty(LEVEL_PROPERTY);
        if (level == null) {
            level = System.getenv("ODRADEK_LOG_LEVEL");
        }
        return level == null || level.isBlank() ? "INFO" : level.trim();
    }

    /** JUL's names plus the usual ones: ERROR, WARN, DEBUG, TRACE. */
    static Level parseLevel(String name) {
        switch (name.toUpperCase(Locale.ROOT)) {
            case "ERROR":
                return Level.SEVERE;
            case "WARN":
                return Level.WARNING;
            case "DEBUG":
                return Level.FINE;
            case "TRACE":
                return Level.FINEST;
            default:
                try {
                    return Level.parse(name.toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    return Level.INFO;
                }
        }
    }

    /** Like {@link ConsoleHandler} but on stdout, flushed after every record so lines appear as they happen. */
    private static final class StdoutHandler extends Handler {
        private final PrintStream out;

        StdoutHandler(PrintStream out) {
            this.out = out;
        }

        @Override
        public void publish(LogRecord record) {
            if (!isLoggable(record)) {
                return;
            }
            String line;
            try {
                line = getFormatter().format(record);
            } catch (RuntimeException e) {
                line = record.getLevel() + " " + record.getMessage() + System.lineSeparator();
            }
            synchronized (this) {
                out.print(line);
                out.flush();
            }
        }

        @Override
        public void flush() {
            out.flush();
        }

        @Override
        public void close() {
            out.flush();
        }
    }
}
