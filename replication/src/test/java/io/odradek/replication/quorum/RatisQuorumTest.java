package io.odradek.replication.quorum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.ItemResult;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.ratis.server.RaftServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RatisQuorumTest {
    @TempDir
    Path dir;

    private ThreeVoters cluster;
    private RatisControllerChannel brokerOnly;

    @AfterEach
    void tearDown() {
        if (brokerOnly != null) {
            brokerOnly.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static CommandResult submit(ControllerChannel channel, ControllerCommand command) throws Exception {
        return channel.submit(command).get(30, TimeUnit.SECONDS);
    }

    private static ControllerCommand register(int brokerId) {
        return new ControllerCommand.RegisterBroker(brokerId, UUID.randomUUID(),
                List.of(new Endpoint("PLAINTEXT", "127.0.0.1", 9090 + brokerId)), null, "cluster-a");
    }

    private static ControllerCommand createTopic(String name, int partitions) {
        return new ControllerCommand.CreateTopics(List.of(new ControllerCommand.NewTopic(name, UUID.randomUUID(),
                partitions, (short) 3, Map.of(), Map.of())), false);
    }

    @Test
    void everyVoterAndABrokerOnlyNodeHoldTheSameImageOfRegisteredBrokersAndCreatedTopics() throws Exception {
        cluster = new ThreeVoters(dir, 60_000, 1000, 20_000);
        List<ClusterImage> heard = new CopyOnWriteArrayList<>();
        cluster.node(3).addListener(heard::add);
        brokerOnly = new RatisControllerChannel(cluster.config(4, false), null, false, cluster.model);

        for (int id = 1; id <= 3; id++) {
            CommandResult registered = submit(cluster.node(id), register(id));
            assertThat(registered.error()).isEqualTo(ErrorCode.NONE);
            assertThat(registered.value()).as("broker epoch = registration offset").isEqualTo(registered.offset());
        }
        CommandResult created = submit(cluster.node(2), createTopic("orders", 3));
        assertThat(created.items()).containsExactly(ItemResult.ok("orders"));
        CommandResult again = submit(cluster.node(1), createTopic("orders", 1));
        assertThat(again.items()).extracting(ItemResult::error).containsExactly(ErrorCode.TOPIC_ALREADY_EXISTS);

        cluster.awaitApplied(again.offset());
        ThreeVoters.await("the broker-only node's image", () -> brokerOnly.image().offset() >= again.offset());
        ClusterImage image = cluster.image(1);
        assertThat(cluster.image(2)).isEqualTo(image);
        assertThat(cluster.image(3)).isEqualTo(image);
        assertThat(brokerOnly.image()).isEqualTo(image);
        assertThat(image.brokers().keySet()).containsExactly(1, 2, 3);
        assertThat(image.topic("orders").orElseThrow().partitions()).containsExactly(
                PartitionRegistration.initial(List.of(1, 2, 3)), PartitionRegistration.initial(List.of(2, 3, 1)),
                PartitionRegistration.initial(List.of(3, 1, 2)));

        ThreeVoters.await("the listener to hear the last image", () -> !heard.isEmpty()
                && heard.get(heard.size() - 1).offset() == again.offset());
        assertThat(heard).extracting(ClusterImage::offset).isSorted().doesNotHaveDuplicates();

        QuorumInfo quorum = brokerOnly.describeQuorum().get(30, TimeUnit.SECONDS);
        assertThat(quorum.leaderId()).isEqualTo(cluster.awaitLeader());
        assertThat(quorum.leaderEpoch()).isPositive();
        assertThat(quorum.highWatermark()).isGreaterThanOrEqualTo(again.offset());
        assertThat(quorum.voters()).extracting(QuorumInfo.ReplicaState::replicaId).containsExactly(1, 2, 3);
        assertThat(quorum.voterEndpoints()).containsExactly(
                new Endpoint("CONTROLLER", "127.0.0.1", cluster.voters.get(1).getPort()),
                new Endpoint("CONTROLLER", "127.0.0.1", cluster.voters.get(2).getPort()),
                new Endpoint("CONTROLLER", "127.0.0.1", cluster.voters.get(3).getPort()));
    }

    @Test
    void aNewLeaderTakesOverAndTheOldOneCatchesUpFromASnapshotAfterTheLogWasPurged() throws Exception {
        cluster = new ThreeVoters(dir, 60_000, 20, 20_000);
        submit(cluster.node(1), register(1));
        int oldLeader = cluster.awaitLeader();
        long stoppedAt = cluster.image(oldLeader).offset();
        cluster.stop(oldLeader);

        int survivor = oldLeader == 1 ? 2 : 1;
        for (int i = 0; i < 120; i++) {
            CommandResult r = submit(cluster.node(survivor), createTopic("t" + i, 1));
            assertThat(r.items()).containsExactly(ItemResult.ok("t" + i));
        }
        int newLeader = cluster.awaitLeader();
        assertThat(newLeader).isNotEqualTo(oldLeader);
        RaftServer.Division leaderDivision = cluster.node(newLeader).localVoter().server()
                .getDivision(RatisQuorum.GROUP_ID);
        ThreeVoters.await("the leader's log purged past the stopped voter's end",
                () -> leaderDivision.getRaftLog().getStartIndex() > stoppedAt + 1);

        cluster.start(oldLeader);
        long last = cluster.image(newLeader).offset();
        cluster.awaitApplied(last);
        assertThat(cluster.image(oldLeader)).isEqualTo(cluster.image(newLeader));
        assertThat(cluster.image(oldLeader).topics()).hasSize(120);
    }

    @Test
    void withTwoOfThreeVotersDownASubmitTimesOutWhileTheImageStaysReadable() throws Exception {
        cluster = new ThreeVoters(dir, 60_000, 1000, 3000);
        submit(cluster.node(1), register(1));
        CommandResult created = submit(cluster.node(1), createTopic("orders", 1));
        cluster.awaitApplied(created.offset());
        cluster.stop(2);
        cluster.stop(3);

        assertThatThrownBy(() -> cluster.node(1).submit(createTopic("late", 1)).get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
        assertThat(cluster.image(1).offset()).isEqualTo(created.offset());
        assertThat(cluster.image(1).topic("orders")).isPresent();
        assertThat(cluster.image(1).topic("late")).isEmpty();
    }

    @Test
    void aBrokerThatStopsHeartbeatingIsFencedAfterTheSessionTimeoutWhileOneThatHeartbeatsStaysIn() throws Exception {
        cluster = new ThreeVoters(dir, 2000, 1000, 20_000);
        ControllerChannel channel = cluster.node(1);
        long epoch1 = submit(channel, register(1)).value();
        long epoch2 = submit(channel, register(2)).value();
        cluster.awaitApplied(epoch2);
        assertThat(cluster.image(1).broker(2).orElseThrow().fenced()).as("fenced until caught up").isTrue();

        HeartbeatReply stale = channel.heartbeat(new BrokerHeartbeat(2, epoch2 - 1, epoch2, false))
                .get(30, TimeUnit.SECONDS);
        assertThat(stale.error()).isEqualTo(ErrorCode.STALE_BROKER_EPOCH);

        // Both caught up: the active controller lets them in.
        ThreeVoters.await("both brokers unfenced", () -> {
            channel.heartbeat(new BrokerHeartbeat(1, epoch1, epoch2, false)).join();
            channel.heartbeat(new BrokerHeartbeat(2, epoch2, epoch2, false)).join();
            ClusterImage image = cluster.image(1);
            return image.isActive(1) && image.isActive(2);
        });
        HeartbeatReply in = channel.heartbeat(new BrokerHeartbeat(2, epoch2, epoch2, false)).get(30, TimeUnit.SECONDS);
        assertThat(in).isEqualTo(new HeartbeatReply(ErrorCode.NONE, false, false, in.committedOffset()));

        // Broker 2 goes silent; broker 1 keeps heartbeating.
        ThreeVoters.await("broker 2 fenced", () -> {
            channel.heartbeat(new BrokerHeartbeat(1, epoch1, epoch2, false)).join();
            return !cluster.image(1).isActive(2);
        });
        assertThat(cluster.image(1).isActive(1)).isTrue();
        HeartbeatReply fenced = channel.heartbeat(new BrokerHeartbeat(2, epoch2, epoch2, false)).get(30, TimeUnit.SECONDS);
        assertThat(fenced.error()).isEqualTo(ErrorCode.NONE);
        assertThat(fenced.fenced()).isTrue();
    }
}
