package io.odradek.coordinator.runtime;

import io.odradek.wire.ErrorCode;
import java.util.List;

/**
 * What a write operation returns: the records to append, the response, and how the runtime applies
 * them once committed.
 *
 * @param records       appended as one batch; none: nothing to write, the response completes at once
 * @param response      the operation's future completes with it once the records are committed
 * @param replayRecords whether committed records are applied by the shard's {@code replay} (event
 *                      sourcing); false when the operation already changed memory and the records only
 *                      describe that change (Kafka's classic groups), the afterAppend callback then undoes
 *                      or completes the change
 * @param afterAppend   run on the shard's thread once the append is committed (NONE) or failed (the
 *                      client's error), after replay and before the response completes; may be null
 */
public record CoordinatorResult<T, R>(List<R> records, T response, boolean replayRecords, AfterAppend afterAppend) {
    /** Called with the append's outcome, on the shard's thread. */
    @FunctionalInterface
    public interface AfterAppend {
        void done(ErrorCode error);
    }

    public CoordinatorResult {
        records = List.copyOf(records);
    }

    /** Records applied through replay once committed, then the response. */
    public static <T, R> CoordinatorResult<T, R> of(List<R> records, T response) {
        return new CoordinatorResult<>(records, response, true, null);
    }

    /** Nothing to write. */
    public static <T, R> CoordinatorResult<T, R> of(T response) {
        return new CoordinatorResult<>(List.of(), response, true, null);
    }
}
