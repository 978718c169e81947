package io.odradek.coordinator.share;

import io.odradek.wire.ErrorCode;
import java.util.List;

/**
 * A share partition's state as ReadShareGroupState answers it. {@code error} NONE with stateEpoch/startOffset
 * set; a partition never initialized answers as Kafka's share coordinator does (see
 * {@link SharePersister#read}). {@code message} may be null.
 */
public record PersistedShareState(ErrorCode error, String message, int stateEpoch, long startOffset, int leaderEpoch,
        List<StateBatch> batches) {
    public PersistedShareState {
        batches = List.copyOf(batches);
    }

    public static PersistedShareState error(ErrorCode error, String message) {
        return new PersistedShareState(error, message, -1, -1, -1, List.of());
    }
}
