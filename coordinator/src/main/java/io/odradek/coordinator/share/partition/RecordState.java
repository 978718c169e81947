package io.odradek.coordinator.share.partition;

import io.odradek.coordinator.share.StateBatch;

/**
 * The delivery state of an in-flight record (Kafka's RecordState, same ids as {@link StateBatch}). Acquired is
 * the only state tied to a member and a lock; Acknowledged and Archived are terminal.
 */
enum RecordState {
    AVAILABLE(StateBatch.AVAILABLE), ACQUIRED(StateBatch.ACQUIRED), ACKNOWLEDGED(StateBatch.ACKNOWLEDGED),
    ARCHIVED(StateBatch.ARCHIVED);

    final byte id;

    RecordState(byte id) {
        this.id = id;
    }

    boolean terminal() {
        return this == ACKNOWLEDGED || this == ARCHIVED;
    }

    /** Kafka's allowed moves: Available -> Acquired, Acquired -> anything else; terminal states never move. */
    boolean canMoveTo(RecordState next) {
        if (next == this || terminal()) {
            return false;
        }
        return this != AVAILABLE || next == ACQUIRED;
    }

    /** The state of a persisted batch; Acquired is never persisted, and a restart frees such records anyway. */
    static RecordState ofPersisted(byte id) {
        return switch (id) {
            case StateBatch.ACKNOWLEDGED -> ACKNOWLEDGED;
            case StateBatch.ARCHIVED -> ARCHIVED;
            case StateBatch.AVAILABLE, StateBatch.ACQUIRED -> AVAILABLE;
            default -> throw new IllegalArgumentException("unknown record state id " + id);
        };
    }

    /** The state an acknowledge type moves an acquired record to (RENEW keeps it acquired: null). */
    static RecordState afterAcknowledge(AcknowledgeType type) {
        return switch (type) {
            case ACCEPT -> ACKNOWLEDGED;
            case RELEASE -> AVAILABLE;
            case REJECT, GAP -> ARCHIVED;
            case RENEW -> null;
        };
    }
}
