package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.BrokerConfig.ClusterRoles;
import io.odradek.broker.config.ConfigException;
import io.odradek.broker.config.Listener;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** process.roles and the KRaft keys: what a cluster node is told, and the settings Kafka refuses. */
class ClusterConfigTest {
    private static final String VOTERS = "1@127.0.0.1:19092,2@127.0.0.1:19093,3@localhost:19094";

    private static Map<String, String> combined(int nodeId) {
        Map<String, String> settings = new HashMap<>();
        settings.put("process.roles", "broker,controller");
        settings.put("node.id", Integer.toString(nodeId));
        settings.put("controller.quorum.voters", VOTERS);
        settings.put("controller.listener.names", "CONTROLLER");
        settings.put("listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:19092");
        return settings;
    }

    private static BrokerConfig with(Map<String, String> base, String key, String value) {
        Map<String, String> settings = new HashMap<>(base);
        if (value == null) {
            settings.remove(key);
        } else {
            settings.put(key, value);
        }
        return BrokerConfig.of(settings);
    }

    @Test
    void withoutProcessRolesTheBrokerIsASingleNodeAsBefore() {
        BrokerConfig config = BrokerConfig.defaults();
        assertThat(config.isClusterMode()).isFalse();
        assertThat(config.clusterRoles()).isNull();
        assertThat(config.listener()).isEqualTo(new Listener("PLAINTEXT", "127.0.0.1", 9092));
    }

    @Test
    void aCombinedNodeKnowsItsVotersAndServesClientsOnlyOnTheClientListener() {
        BrokerConfig config = BrokerConfig.of(combined(1));

        ClusterRoles roles = config.clusterRoles();
        assertThat(config.isClusterMode()).isTrue();
        assertThat(roles.broker()).isTrue();
        assertThat(roles.controller()).isTrue();
        assertThat(roles.voters()).containsExactly(
                Map.entry(1, InetSocketAddress.createUnresolved("127.0.0.1", 19092)),
                Map.entry(2, InetSocketAddress.createUnresolved("127.0.0.1", 19093)),
                Map.entry(3, InetSocketAddress.createUnresolved("localhost", 19094)));
        assertThat(roles.controllerListener()).isEqualTo(new Listener("CONTROLLER", "127.0.0.1", 19092));
        assertThat(config.listener()).isEqualTo(new Listener("PLAINTEXT", "127.0.0.1", 9092));
        assertThat(config.listenerAddress().getPort()).isEqualTo(9092);
        assertThat(config.interBrokerListenerName()).isEqualTo("PLAINTEXT");
    }

    @Test
    void clusterKeysHaveKafkasDefaults() {
        BrokerConfig config = BrokerConfig.of(combined(2));
        assertThat(config.brokerSessionTimeoutMs()).isEqualTo(9000);
        assertThat(config.brokerHeartbeatIntervalMs()).isEqualTo(2000);
        assertThat(config.replicaLagTimeMaxMs()).isEqualTo(30_000L);
        assertThat(config.replicaFetchMaxBytes()).isEqualTo(1_048_576);
        assertThat(config.replicaFetchWaitMaxMs()).isEqualTo(500);
        assertThat(config.replicaFetchMinBytes()).isEqualTo(1);
        assertThat(config.numReplicaFetchers()).isEqualTo(1);
        assertThat(config.uncleanLeaderElectionEnable()).isFalse();
        assertThat(config.controlledShutdownEnable()).isTrue();
        assertThat(config.brokerRack()).isNull();
        assertThat(config.metadataLogDir()).isEqualTo(config.logDirs().get(0));
        assertThat(config.unknownKeys()).isEmpty();
    }

    @Test
    void metadataLogDirRackAndInterBrokerListenerAreTakenAsGiven() {
        Map<String, String> settings = combined(3);
        settings.put("metadata.log.dir", "/tmp/odradek-meta");
        settings.put("broker.rack", "rack-b");
        settings.put("inter.broker.listener.name", "plaintext");
        BrokerConfig config = BrokerConfig.of(settings);
        assertThat(config.metadataLogDir()).isEqualTo(Path.of("/tmp/odradek-meta"));
        assertThat(config.brokerRack()).isEqualTo("rack-b");
        assertThat(config.interBrokerListenerName()).isEqualTo("PLAINTEXT");
    }

    @Test
    void aControllerMustBeAmongTheVoters() {
        assertThatThrownBy(() -> BrokerConfig.of(combined(4)))
                .isInstanceOf(ConfigException.class)
                .hasMessage("If process.roles contains the 'controller' role, the node id 4 must be included in the"
                        + " set of voters controller.quorum.voters=[1, 2, 3]");
    }

    @Test
    void aControllerNeedsItsControllerListener() {
        assertThatThrownBy(() -> with(combined(1), "listeners", "PLAINTEXT://127.0.0.1:9092"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("controller.listener.names must contain at least one value appearing in the 'listeners'"
                        + " configuration when running the KRaft controller role");
        // Without controller.listener.names the CONTROLLER listener is an ordinary one, with no protocol (as Kafka).
        assertThatThrownBy(() -> with(combined(1), "controller.listener.names", null))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Error creating broker listeners from '[PLAINTEXT://127.0.0.1:9092, CONTROLLER://127.0.0.1:19092]':"
                        + " No security protocol defined for listener CONTROLLER");
    }

    @Test
    void aBrokerOnlyNodeMustNotBindTheControllerListenerNorBeAVoter() {
        Map<String, String> brokerOnly = combined(4);
        brokerOnly.put("process.roles", "broker");
        assertThatThrownBy(() -> BrokerConfig.of(brokerOnly))
                .isInstanceOf(ConfigException.class)
                .hasMessage("controller.listener.names must not contain a value appearing in the 'listeners'"
                        + " configuration when running KRaft with just the broker role");

        brokerOnly.put("listeners", "PLAINTEXT://127.0.0.1:9095");
        BrokerConfig ok = BrokerConfig.of(brokerOnly);
        assertThat(ok.clusterRoles().controller()).isFalse();
        assertThat(ok.clusterRoles().controllerListener()).isNull();

        brokerOnly.put("node.id", "2");
        assertThatThrownBy(() -> BrokerConfig.of(brokerOnly))
                .isInstanceOf(ConfigException.class)
                .hasMessage("If process.roles contains just the 'broker' role, the node id 2 must not be included"
                        + " in the set of voters controller.quorum.voters=[1, 2, 3]");

        brokerOnly.put("node.id", "4");
        brokerOnly.remove("controller.listener.names");
        assertThatThrownBy(() -> BrokerConfig.of(brokerOnly))
                .isInstanceOf(ConfigException.class)
                .hasMessage("controller.listener.names must contain at least one value when running KRaft with"
                        + " just the broker role");
    }

    @Test
    void badRolesAndVotersAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> with(combined(1), "process.roles", "broker,observer"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("process.roles");
        assertThatThrownBy(() -> with(combined(1), "controller.quorum.voters", "1@127.0.0.1"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value 1@127.0.0.1 for configuration controller.quorum.voters: entry"
                        + " '1@127.0.0.1' is not {id}@{host}:{port}");
        assertThatThrownBy(() -> with(combined(1), "controller.quorum.voters", "1@a:1,1@b:2"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("voter id 1 is listed twice");
        assertThatThrownBy(() -> with(combined(1), "controller.quorum.voters", null))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("If using process.roles, controller.quorum.voters must contain");
        assertThatThrownBy(() -> with(combined(1), "process.roles", "controller"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("controller-only node is not supported");
    }
}
