package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.odradek.broker.cluster.TestClusterView;
import io.odradek.broker.handlers.ClusterImages.FakeController;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerLogic;
import io.odradek.replication.cluster.ControllerSettings;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterPartitionReassignmentsApi;
import io.odradek.wire.api.CreatePartitionsApi;
import io.odradek.wire.api.CreatePartitionsApi.Request.CreatePartitionsTopic;
import io.odradek.wire.api.CreatePartitionsApi.Response.CreatePartitionsTopicResult;
import io.odradek.wire.api.ListPartitionReassignmentsApi;
import io.odradek.wire.api.ListPartitionReassignmentsApi.Response.OngoingTopicReassignment;
import io.odradek.wire.api.ListPartitionReassignmentsApi.Response.OngoingTopicReassignment.OngoingPartitionReassignment;
import io.odradek.wire.api.MetadataApi;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseBroker;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseTopic;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseTopic.MetadataResponsePartition;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin handlers against the real controller logic: commands are applied to an image as the metadata
 * quorum's state machine does, and the handlers read the image back.
 */
class ControllerLogicAdminTest {
    @TempDir
    Path dir;
    AdminFixture fx;
    private final ControllerLogic logic = new ControllerLogic(ControllerSettings.DEFAULTS);
    private ClusterImage image = ClusterImage.EMPTY;
    private FakeController controller;
    private TestClusterView view;

    private synchronized CompletableFuture<CommandResult> apply(ControllerCommand command) {
        ControllerLogic.Applied applied = logic.apply(image, command, image.offset() + 1);
        image = applied.image();
        return CompletableFuture.completedFuture(applied.result());
    }

    private synchronized ClusterImage image() {
        return image;
    }

    private void register(int id) {
        long epoch = apply(new ControllerCommand.RegisterBroker(id, new UUID(3, id),
                List.of(new Endpoint("PLAINTEXT", "10.0.0." + id, 9092)), "r" + id, "cluster-abc")).join().value();
        assertThat(apply(new ControllerCommand.UnfenceBroker(id, epoch)).join().error()).isEqualTo(ErrorCode.NONE);
    }

    @BeforeEach
    void open() {
        fx = new AdminFixture(dir);
        controller = new FakeController(this::apply, null);
        view = TestClusterView.of(this::image, 1, controller);
        for (int id = 1; id <= 3; id++) {
            register(id);
        }
        CommandResult created = apply(new ControllerCommand.CreateTopics(List.of(new ControllerCommand.NewTopic(
                "orders", new UUID(5, 5), 2, (short) 3, Map.of(), Map.of())), false)).join();
        assertThat(created.items()).extracting(i -> i.error()).containsExactly(ErrorCode.NONE);
    }

    @AfterEach
    void close() {
        fx.close();
    }

    private List<Struct> metadataPartitions() {
        Struct r = fx.call(new MetadataHandler(fx.topics, view), 12,
                MetadataApi.Request.SCHEMA.newStruct().set(MetadataApi.Request.TOPICS, null));
        return r.get(MetadataApi.Response.TOPICS).get(0).get(MetadataResponseTopic.PARTITIONS);
    }

    @Test
    void createPartitionsGrowsTheTopicWithThreeReplicasEachAndMetadataShowsThem() {
        Struct request = CreatePartitionsApi.Request.SCHEMA.newStruct().set(CreatePartitionsApi.Request.TIMEOUT_MS, 5000);
        request.add(CreatePartitionsApi.Request.TOPICS).set(CreatePartitionsTopic.NAME, "orders")
                .set(CreatePartitionsTopic.COUNT, 4).set(CreatePartitionsTopic.ASSIGNMENTS, null);
        request.add(CreatePartitionsApi.Request.TOPICS).set(CreatePartitionsTopic.NAME, "orders2")
                .set(CreatePartitionsTopic.COUNT, 4).set(CreatePartitionsTopic.ASSIGNMENTS, null);

        Struct r = fx.call(new CreatePartitionsHandler(fx.topics, view), 3, request);

        assertThat(r.get(CreatePartitionsApi.Response.RESULTS)).extracting(t -> t.get(CreatePartitionsTopicResult.NAME),
                        t -> t.get(CreatePartitionsTopicResult.ERROR_CODE))
                .containsExactly(tuple("orders", ErrorCode.NONE.code()),
                        tuple("orders2", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code()));
        List<Struct> partitions = metadataPartitions();
        assertThat(partitions).hasSize(4).allSatisfy(p -> {
            assertThat(p.get(MetadataResponsePartition.REPLICA_NODES)).hasSize(3).containsOnly(1, 2, 3);
            assertThat(p.get(MetadataResponsePartition.ISR_NODES)).containsExactlyInAnyOrderElementsOf(
                    p.get(MetadataResponsePartition.REPLICA_NODES));
            assertThat(p.get(MetadataResponsePartition.LEADER_ID)).isEqualTo(p.get(MetadataResponsePartition.REPLICA_NODES).get(0));
            assertThat(p.get(MetadataResponsePartition.OFFLINE_REPLICAS)).isEmpty();
        });
    }

    @Test
    void aFencedBrokerDisappearsFromMetadataAndItsLeadershipsMoveToInSyncReplicas() {
        apply(new ControllerCommand.FenceBrokers(List.of(2)));

        Struct r = fx.call(new MetadataHandler(fx.topics, view), 12,
                MetadataApi.Request.SCHEMA.newStruct().set(MetadataApi.Request.TOPICS, null));

        assertThat(r.get(MetadataApi.Response.BROKERS)).extracting(b -> b.get(MetadataResponseBroker.NODE_ID))
                .containsExactly(1, 3);
        List<Struct> partitions = r.get(MetadataApi.Response.TOPICS).get(0).get(MetadataResponseTopic.PARTITIONS);
        assertThat(partitions).allSatisfy(p -> {
            assertThat(p.get(MetadataResponsePartition.LEADER_ID)).isIn(1, 3);
            assertThat(p.get(MetadataResponsePartition.ISR_NODES)).doesNotContain(2);
            assertThat(p.get(MetadataResponsePartition.OFFLINE_REPLICAS)).containsExactly(2);
        });
    }

    @Test
    void aReassignmentToANewBrokerIsListedWithAddingAndRemovingReplicas() {
        register(4);
        PartitionRegistration before = image().partition("orders", 0).orElseThrow();
        List<Integer> target = new ArrayList<>(before.replicas().subList(0, 2));
        target.add(4);
        int leaving = before.replicas().get(2);
        Struct alter = AlterPartitionReassignmentsApi.Request.SCHEMA.newStruct();
        alter.add(AlterPartitionReassignmentsApi.Request.TOPICS)
                .set(AlterPartitionReassignmentsApi.Request.ReassignableTopic.NAME, "orders")
                .add(AlterPartitionReassignmentsApi.Request.ReassignableTopic.PARTITIONS)
                .set(AlterPartitionReassignmentsApi.Request.ReassignableTopic.ReassignablePartition.PARTITION_INDEX, 0)
                .set(AlterPartitionReassignmentsApi.Request.ReassignableTopic.ReassignablePartition.REPLICAS, target);

        Struct altered = fx.call(new AlterPartitionReassignmentsHandler(view), 1, alter);
        Struct listed = fx.call(new ListPartitionReassignmentsHandler(view), 0,
                ListPartitionReassignmentsApi.Request.SCHEMA.newStruct());

        assertThat(altered.get(AlterPartitionReassignmentsApi.Response.RESPONSES).get(0)
                .get(AlterPartitionReassignmentsApi.Response.ReassignableTopicResponse.PARTITIONS).get(0)
                .get(AlterPartitionReassignmentsApi.Response.ReassignableTopicResponse.ReassignablePartitionResponse.ERROR_CODE))
                .isZero();
        List<Integer> all = new ArrayList<>(target);
        all.add(leaving);
        assertThat(listed.get(ListPartitionReassignmentsApi.Response.TOPICS)).singleElement().satisfies(t -> assertThat(
                t.get(OngoingTopicReassignment.PARTITIONS)).extracting(
                        p -> p.get(OngoingPartitionReassignment.PARTITION_INDEX),
                        p -> p.get(OngoingPartitionReassignment.REPLICAS),
                        p -> p.get(OngoingPartitionReassignment.ADDING_REPLICAS),
                        p -> p.get(OngoingPartitionReassignment.REMOVING_REPLICAS))
                .containsExactly(tuple(0, all, List.of(4), List.of(leaving))));
        // Metadata shows the whole replica set while it moves.
        assertThat(metadataPartitions().get(0).get(MetadataResponsePartition.REPLICA_NODES)).isEqualTo(all);
    }
}
