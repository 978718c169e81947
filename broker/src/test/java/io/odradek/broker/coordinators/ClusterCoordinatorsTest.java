package io.odradek.broker.coordinators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.api.BrokerFeatures;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.broker.topics.TopicService;
import io.odradek.broker.txn.RecordingSender;
import io.odradek.broker.txn.TransactionStateTopic;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.group.OffsetCommitRequest;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.InitProducerIdResult;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.PartitionWriters;
import io.odradek.replication.partition.Partitions;
import io.odradek.replication.partition.WaitingOperations;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.WriteTxnMarkersApi;
import io.odradek.wire.api.WriteTxnMarkersApi.Request.WritableTxnMarker;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker's coordinators in a cluster, wired as BrokerServices wires them: they serve what the elections
 * give them, take producer ids from the controller and send markers to other leaders. The internal topics'
 * local replicas are made here by the topic service (the ReplicaManager's job in a running cluster).
 */
class ClusterCoordinatorsTest {
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);

    @TempDir
    Path dir;
    private TopicService topics;
    private Partitions partitions;
    private ClusterCoordinators coordinators;
    /** Broker 1's view: offsets partitions led by 1, 2, 1; transaction state by 1, 2; orders-1 by 2. */
    private final FakeCluster cluster = new FakeCluster(1).withBrokers(1, 2)
            .withTopic(OffsetsTopic.NAME, 1, 2, 1)
            .withTopic("orders", 1, 2);
    private final RecordingSender markers = new RecordingSender().answering(2, ClusterCoordinatorsTest::allWritten);
    private final RecordingSender verification = new RecordingSender();

    @BeforeEach
    void start() {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dirs", dir.toString(), "node.id", "1",
                "listeners", "PLAINTEXT://127.0.0.1:0", "offsets.topic.num.partitions", "3"));
        topics = TopicService.open(config);
        topics.createTopic(OffsetsTopic.NAME, 3, GroupCoordinatorConfig.defaults().offsetsTopicConfigs(), false);
        topics.createTopic(TransactionStateTopic.NAME, 2, TransactionStateTopic.configs(1 << 20), false);
        partitions = new Partitions(PartitionLogs.of(topics), new PartitionWriters(1), new WaitingOperations<Partition>("test-waiting"));
        coordinators = ClusterCoordinators.open(config, cluster, topics, partitions, BrokerFeatures.kafka44(0), markers,
                verification, FakeCluster.BLOCK_SIZE);
        // Created by another broker after this one started: 2 partitions, not transaction.state.log.num.partitions' 50.
        cluster.withTopic(TransactionStateTopic.NAME, 1, 2);
    }

    @AfterEach
    void stop() {
        coordinators.close();
        partitions.close();
        topics.close();
    }

    /** Every partition of a WriteTxnMarkers request written. */
    private static Struct allWritten(Struct request) {
        Struct response = WriteTxnMarkersApi.Response.SCHEMA.newStruct();
        for (Struct marker : request.get(WriteTxnMarkersApi.Request.MARKERS)) {
            Struct result = response.add(WriteTxnMarkersApi.Response.MARKERS)
                    .set(WriteTxnMarkersApi.Response.WritableTxnMarkerResult.PRODUCER_ID, marker.get(WritableTxnMarker.PRODUCER_ID));
            for (Struct topic : marker.get(WritableTxnMarker.TOPICS)) {
                Struct t = result.add(WriteTxnMarkersApi.Response.WritableTxnMarkerResult.TOPICS)
                        .set(WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult.NAME,
                                topic.get(WritableTxnMarker.WritableTxnMarkerTopic.NAME));
                for (int p : topic.get(WritableTxnMarker.WritableTxnMarkerTopic.PARTITION_INDEXES)) {
                    t.add(WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult.PARTITIONS)
                            .set(WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult
                                    .WritableTxnMarkerPartitionResult.PARTITION_INDEX, p)
                            .set(WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult
                                    .WritableTxnMarkerPartitionResult.ERROR_CODE, (short) 0);
                }
            }
        }
        return response;
    }

    private static String keyOn(int partition, int count) {
        for (int i = 0; ; i++) {
            if (OffsetsTopic.partitionFor("key-" + i, count) == partition) {
                return "key-" + i;
            }
        }
    }

    private Map<TopicPartition, ErrorCode> commit(String group, long offset) {
        return coordinators.groups.commitOffsets(new OffsetCommitRequest(group, -1, "", null, -1,
                List.of(new OffsetCommitRequest.Partition(ORDERS_1, offset, 0, "")), (short) 9)).join();
    }

    @Test
    void groupsAreServedWhileThisBrokerLeadsTheirOffsetsPartition() throws Exception {
        String here = keyOn(0, 3);
        String elsewhere = keyOn(1, 3);
        assertThat(commit(here, 5)).containsExactly(entry(ORDERS_1, ErrorCode.NOT_COORDINATOR)); // nothing elected yet

        coordinators.elections.onLeadershipChange(OffsetsTopic.NAME, 0, 3, true);
        coordinators.elections.onLeadershipChange("orders", 0, 3, true); // not a coordinator's topic: ignored
        awaitServing(here);

        assertThat(commit(here, 6)).containsExactly(entry(ORDERS_1, ErrorCode.NONE));
        assertThat(coordinators.groups.fetchOffsets(here, List.of(ORDERS_1)).join().offsets().get(ORDERS_1).offset()).isEqualTo(6L);
        assertThat(commit(elsewhere, 6)).containsExactly(entry(ORDERS_1, ErrorCode.NOT_COORDINATOR));
        assertThat(coordinators.locator.find(CoordinatorLocator.GROUP, here, "PLAINTEXT")).isEqualTo(CoordinatorLocator.Coordinator.at(1, "host-1", 9091));
        assertThat(coordinators.locator.find(CoordinatorLocator.GROUP, elsewhere, "PLAINTEXT")).isEqualTo(CoordinatorLocator.Coordinator.at(2, "host-2", 9092));

        coordinators.elections.onLeadershipChange(OffsetsTopic.NAME, 0, 4, false);
        coordinators.groups.onResignation(0).get(10, TimeUnit.SECONDS); // the same unload again: done once the first is
        assertThat(commit(here, 7)).containsExactly(entry(ORDERS_1, ErrorCode.NOT_COORDINATOR));
    }

    @Test
    void aTransactionCoordinatedHereTakesItsIdFromTheControllerAndSendsItsMarkerToTheOtherLeaderWithItsEpoch()
            throws Exception {
        String id = keyOn(0, 2);
        coordinators.elections.onLeadershipChange(TransactionStateTopic.NAME, 0, 6, true);
        InitProducerIdResult producer = awaitInit(id);

        assertThat(coordinators.transactions.partitionFor(id)).isZero(); // placed by the topic's 2 partitions
        assertThat(producer.error()).isEqualTo(ErrorCode.NONE);
        assertThat(producer.producerId()).isEqualTo(0L); // the first id of the controller's first block
        assertThat(cluster.commands()).containsExactly(new ControllerCommand.AllocateProducerIds(1, 101));
        assertThat(coordinators.transactions.addPartitions(id, producer.producerId(), producer.producerEpoch(), List.of(ORDERS_1))
                .join()).containsExactly(entry(ORDERS_1, ErrorCode.NONE));
        assertThat(coordinators.transactions.endTransaction(id, producer.producerId(), producer.producerEpoch(), true, false)
                .join().error()).isEqualTo(ErrorCode.NONE);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (markers.sentSoFar().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        RecordingSender.Sent sent = markers.sentSoFar().get(0);
        assertThat(sent.brokerId()).isEqualTo(2);
        Struct marker = sent.request().get(WriteTxnMarkersApi.Request.MARKERS).get(0);
        assertThat(marker.get(WritableTxnMarker.PRODUCER_ID)).isEqualTo(0L);
        assertThat(marker.get(WritableTxnMarker.COORDINATOR_EPOCH)).isEqualTo(6);
        assertThat(marker.get(WritableTxnMarker.TRANSACTION_RESULT)).isTrue();
        assertThat(verification.sentSoFar()).isEmpty();
    }

    /** Loads run on the coordinator's threads: wait (bounded) until the group's partition answers. */
    private void awaitServing(String group) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (coordinators.groups.fetchOffsets(group, List.of(ORDERS_1)).join().error() != ErrorCode.NONE
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    private InitProducerIdResult awaitInit(String id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            InitProducerIdResult result = coordinators.transactions.initProducerId(id, 60_000, -1, (short) -1, false, false).join();
            if (result.error() == ErrorCode.NONE || System.nanoTime() > deadline) {
                return result;
            }
            Thread.sleep(10);
        }
    }
}
