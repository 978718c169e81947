package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.odradek.broker.cluster.TestClusterView;
import io.odradek.broker.handlers.ClusterImages.FakeController;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerCommand.PartitionRef;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.ItemResult;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterPartitionReassignmentsApi;
import io.odradek.wire.api.AlterPartitionReassignmentsApi.Response.ReassignableTopicResponse;
import io.odradek.wire.api.AlterPartitionReassignmentsApi.Response.ReassignableTopicResponse.ReassignablePartitionResponse;
import io.odradek.wire.api.CreatePartitionsApi;
import io.odradek.wire.api.CreatePartitionsApi.Request.CreatePartitionsTopic;
import io.odradek.wire.api.CreatePartitionsApi.Response.CreatePartitionsTopicResult;
import io.odradek.wire.api.DescribeLogDirsApi;
import io.odradek.wire.api.DescribeLogDirsApi.Response.DescribeLogDirsResult;
import io.odradek.wire.api.DescribeLogDirsApi.Response.DescribeLogDirsResult.DescribeLogDirsTopic;
import io.odradek.wire.api.DescribeLogDirsApi.Response.DescribeLogDirsResult.DescribeLogDirsTopic.DescribeLogDirsPartition;
import io.odradek.wire.api.DescribeQuorumApi;
import io.odradek.wire.api.DescribeQuorumApi.Response.ReplicaState;
import io.odradek.wire.api.ElectLeadersApi;
import io.odradek.wire.api.ElectLeadersApi.Response.ReplicaElectionResult;
import io.odradek.wire.api.ElectLeadersApi.Response.ReplicaElectionResult.PartitionResult;
import io.odradek.wire.api.ListPartitionReassignmentsApi;
import io.odradek.wire.api.ListPartitionReassignmentsApi.Response.OngoingTopicReassignment;
import io.odradek.wire.api.ListPartitionReassignmentsApi.Response.OngoingTopicReassignment.OngoingPartitionReassignment;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster admin APIs on a single node (the fixture's broker) and, with a fake controller, in a cluster. */
class ClusterAdminHandlersTest {
    @TempDir
    Path dir;
    AdminFixture fx;

    @BeforeEach
    void open() {
        fx = new AdminFixture(dir);
    }

    @AfterEach
    void close() {
        fx.close();
    }

    // ---------------------------------------------------------------- CreatePartitions

    private static Struct createPartitions(boolean validateOnly, Object... nameCountPairs) {
        Struct r = CreatePartitionsApi.Request.SCHEMA.newStruct().set(CreatePartitionsApi.Request.TIMEOUT_MS, 5000)
                .set(CreatePartitionsApi.Request.VALIDATE_ONLY, validateOnly);
        for (int i = 0; i < nameCountPairs.length; i += 2) {
            r.add(CreatePartitionsApi.Request.TOPICS).set(CreatePartitionsTopic.NAME, (String) nameCountPairs[i])
                    .set(CreatePartitionsTopic.COUNT, (Integer) nameCountPairs[i + 1])
                    .set(CreatePartitionsTopic.ASSIGNMENTS, null);
        }
        return r;
    }

    private static List<Object> results(Struct response) {
        List<Object> all = new ArrayList<>();
        for (Struct t : response.get(CreatePartitionsApi.Response.RESULTS)) {
            all.add(tuple(t.get(CreatePartitionsTopicResult.NAME), ErrorCode.forCode(t.get(CreatePartitionsTopicResult.ERROR_CODE)),
                    t.get(CreatePartitionsTopicResult.ERROR_MESSAGE)));
        }
        return all;
    }

    @Test
    void aSingleNodeGrowsATopicAndMakesTheNewPartitionsLogs() {
        fx.topics.createTopic("orders", 1, Map.of(), false);
        fx.topics.createTopic("audit", 2, Map.of(), false);
        CreatePartitionsHandler handler = new CreatePartitionsHandler(fx.topics, fx.cluster);

        Struct r = fx.call(handler, 3, createPartitions(false, "orders", 3, "audit", 2, "audit", 5, "nope", 2,
                "gone", 1));

        assertThat(fx.topics.topic("orders")).get().extracting(TopicInfo::partitions).isEqualTo(3);
        assertThat(fx.topics.partitionLog("orders", 2)).isPresent();
        assertThat(dir.resolve("orders-2")).isDirectory();
        assertThat(results(r)).containsExactly(
                tuple("orders", ErrorCode.NONE, null),
                tuple("nope", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null),
                tuple("gone", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null),
                tuple("audit", ErrorCode.INVALID_REQUEST, "Duplicate topic name."));
        assertThat(fx.topics.topic("audit")).get().extracting(TopicInfo::partitions).isEqualTo(2);
        // The image (what Metadata answers) follows.
        assertThat(fx.cluster.image().topic("orders").orElseThrow().partitions()).hasSize(3);
    }

    @Test
    void aSingleNodeRefusesCountsThatDoNotGrowAndAssignmentsToOtherBrokers() {
        fx.topics.createTopic("orders", 2, Map.of(), false);
        CreatePartitionsHandler handler = new CreatePartitionsHandler(fx.topics, fx.cluster);
        Struct withAssignment = createPartitions(false, "orders", 4);
        Struct topic = withAssignment.get(CreatePartitionsApi.Request.TOPICS).get(0);
        topic.set(CreatePartitionsTopic.ASSIGNMENTS, new ArrayList<>());
        topic.add(CreatePartitionsTopic.ASSIGNMENTS).set(CreatePartitionsTopic.CreatePartitionsAssignment.BROKER_IDS, List.of(1));
        topic.add(CreatePartitionsTopic.ASSIGNMENTS).set(CreatePartitionsTopic.CreatePartitionsAssignment.BROKER_IDS, List.of(2));

        assertThat(results(fx.call(handler, 0, createPartitions(false, "orders", 2)))).containsExactly(
                tuple("orders", ErrorCode.INVALID_PARTITIONS, "Topic already has 2 partition(s)."));
        assertThat(results(fx.call(handler, 1, createPartitions(false, "orders", 1)))).containsExactly(
                tuple("orders", ErrorCode.INVALID_PARTITIONS,
                        "The topic orders currently has 2 partition(s); 1 would not be an increase."));
        assertThat(results(fx.call(handler, 2, withAssignment))).containsExactly(
                tuple("orders", ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes broker 2, but no such broker is registered."));
        assertThat(results(fx.call(handler, 2, createPartitions(true, "orders", 9)))).containsExactly(
                tuple("orders", ErrorCode.NONE, null));
        assertThat(fx.topics.topic("orders")).get().extracting(TopicInfo::partitions).isEqualTo(2);
    }

    @Test
    void inAClusterEachTopicIsACommandToTheController() {
        FakeController controller = new FakeController(command -> CompletableFuture.completedFuture(
                ((ControllerCommand.CreatePartitions) command).topic().equals("orders")
                        ? CommandResult.ok(50, List.of(ItemResult.ok("orders")), -1)
                        : CommandResult.ok(51, List.of(new ItemResult("audit", ErrorCode.INVALID_PARTITIONS,
                                "Topic already has 1 partition(s).")), -1)), null);
        CreatePartitionsHandler handler = new CreatePartitionsHandler(fx.topics,
                TestClusterView.of(ClusterImages.threeBrokers(), 1, controller));

        Struct r = fx.call(handler, 3, createPartitions(false, "orders", 6, "audit", 1));

        assertThat(results(r)).containsExactly(tuple("orders", ErrorCode.NONE, null),
                tuple("audit", ErrorCode.INVALID_PARTITIONS, "Topic already has 1 partition(s)."));
        assertThat(controller.submitted).containsExactly(
                new ControllerCommand.CreatePartitions("orders", 6, null, false),
                new ControllerCommand.CreatePartitions("audit", 1, null, false));
        assertThat(fx.topics.topics()).isEmpty();
    }

    @Test
    void aControllerThatDoesNotAnswerInTimeIsRequestTimedOut() {
        FakeController controller = new FakeController(command -> new CompletableFuture<>(), null);
        CreatePartitionsHandler handler = new CreatePartitionsHandler(fx.topics,
                TestClusterView.of(ClusterImages.threeBrokers(), 1, controller));

        Struct r = fx.call(handler, 3, createPartitions(false, "orders", 6)
                .set(CreatePartitionsApi.Request.TIMEOUT_MS, 50));

        assertThat(r.get(CreatePartitionsApi.Response.RESULTS)).extracting(t -> t.get(CreatePartitionsTopicResult.ERROR_CODE))
                .containsExactly(ErrorCode.REQUEST_TIMED_OUT.code());
    }

    // ---------------------------------------------------------------- ElectLeaders

    private static Struct electLeaders(byte type, Map<String, List<Integer>> partitions) {
        Struct r = ElectLeadersApi.Request.SCHEMA.newStruct().set(ElectLeadersApi.Request.ELECTION_TYPE, type);
        if (partitions == null) {
            return r.set(ElectLeadersApi.Request.TOPIC_PARTITIONS, null);
        }
        partitions.forEach((topic, ps) -> r.add(ElectLeadersApi.Request.TOPIC_PARTITIONS)
                .set(ElectLeadersApi.Request.TopicPartitions.TOPIC, topic)
                .set(ElectLeadersApi.Request.TopicPartitions.PARTITIONS, ps));
        return r;
    }

    private static List<Object> electionResults(Struct response) {
        List<Object> all = new ArrayList<>();
        for (Struct t : response.get(ElectLeadersApi.Response.REPLICA_ELECTION_RESULTS)) {
            for (Struct p : t.get(ReplicaElectionResult.PARTITION_RESULT)) {
                all.add(tuple(t.get(ReplicaElectionResult.TOPIC) + "-" + p.get(PartitionResult.PARTITION_ID),
                        ErrorCode.forCode(p.get(PartitionResult.ERROR_CODE)), p.get(PartitionResult.ERROR_MESSAGE)));
            }
        }
        return all;
    }

    @Test
    void aSingleNodeNeverNeedsAnElection() {
        fx.topics.createTopic("orders", 2, Map.of(), false);
        ElectLeadersHandler handler = new ElectLeadersHandler(fx.cluster);
        Map<String, List<Integer>> wanted = new TreeMap<>(Map.of("orders", List.of(1, 0, 7), "nope", List.of(0)));

        Struct named = fx.call(handler, 2, electLeaders((byte) 0, wanted));
        Struct all = fx.call(handler, 1, electLeaders((byte) 1, null));

        assertThat(named.get(ElectLeadersApi.Response.ERROR_CODE)).isZero();
        assertThat(electionResults(named)).containsExactly(
                tuple("nope-0", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "No such topic as nope"),
                tuple("orders-1", ErrorCode.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition."),
                tuple("orders-0", ErrorCode.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition."),
                tuple("orders-7", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "No such partition as orders-7"));
        // All partitions: those needing no election are left out, the topic is still listed.
        assertThat(all.get(ElectLeadersApi.Response.REPLICA_ELECTION_RESULTS)).extracting(t -> t.get(ReplicaElectionResult.TOPIC),
                t -> t.get(ReplicaElectionResult.PARTITION_RESULT)).containsExactly(tuple("orders", List.of()));
    }

    @Test
    void inAClusterElectionsAreOneCommandWithPerPartitionResults() {
        FakeController controller = new FakeController(command -> CompletableFuture.completedFuture(CommandResult.ok(60,
                List.of(ItemResult.ok("orders-2"), new ItemResult("orders-0", ErrorCode.ELECTION_NOT_NEEDED, null),
                        new ItemResult("orders-1", ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE, "not in sync")), -1)), null);
        ElectLeadersHandler handler = new ElectLeadersHandler(TestClusterView.of(ClusterImages.threeBrokers(), 1, controller));

        Struct r = fx.call(handler, 2, electLeaders((byte) 1, Map.of("orders", List.of(2, 0, 1))));

        assertThat(controller.submitted).containsExactly(new ControllerCommand.ElectLeaders(true, List.of(
                new PartitionRef("orders", 2), new PartitionRef("orders", 0), new PartitionRef("orders", 1))));
        assertThat(electionResults(r)).containsExactly(tuple("orders-2", ErrorCode.NONE, null),
                tuple("orders-0", ErrorCode.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition."),
                tuple("orders-1", ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE, "not in sync"));
    }

    @Test
    void inAClusterElectingAllPartitionsListsOnlyThoseTheControllerElectedOrRefused() {
        FakeController controller = new FakeController(command -> CompletableFuture.completedFuture(CommandResult.ok(61,
                List.of(new ItemResult("orders-2", ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE, null)), -1)), null);
        ElectLeadersHandler handler = new ElectLeadersHandler(TestClusterView.of(ClusterImages.threeBrokers(), 1, controller));

        Struct r = fx.call(handler, 1, electLeaders((byte) 1, null));

        assertThat(controller.submitted).containsExactly(new ControllerCommand.ElectLeaders(true, null));
        assertThat(r.get(ElectLeadersApi.Response.REPLICA_ELECTION_RESULTS)).extracting(t -> t.get(ReplicaElectionResult.TOPIC))
                .containsExactly("audit", "orders");
        assertThat(electionResults(r)).containsExactly(tuple("orders-2", ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE, null));
    }

    // ---------------------------------------------------------------- reassignments

    private static Struct reassign(String topic, int partition, List<Integer> replicas) {
        Struct r = AlterPartitionReassignmentsApi.Request.SCHEMA.newStruct();
        r.add(AlterPartitionReassignmentsApi.Request.TOPICS)
                .set(AlterPartitionReassignmentsApi.Request.ReassignableTopic.NAME, topic)
                .add(AlterPartitionReassignmentsApi.Request.ReassignableTopic.PARTITIONS)
                .set(AlterPartitionReassignmentsApi.Request.ReassignableTopic.ReassignablePartition.PARTITION_INDEX, partition)
                .set(AlterPartitionReassignmentsApi.Request.ReassignableTopic.ReassignablePartition.REPLICAS, replicas);
        return r;
    }

    private static Object reassignResult(Struct response) {
        Struct p = response.get(AlterPartitionReassignmentsApi.Response.RESPONSES).get(0)
                .get(ReassignableTopicResponse.PARTITIONS).get(0);
        return tuple(ErrorCode.forCode(p.get(ReassignablePartitionResponse.ERROR_CODE)),
                p.get(ReassignablePartitionResponse.ERROR_MESSAGE));
    }

    @Test
    void aSingleNodeAcceptsOnlyItselfAsTarget() {
        fx.topics.createTopic("orders", 1, Map.of(), false);
        AlterPartitionReassignmentsHandler handler = new AlterPartitionReassignmentsHandler(fx.cluster);

        assertThat(reassignResult(fx.call(handler, 0, reassign("orders", 0, List.of(1)))))
                .isEqualTo(tuple(ErrorCode.NONE, null));
        assertThat(reassignResult(fx.call(handler, 0, reassign("orders", 0, List.of(1, 2))))).isEqualTo(
                tuple(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes broker 2, but no such broker is registered."));
        assertThat(reassignResult(fx.call(handler, 1, reassign("orders", 0, null))))
                .isEqualTo(tuple(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, null));
        assertThat(reassignResult(fx.call(handler, 1, reassign("orders", 3, List.of(1)))))
                .isEqualTo(tuple(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "Unable to find partition orders:3."));
        Struct noRfChange = reassign("orders", 0, List.of(1, 1))
                .set(AlterPartitionReassignmentsApi.Request.ALLOW_REPLICATION_FACTOR_CHANGE, false);
        Struct refused = fx.call(handler, 1, noRfChange);
        assertThat(reassignResult(refused)).isEqualTo(
                tuple(ErrorCode.INVALID_REPLICATION_FACTOR, "The replication factor is changed from 1 to 2"));
        assertThat(refused.get(AlterPartitionReassignmentsApi.Response.ALLOW_REPLICATION_FACTOR_CHANGE)).isFalse();
        assertThat(fx.call(new ListPartitionReassignmentsHandler(fx.cluster), 0,
                ListPartitionReassignmentsApi.Request.SCHEMA.newStruct()).get(ListPartitionReassignmentsApi.Response.TOPICS))
                .isEmpty();
    }

    @Test
    void inAClusterAReassignmentIsACommandAndTheListShowsAddingAndRemovingReplicas() {
        ClusterImage before = ClusterImages.threeBrokers();
        FakeController controller = new FakeController(command -> CompletableFuture.completedFuture(
                CommandResult.ok(70, List.of(ItemResult.ok("orders-0")), -1)), null);
        AlterPartitionReassignmentsHandler alter = new AlterPartitionReassignmentsHandler(
                TestClusterView.of(before, 1, controller));

        Struct r = fx.call(alter, 1, reassign("orders", 0, List.of(2, 4, 1)));

        assertThat(reassignResult(r)).isEqualTo(tuple(ErrorCode.NONE, null));
        assertThat(controller.submitted).containsExactly(new ControllerCommand.AlterReassignments(
                Map.of(new PartitionRef("orders", 0), List.of(2, 4, 1))));

        // The image after: orders-0 moving from [1,2,3] to [2,4,1].
        TopicImage orders = before.topics().get("orders");
        SortedMap<String, TopicImage> topics = new TreeMap<>(before.topics());
        topics.put("orders", orders.withPartition(0, new PartitionRegistration(List.of(2, 4, 1, 3), List.of(1, 2),
                List.of(4), List.of(3), 1, 4, 8)));
        SortedMap<Integer, BrokerRegistration> brokers = new TreeMap<>(before.brokers());
        ClusterImage after = new ClusterImage(70, before.clusterId(), brokers, topics, 0);
        ListPartitionReassignmentsHandler list = new ListPartitionReassignmentsHandler(TestClusterView.of(after, 1, controller));

        Struct all = fx.call(list, 0, ListPartitionReassignmentsApi.Request.SCHEMA.newStruct());
        Struct request = ListPartitionReassignmentsApi.Request.SCHEMA.newStruct()
                .set(ListPartitionReassignmentsApi.Request.TOPICS, new ArrayList<>());
        request.add(ListPartitionReassignmentsApi.Request.TOPICS)
                .set(ListPartitionReassignmentsApi.Request.ListPartitionReassignmentsTopics.NAME, "orders")
                .set(ListPartitionReassignmentsApi.Request.ListPartitionReassignmentsTopics.PARTITION_INDEXES, List.of(1));
        Struct notMoving = fx.call(list, 0, request);

        assertThat(all.get(ListPartitionReassignmentsApi.Response.ERROR_CODE)).isZero();
        assertThat(all.get(ListPartitionReassignmentsApi.Response.TOPICS)).singleElement().satisfies(t -> {
            assertThat(t.get(OngoingTopicReassignment.NAME)).isEqualTo("orders");
            assertThat(t.get(OngoingTopicReassignment.PARTITIONS)).extracting(
                            p -> p.get(OngoingPartitionReassignment.PARTITION_INDEX),
                            p -> p.get(OngoingPartitionReassignment.REPLICAS),
                            p -> p.get(OngoingPartitionReassignment.ADDING_REPLICAS),
                            p -> p.get(OngoingPartitionReassignment.REMOVING_REPLICAS))
                    .containsExactly(tuple(0, List.of(2, 4, 1, 3), List.of(4), List.of(3)));
        });
        assertThat(notMoving.get(ListPartitionReassignmentsApi.Response.TOPICS)).isEmpty();
    }

    // ---------------------------------------------------------------- DescribeQuorum

    private static Struct describeQuorum(String topic) {
        Struct r = DescribeQuorumApi.Request.SCHEMA.newStruct();
        r.add(DescribeQuorumApi.Request.TOPICS).set(DescribeQuorumApi.Request.TopicData.TOPIC_NAME, topic)
                .add(DescribeQuorumApi.Request.TopicData.PARTITIONS)
                .set(DescribeQuorumApi.Request.TopicData.PartitionData.PARTITION_INDEX, 0);
        return r;
    }

    @Test
    void describeQuorumAnswersTheRatisQuorumsLeaderEpochHighWatermarkVotersAndTheirListeners() {
        QuorumInfo quorum = new QuorumInfo(2, 6, 340, List.of(
                new QuorumInfo.ReplicaState(1, 338, 1000, 990), new QuorumInfo.ReplicaState(2, 340, -1, 1005)),
                List.of(new QuorumInfo.ReplicaState(4, 300, 1001, 980)),
                List.of(new Endpoint("CONTROLLER", "10.0.0.1", 19092), new Endpoint("CONTROLLER", "10.0.0.2", 19092)));
        DescribeQuorumHandler handler = new DescribeQuorumHandler(TestClusterView.of(ClusterImages.threeBrokers(), 1,
                new FakeController(c -> null, CompletableFuture.completedFuture(quorum))));

        Struct r = fx.call(handler, 2, describeQuorum("__cluster_metadata"));

        assertThat(r.get(DescribeQuorumApi.Response.ERROR_CODE)).isZero();
        Struct topic = r.get(DescribeQuorumApi.Response.TOPICS).get(0);
        assertThat(topic.get(DescribeQuorumApi.Response.TopicData.TOPIC_NAME)).isEqualTo("__cluster_metadata");
        Struct p = topic.get(DescribeQuorumApi.Response.TopicData.PARTITIONS).get(0);
        assertThat(p.get(DescribeQuorumApi.Response.TopicData.PartitionData.LEADER_ID)).isEqualTo(2);
        assertThat(p.get(DescribeQuorumApi.Response.TopicData.PartitionData.LEADER_EPOCH)).isEqualTo(6);
        assertThat(p.get(DescribeQuorumApi.Response.TopicData.PartitionData.HIGH_WATERMARK)).isEqualTo(340L);
        assertThat(p.get(DescribeQuorumApi.Response.TopicData.PartitionData.CURRENT_VOTERS)).extracting(
                        v -> v.get(ReplicaState.REPLICA_ID), v -> v.get(ReplicaState.LOG_END_OFFSET),
                        v -> v.get(ReplicaState.LAST_FETCH_TIMESTAMP), v -> v.get(ReplicaState.LAST_CAUGHT_UP_TIMESTAMP))
                .containsExactly(tuple(1, 338L, 1000L, 990L), tuple(2, 340L, -1L, 1005L));
        assertThat(p.get(DescribeQuorumApi.Response.TopicData.PartitionData.OBSERVERS)).extracting(
                v -> v.get(ReplicaState.REPLICA_ID)).containsExactly(4);
        assertThat(r.get(DescribeQuorumApi.Response.NODES)).extracting(n -> n.get(DescribeQuorumApi.Response.Node.NODE_ID),
                        n -> n.get(DescribeQuorumApi.Response.Node.LISTENERS).get(0).get(DescribeQuorumApi.Response.Node.Listener.NAME),
                        n -> n.get(DescribeQuorumApi.Response.Node.LISTENERS).get(0).get(DescribeQuorumApi.Response.Node.Listener.HOST),
                        n -> n.get(DescribeQuorumApi.Response.Node.LISTENERS).get(0).get(DescribeQuorumApi.Response.Node.Listener.PORT))
                .containsExactly(tuple(1, "CONTROLLER", "10.0.0.1", 19092), tuple(2, "CONTROLLER", "10.0.0.2", 19092));
    }

    @Test
    void aSingleNodeIsAOneVoterQuorumLedByItselfAndOtherPartitionsAreUnknown() {
        DescribeQuorumHandler handler = new DescribeQuorumHandler(fx.cluster);

        Struct r = fx.call(handler, 1, describeQuorum("__cluster_metadata"));
        Struct other = fx.call(handler, 2, describeQuorum("orders"));

        Struct p = r.get(DescribeQuorumApi.Response.TOPICS).get(0).get(DescribeQuorumApi.Response.TopicData.PARTITIONS).get(0);
        assertThat(p.get(DescribeQuorumApi.Response.TopicData.PartitionData.ERROR_CODE)).isZero();
        assertThat(p.get(DescribeQuorumApi.Response.TopicData.PartitionData.LEADER_ID)).isEqualTo(1);
        assertThat(p.get(DescribeQuorumApi.Response.TopicData.PartitionData.LEADER_EPOCH)).isEqualTo(1);
        assertThat(p.get(DescribeQuorumApi.Response.TopicData.PartitionData.HIGH_WATERMARK)).isZero();
        assertThat(p.get(DescribeQuorumApi.Response.TopicData.PartitionData.CURRENT_VOTERS)).extracting(
                v -> v.get(ReplicaState.REPLICA_ID), v -> v.get(ReplicaState.LOG_END_OFFSET)).containsExactly(tuple(1, 0L));
        assertThat(p.get(DescribeQuorumApi.Response.TopicData.PartitionData.OBSERVERS)).isEmpty();
        Struct refused = other.get(DescribeQuorumApi.Response.TOPICS).get(0).get(DescribeQuorumApi.Response.TopicData.PARTITIONS).get(0);
        assertThat(refused.get(DescribeQuorumApi.Response.TopicData.PartitionData.ERROR_CODE))
                .isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(refused.get(DescribeQuorumApi.Response.TopicData.PartitionData.ERROR_MESSAGE))
                .isEqualTo("This server does not host this topic-partition.");
    }

    // ---------------------------------------------------------------- DescribeLogDirs

    @Test
    void describeLogDirsListsEveryLocalReplicaWithItsSizeAndTheVolumesSpace() {
        fx.topics.createTopic("orders", 2, Map.of(), false);
        fx.topics.createTopic("audit", 1, Map.of(), false);
        DescribeLogDirsHandler handler = new DescribeLogDirsHandler(fx.topics);

        Struct all = fx.call(handler, 4, DescribeLogDirsApi.Request.SCHEMA.newStruct()
                .set(DescribeLogDirsApi.Request.TOPICS, null));
        Struct some = DescribeLogDirsApi.Request.SCHEMA.newStruct().set(DescribeLogDirsApi.Request.TOPICS, new ArrayList<>());
        some.add(DescribeLogDirsApi.Request.TOPICS).set(DescribeLogDirsApi.Request.DescribableLogDirTopic.TOPIC, "orders")
                .set(DescribeLogDirsApi.Request.DescribableLogDirTopic.PARTITIONS, List.of(1, 5));
        Struct one = fx.call(handler, 1, some);

        assertThat(all.get(DescribeLogDirsApi.Response.RESULTS)).singleElement().satisfies(d -> {
            assertThat(d.get(DescribeLogDirsResult.ERROR_CODE)).isZero();
            assertThat(d.get(DescribeLogDirsResult.LOG_DIR)).isEqualTo(dir.toAbsolutePath().normalize().toString());
            assertThat(d.get(DescribeLogDirsResult.TOTAL_BYTES)).isPositive();
            assertThat(d.get(DescribeLogDirsResult.USABLE_BYTES)).isPositive()
                    .isLessThanOrEqualTo(d.get(DescribeLogDirsResult.TOTAL_BYTES));
            assertThat(d.get(DescribeLogDirsResult.TOPICS)).extracting(t -> t.get(DescribeLogDirsTopic.NAME))
                    .containsExactly("audit", "orders");
            assertThat(d.get(DescribeLogDirsResult.TOPICS).get(1).get(DescribeLogDirsTopic.PARTITIONS)).extracting(
                            p -> p.get(DescribeLogDirsPartition.PARTITION_INDEX), p -> p.get(DescribeLogDirsPartition.PARTITION_SIZE),
                            p -> p.get(DescribeLogDirsPartition.OFFSET_LAG), p -> p.get(DescribeLogDirsPartition.IS_FUTURE_KEY))
                    .containsExactly(tuple(0, 0L, 0L, false), tuple(1, 0L, 0L, false));
        });
        assertThat(one.get(DescribeLogDirsApi.Response.RESULTS).get(0).get(DescribeLogDirsResult.TOPICS)).singleElement()
                .satisfies(t -> assertThat(t.get(DescribeLogDirsTopic.PARTITIONS))
                        .extracting(p -> p.get(DescribeLogDirsPartition.PARTITION_INDEX)).containsExactly(1));
        // v1-3 carry no volume sizes.
        assertThat(one.get(DescribeLogDirsApi.Response.RESULTS).get(0).get(DescribeLogDirsResult.TOTAL_BYTES)).isEqualTo(-1L);
    }
}
