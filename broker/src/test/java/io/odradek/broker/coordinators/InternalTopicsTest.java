package io.odradek.broker.coordinators;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.BrokerConfig;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerCommand.CreateTopics;
import io.odradek.replication.cluster.ControllerCommand.NewTopic;
import io.odradek.replication.cluster.TopicImage;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The internal topics of a cluster, created through the controller with Kafka's replication settings. */
class InternalTopicsTest {
    private static final BrokerConfig DEFAULTS = BrokerConfig.of(Map.of("transaction.state.log.num.partitions", "5",
            "offsets.topic.num.partitions", "4"));

    private static NewTopic created(FakeCluster cluster) {
        ControllerCommand command = cluster.commands().get(cluster.commands().size() - 1);
        assertThat(command).isInstanceOf(CreateTopics.class);
        assertThat(((CreateTopics) command).validateOnly()).isFalse();
        return ((CreateTopics) command).topics().get(0);
    }

    @Test
    void transactionStateGetsKafkasReplicationFactorAndMinIsrWhenThreeBrokersAreUp() {
        FakeCluster cluster = new FakeCluster(1).withBrokers(1, 2, 3);
        InternalTopics internal = new InternalTopics(cluster);

        int partitions = internal.ensure(InternalTopics.transactionState(DEFAULTS, 5)).join();

        assertThat(partitions).isEqualTo(5);
        NewTopic topic = created(cluster);
        assertThat(topic.name()).isEqualTo("__transaction_state");
        assertThat(topic.numPartitions()).isEqualTo(5);
        assertThat(topic.replicationFactor()).isEqualTo((short) 3);
        assertThat(topic.configs()).containsEntry("min.insync.replicas", "2").containsEntry("cleanup.policy", "compact")
                .containsEntry("segment.bytes", "104857600");
        TopicImage inImage = cluster.image().topic("__transaction_state").orElseThrow();
        assertThat(inImage.partition(0).replicas()).hasSize(3);
    }

    @Test
    void withFewerBrokersRegisteredTheReplicationFactorAndMinIsrAreCappedAtThem() {
        FakeCluster cluster = new FakeCluster(1).withBrokers(1, 2);
        InternalTopics internal = new InternalTopics(cluster);

        internal.ensure(InternalTopics.transactionState(DEFAULTS, 5)).join();
        assertThat(created(cluster).replicationFactor()).isEqualTo((short) 2);
        assertThat(created(cluster).configs()).containsEntry("min.insync.replicas", "2");

        internal.ensure(InternalTopics.offsets(DEFAULTS, GroupCoordinatorConfig.from(DEFAULTS.effectiveConfigs()))).join();
        NewTopic offsets = created(cluster);
        assertThat(offsets.name()).isEqualTo("__consumer_offsets");
        assertThat(offsets.numPartitions()).isEqualTo(4);
        assertThat(offsets.replicationFactor()).isEqualTo((short) 2);
        assertThat(offsets.configs()).doesNotContainKey("min.insync.replicas").containsEntry("cleanup.policy", "compact");
    }

    @Test
    void aFencedBrokerStillCountsSoARestartingBrokerDoesNotShrinkTheReplicationFactor() {
        FakeCluster cluster = new FakeCluster(1).withBrokers(1, 2, 3).fence(3);
        assertThat(InternalTopics.replicationFactor(InternalTopics.transactionState(DEFAULTS, 5), cluster.image()))
                .isEqualTo((short) 3);
    }

    @Test
    void explicitSettingsWinAndMinIsrNeverExceedsTheReplicationFactor() {
        BrokerConfig config = BrokerConfig.of(Map.of("transaction.state.log.replication.factor", "1",
                "transaction.state.log.min.isr", "3", "offsets.topic.replication.factor", "2"));
        FakeCluster cluster = new FakeCluster(1).withBrokers(1, 2, 3);
        InternalTopics internal = new InternalTopics(cluster);

        internal.ensure(InternalTopics.transactionState(config, 5)).join();
        assertThat(created(cluster).replicationFactor()).isEqualTo((short) 1);
        assertThat(created(cluster).configs()).containsEntry("min.insync.replicas", "1");
        internal.ensure(InternalTopics.offsets(config, GroupCoordinatorConfig.from(config.effectiveConfigs()))).join();
        assertThat(created(cluster).replicationFactor()).isEqualTo((short) 2);
    }

    @Test
    void aTopicAnotherBrokerCreatedIsTakenAsItIsWithoutAskingTheController() {
        FakeCluster cluster = new FakeCluster(1).withBrokers(1, 2).withTopic("__consumer_offsets", 1, 2, 1);
        InternalTopics internal = new InternalTopics(cluster);

        assertThat(internal.ensure(InternalTopics.offsets(DEFAULTS, GroupCoordinatorConfig.from(DEFAULTS.effectiveConfigs()))).join())
                .isEqualTo(3);
        assertThat(cluster.commands()).isEmpty();
    }
}
