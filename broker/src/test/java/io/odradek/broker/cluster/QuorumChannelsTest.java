package io.odradek.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.BrokerConfig;
import io.odradek.replication.quorum.QuorumConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuorumChannelsTest {
    private static Map<String, String> node(int id) {
        Map<String, String> settings = new HashMap<>();
        settings.put("process.roles", "broker,controller");
        settings.put("node.id", Integer.toString(id));
        settings.put("controller.quorum.voters", "1@127.0.0.1:19092,2@127.0.0.1:19093");
        settings.put("controller.listener.names", "CONTROLLER");
        settings.put("listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:" + (19091 + id));
        settings.put("log.dirs", "/var/odradek/a,/var/odradek/b");
        return settings;
    }

    @Test
    void theQuorumRunsOnTheVotersWithRatisStorageInTheFirstLogDirAndKafkasTimeouts() {
        QuorumConfig quorum = QuorumChannels.quorumConfig(BrokerConfig.of(node(2)));
        assertThat(quorum.nodeId()).isEqualTo(2);
        assertThat(quorum.controller()).isTrue();
        assertThat(quorum.voters()).containsExactly(
                Map.entry(1, InetSocketAddress.createUnresolved("127.0.0.1", 19092)),
                Map.entry(2, InetSocketAddress.createUnresolved("127.0.0.1", 19093)));
        assertThat(quorum.storageDir()).isEqualTo(Path.of("/var/odradek/a/__cluster_metadata-ratis"));
        assertThat(quorum.sessionTimeoutMs()).isEqualTo(9000);
        assertThat(quorum.electionTimeoutMinMs()).isEqualTo(1000);
        assertThat(quorum.electionTimeoutMaxMs()).isEqualTo(2000);
        assertThat(quorum.settings().uncleanLeaderElectionEnable()).isFalse();
        assertThat(quorum.settings().producerIdBlockSize()).isEqualTo(1000);
    }

    @Test
    void metadataLogDirSessionTimeoutAndUncleanElectionAreTakenFromTheConfig() {
        Map<String, String> settings = node(1);
        settings.put("metadata.log.dir", "/srv/meta");
        settings.put("broker.session.timeout.ms", "4000");
        settings.put("controller.quorum.election.timeout.ms", "300");
        settings.put("unclean.leader.election.enable", "true");
        QuorumConfig quorum = QuorumChannels.quorumConfig(BrokerConfig.of(settings));
        assertThat(quorum.storageDir()).isEqualTo(Path.of("/srv/meta/__cluster_metadata-ratis"));
        assertThat(quorum.sessionTimeoutMs()).isEqualTo(4000);
        assertThat(quorum.electionTimeoutMinMs()).isEqualTo(300);
        assertThat(quorum.electionTimeoutMaxMs()).isEqualTo(600);
        assertThat(quorum.settings().uncleanLeaderElectionEnable()).isTrue();
    }
}
