package io.odradek.broker.network;

import java.util.ArrayList;
import java.util.List;

/**
 * The broker-wide budget for requests being read and handled ({@code queued.max.request.bytes} and
 * {@code queued.max.requests}), as Kafka's request memory pool: a connection reserves a frame's size as soon
 * as it has read the frame's length prefix, before buffering the frame; when the budget is spent it stops
 * reading (it is muted, never failed) and is woken when memory comes back.
 *
 * <p>Like Kafka's pool it is not strict: a reservation succeeds while any memory is left, so one frame larger
 * than what remains (or than the whole pool) still gets through; the overshoot is at most one frame.
 *
 * <p>Bytes stay reserved until the request is done (its response is complete or it is dropped), since a
 * handler may keep slices of the frame until then. The request count is held only until the handler has
 * taken the request: a parked request (a long-poll fetch) waits on other clients and must not stop them.
 */
public final class RequestMemoryPool {
    private final long maxBytes;
    private final int maxRequests;
    private long usedBytes;
    private int queuedRequests;
    private List<Runnable> waiters = new ArrayList<>();

    public RequestMemoryPool(long maxBytes, int maxRequests) {
        this.maxBytes = maxBytes;
        this.maxRequests = maxRequests;
    }

    /**
     * Reserves a frame's bytes and one request slot, or, if the pool is spent, registers {@code onAvailable}
     * to run (once, on the releasing thread) when it is not any more.
     */
    public synchronized boolean reserveOrWait(int bytes, Runnable onAvailable) {
        if (available()) {
            usedBytes += bytes;
            queuedRequests++;
            return true;
        }
        waiters.add(onAvailable);
        return false;
    }

    /** The request has been taken by its handler: its slot is free, its bytes are still held. */
    public void requestTaken() {
        List<Runnable> wake;
        synchronized (this) {
            queuedRequests--;
            wake = wakeIfAvailable();
        }
        wake.forEach(Runnable::run);
    }

    /** The request is done: its bytes go back. */
    public void releaseBytes(int bytes) {
        List<Runnable> wake;
        synchronized (this) {
            usedBytes -= bytes;
            wake = wakeIfAvailable();
        }
        wake.forEach(Runnable::run);
    }

    /** A reservation given up before its request was taken (the connection closed mid-frame). */
    public void cancel(int bytes) {
        List<Runnable> wake;
        synchronized (this) {
            usedBytes -= bytes;
            queuedRequests--;
            wake = wakeIfAvailable();
        }
        wake.forEach(Runnable::run);
    }

    /** The connection that was waiting closed. */
    public synchronized void stopWaiting(Runnable onAvailable) {
        waiters.remove(onAvailable);
    }

    public synchronized long usedBytes() {
        return usedBytes;
    }

    public synchronized int queuedRequests() {
        return queuedRequests;
    }

    /** Connections muted until memory comes back. */
    public synchronized int waiting() {
        return waiters.size();
    }

    public long maxBytes() {
        return maxBytes;
    }

    private boolean available() {
        return usedBytes < maxBytes && queuedRequests < maxRequests;
    }

    private List<Runnable> wakeIfAvailable() {
        if (waiters.isEmpty() || !available()) {
            return List.of();
        }
        List<Runnable> wake = waiters;
        waiters = new ArrayList<>();
        return wake;
    }
}
