package io.odradek.coordinator.transaction;

import io.odradek.wire.ErrorCode;
import java.util.List;

/**
 * ListTransactions' answer.
 *
 * @param unknownStateFilters the state filters that name no transaction state (Kafka answers them back)
 */
public record ListTransactionsResult(ErrorCode error, List<String> unknownStateFilters, List<Listing> transactions) {
    /** One transactional id: its producer id and its state's Kafka name ("Ongoing", "CompleteCommit", ...). */
    public record Listing(String transactionalId, long producerId, String state) {
    }

    public static ListTransactionsResult error(ErrorCode error) {
        return new ListTransactionsResult(error, List.of(), List.of());
    }
}
