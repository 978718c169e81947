package io.odradek.coordinator.share.partition;

/**
 * The lock one acquisition (or one RENEW) puts on a range of offsets for a member: when it expires before the
 * records are acknowledged they become available again. One timer per lock, shared by every in-flight state
 * that still holds it (a batch, or its offsets after a split), cancelled once the last holder lets go.
 * Guarded by the partition's lock.
 */
final class AcquisitionLock {
    final String memberId;
    final long firstOffset;
    final long lastOffset;
    final long deadlineMs;
    private ShareTimers.Timer timer;
    private int holders;
    private boolean expired;

    AcquisitionLock(String memberId, long firstOffset, long lastOffset, long deadlineMs) {
        this.memberId = memberId;
        this.firstOffset = firstOffset;
        this.lastOffset = lastOffset;
        this.deadlineMs = deadlineMs;
    }

    void start(ShareTimers.Timer timer) {
        this.timer = timer;
    }

    void hold(int states) {
        holders += states;
    }

    /** One holder is done with the lock (acknowledged, released, timed out, renewed or split away). */
    void release() {
        if (holders > 0 && --holders == 0 && !expired && timer != null) {
            timer.cancel();
        }
    }

    /** True when the timer fired while someone still held the lock. */
    boolean expire() {
        if (holders == 0) {
            return false;
        }
        expired = true;
        return true;
    }

    boolean expired() {
        return expired;
    }

    void cancel() {
        if (timer != null) {
            timer.cancel();
        }
    }
}
