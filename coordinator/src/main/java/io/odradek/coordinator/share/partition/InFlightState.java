package io.odradek.coordinator.share.partition;

/**
 * The state of one in-flight record, or of a whole batch while all its records share it (Kafka's
 * InFlightState). A state change that must be persisted first (acknowledge, release) is a transition: applied
 * at once so nothing else touches the records, then committed once written or rolled back if the write fails.
 * Guarded by the partition's lock.
 */
final class InFlightState {
    private RecordState state;
    private int deliveryCount;
    private String memberId;
    private AcquisitionLock lock;
    private Snapshot rollback;
    private boolean forcedArchive;

    private record Snapshot(RecordState state, int deliveryCount, String memberId, int deliveryCountLimit) {
    }

    InFlightState(RecordState state, int deliveryCount, String memberId, AcquisitionLock lock) {
        this.state = state;
        this.deliveryCount = deliveryCount;
        this.memberId = memberId;
        this.lock = lock;
    }

    RecordState state() {
        return state;
    }

    int deliveryCount() {
        return deliveryCount;
    }

    /** The member holding the records while Acquired; null otherwise. */
    String memberId() {
        return memberId;
    }

    AcquisitionLock lock() {
        return lock;
    }

    boolean inTransition() {
        return rollback != null;
    }

    /** Available for acquisition now (not while a release waits for its write). */
    boolean acquirable() {
        return state == RecordState.AVAILABLE && rollback == null;
    }

    /** Another state with the same content, holding the same lock (a batch split into offsets). */
    InFlightState copy() {
        InFlightState c = new InFlightState(state, deliveryCount, memberId, lock);
        c.rollback = rollback;
        c.forcedArchive = forcedArchive;
        if (lock != null) {
            lock.hold(1);
        }
        return c;
    }

    /** Acquires for {@code member} under {@code newLock}, counting one more delivery. */
    boolean acquire(String member, AcquisitionLock newLock) {
        if (rollback != null || !state.canMoveTo(RecordState.ACQUIRED)) {
            return false;
        }
        state = RecordState.ACQUIRED;
        deliveryCount++;
        memberId = member;
        replaceLock(newLock);
        return true;
    }

    /**
     * Moves an acquired record to {@code next} at once (lock timeout): back to Available, or Archived when its
     * deliveries reached {@code deliveryCountLimit} (Kafka archives at count >= limit).
     */
    boolean update(RecordState next, int deliveryCountLimit) {
        if (rollback != null) {
            return false;
        }
        RecordState target = next == RecordState.AVAILABLE && deliveryCount >= deliveryCountLimit ? RecordState.ARCHIVED : next;
        if (!state.canMoveTo(target)) {
            return false;
        }
        state = target;
        memberId = null;
        replaceLock(null);
        return true;
    }

    /** Like {@link #update}, but undoable until {@link #complete}; the lock stays until then. */
    boolean startTransition(RecordState next, int deliveryCountLimit) {
        if (rollback != null) {
            return false;
        }
        Snapshot before = new Snapshot(state, deliveryCount, memberId, deliveryCountLimit);
        RecordState target = next == RecordState.AVAILABLE && deliveryCount >= deliveryCountLimit ? RecordState.ARCHIVED : next;
        if (!state.canMoveTo(target)) {
            return false;
        }
        state = target;
        memberId = null;
        rollback = before;
        return true;
    }

    /**
     * Ends a transition: committed (written) it lets go of the lock; rolled back the record is Acquired again
     * by its member, unless its lock expired meanwhile (then Available, or Archived at the limit) or it was
     * archived in between (log start offset moved past it).
     */
    void complete(boolean commit) {
        complete(commit, false);
    }

    /**
     * As {@link #complete(boolean)}; {@code belowStart}: the record is below the start offset now (moved while
     * the write was out), so an expired rollback archives it as releaseRange/expireRange do, and the start
     * offset can move past it.
     */
    void complete(boolean commit, boolean belowStart) {
        if (rollback == null) {
            return;
        }
        Snapshot before = rollback;
        rollback = null;
        if (commit || forcedArchive) {
            replaceLock(null);
            return;
        }
        if (lock != null && lock.expired()) {
            state = belowStart || before.deliveryCount() >= before.deliveryCountLimit()
                    ? RecordState.ARCHIVED : RecordState.AVAILABLE;
            memberId = null;
            replaceLock(null);
        } else {
            state = before.state();
            memberId = before.memberId();
        }
    }

    /** Archived whatever it was heading to (the log no longer has the record); survives a rollback. */
    void archive() {
        state = RecordState.ARCHIVED;
        memberId = null;
        forcedArchive = true;
        replaceLock(null);
    }

    /** RENEW: the same acquisition under a fresh lock. */
    void renew(AcquisitionLock newLock) {
        replaceLock(newLock);
    }

    /** Lets go of the lock without changing state (the partition is closing). */
    void dropLock() {
        replaceLock(null);
    }

    private void replaceLock(AcquisitionLock newLock) {
        if (lock != null) {
            lock.release();
        }
        lock = newLock;
        if (newLock != null) {
            newLock.hold(1);
        }
    }

    @Override
    public String toString() {
        return state + "(" + deliveryCount + (memberId == null ? "" : ", " + memberId) + (rollback != null ? ", in transition" : "") + ")";
    }
}
