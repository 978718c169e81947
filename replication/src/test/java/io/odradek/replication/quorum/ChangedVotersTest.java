package io.odradek.replication.quorum;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerSettings;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A voter whose metadata log was written for other voters refuses to start, rather than never electing. */
class ChangedVotersTest {
    @TempDir
    Path dir;

    private QuorumConfig config(String voters) {
        Map<Integer, InetSocketAddress> parsed = QuorumConfig.parseVoters(voters);
        return new QuorumConfig(1, true, parsed, dir.resolve("node-1"), ControllerSettings.DEFAULTS,
                9000, 1000, 2000, 20_000, 1000);
    }

    @Test
    void aLogLeftByAThreeVoterQuorumIsRefusedForAOneVoterNodeNamingBothAndTheDirectory() throws Exception {
        int port;
        try (ThreeVoters cluster = new ThreeVoters(dir, 9000, 1000, 20_000)) {
            port = cluster.voters.get(1).getPort();
            // Once node 1 applied an entry, its log holds the leader's first entry: the three voters.
            long offset = cluster.node(1).submit(new ControllerCommand.CreateTopics(List.of(new ControllerCommand.NewTopic(
                    "t", UUID.randomUUID(), 1, (short) 1, Map.of(), Map.of())), false)).get(30, TimeUnit.SECONDS).offset();
            cluster.awaitApplied(offset);
        }

        assertThatThrownBy(() -> RatisQuorum.start(config("1@127.0.0.1:" + port)).close())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("belongs to the voters {1=127.0.0.1:" + port + ", 2=")
                .hasMessageContaining("controller.quorum.voters is now {1=127.0.0.1:" + port + "}")
                .hasMessageContaining("remove " + dir.resolve("node-1"));
    }

    @Test
    void aVoterRestartedWithTheSameVotersStarts() throws Exception {
        String one = "1@127.0.0.1:" + ThreeVoters.freePort();
        RatisQuorum.start(config(one)).close();
        try (RatisQuorum again = RatisQuorum.start(config(one))) {
            ThreeVoters.await("leading alone", again::isLeader);
        }
    }
}
