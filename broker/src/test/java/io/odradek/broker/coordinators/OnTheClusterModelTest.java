package io.odradek.broker.coordinators;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.txn.TransactionStateTopic;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.producer.BlockProducerIdManager;
import io.odradek.replication.cluster.ControllerSettings;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The coordinators' controller commands applied by the real cluster model (ControllerLogic). */
class OnTheClusterModelTest {
    private static final BrokerConfig CONFIG = BrokerConfig.of(Map.of("offsets.topic.num.partitions", "6",
            "transaction.state.log.num.partitions", "4"));

    @Test
    void internalTopicsAreCreatedReplicatedOnThreeBrokersAndTheLocatorFindsTheirLeaders() {
        ModelController controller = new ModelController().withBrokers(1, 2, 3);
        InternalTopics internal = new InternalTopics(controller.view(1));

        assertThat(internal.ensure(InternalTopics.transactionState(CONFIG, 4)).join()).isEqualTo(4);
        assertThat(internal.ensure(InternalTopics.offsets(CONFIG, GroupCoordinatorConfig.from(CONFIG.effectiveConfigs()))).join())
                .isEqualTo(6);

        TopicImage state = controller.image().topic(TransactionStateTopic.NAME).orElseThrow();
        assertThat(state.configs()).containsEntry("min.insync.replicas", "2").containsEntry("cleanup.policy", "compact");
        assertThat(state.partitions()).allSatisfy(p -> {
            assertThat(p.replicas()).containsExactlyInAnyOrder(1, 2, 3);
            assertThat(p.leader()).isEqualTo(p.replicas().get(0));
        });
        TopicImage offsets = controller.image().topic(OffsetsTopic.NAME).orElseThrow();
        Set<Integer> leaders = new HashSet<>();
        offsets.partitions().forEach(p -> leaders.add(p.leader()));
        assertThat(leaders).containsExactlyInAnyOrder(1, 2, 3); // coordinators spread over the brokers

        // Broker 2's FindCoordinator answers each group with its partition's leader.
        ClusterCoordinatorLocator locator = new ClusterCoordinatorLocator(controller.view(2), name -> {
            throw new AssertionError("exists already");
        });
        for (int i = 0; i < 20; i++) {
            String group = "group-" + i;
            PartitionRegistration p = offsets.partition(OffsetsTopic.partitionFor(group, 6));
            assertThat(locator.find(CoordinatorLocator.GROUP, group, "PLAINTEXT"))
                    .isEqualTo(CoordinatorLocator.Coordinator.at(p.leader(), "host-" + p.leader(), 9090 + p.leader()));
        }
    }

    @Test
    void twoBrokersTakeDisjointProducerIdBlocksFromTheModel() {
        ModelController controller = new ModelController().withBrokers(1, 2);
        int blockSize = ControllerSettings.DEFAULTS.producerIdBlockSize();
        Set<Long> seen = new HashSet<>();
        try (BlockProducerIdManager a = new BlockProducerIdManager(new ControllerProducerIdBlocks(controller.view(1)), blockSize);
                BlockProducerIdManager b = new BlockProducerIdManager(new ControllerProducerIdBlocks(controller.view(2)), blockSize)) {
            for (int i = 0; i < 3 * blockSize; i++) {
                assertThat(seen.add(a.nextProducerId().join())).isTrue();
                assertThat(seen.add(b.nextProducerId().join())).isTrue();
            }
        }
        assertThat(controller.image().nextProducerId()).isGreaterThanOrEqualTo(6L * blockSize);
        assertThat(List.copyOf(seen)).hasSize(6 * blockSize);
    }
}
