package io.odradek.broker.coordinators;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.api.BrokerFeatures;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.broker.sharestate.ShareStateTopic;
import io.odradek.broker.topics.TopicService;
import io.odradek.broker.txn.RecordingSender;
import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.coordinator.share.state.ShareCoordinatorConfig;
import io.odradek.replication.cluster.ControllerCommand.CreateTopics;
import io.odradek.replication.cluster.ControllerCommand.NewTopic;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.PartitionWriters;
import io.odradek.replication.partition.Partitions;
import io.odradek.replication.partition.WaitingOperations;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DeleteShareGroupStateApi;
import io.odradek.wire.api.DeleteShareGroupStateApi.Response.DeleteStateResult;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The share coordinator of a broker in a cluster, wired as BrokerServices wires it: it serves the
 * {@code __share_group_state} partitions the elections give it, the persister sends keys led elsewhere to their
 * leader, FindCoordinator key type 2 finds the leader, and the topic is created through the controller with
 * Kafka's replication settings.
 */
class ShareStateInClusterTest {
    @TempDir
    Path dir;
    private TopicService topics;
    private Partitions partitions;
    private ClusterCoordinators coordinators;
    private UUID orders;
    /** Broker 1's view: __share_group_state's 2 partitions led by 1 and 2. */
    private final FakeCluster cluster = new FakeCluster(1).withBrokers(1, 2).withTopic(ShareStateTopic.NAME, 1, 2);
    private final RecordingSender shareState = new RecordingSender().answering(2, ShareStateInClusterTest::deleted);

    @BeforeEach
    void start() {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dirs", dir.toString(), "node.id", "1",
                "listeners", "PLAINTEXT://127.0.0.1:0"));
        topics = TopicService.open(config);
        orders = topics.createTopic("orders", 4, Map.of(), false).id();
        topics.createTopic(ShareStateTopic.NAME, 2, ShareCoordinatorConfig.defaults().topicConfigs(), false);
        partitions = new Partitions(PartitionLogs.of(topics), new PartitionWriters(1), new WaitingOperations<Partition>("test-waiting"));
        coordinators = ClusterCoordinators.open(config, cluster, topics, partitions, BrokerFeatures.kafka44(0),
                new RecordingSender(), new RecordingSender(), shareState, FakeCluster.BLOCK_SIZE);
    }

    @AfterEach
    void stop() {
        coordinators.close();
        partitions.close();
        topics.close();
    }

    /** Every partition of a DeleteShareGroupState request deleted. */
    private static Struct deleted(Struct request) {
        Struct response = DeleteShareGroupStateApi.Response.SCHEMA.newStruct();
        Struct topic = request.get(DeleteShareGroupStateApi.Request.TOPICS).get(0);
        response.add(DeleteShareGroupStateApi.Response.RESULTS)
                .set(DeleteStateResult.TOPIC_ID, topic.get(DeleteShareGroupStateApi.Request.DeleteStateData.TOPIC_ID))
                .add(DeleteStateResult.PARTITIONS)
                .set(DeleteStateResult.PartitionResult.PARTITION, topic.get(DeleteShareGroupStateApi.Request.DeleteStateData.PARTITIONS)
                        .get(0).get(DeleteShareGroupStateApi.Request.DeleteStateData.PartitionData.PARTITION))
                .set(DeleteStateResult.PartitionResult.ERROR_CODE, (short) 0);
        return response;
    }

    private SharePartitionKey keyOn(int statePartition) {
        for (int p = 0; ; p++) {
            SharePartitionKey key = new SharePartitionKey("g-" + p, orders, 0);
            int hash = key.coordinatorKey().hashCode();
            if ((hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % 2 == statePartition) {
                return key;
            }
        }
    }

    @Test
    void aStatePartitionLedHereIsServedAndOneLedElsewhereIsAskedOfItsLeader() {
        SharePartitionKey here = keyOn(0);
        SharePartitionKey elsewhere = keyOn(1);
        coordinators.elections.onLeadershipChange(ShareStateTopic.NAME, 0, 5, true);

        // Loading may still be under way: the persister retries COORDINATOR_LOAD_IN_PROGRESS.
        assertThat(coordinators.sharePersister.initialize(here, 1, 10).join()).isEqualTo(ErrorCode.NONE);
        assertThat(coordinators.sharePersister.write(here, 1, 5, 10, -1, List.of(new StateBatch(10, 12, StateBatch.ACKNOWLEDGED, (short) 1))).join())
                .isEqualTo(ErrorCode.NONE);
        PersistedShareState state = coordinators.sharePersister.read(here, 5).join();
        assertThat(state.startOffset()).isEqualTo(10);
        assertThat(state.batches()).containsExactly(new StateBatch(10, 12, StateBatch.ACKNOWLEDGED, (short) 1));
        assertThat(shareState.sentSoFar()).isEmpty();

        assertThat(coordinators.sharePersister.delete(elsewhere).join()).isEqualTo(ErrorCode.NONE);
        assertThat(shareState.sentSoFar()).singleElement().satisfies(sent -> {
            assertThat(sent.brokerId()).isEqualTo(2);
            assertThat(sent.api()).isEqualTo(DeleteShareGroupStateApi.SPEC);
        });

        assertThat(coordinators.locator.find(CoordinatorLocator.SHARE, here.coordinatorKey(), "PLAINTEXT"))
                .isEqualTo(CoordinatorLocator.Coordinator.at(1, "host-1", 9091));
        assertThat(coordinators.locator.find(CoordinatorLocator.SHARE, elsewhere.coordinatorKey(), "PLAINTEXT"))
                .isEqualTo(CoordinatorLocator.Coordinator.at(2, "host-2", 9092));

        // Leadership moves away: this broker's coordinator no longer answers for it.
        coordinators.elections.onLeadershipChange(ShareStateTopic.NAME, 0, 6, false);
        coordinators.shares.onResignation(0).join();
        assertThat(coordinators.shares.read(here, 5).join().error()).isEqualTo(ErrorCode.NOT_COORDINATOR);
    }

    @Test
    void theStateTopicIsCreatedThroughTheControllerWithKafkasSettingsCappedAtTheBrokers() {
        FakeCluster fresh = new FakeCluster(1).withBrokers(1, 2);
        InternalTopics internal = new InternalTopics(fresh);
        int count = internal.ensure(InternalTopics.shareState(ShareCoordinatorConfig.defaults(), 50)).join();

        assertThat(count).isEqualTo(50);
        NewTopic topic = ((CreateTopics) fresh.commands().get(fresh.commands().size() - 1)).topics().get(0);
        assertThat(topic.name()).isEqualTo("__share_group_state");
        assertThat(topic.numPartitions()).isEqualTo(50);
        assertThat(topic.replicationFactor()).isEqualTo((short) 2); // Kafka's 3, two brokers up
        assertThat(topic.configs()).isEqualTo(Map.of("cleanup.policy", "delete", "retention.ms", "-1",
                "compression.type", "producer", "segment.bytes", "104857600", "min.insync.replicas", "2"));
    }
}
