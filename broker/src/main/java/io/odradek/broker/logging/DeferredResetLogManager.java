package io.odradek.broker.logging;

import java.util.logging.LogManager;

/**
 * A {@link LogManager} that keeps its handlers while shutdown hooks run. The JDK's own hook resets the
 * log manager (closing every handler) at the same time as ours closes the broker, so the broker's
 * "stopped" lines would be lost; with this manager, installed through {@code java.util.logging.manager}
 * before any logging, the reset waits until {@link LogSetup#shutdown()} says the broker is done.
 */
public final class DeferredResetLogManager extends LogManager {
    private static volatile DeferredResetLogManager instance;
    private volatile boolean deferring;

    public DeferredResetLogManager() {
        instance = this;
    }

    @Override
    public void reset() {
        if (!deferring) {
            super.reset();
        }
    }

    /** From now on a reset is ignored until {@link #resetNow()}: set when the broker's shutdown hook is installed. */
    static void deferResets() {
        if (instance != null) {
            instance.deferring = true;
        }
    }

    /** The deferred reset: flush and close the handlers. */
    static void resetNow() {
        DeferredResetLogManager m = instance;
        if (m != null) {
            m.deferring = false;
            m.reset();
        }
    }
}
