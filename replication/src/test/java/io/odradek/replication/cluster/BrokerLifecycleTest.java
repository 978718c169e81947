package io.odradek.replication.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.cluster.ControllerCommand.AllocateProducerIds;
import io.odradek.replication.cluster.ControllerCommand.AlterDynamicConfigs;
import io.odradek.replication.cluster.ControllerCommand.AlterTopicConfigs;
import io.odradek.replication.cluster.ControllerCommand.ControlledShutdown;
import io.odradek.replication.cluster.ControllerCommand.RegisterBroker;
import io.odradek.replication.cluster.ControllerCommand.UnfenceBroker;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class BrokerLifecycleTest {
    private static PartitionRegistration partition(List<Integer> replicas, List<Integer> isr, int leader,
            int leaderEpoch, int partitionEpoch) {
        return new PartitionRegistration(replicas, isr, List.of(), List.of(), leader, leaderEpoch, partitionEpoch);
    }

    @Test
    void aNewBrokerIsRegisteredFencedWithTheOffsetAsEpochAndTheFirstClusterIdIsKept() {
        Cluster c = new Cluster();
        CommandResult first = c.run(Cluster.register(1, "r1"));
        CommandResult second = c.run(Cluster.register(2, null));

        assertThat(first.error()).isEqualTo(ErrorCode.NONE);
        assertThat(first.value()).isEqualTo(100);
        assertThat(second.value()).isEqualTo(101);
        assertThat(c.image.clusterId()).isEqualTo("cluster-1");
        assertThat(c.image.offset()).isEqualTo(101);
        assertThat(c.broker(1)).isEqualTo(new BrokerRegistration(1, 100, Cluster.incarnation(1),
                List.of(new Endpoint("PLAINTEXT", "127.0.0.1", 9092)), "r1", true, false));
        assertThat(c.image.isActive(1)).isFalse();
    }

    @Test
    void unfencingNeedsTheCurrentEpoch() {
        Cluster c = new Cluster();
        long epoch = c.run(Cluster.register(1, null)).value();

        CommandResult stale = c.run(new UnfenceBroker(1, epoch - 1));
        assertThat(stale.error()).isEqualTo(ErrorCode.STALE_BROKER_EPOCH);
        assertThat(stale.message()).isEqualTo("Expected broker epoch 100, but got broker epoch 99");
        assertThat(c.broker(1).fenced()).isTrue();
        assertThat(c.image.offset()).isEqualTo(101);

        CommandResult unknown = c.run(new UnfenceBroker(9, 100));
        assertThat(unknown.error()).isEqualTo(ErrorCode.STALE_BROKER_EPOCH);
        assertThat(unknown.message()).isEqualTo("No broker registration found for broker id 9");

        assertThat(c.run(new UnfenceBroker(1, epoch)).error()).isEqualTo(ErrorCode.NONE);
        assertThat(c.broker(1).fenced()).isFalse();
    }

    @Test
    void fencingTheLeaderMovesLeadershipToTheNextInSyncReplicaAndShrinksTheIsr() {
        Cluster c = new Cluster().withBrokers(3);
        c.createAssigned("t", List.of(List.of(1, 2, 3), List.of(2, 3, 1)));

        c.fence(1);

        assertThat(c.broker(1).fenced()).isTrue();
        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1, 2, 3), List.of(2, 3), 2, 1, 1));
        assertThat(c.partition("t", 1)).isEqualTo(partition(List.of(2, 3, 1), List.of(2, 3), 2, 0, 1));
    }

    @Test
    void theLastInSyncReplicaStaysInTheIsrWhenFencedAndThePartitionGoesOffline() {
        Cluster c = new Cluster().withBrokers(2);
        c.createAssigned("t", List.of(List.of(1, 2)));

        c.fence(1, 2);

        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1, 2), List.of(2), -1, 2, 2));
    }

    @Test
    void uncleanElectionByTopicConfigPicksALiveOutOfSyncReplica() {
        Cluster c = new Cluster().withBrokers(2);
        c.createPlaced("u", 1, 2, Map.of("unclean.leader.election.enable", "true"));
        int first = c.partition("u", 0).leader();
        int other = 3 - first;
        c.alterIsr(first, "u", 0, List.of(first));

        c.fence(first);

        PartitionRegistration p = c.partition("u", 0);
        assertThat(p.leader()).isEqualTo(other);
        assertThat(p.isr()).containsExactly(other);
    }

    @Test
    void uncleanElectionByControllerDefaultAndNotWithoutIt() {
        for (boolean unclean : new boolean[] {true, false}) {
            Cluster c = new Cluster(new ControllerSettings(unclean, 1000)).withBrokers(2);
            c.createAssigned("t", List.of(List.of(1, 2)));
            c.alterIsr(1, "t", 0, List.of(1));
            c.fence(1);
            assertThat(c.partition("t", 0).leader()).isEqualTo(unclean ? 2 : -1);
            assertThat(c.partition("t", 0).isr()).containsExactly(unclean ? 2 : 1);
        }
    }

    @Test
    void uncleanElectionByDynamicClusterDefaultOverridesTheStaticSettingButNotATopicOverride() {
        for (String topicOverride : new String[] {null, "false"}) {
            Cluster c = new Cluster(new ControllerSettings(false, 1000)).withBrokers(2);
            c.createAssigned("t", List.of(List.of(1, 2)));
            if (topicOverride != null) {
                c.run(new AlterTopicConfigs("t", Map.of("unclean.leader.election.enable", topicOverride)));
            }
            Cluster.expectOk(c.run(new AlterDynamicConfigs(Map.of("", Map.of("unclean.leader.election.enable",
                    "true")), Map.of())));
            c.alterIsr(1, "t", 0, List.of(1));

            c.fence(1);

            assertThat(c.partition("t", 0).leader()).as("topic override %s", topicOverride)
                    .isEqualTo(topicOverride == null ? 2 : -1);
        }
    }

    @Test
    void perBrokerDynamicUncleanSettingDoesNotDecideTheControllersElections() {
        Cluster c = new Cluster(new ControllerSettings(false, 1000)).withBrokers(2);
        c.createAssigned("t", List.of(List.of(1, 2)));
        Cluster.expectOk(c.run(new AlterDynamicConfigs(Map.of("1", Map.of("unclean.leader.election.enable", "true"),
                "2", Map.of("unclean.leader.election.enable", "true")), Map.of())));
        c.alterIsr(1, "t", 0, List.of(1));

        c.fence(1);

        assertThat(c.partition("t", 0).leader()).isEqualTo(-1);
    }

    @Test
    void enablingUncleanElectionAsADynamicClusterDefaultBringsOfflinePartitionsBack() {
        Cluster c = new Cluster().withBrokers(2);
        c.createAssigned("t", List.of(List.of(1, 2)));
        c.alterIsr(1, "t", 0, List.of(1));
        c.fence(1);
        assertThat(c.partition("t", 0).leader()).isEqualTo(-1);

        Cluster.expectOk(c.run(new AlterDynamicConfigs(Map.of("", Map.of("unclean.leader.election.enable", "true")),
                Map.of())));

        assertThat(c.partition("t", 0).leader()).isEqualTo(2);
        assertThat(c.partition("t", 0).isr()).containsExactly(2);
    }

    @Test
    void unfencingAnIsrMemberElectsItForLeaderlessPartitions() {
        Cluster c = new Cluster().withBrokers(2);
        c.createAssigned("t", List.of(List.of(1, 2)));
        c.alterIsr(1, "t", 0, List.of(1));
        c.fence(1);
        assertThat(c.partition("t", 0).leader()).isEqualTo(-1);

        long epoch = c.run(new RegisterBroker(1, UUID.randomUUID(), List.of(), null, "x")).value();
        assertThat(c.partition("t", 0).leader()).isEqualTo(-1);
        c.run(new UnfenceBroker(1, epoch));

        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1, 2), List.of(1), 1, 2, 3));
    }

    @Test
    void enablingUncleanElectionOnATopicBringsItsOfflinePartitionsBack() {
        Cluster c = new Cluster().withBrokers(2);
        c.createAssigned("t", List.of(List.of(1, 2)));
        c.alterIsr(1, "t", 0, List.of(1));
        c.fence(1);

        c.run(new AlterTopicConfigs("t", Map.of("unclean.leader.election.enable", "true")));

        assertThat(c.partition("t", 0).leader()).isEqualTo(2);
        assertThat(c.partition("t", 0).isr()).containsExactly(2);
        assertThat(c.image.topics().get("t").configs()).containsExactly(Map.entry("unclean.leader.election.enable",
                "true"));
    }

    @Test
    void controlledShutdownMovesLeadershipsAwayAndLeavesIsrsWhereOthersRemain() {
        Cluster c = new Cluster().withBrokers(3);
        c.createAssigned("t", List.of(List.of(1, 2, 3)));
        c.createAssigned("s", List.of(List.of(1, 2)));
        c.alterIsr(1, "s", 0, List.of(1));

        CommandResult r = c.run(new ControlledShutdown(1, c.epoch(1)));

        assertThat(r.error()).isEqualTo(ErrorCode.NONE);
        assertThat(c.broker(1).inControlledShutdown()).isTrue();
        assertThat(c.broker(1).fenced()).isFalse();
        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1, 2, 3), List.of(2, 3), 2, 1, 1));
        assertThat(c.partition("s", 0)).isEqualTo(partition(List.of(1, 2), List.of(1), -1, 1, 2));
        assertThat(c.run(new ControlledShutdown(1, 5)).error()).isEqualTo(ErrorCode.STALE_BROKER_EPOCH);
    }

    @Test
    void aShuttingDownBrokerTakesNoNewLeadershipsUntilUnfencedAgain() {
        Cluster c = new Cluster().withBrokers(2);
        c.createAssigned("t", List.of(List.of(1, 2)));
        c.run(new ControlledShutdown(2, c.epoch(2)));
        c.fence(1);
        assertThat(c.partition("t", 0).leader()).isEqualTo(-1);
        assertThat(c.partition("t", 0).isr()).containsExactly(1);
    }

    @Test
    void aNewIncarnationIsFencedAndLeavesItsPartitionsWhileTheSameOneKeepsItsState() {
        Cluster c = new Cluster().withBrokers(2);
        c.createAssigned("t", List.of(List.of(1, 2)));

        long retried = c.run(Cluster.register(1, null)).value();
        assertThat(retried).isEqualTo(c.offset);
        assertThat(c.broker(1).epoch()).isEqualTo(retried);
        assertThat(c.broker(1).fenced()).isFalse();
        assertThat(c.partition("t", 0).leader()).isEqualTo(1);

        UUID restarted = UUID.randomUUID();
        long epoch = c.run(new RegisterBroker(1, restarted, List.of(new Endpoint("PLAINTEXT", "h", 1)), "r",
                "other")).value();
        assertThat(c.broker(1)).isEqualTo(new BrokerRegistration(1, epoch, restarted,
                List.of(new Endpoint("PLAINTEXT", "h", 1)), "r", true, false));
        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1, 2), List.of(2), 2, 1, 1));
        assertThat(c.image.clusterId()).isEqualTo("cluster-1");
    }

    @Test
    void producerIdBlocksAreHandedOutInOrderToBrokersAtTheirCurrentEpoch() {
        Cluster c = new Cluster(new ControllerSettings(false, 1000)).withBrokers(2);

        assertThat(c.run(new AllocateProducerIds(1, c.epoch(1))).value()).isEqualTo(0);
        assertThat(c.run(new AllocateProducerIds(2, c.epoch(2))).value()).isEqualTo(1000);
        CommandResult stale = c.run(new AllocateProducerIds(1, 3));
        assertThat(stale.error()).isEqualTo(ErrorCode.STALE_BROKER_EPOCH);
        assertThat(stale.value()).isEqualTo(-1);
        assertThat(c.image.nextProducerId()).isEqualTo(2000);
    }

    @Test
    void aMalformedCommandIsRefusedAndOnlyTheOffsetMoves() {
        Cluster c = new Cluster().withBrokers(1);
        ClusterImage before = c.image;

        CommandResult noIncarnation = c.run(new RegisterBroker(2, null, List.of(), null, null));
        CommandResult noTopics = c.run(new ControllerCommand.CreateTopics(null, false));

        assertThat(noIncarnation.error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(noTopics.error()).isEqualTo(ErrorCode.UNKNOWN_SERVER_ERROR);
        assertThat(noTopics.message()).startsWith("Cannot apply CreateTopics[topics=null");
        assertThat(c.image.offset()).isEqualTo(before.offset() + 2);
        assertThat(c.image.brokers()).isEqualTo(before.brokers());
    }

    @Test
    void withUncleanElectionAnUnfencedOutOfSyncReplicaTakesAnOfflinePartition() {
        Cluster c = new Cluster(new ControllerSettings(true, 1000)).withBrokers(2);
        c.createAssigned("t", List.of(List.of(1, 2)));
        c.alterIsr(1, "t", 0, List.of(1));
        c.fence(2, 1, 42);
        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1, 2), List.of(1), -1, 1, 2));

        long epoch = c.run(new RegisterBroker(2, UUID.randomUUID(), List.of(), null, null)).value();
        c.run(new UnfenceBroker(2, epoch));

        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1, 2), List.of(2), 2, 2, 3));
        assertThat(c.image.brokers().keySet()).containsExactly(1, 2);
    }

    @Test
    void aFenceCommittedAfterTheBrokerRegisteredAgainLeavesTheNewRegistrationIn() {
        Cluster c = new Cluster().withBrokers(2);
        c.createAssigned("t", List.of(List.of(1, 2)));
        long oldEpoch = c.epoch(1);
        // the active controller saw broker 1's session expire and submitted this fence ...
        ControllerCommand fence = new ControllerCommand.FenceBrokers(new java.util.TreeMap<>(Map.of(1, oldEpoch)));
        // ... but broker 1 restarted, registered and was unfenced before the fence was committed
        long newEpoch = c.run(new RegisterBroker(1, UUID.randomUUID(), List.of(), null, null)).value();
        c.run(new UnfenceBroker(1, newEpoch));

        c.run(fence);

        assertThat(c.broker(1).fenced()).isFalse();
        assertThat(c.broker(1).epoch()).isEqualTo(newEpoch);
        c.run(new ControllerCommand.FenceBrokers(new java.util.TreeMap<>(Map.of(1, newEpoch, 2, c.epoch(2)))));
        assertThat(c.broker(1).fenced()).isTrue();
        assertThat(c.broker(2).fenced()).isTrue();
    }

    @Test
    void controllersWithDifferentLocalSettingsBuildTheSameImageFromTheFirstRegistrationsProposal() {
        ControllerLogic proposer = new ControllerLogic(new ControllerSettings(true, 50));
        ControllerLogic other = new ControllerLogic(ControllerSettings.DEFAULTS);
        List<ControllerCommand> log = new java.util.ArrayList<>();
        log.add(proposer.withProposals(Cluster.register(1, null)));   // as broker 1's node submits it
        log.add(other.withProposals(Cluster.register(2, null)));      // a later proposal is ignored
        log.add(new UnfenceBroker(1, 0));
        log.add(new UnfenceBroker(2, 1));
        log.add(new ControllerCommand.CreateTopics(List.of(new ControllerCommand.NewTopic("t", new UUID(1, 2), -1,
                (short) -1, Map.of(0, List.of(1, 2)), Map.of())), false));
        log.add(new AllocateProducerIds(1, 0));
        log.add(new AllocateProducerIds(2, 1));
        log.add(new ControllerCommand.AlterPartition(1, 0, new UUID(1, 2), 0, 0, 0, List.of(1)));
        log.add(new ControllerCommand.FenceBrokers(List.of(1)));   // unclean allowed: out-of-sync 2 leads
        ClusterImage a = ClusterImage.EMPTY;
        ClusterImage b = ClusterImage.EMPTY;
        for (int i = 0; i < log.size(); i++) {
            ControllerCommand decoded = CommandCodec.decode(CommandCodec.encode(log.get(i)));
            a = proposer.apply(a, decoded, i).image();
            b = other.apply(b, decoded, i).image();
        }

        assertThat(b).isEqualTo(a);
        assertThat(a.settings()).isEqualTo(new ControllerSettings(true, 50));
        assertThat(a.nextProducerId()).isEqualTo(100);
        assertThat(a.partition("t", 0).orElseThrow().leader()).isEqualTo(2);
        assertThat(ImageCodec.decode(ImageCodec.encode(a))).isEqualTo(a);
    }

    @Test
    void alterClusterSettingsChangesTheBlockSizeForLaterAllocations() {
        Cluster c = new Cluster().withBrokers(1);
        assertThat(c.image.settings()).isEqualTo(ControllerSettings.DEFAULTS);
        assertThat(c.run(new AllocateProducerIds(1, c.epoch(1))).value()).isZero();

        c.run(new ControllerCommand.AlterClusterSettings(new ControllerSettings(false, 10)));

        assertThat(c.run(new AllocateProducerIds(1, c.epoch(1))).value()).isEqualTo(1000);
        assertThat(c.run(new AllocateProducerIds(1, c.epoch(1))).value()).isEqualTo(1010);
        assertThat(c.image.settings()).isEqualTo(new ControllerSettings(false, 10));
    }

    @Test
    void unfencingABrokerThatAskedToShutDownKeepsItShuttingDownAndOutOfLeaderships() {
        Cluster c = new Cluster().withBrokers(1);
        c.createAssigned("t", List.of(List.of(1)));
        c.run(new ControlledShutdown(1, c.epoch(1)));   // the last ISR member: t-0 stays [1], leaderless
        c.fence(1);                                     // its session then expired
        assertThat(c.partition("t", 0)).isEqualTo(partition(List.of(1), List.of(1), -1, 1, 1));

        CommandResult r = c.run(new UnfenceBroker(1, c.epoch(1)));

        assertThat(r.error()).isEqualTo(ErrorCode.NONE);
        assertThat(c.broker(1).fenced()).isFalse();
        assertThat(c.broker(1).inControlledShutdown()).isTrue();
        assertThat(c.partition("t", 0).leader()).isEqualTo(-1);
    }
}
