package io.odradek.coordinator.transaction;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.wire.ErrorCode;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Writes a transaction's commit or abort marker to the partitions it touched (Kafka's transaction marker
 * channel: WriteTxnMarkers to each partition leader). Implemented outside {@code coordinator/} by whoever
 * leads the partitions: data partitions get a control batch, {@code __consumer_offsets} partitions also
 * make the group coordinator commit or drop the transaction's offsets.
 */
public interface TransactionMarkerWriter {
    /**
     * Completes with an error per partition (NONE once the marker is written and committed) when every
     * partition has answered; never completes exceptionally. The coordinator retries the failed ones.
     */
    CompletableFuture<Map<TopicPartition, ErrorCode>> writeMarkers(long producerId, short producerEpoch,
            int coordinatorEpoch, boolean commit, Collection<TopicPartition> partitions);
}
