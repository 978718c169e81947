package io.odradek.replication.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.cluster.ControllerCommand.AlterPartition;
import io.odradek.replication.cluster.ControllerCommand.AlterReassignments;
import io.odradek.replication.cluster.ControllerCommand.ControlledShutdown;
import io.odradek.replication.cluster.ControllerCommand.ElectLeaders;
import io.odradek.replication.cluster.ControllerCommand.PartitionRef;
import io.odradek.wire.ErrorCode;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ReplicationCommandsTest {
    private static PartitionRegistration partition(List<Integer> replicas, List<Integer> isr, List<Integer> adding,
            List<Integer> removing, int leader, int leaderEpoch, int partitionEpoch) {
        return new PartitionRegistration(replicas, isr, adding, removing, leader, leaderEpoch, partitionEpoch);
    }

    private static Cluster threeBrokersOneTopic() {
        Cluster c = new Cluster().withBrokers(3);
        c.createAssigned("t", List.of(List.of(1, 2, 3)));
        return c;
    }

    private static AlterPartition alter(Cluster c, int broker, int leaderEpoch, int partitionEpoch,
            List<Integer> isr) {
        return new AlterPartition(broker, c.epoch(broker), c.image.topics().get("t").id(), 0, leaderEpoch,
                partitionEpoch, isr);
    }

    @Test
    void theLeaderShrinksAndExpandsTheIsrAndEachChangeBumpsThePartitionEpoch() {
        Cluster c = threeBrokersOneTopic();

        CommandResult shrink = c.run(alter(c, 1, 0, 0, List.of(1, 2)));
        assertThat(shrink.error()).isEqualTo(ErrorCode.NONE);
        assertThat(shrink.value()).isEqualTo(1);
        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1, 2, 3), List.of(1, 2), List.of(), List.of(),
                1, 0, 1));

        assertThat(c.run(alter(c, 1, 0, 1, List.of(1, 2, 3))).value()).isEqualTo(2);
        assertThat(c.partition("t", 0).isr()).containsExactly(1, 2, 3);
    }

    @Test
    void alterPartitionIsRefusedAsKafkaRefusesIt() {
        Cluster c = threeBrokersOneTopic();
        UUID id = c.image.topics().get("t").id();

        assertThat(c.run(new AlterPartition(1, 1, id, 0, 0, 0, List.of(1))).error())
                .isEqualTo(ErrorCode.STALE_BROKER_EPOCH);
        assertThat(c.run(new AlterPartition(1, c.epoch(1), new UUID(5, 5), 0, 0, 0, List.of(1))).error())
                .isEqualTo(ErrorCode.UNKNOWN_TOPIC_ID);
        assertThat(c.run(new AlterPartition(1, c.epoch(1), id, 4, 0, 0, List.of(1))).error())
                .isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        CommandResult notLeader = c.run(alter(c, 2, 0, 0, List.of(2)));
        assertThat(notLeader.error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(notLeader.message()).isEqualTo("Rejecting AlterPartition request from node 2 for t-0 because "
                + "the current leader is 1.");
        assertThat(c.run(alter(c, 1, 1, 0, List.of(1))).error()).isEqualTo(ErrorCode.NOT_CONTROLLER);

        c.run(alter(c, 1, 0, 0, List.of(1, 2)));
        c.fence(1);
        // Now leader 2 at leader epoch 1, partition epoch 2.
        CommandResult fencedEpoch = c.run(alter(c, 2, 0, 2, List.of(2, 3)));
        assertThat(fencedEpoch.error()).isEqualTo(ErrorCode.FENCED_LEADER_EPOCH);
        assertThat(fencedEpoch.message()).isEqualTo("Rejecting AlterPartition request from node 2 for t-0 because "
                + "the current leader epoch is 1, not 0.");
        CommandResult oldVersion = c.run(alter(c, 2, 1, 1, List.of(2, 3)));
        assertThat(oldVersion.error()).isEqualTo(ErrorCode.INVALID_UPDATE_VERSION);
        assertThat(oldVersion.message()).isEqualTo("Rejecting AlterPartition request from node 2 for t-0 because "
                + "the current partition epoch is 2, not 1.");
        assertThat(c.run(alter(c, 2, 1, 2, List.of(3))).error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(c.run(alter(c, 2, 1, 2, List.of(2, 4))).error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        CommandResult ineligible = c.run(alter(c, 2, 1, 2, List.of(2, 1)));
        assertThat(ineligible.error()).isEqualTo(ErrorCode.INELIGIBLE_REPLICA);
        assertThat(ineligible.message()).isEqualTo("Rejecting AlterPartition request from node 2 for t-0 because it "
                + "specified ineligible replicas [1 (fenced)] in the new ISR.");
        c.run(new ControlledShutdown(3, c.epoch(3)));
        assertThat(c.run(alter(c, 2, 1, 2, List.of(2, 3))).message()).endsWith("ineligible replicas [3 (shutting "
                + "down)] in the new ISR.");
        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1, 2, 3), List.of(2), List.of(), List.of(),
                2, 1, 2));
    }

    @Test
    void preferredElectionMovesLeadershipBackToTheFirstReplica() {
        Cluster c = threeBrokersOneTopic();
        c.fence(1);
        long epoch = c.run(Cluster.register(1, null)).value();
        c.run(new ControllerCommand.UnfenceBroker(1, epoch));
        assertThat(c.partition("t", 0).leader()).isEqualTo(2);
        PartitionRef ref = new PartitionRef("t", 0);

        CommandResult notInSync = c.run(new ElectLeaders(false, List.of(ref)));
        assertThat(notInSync.items()).containsExactly(new ItemResult("t-0", ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE,
                null));

        c.run(alter(c, 2, 1, 1, List.of(2, 3, 1)));
        CommandResult r = c.run(new ElectLeaders(false, List.of(ref, new PartitionRef("t", 7),
                new PartitionRef("x", 0))));
        assertThat(r.items()).containsExactly(ItemResult.ok("t-0"),
                new ItemResult("t-7", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "No such partition as t-7"),
                new ItemResult("x-0", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "No such topic as x"));
        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1, 2, 3), List.of(2, 3, 1), List.of(), List.of(),
                1, 2, 3));

        assertThat(c.run(new ElectLeaders(false, List.of(ref))).items())
                .containsExactly(new ItemResult("t-0", ErrorCode.ELECTION_NOT_NEEDED, null));
    }

    @Test
    void electingAllPartitionsReportsOnlyThoseThatChangedOrFailed() {
        Cluster c = new Cluster().withBrokers(2);
        c.createAssigned("a", List.of(List.of(1, 2), List.of(2, 1)));
        c.fence(1);
        long epoch = c.run(Cluster.register(1, null)).value();
        c.run(new ControllerCommand.UnfenceBroker(1, epoch));
        c.run(new AlterPartition(2, c.epoch(2), c.image.topics().get("a").id(), 0, 1, 1, List.of(2, 1)));

        CommandResult r = c.run(new ElectLeaders(false, null));

        assertThat(r.items()).containsExactly(ItemResult.ok("a-0"));
        assertThat(c.partition("a", 0).leader()).isEqualTo(1);
        assertThat(c.partition("a", 1).leader()).isEqualTo(2);
    }

    @Test
    void uncleanElectionPicksAnOutOfSyncReplicaOnlyForLeaderlessPartitions() {
        Cluster c = new Cluster().withBrokers(2);
        c.createAssigned("t", List.of(List.of(1, 2)));
        c.alterIsr(1, "t", 0, List.of(1));
        PartitionRef ref = new PartitionRef("t", 0);
        assertThat(c.run(new ElectLeaders(true, List.of(ref))).items())
                .containsExactly(new ItemResult("t-0", ErrorCode.ELECTION_NOT_NEEDED, null));
        c.fence(1);
        assertThat(c.partition("t", 0).leader()).isEqualTo(-1);

        assertThat(c.run(new ElectLeaders(true, List.of(ref))).items()).containsExactly(ItemResult.ok("t-0"));

        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1, 2), List.of(2), List.of(), List.of(), 2, 2, 3));
        c.fence(2);
        assertThat(c.run(new ElectLeaders(true, List.of(ref))).items())
                .containsExactly(new ItemResult("t-0", ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE, null));
    }

    @Test
    void aReassignmentAddsTheTargetsAndCompletesWhenTheyAreAllInSync() {
        Cluster c = new Cluster().withBrokers(4);
        c.createAssigned("t", List.of(List.of(1, 2, 3)));

        CommandResult r = c.run(new AlterReassignments(Map.of(new PartitionRef("t", 0), List.of(2, 3, 4))));

        assertThat(r.items()).containsExactly(ItemResult.ok("t-0"));
        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(2, 3, 4, 1), List.of(1, 2, 3), List.of(4),
                List.of(1), 1, 0, 1));

        c.alterIsr(1, "t", 0, List.of(1, 2, 3, 4));

        // Leader 1 was removed: 2 leads, the leader epoch moves, the ISR keeps only targets.
        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(2, 3, 4), List.of(2, 3, 4), List.of(), List.of(),
                2, 1, 2));
    }

    @Test
    void aReassignmentToReplicasAlreadyInSyncCompletesAtOnce() {
        Cluster c = new Cluster().withBrokers(3);
        c.createAssigned("t", List.of(List.of(1, 2, 3)));

        c.run(new AlterReassignments(Map.of(new PartitionRef("t", 0), List.of(3, 2))));

        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(3, 2), List.of(2, 3), List.of(), List.of(),
                3, 1, 1));
    }

    @Test
    void cancellingRestoresTheOriginalReplicasAndUnknownOrIdleOnesAreRefused() {
        Cluster c = new Cluster().withBrokers(4);
        c.createAssigned("t", List.of(List.of(1, 2), List.of(2, 3)));
        c.run(new AlterReassignments(Map.of(new PartitionRef("t", 0), List.of(3, 4))));
        assertThat(c.partition("t", 0).isReassigning()).isTrue();

        Map<PartitionRef, List<Integer>> cancel = new LinkedHashMap<>();
        cancel.put(new PartitionRef("t", 0), null);
        cancel.put(new PartitionRef("t", 1), null);
        cancel.put(new PartitionRef("t", 5), null);
        cancel.put(new PartitionRef("x", 0), List.of(1));
        Map<PartitionRef, List<Integer>> bad = new HashMap<>();
        bad.put(new PartitionRef("t", 1), List.of(2, 9));
        CommandResult r = c.run(new AlterReassignments(cancel));

        assertThat(r.items()).containsExactly(ItemResult.ok("t-0"),
                new ItemResult("t-1", ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, null),
                new ItemResult("t-5", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "Unable to find partition t:5."),
                new ItemResult("x-0", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "Unable to find a topic named x."));
        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1, 2), List.of(1, 2), List.of(), List.of(),
                1, 1, 2));
        assertThat(c.run(new AlterReassignments(bad)).items()).containsExactly(new ItemResult("t-1",
                ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                "The manual partition assignment includes broker 9, but no such broker is registered."));
    }
}
