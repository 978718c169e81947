package io.odradek.log;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The fallback single daemon thread for delayed file deletion and async flushes of logs opened without a LogManager. */
final class LogScheduler {
    static final ScheduledExecutorService SHARED = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "odradek-log-scheduler");
        t.setDaemon(true);
        return t;
    });

    private LogScheduler() {
    }
}
