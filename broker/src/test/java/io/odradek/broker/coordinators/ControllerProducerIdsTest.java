package io.odradek.broker.coordinators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.coordinator.producer.BlockProducerIdManager;
import io.odradek.coordinator.runtime.CoordinatorErrors;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Producer ids in a cluster: blocks from the controller, never the same id on two brokers. */
class ControllerProducerIdsTest {
    @Test
    void twoBrokersGetDistinctIdsFromTheControllersBlocks() {
        FakeCluster broker1 = new FakeCluster(1).withBrokers(1, 2);
        FakeCluster broker2 = broker1.as(2);
        List<Long> ids1 = new ArrayList<>();
        List<Long> ids2 = new ArrayList<>();
        try (BlockProducerIdManager m1 = new BlockProducerIdManager(new ControllerProducerIdBlocks(broker1), FakeCluster.BLOCK_SIZE);
                BlockProducerIdManager m2 = new BlockProducerIdManager(new ControllerProducerIdBlocks(broker2), FakeCluster.BLOCK_SIZE)) {
            for (int i = 0; i < 2500; i++) { // crosses blocks on both, interleaved
                ids1.add(m1.nextProducerId().join());
                ids2.add(m2.nextProducerId().join());
            }
        }
        assertThat(ids1.subList(0, 3)).containsExactly(0L, 1L, 2L);
        assertThat(ids2.subList(0, 3)).containsExactly(1000L, 1001L, 1002L);
        Set<Long> all = new HashSet<>(ids1);
        all.addAll(ids2);
        assertThat(all).hasSize(5000);
        // Each broker asked with its own id and registration epoch.
        assertThat(broker1.commands()).contains(new ControllerCommand.AllocateProducerIds(1, 101),
                new ControllerCommand.AllocateProducerIds(2, 102));
        assertThat(broker1.commands()).allMatch(c -> c instanceof ControllerCommand.AllocateProducerIds);
    }

    @Test
    void aBrokerNotRegisteredYetAnswersLoadInProgressAndGetsABlockOnceItIs() {
        FakeCluster cluster = new FakeCluster(3).withBrokers(1);
        try (BlockProducerIdManager ids = new BlockProducerIdManager(new ControllerProducerIdBlocks(cluster), FakeCluster.BLOCK_SIZE)) {
            assertThatThrownBy(() -> ids.nextProducerId().join()).satisfies(e ->
                    assertThat(CoordinatorErrors.of(e)).isEqualTo(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS));
            assertThat(cluster.commands()).isEmpty();

            cluster.withBrokers(3);
            assertThat(ids.nextProducerId().join()).isEqualTo(0L);
            assertThat(cluster.commands()).containsExactly(new ControllerCommand.AllocateProducerIds(3, 103));
        }
    }
}
