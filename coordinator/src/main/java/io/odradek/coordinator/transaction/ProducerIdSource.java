package io.odradek.coordinator.transaction;

import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.coordinator.runtime.CoordinatorErrors;
import io.odradek.wire.ErrorCode;
import java.util.concurrent.CompletableFuture;

/**
 * Producer ids for the transaction shards, which must not wait: an id now, or the error Kafka answers when
 * its id manager has none ready (COORDINATOR_LOAD_IN_PROGRESS: "waiting for the next block", the client
 * retries). An id still being reserved is kept for the next caller, so none is lost. Thread-safe.
 */
final class ProducerIdSource {
    private final ProducerIdManager manager;
    private CompletableFuture<Long> reserving;

    ProducerIdSource(ProducerIdManager manager) {
        this.manager = manager;
    }

    /**
     * @throws TransactionException COORDINATOR_LOAD_IN_PROGRESS (none ready yet, or no block from the controller)
     *     or UNKNOWN_SERVER_ERROR (it failed)
     */
    synchronized long next() {
        CompletableFuture<Long> id = reserving != null ? reserving : manager.nextProducerId();
        reserving = null;
        if (!id.isDone()) {
            reserving = id;
            throw new TransactionException(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, "no producer id ready yet");
        }
        try {
            return id.join();
        } catch (RuntimeException e) {
            // A cluster's manager without a block says COORDINATOR_LOAD_IN_PROGRESS; anything else is a failure.
            ErrorCode error = CoordinatorErrors.of(e);
            throw new TransactionException(error != null ? error : ErrorCode.UNKNOWN_SERVER_ERROR,
                    "no producer id: the id manager failed");
        }
    }
}
