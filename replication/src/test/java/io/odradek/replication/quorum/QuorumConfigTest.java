package io.odradek.replication.quorum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.replication.cluster.ControllerSettings;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuorumConfigTest {
    @Test
    void controllerQuorumVotersParseToIdsAndAddresses() {
        Map<Integer, InetSocketAddress> voters = QuorumConfig.parseVoters("2@127.0.0.1:19093, 1@localhost:19092,3@[::1]:19094");

        assertThat(voters.keySet()).containsExactly(1, 2, 3);
        assertThat(voters.get(1).getHostString()).isEqualTo("localhost");
        assertThat(voters.get(1).getPort()).isEqualTo(19092);
        assertThat(voters.get(2).getHostString()).isEqualTo("127.0.0.1");
        assertThat(voters.get(3).getHostString()).isEqualTo("::1");
        assertThat(voters.get(3).getPort()).isEqualTo(19094);
    }

    @Test
    void malformedOrDuplicateVotersAreRefused() {
        assertThatThrownBy(() -> QuorumConfig.parseVoters("1@127.0.0.1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'1@127.0.0.1' is not id@host:port");
        assertThatThrownBy(() -> QuorumConfig.parseVoters("127.0.0.1:9093"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not id@host:port");
        assertThatThrownBy(() -> QuorumConfig.parseVoters("1@a:1,1@b:2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names node 1 twice");
    }

    @Test
    void aControllerMustBeOneOfTheVoters() {
        Map<Integer, InetSocketAddress> voters = QuorumConfig.parseVoters("1@127.0.0.1:19092");
        assertThatThrownBy(() -> QuorumConfig.of(2, true, voters, Path.of("x"), ControllerSettings.DEFAULTS, 9000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not in controller.quorum.voters [1]");
        QuorumConfig broker = QuorumConfig.of(2, false, voters, Path.of("x"), ControllerSettings.DEFAULTS, 9000);
        assertThat(broker.electionTimeoutMinMs()).isEqualTo(1000);
        assertThat(broker.electionTimeoutMaxMs()).isEqualTo(2000);
        assertThat(broker.snapshotEveryEntries()).isEqualTo(1000);
    }
}
