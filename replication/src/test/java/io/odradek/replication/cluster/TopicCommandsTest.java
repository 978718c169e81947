package io.odradek.replication.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.cluster.ControllerCommand.AlterTopicConfigs;
import io.odradek.replication.cluster.ControllerCommand.CreatePartitions;
import io.odradek.replication.cluster.ControllerCommand.CreateTopics;
import io.odradek.replication.cluster.ControllerCommand.DeleteTopics;
import io.odradek.replication.cluster.ControllerCommand.NewTopic;
import io.odradek.replication.metadata.Ids;
import io.odradek.wire.ErrorCode;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TopicCommandsTest {
    private static NewTopic placed(String name, int partitions, int rf) {
        return new NewTopic(name, UUID.nameUUIDFromBytes(name.getBytes()), partitions, (short) rf, null, Map.of());
    }

    private static NewTopic assigned(String name, Map<Integer, List<Integer>> assignments) {
        return new NewTopic(name, UUID.nameUUIDFromBytes(name.getBytes()), -1, (short) -1, assignments, Map.of());
    }

    @Test
    void createsPlacedTopicsFullyInSyncLedByTheirFirstReplicaWithConfigsAsGiven() {
        Cluster c = new Cluster().withBrokers(3);
        NewTopic orders = new NewTopic("orders", new UUID(1, 2), 3, (short) 2, null,
                Map.of("cleanup.policy", "compact", "min.insync.replicas", "2"));

        CommandResult r = c.run(new CreateTopics(List.of(orders), false));

        assertThat(r.items()).containsExactly(ItemResult.ok("orders"));
        TopicImage t = c.image.topics().get("orders");
        assertThat(t.id()).isEqualTo(new UUID(1, 2));
        assertThat(t.configs()).isEqualTo(Map.of("cleanup.policy", "compact", "min.insync.replicas", "2"));
        assertThat(t.partitions()).hasSize(3).allSatisfy(p -> {
            assertThat(p.replicas()).hasSize(2);
            assertThat(p.isr()).isEqualTo(p.replicas());
            assertThat(p.leader()).isEqualTo(p.replicas().get(0));
            assertThat(p.leaderEpoch()).isZero();
            assertThat(p.partitionEpoch()).isZero();
        });
        assertThat(new HashSet<>(t.partitions().stream().map(PartitionRegistration::leader).toList())).hasSize(3);
    }

    @Test
    void eachTopicIsRefusedOnItsOwnWithKafkasErrors() {
        Cluster c = new Cluster().withBrokers(2);
        c.createPlaced("a.b", 1, 1, Map.of());

        CommandResult r = c.run(new CreateTopics(List.of(placed("a.b", 1, 1), placed("a_b", 1, 1),
                placed("bad/name", 1, 1), placed("zero", 0, 1), placed("norf", 1, 0), placed("big", 1, 3),
                placed("__cluster_metadata", 1, 1), placed("good", 2, 2)), false));

        assertThat(r.error()).isEqualTo(ErrorCode.NONE);
        assertThat(r.items()).containsExactly(
                new ItemResult("a.b", ErrorCode.TOPIC_ALREADY_EXISTS, "Topic 'a.b' already exists."),
                new ItemResult("a_b", ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic 'a_b' collides with existing topic: a.b"),
                new ItemResult("bad/name", ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic name \"bad/name\" is illegal, it "
                        + "contains a character other than ASCII alphanumerics, '.', '_' and '-'"),
                new ItemResult("zero", ErrorCode.INVALID_PARTITIONS,
                        "Number of partitions was set to an invalid non-positive value."),
                new ItemResult("norf", ErrorCode.INVALID_REPLICATION_FACTOR,
                        "Replication factor must be larger than 0, or -1 to use the default value."),
                new ItemResult("big", ErrorCode.INVALID_REPLICATION_FACTOR, "Unable to replicate the partition 3 "
                        + "time(s): The target replication factor of 3 cannot be reached because only 2 broker(s) are "
                        + "registered or some brokers have all their log directories cordoned."),
                new ItemResult("__cluster_metadata", ErrorCode.INVALID_REQUEST,
                        "Creation of internal topic __cluster_metadata is prohibited."),
                ItemResult.ok("good"));
        assertThat(c.image.topics().keySet()).containsExactly("a.b", "good");
    }

    @Test
    void validateOnlyAnswersButChangesNothing() {
        Cluster c = new Cluster().withBrokers(1);
        ClusterImage before = c.image;

        CommandResult r = c.run(new CreateTopics(List.of(placed("t", 1, 1), placed("u", 1, 2)), true));

        assertThat(r.items()).extracting(ItemResult::error)
                .containsExactly(ErrorCode.NONE, ErrorCode.INVALID_REPLICATION_FACTOR);
        assertThat(c.image.topics()).isEqualTo(before.topics());
        assertThat(c.image.offset()).isEqualTo(before.offset() + 1);
    }

    @Test
    void noUsableBrokerAtAllIsKafkasFencedMessage() {
        Cluster c = new Cluster();
        c.run(Cluster.register(1, null));

        CommandResult r = c.run(new CreateTopics(List.of(placed("t", 1, 1)), false));

        assertThat(r.items()).containsExactly(new ItemResult("t", ErrorCode.INVALID_REPLICATION_FACTOR,
                "Unable to replicate the partition 1 time(s): All brokers are currently fenced or in controlled "
                        + "shutdown."));
    }

    @Test
    void manualAssignmentsAreCheckedAsKafkaDoesAndLedByTheFirstLiveReplica() {
        Cluster c = new Cluster().withBrokers(3);
        c.fence(1);

        CommandResult r = c.run(new CreateTopics(List.of(
                assigned("ok", Map.of(0, List.of(1, 2), 1, List.of(3, 1))),
                assigned("empty", Map.of(0, List.of())),
                assigned("unknown", Map.of(0, List.of(1, 7))),
                assigned("twice", Map.of(0, List.of(2, 2))),
                assigned("uneven", Map.of(0, List.of(2, 3), 1, List.of(2))),
                assigned("gap", Map.of(0, List.of(2), 2, List.of(3))),
                assigned("dead", Map.of(0, List.of(1)))), false));

        assertThat(r.items()).containsExactly(ItemResult.ok("ok"),
                new ItemResult("empty", ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes an empty replica list."),
                new ItemResult("unknown", ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes broker 7, but no such broker is registered."),
                new ItemResult("twice", ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes the broker 2 more than once."),
                new ItemResult("uneven", ErrorCode.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment "
                        + "includes a partition with 1 replica(s), but this is not consistent with previous "
                        + "partitions, which have 2 replica(s)."),
                new ItemResult("gap", ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "partitions should be a consecutive 0-based integer sequence"),
                new ItemResult("dead", ErrorCode.INVALID_REPLICA_ASSIGNMENT, "All brokers specified in the manual "
                        + "partition assignment for partition 0 are fenced or in controlled shutdown."));
        assertThat(c.partition("ok", 0)).isEqualTo(new PartitionRegistration(List.of(1, 2), List.of(2), List.of(),
                List.of(), 2, 0, 0));
        assertThat(c.partition("ok", 1)).isEqualTo(new PartitionRegistration(List.of(3, 1), List.of(3), List.of(), List.of(), 3, 0, 0));
    }

    @Test
    void deleteTopicsByIdAnswersPerTopic() {
        Cluster c = new Cluster().withBrokers(1);
        TopicImage t = c.createPlaced("t", 2, 1, Map.of());
        UUID missing = new UUID(9, 9);

        CommandResult r = c.run(new DeleteTopics(List.of(t.id(), missing)));

        assertThat(r.items()).containsExactly(ItemResult.ok("t"),
                new ItemResult(Ids.toBase64(missing), ErrorCode.UNKNOWN_TOPIC_ID, null));
        assertThat(c.image.topics()).isEmpty();
    }

    @Test
    void createPartitionsPlacesTheNewOnesWithTheTopicsReplicationFactor() {
        Cluster c = new Cluster().withBrokers(3);
        c.createPlaced("t", 1, 2, Map.of());

        CommandResult r = c.run(new CreatePartitions("t", 4, null, false));

        assertThat(r.error()).isEqualTo(ErrorCode.NONE);
        assertThat(r.items()).containsExactly(ItemResult.ok("t"));
        assertThat(c.image.topics().get("t").partitions()).hasSize(4)
                .allSatisfy(p -> assertThat(p.isr()).hasSize(2).isEqualTo(p.replicas()));
    }

    @Test
    void createPartitionsWithAssignmentsAndKafkasRefusals() {
        Cluster c = new Cluster().withBrokers(3);
        c.createAssigned("t", List.of(List.of(1, 2), List.of(2, 3)));

        assertThat(c.run(new CreatePartitions("t", 3, List.of(List.of(3, 1)), false)).error())
                .isEqualTo(ErrorCode.NONE);
        assertThat(c.partition("t", 2)).isEqualTo(PartitionRegistration.initial(List.of(3, 1)));

        CommandResult same = c.run(new CreatePartitions("t", 3, null, false));
        assertThat(same.error()).isEqualTo(ErrorCode.INVALID_PARTITIONS);
        assertThat(same.message()).isEqualTo("Topic already has 3 partition(s).");
        CommandResult fewer = c.run(new CreatePartitions("t", 2, null, false));
        assertThat(fewer.error()).isEqualTo(ErrorCode.INVALID_PARTITIONS);
        assertThat(fewer.message()).isEqualTo("The topic t currently has 3 partition(s); 2 would not be an increase.");
        CommandResult count = c.run(new CreatePartitions("t", 5, List.of(List.of(1, 2)), false));
        assertThat(count.error()).isEqualTo(ErrorCode.INVALID_REPLICA_ASSIGNMENT);
        assertThat(count.message())
                .isEqualTo("Attempted to add 2 additional partition(s), but only 1 assignment(s) were specified.");
        CommandResult rf = c.run(new CreatePartitions("t", 4, List.of(List.of(1)), false));
        assertThat(rf.error()).isEqualTo(ErrorCode.INVALID_REPLICA_ASSIGNMENT);
        assertThat(c.run(new CreatePartitions("nope", 4, null, false)).error())
                .isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(c.run(new CreatePartitions("t", 6, null, true)).error()).isEqualTo(ErrorCode.NONE);
        assertThat(c.image.topics().get("t").partitions()).hasSize(3);
    }

    @Test
    void alterTopicConfigsReplacesTheOverrides() {
        Cluster c = new Cluster().withBrokers(1);
        c.createPlaced("t", 1, 1, Map.of("retention.ms", "1000", "cleanup.policy", "compact"));

        assertThat(c.run(new AlterTopicConfigs("t", Map.of("retention.ms", "5000"))).error())
                .isEqualTo(ErrorCode.NONE);

        assertThat(c.image.topics().get("t").configs()).isEqualTo(Map.of("retention.ms", "5000"));
        assertThat(c.run(new AlterTopicConfigs("x", Map.of())).error()).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    }
}
