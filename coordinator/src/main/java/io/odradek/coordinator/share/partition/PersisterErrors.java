package io.odradek.coordinator.share.partition;

import io.odradek.wire.ErrorCode;

/** What a share partition answers for a failed read or write of its persisted state (Kafka's fetchPersisterError). */
final class PersisterErrors {
    private PersisterErrors() {
    }

    static ErrorCode toPartitionError(ErrorCode persisterError) {
        return switch (persisterError) {
            case NONE -> ErrorCode.NONE;
            case NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS -> ErrorCode.COORDINATOR_NOT_AVAILABLE;
            case GROUP_ID_NOT_FOUND -> ErrorCode.GROUP_ID_NOT_FOUND;
            case UNKNOWN_TOPIC_OR_PARTITION -> ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
            // Another leader (or a newer state epoch) owns the state now: this one must step aside.
            case FENCED_LEADER_EPOCH, FENCED_STATE_EPOCH -> ErrorCode.NOT_LEADER_OR_FOLLOWER;
            default -> ErrorCode.UNKNOWN_SERVER_ERROR;
        };
    }
}
