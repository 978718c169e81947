package io.odradek.broker.txn;

import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionMarkerWriter;
import io.odradek.replication.partition.Partitions;
import io.odradek.wire.ErrorCode;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** PLACEHOLDER so the wiring compiles; part C writes the real one (same name and constructor). */
public final class LocalTransactionMarkerWriter implements TransactionMarkerWriter {
    public LocalTransactionMarkerWriter(Partitions partitions, GroupCoordinator groups) {
    }

    @Override
    public CompletableFuture<Map<TopicPartition, ErrorCode>> writeMarkers(long producerId, short producerEpoch,
            int coordinatorEpoch, boolean commit, Collection<TopicPartition> partitions) {
        throw new UnsupportedOperationException("placeholder");
    }
}
