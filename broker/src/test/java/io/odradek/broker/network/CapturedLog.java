package io.odradek.broker.network;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The records logged under one JUL logger name (and its children) while it is open. */
final class CapturedLog extends Handler implements AutoCloseable {
    private final Logger logger;
    private final Level previous;
    final List<LogRecord> records = new CopyOnWriteArrayList<>();

    CapturedLog(String name) {
        logger = Logger.getLogger(name);
        previous = logger.getLevel();
        logger.setLevel(Level.INFO);
        logger.addHandler(this);
    }

    /** Records at {@code level} or above, as "LEVEL message". */
    List<String> lines(Level level) {
        return records.stream().filter(r -> r.getLevel().intValue() >= level.intValue())
                .map(r -> r.getLevel() + " " + r.getMessage()).toList();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(previous);
    }
}
