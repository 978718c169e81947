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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
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

    private static ControllerCommand createTopic(String name, int partitions, int replicationFactor) {
        return new ControllerCommand.CreateTopics(List.of(new ControllerCommand.NewTopic(name, UUID.randomUUID(),
                partitions, (short) replicationFactor, Map.of(), Map.of())), false);
    }

    /** Registers the brokers and heartbeats for them as caught up until the active controller unfences them all. */
    private Map<Integer, Long> registerAndUnfence(ControllerChannel channel, int... brokerIds) throws Exception {
        Map<Integer, Long> epochs = new HashMap<>();
        for (int id : brokerIds) {
            CommandResult registered = submit(channel, register(id));
            assertThat(registered.error()).isEqualTo(ErrorCode.NONE);
            assertThat(registered.value()).as("broker epoch = registration offset").isEqualTo(registered.offset());
            epochs.put(id, registered.value());
        }
        long last = epochs.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        ThreeVoters.await("brokers unfenced", () -> {
            boolean allIn = true;
            for (int id : brokerIds) {
                HeartbeatReply reply = channel.heartbeat(new BrokerHeartbeat(id, epochs.get(id), last, false)).join();
                allIn &= reply.error() == ErrorCode.NONE && !reply.fenced();
            }
            return allIn;
        });
        return epochs;
    }

    @Test
    void everyVoterAndABrokerOnlyNodeHoldTheSameImageOfRegisteredBrokersAndCreatedTopics() throws Exception {
        cluster = new ThreeVoters(dir, 60_000, 1000, 20_000);
        List<ClusterImage> heard = new CopyOnWriteArrayList<>();
        cluster.node(3).addListener(heard::add);
        brokerOnly = new RatisControllerChannel(cluster.config(4, false), null, false, cluster.model);

        registerAndUnfence(cluster.node(1), 1, 2, 3, 4);
        CommandResult created = submit(cluster.node(2), createTopic("orders", 3, 3));
        assertThat(created.items()).containsExactly(ItemResult.ok("orders"));
        CommandResult again = submit(cluster.node(1), createTopic("orders", 1, 1));
        assertThat(again.items()).extracting(ItemResult::error).containsExactly(ErrorCode.TOPIC_ALREADY_EXISTS);

        cluster.awaitApplied(again.offset());
        ThreeVoters.await("the broker-only node's image", () -> brokerOnly.image().offset() >= again.offset());
        ClusterImage image = cluster.image(1);
        assertThat(cluster.image(2)).isEqualTo(image);
        assertThat(cluster.image(3)).isEqualTo(image);
        assertThat(brokerOnly.image()).isEqualTo(image);
        assertThat(image.clusterId()).isEqualTo("cluster-a");
        assertThat(image.brokers().keySet()).containsExactly(1, 2, 3, 4);
        assertThat(image.brokers().values()).noneMatch(b -> b.fenced());
        List<PartitionRegistration> partitions = image.topic("orders").orElseThrow().partitions();
        assertThat(partitions).hasSize(3).allSatisfy(p -> {
            assertThat(p.replicas()).hasSize(3).doesNotHaveDuplicates().isSubsetOf(1, 2, 3, 4);
            assertThat(p.isr()).containsExactlyInAnyOrderElementsOf(p.replicas());
            assertThat(p.leader()).isEqualTo(p.replicas().get(0));
        });

        ThreeVoters.await("the listener to hear the last image", () -> !heard.isEmpty()
                && heard.get(heard.size() - 1).offset() == again.offset());
        assertThat(heard).extracting(ClusterImage::offset).isSorted().doesNotHaveDuplicates();
        assertThat(heard.get(heard.size() - 1)).isEqualTo(image);

        QuorumInfo quorum = brokerOnly.describeQuorum().get(30, TimeUnit.SECONDS);
        assertThat(quorum.leaderId()).isEqualTo(cluster.awaitLeader());
        assertThat(quorum.leaderEpoch()).isPositive();
        assertThat(quorum.highWatermark()).isGreaterThanOrEqualTo(again.offset());
        assertThat(quorum.voters()).extracting(QuorumInfo.ReplicaState::replicaId).containsExactly(1, 2, 3);
        assertThat(quorum.voters()).allSatisfy(v -> assertThat(v.logEndOffset()).isGreaterThan(again.offset()));
        assertThat(quorum.observers()).extracting(QuorumInfo.ReplicaState::replicaId)
                .as("brokers that are not voters, from their heartbeats").containsExactly(4);
        assertThat(quorum.voterEndpoints()).containsExactly(
                new Endpoint("CONTROLLER", "127.0.0.1", cluster.voters.get(1).getPort()),
                new Endpoint("CONTROLLER", "127.0.0.1", cluster.voters.get(2).getPort()),
                new Endpoint("CONTROLLER", "127.0.0.1", cluster.voters.get(3).getPort()));
    }

    @Test
    void aNewLeaderTakesOverAndTheOldOneCatchesUpFromASnapshotAfterTheLogWasPurged() throws Exception {
        cluster = new ThreeVoters(dir, 60_000, 20, 20_000);
        registerAndUnfence(cluster.node(1), 1);
        int oldLeader = cluster.awaitLeader();
        long stoppedAt = cluster.image(oldLeader).offset();
        cluster.stop(oldLeader);

        int survivor = oldLeader == 1 ? 2 : 1;
        List<CompletableFuture<CommandResult>> pending = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            pending.add(cluster.node(survivor).submit(createTopic("t" + i, 1, 1)));
        }
        for (int i = 0; i < 100; i++) {
            assertThat(pending.get(i).get(30, TimeUnit.SECONDS).items()).containsExactly(ItemResult.ok("t" + i));
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
        assertThat(cluster.image(oldLeader).topics()).hasSize(100);
    }

    @Test
    void withTwoOfThreeVotersDownASubmitTimesOutWhileTheImageStaysReadableAndSubmitsResumeWhenTheyReturn() throws Exception {
        cluster = new ThreeVoters(dir, 60_000, 1000, 5000);
        registerAndUnfence(cluster.node(1), 1);
        CommandResult created = submit(cluster.node(1), createTopic("orders", 1, 1));
        cluster.awaitApplied(created.offset());
        cluster.stop(2);
        cluster.stop(3);

        assertThatThrownBy(() -> cluster.node(1).submit(createTopic("late", 1, 1)).get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
        assertThat(cluster.image(1).offset()).isEqualTo(created.offset());
        assertThat(cluster.image(1).topic("orders")).isPresent();
        assertThat(cluster.image(1).topic("late")).isEmpty();

        // The majority back: submits complete again.
        cluster.start(2);
        cluster.start(3);
        CommandResult after = submit(cluster.node(3), createTopic("after", 1, 1));
        assertThat(after.items()).containsExactly(ItemResult.ok("after"));
        cluster.awaitApplied(after.offset());
        assertThat(cluster.image(1).topic("after")).isPresent();
    }

    /** Submits through node 1 until an answer comes within the (short) request timeout; returns the answer. */
    private CommandResult submitPatiently(ControllerCommand command) {
        CommandResult[] answer = new CommandResult[1];
        ThreeVoters.await("an answer to " + command, () -> {
            try {
                answer[0] = cluster.node(1).submit(command).get(30, TimeUnit.SECONDS);
                return true;
            } catch (Exception e) {
                return false;
            }
        });
        return answer[0];
    }

    @Test
    void withoutAMajorityManySubmitsTimeOutWithoutBlockingTheCallerAndTheSameChannelSubmitsAgainLater()
            throws Exception {
        cluster = new ThreeVoters(dir, 60_000, 1000, 1500);
        submitPatiently(createTopic("orders", 1, 1));
        cluster.stop(2);
        cluster.stop(3);

        // More than Ratis's default window of 100 outstanding requests, which used to block the submitting thread.
        List<CompletableFuture<CommandResult>> late = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            late.add(cluster.node(1).submit(createTopic("late" + i, 1, 1)));
        }
        for (CompletableFuture<CommandResult> f : late) {
            assertThatThrownBy(() -> f.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
        }
        // The majority back: the channel whose requests failed submits again (a failed request used to leave
        // Ratis's ordered window stuck, so every later submit of this channel timed out).
        cluster.start(2);
        cluster.start(3);
        CommandResult after = submitPatiently(createTopic("after", 1, 1));
        assertThat(after.items()).extracting(ItemResult::key).containsExactly("after");
        cluster.awaitApplied(after.offset());
    }

    @Test
    void whenTheLocalVoterDiesItsNodesHeartbeatsFailWhileTheOtherVotersGoOn() throws Exception {
        cluster = new ThreeVoters(dir, 60_000, 1000, 20_000);
        Map<Integer, Long> epochs = registerAndUnfence(cluster.node(2), 1);
        BrokerHeartbeat beat = new BrokerHeartbeat(1, epochs.get(1), cluster.image(2).offset(), false);
        assertThat(cluster.node(1).heartbeat(beat).get(30, TimeUnit.SECONDS).error()).isEqualTo(ErrorCode.NONE);

        cluster.node(1).localVoter().server().close(); // as after a disk or apply error; the channel stays open
        assertThatThrownBy(() -> cluster.node(1).heartbeat(beat).get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("metadata voter is down");
        ThreeVoters.await("heartbeats through node 2 answered", () -> {
            try {
                return cluster.node(2).heartbeat(beat).get(30, TimeUnit.SECONDS).error() == ErrorCode.NONE;
            } catch (Exception e) {
                return false;
            }
        });
    }

    @Test
    void aBrokerThatStopsHeartbeatingIsFencedAfterTheSessionTimeoutWhileOneThatHeartbeatsStaysIn() throws Exception {
        cluster = new ThreeVoters(dir, 2000, 1000, 20_000);
        ControllerChannel channel = cluster.node(1);
        Map<Integer, Long> epochs = registerAndUnfence(channel, 1, 2);
        long epoch1 = epochs.get(1);
        long epoch2 = epochs.get(2);

        HeartbeatReply stale = channel.heartbeat(new BrokerHeartbeat(2, epoch2 - 1, epoch2, false))
                .get(30, TimeUnit.SECONDS);
        assertThat(stale.error()).isEqualTo(ErrorCode.STALE_BROKER_EPOCH);
        HeartbeatReply in = channel.heartbeat(new BrokerHeartbeat(2, epoch2, epoch2, false)).get(30, TimeUnit.SECONDS);
        assertThat(in).isEqualTo(new HeartbeatReply(ErrorCode.NONE, false, false, in.committedOffset()));
        assertThat(in.committedOffset()).isGreaterThanOrEqualTo(epoch2);

        // Broker 2 goes silent; broker 1 keeps heartbeating.
        ThreeVoters.await("broker 2 fenced", () -> {
            channel.heartbeat(new BrokerHeartbeat(1, epoch1, epoch2, false)).join();
            return !cluster.image(1).isActive(2);
        });
        assertThat(cluster.image(1).isActive(1)).isTrue();
        // A fenced broker leads nothing: it may stop at once when it asks.
        HeartbeatReply fenced = channel.heartbeat(new BrokerHeartbeat(2, epoch2, epoch2, true)).get(30, TimeUnit.SECONDS);
        assertThat(fenced.error()).isEqualTo(ErrorCode.NONE);
        assertThat(fenced.fenced()).isTrue();
        assertThat(fenced.shutDownAllowed()).isTrue();
    }

    @Test
    void aBrokerAskingToShutDownIsDrainedAndThenAllowedToStop() throws Exception {
        cluster = new ThreeVoters(dir, 60_000, 1000, 20_000);
        ControllerChannel channel = cluster.node(2);
        Map<Integer, Long> epochs = registerAndUnfence(channel, 1, 2);
        CommandResult created = submit(channel, createTopic("orders", 2, 2));
        assertThat(created.items()).containsExactly(ItemResult.ok("orders"));

        long epoch1 = epochs.get(1);
        AtomicReference<HeartbeatReply> allowed = new AtomicReference<>();
        ThreeVoters.await("broker 1 allowed to shut down", () -> {
            allowed.set(channel.heartbeat(new BrokerHeartbeat(1, epoch1, channel.image().offset(), true)).join());
            return allowed.get().shutDownAllowed();
        });
        // The active controller answered from its image; this node applies the same entries a moment later.
        ThreeVoters.await("node 2's image at the offset the answer came from",
                () -> channel.image().offset() >= allowed.get().committedOffset());
        ClusterImage image = channel.image();
        assertThat(image.broker(1).orElseThrow().inControlledShutdown()).isTrue();
        assertThat(image.topic("orders").orElseThrow().partitions()).allSatisfy(p -> {
            assertThat(p.leader()).isEqualTo(2);
            assertThat(p.isr()).containsExactly(2);
        });
    }
}
