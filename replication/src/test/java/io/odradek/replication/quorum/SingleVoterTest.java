package io.odradek.replication.quorum;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerSettings;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.ItemResult;
import io.odradek.wire.ErrorCode;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node with process.roles=broker,controller alone: a one-voter quorum, opened the way broker code opens it. */
class SingleVoterTest {
    @TempDir
    Path dir;

    @Test
    void aOneVoterQuorumCommitsAloneAndHasTheSameImageAfterARestart() throws Exception {
        Map<Integer, InetSocketAddress> voters = QuorumConfig.parseVoters("1@127.0.0.1:" + ThreeVoters.freePort());
        QuorumConfig config = new QuorumConfig(1, true, voters, dir.resolve("__cluster_metadata-ratis"),
                new ControllerSettings(false, 500), 9000, 1000, 2000, 20_000, 10);
        ClusterImage before;
        try (RatisControllerChannel channel = RatisControllerChannel.open(config)) {
            CommandResult registered = channel.submit(new ControllerCommand.RegisterBroker(1, UUID.randomUUID(),
                    List.of(new Endpoint("PLAINTEXT", "127.0.0.1", 9092)), null, "solo")).get(30, TimeUnit.SECONDS);
            long epoch = registered.value();
            ThreeVoters.await("broker 1 unfenced", () -> !channel.heartbeat(
                    new BrokerHeartbeat(1, epoch, channel.image().offset(), false)).join().fenced());
            for (int i = 0; i < 25; i++) {
                CommandResult created = channel.submit(new ControllerCommand.CreateTopics(List.of(
                        new ControllerCommand.NewTopic("t" + i, UUID.randomUUID(), 2, (short) 1, Map.of(), Map.of())),
                        false)).get(30, TimeUnit.SECONDS);
                assertThat(created.items()).containsExactly(ItemResult.ok("t" + i));
            }
            ThreeVoters.await("the last topic applied", () -> channel.image().topic("t24").isPresent());
            before = channel.image();
            // the node's settings came in with its broker's first registration and are the cluster's now
            assertThat(before.settings()).isEqualTo(new ControllerSettings(false, 500));
            assertThat(channel.localVoter().isLeader()).isTrue();
        }

        try (RatisControllerChannel channel = RatisControllerChannel.open(config)) {
            assertThat(channel.image()).isEqualTo(before);
            assertThat(channel.image().topics()).hasSize(25);
            assertThat(channel.image().isActive(1)).as("fencing is the active controller's, after a session").isTrue();
            CommandResult again = channel.submit(new ControllerCommand.CreateTopics(List.of(
                    new ControllerCommand.NewTopic("t0", UUID.randomUUID(), 1, (short) 1, Map.of(), Map.of())),
                    false)).get(30, TimeUnit.SECONDS);
            assertThat(again.items()).extracting(ItemResult::error).containsExactly(ErrorCode.TOPIC_ALREADY_EXISTS);
            assertThat(again.offset()).isGreaterThan(before.offset());
        }
    }
}
