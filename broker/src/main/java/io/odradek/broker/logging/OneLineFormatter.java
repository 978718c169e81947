package io.odradek.broker.logging;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * {@code 2026-11-30 13:45:01.123 INFO  [thread] Logger: message}, one line per record (plus the stack
 * trace of an attached exception). The logger is shown by its last name segment, the level in the
 * names most people read (ERROR, WARN, INFO, DEBUG, TRACE). The thread is the caller's: records are
 * formatted synchronously by the handler on the logging thread. A message never spans lines: control
 * characters in it (from a client's group id, say) are escaped ({@link LogSafe#oneLine}).
 */
public final class OneLineFormatter extends Formatter {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneId.systemDefault());

    @Override
    public String format(LogRecord record) {
        StringBuilder line = new StringBuilder(128);
        TIME.formatTo(record.getInstant(), line);
        line.append(' ').append(levelName(record.getLevel())).append(" [")
                .append(Thread.currentThread().getName()).append("] ")
                .append(shortName(record.getLoggerName())).append(": ")
                .append(LogSafe.oneLine(formatMessage(record)))
                .append(System.lineSeparator());
        if (record.getThrown() != null) {
            StringWriter trace = new StringWriter();
            record.getThrown().printStackTrace(new PrintWriter(trace));
            line.append(trace);
        }
        return line.toString();
    }

    /** Five characters wide, so messages line up. */
    static String levelName(Level level) {
        int v = level.intValue();
        if (v >= Level.SEVERE.intValue()) {
            return "ERROR";
        } else if (v >= Level.WARNING.intValue()) {
            return "WARN ";
        } else if (v >= Level.INFO.intValue()) {
            return "INFO ";
        } else if (v >= Level.FINE.intValue()) {
            return "DEBUG";
        }
        return "TRACE";
    }

    private static String shortName(String loggerName) {
        if (loggerName == null || loggerName.isEmpty()) {
            return "root";
        }
        return loggerName.substring(loggerName.lastIndexOf('.') + 1);
    }
}
