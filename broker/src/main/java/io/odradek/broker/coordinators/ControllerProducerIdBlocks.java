package io.odradek.broker.coordinators;

import io.odradek.broker.cluster.ClusterView;
import io.odradek.coordinator.producer.BlockProducerIdManager;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.wire.ErrorCode;
import java.util.concurrent.CompletableFuture;

/**
 * Producer id blocks from the controller (Kafka's AllocateProducerIds): each request is an
 * {@code AllocateProducerIds} command with this broker's id and registration epoch; its result's value is
 * the block's first id ({@code producerIdBlockSize} ids, a controller setting). Fails while this broker is
 * not registered yet, or when the controller refuses (a stale broker epoch) or cannot be reached; the
 * {@link BlockProducerIdManager} then answers COORDINATOR_LOAD_IN_PROGRESS and asks again on the next call.
 */
public final class ControllerProducerIdBlocks implements BlockProducerIdManager.BlockSource {
    private final ClusterView cluster;

    public ControllerProducerIdBlocks(ClusterView cluster) {
        this.cluster = cluster;
    }

    @Override
    public CompletableFuture<Long> nextBlock() {
        BrokerRegistration self = cluster.image().broker(cluster.localBrokerId()).orElse(null);
        if (self == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("broker " + cluster.localBrokerId()
                    + " is not registered yet"));
        }
        return cluster.controller()
                .orElseThrow(() -> new IllegalStateException("no controller: producer id blocks come from one only in a cluster"))
                .submit(new ControllerCommand.AllocateProducerIds(self.id(), self.epoch()))
                .thenApply(result -> {
                    if (result.error() != ErrorCode.NONE || result.value() < 0) {
                        throw new IllegalStateException("the controller gave no producer id block: " + result.error()
                                + (result.message() == null ? "" : " " + result.message()));
                    }
                    return result.value();
                });
    }
}
