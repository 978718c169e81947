package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.config.ConfigException;
import io.odradek.broker.config.Listener;
import io.odradek.broker.config.ListenerConfig;
import io.odradek.security.SecurityProtocol;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Several listeners (issue 10): what each serves and advertises, and the set-ups Kafka 4.4 refuses, with its words. */
class ListenersConfigTest {
    private static BrokerConfig config(String... keyValues) {
        Map<String, String> settings = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            settings.put(keyValues[i], keyValues[i + 1]);
        }
        return BrokerConfig.of(settings);
    }

    @Test
    void everyListenerIsServedWithTheProtocolOfItsName() {
        BrokerConfig c = config(
                "listeners", "CLIENT://:9092,INTERNAL://10.0.0.5:9093,SECURE://:9094",
                "advertised.listeners", "CLIENT://broker1.example.com:19092,INTERNAL://10.0.0.5:9093,SECURE://:9094",
                "listener.security.protocol.map", "CLIENT:PLAINTEXT,INTERNAL:PLAINTEXT,SECURE:SASL_SSL",
                "inter.broker.listener.name", "internal");

        assertThat(c.listenerConfigs()).extracting(ListenerConfig::name, ListenerConfig::protocol).containsExactly(
                org.assertj.core.groups.Tuple.tuple("CLIENT", SecurityProtocol.PLAINTEXT),
                org.assertj.core.groups.Tuple.tuple("INTERNAL", SecurityProtocol.PLAINTEXT),
                org.assertj.core.groups.Tuple.tuple("SECURE", SecurityProtocol.SASL_SSL));
        assertThat(c.listenerConfigs().get(1).listener()).isEqualTo(new Listener("INTERNAL", "10.0.0.5", 9093));
        assertThat(c.advertisedListeners()).containsExactly(
                new Listener("CLIENT", "broker1.example.com", 19092),
                new Listener("INTERNAL", "10.0.0.5", 9093),
                new Listener("SECURE", "127.0.0.1", 9094));
        assertThat(c.interBrokerListenerName()).isEqualTo("INTERNAL");
        assertThat(c.interBrokerSecurityProtocol()).isEqualTo(SecurityProtocol.PLAINTEXT);
        assertThat(c.listenerConfig("secure").protocol()).isEqualTo(SecurityProtocol.SASL_SSL);
    }

    @Test
    void withoutAdvertisedListenersEveryListenerIsAdvertisedAndControllerOnesAreNot() {
        BrokerConfig c = config(
                "process.roles", "broker,controller",
                "controller.quorum.voters", "1@127.0.0.1:9095",
                "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://127.0.0.1:0,REPLICATION://:0,CONTROLLER://127.0.0.1:9095",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,REPLICATION:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "inter.broker.listener.name", "REPLICATION");

        assertThat(c.listenerConfigs()).extracting(ListenerConfig::name).containsExactly("PLAINTEXT", "REPLICATION");
        assertThat(c.advertisedListeners()).containsExactly(
                new Listener("PLAINTEXT", "127.0.0.1", 0), new Listener("REPLICATION", "127.0.0.1", 0));
        assertThat(c.effectiveConfigs()).containsEntry("advertised.listeners",
                "PLAINTEXT://127.0.0.1:0,REPLICATION://127.0.0.1:0");
    }

    @Test
    void theControllerListenerIsPlaintextByDefaultWhenTheMapIsNotSet() {
        BrokerConfig c = config(
                "process.roles", "broker,controller",
                "controller.quorum.voters", "1@127.0.0.1:9095",
                "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9095");
        assertThat(c.listenerConfig("CONTROLLER").protocol()).isEqualTo(SecurityProtocol.PLAINTEXT);
        assertThat(c.listenerConfigs()).extracting(ListenerConfig::name).containsExactly("PLAINTEXT");
    }

    @Test
    void aControllerListenerMappedToSslOrSaslIsRefusedBecauseTheQuorumOnlyRunsPlaintext() {
        for (String protocol : new String[] {"SSL", "SASL_SSL", "SASL_PLAINTEXT"}) {
            assertThatThrownBy(() -> config(
                    "process.roles", "broker,controller", "node.id", "1",
                    "controller.quorum.voters", "1@127.0.0.1:9095",
                    "controller.listener.names", "CONTROLLER",
                    "listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9095",
                    "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:" + protocol))
                    .isInstanceOf(ConfigException.class)
                    .hasMessage("Controller listener CONTROLLER maps to " + protocol + " in listener.security.protocol.map,"
                            + " but the controller quorum only runs PLAINTEXT in Odradek (it is neither encrypted nor"
                            + " authenticated): map CONTROLLER to PLAINTEXT and keep the controller.quorum.voters"
                            + " addresses on a trusted network.");
        }
        // A broker-only node names the controller listener too (it dials the quorum there): refused the same way.
        assertThatThrownBy(() -> config(
                "process.roles", "broker", "node.id", "2",
                "controller.quorum.voters", "1@127.0.0.1:9095",
                "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://127.0.0.1:9092",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:SSL"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("the controller quorum only runs PLAINTEXT in Odradek");
    }

    @Test
    void aListenerWithoutAProtocolIsRefused() {
        assertThatThrownBy(() -> config("listeners", "PLAINTEXT://:9092,CLIENT://:9093"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Error creating broker listeners from '[PLAINTEXT://:9092, CLIENT://:9093]':"
                        + " No security protocol defined for listener CLIENT");
    }

    @Test
    void anUnknownProtocolInTheMapIsRefused() {
        assertThatThrownBy(() -> config("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CLIENT:TLS"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid security protocol `TLS` defined in listener.security.protocol.map");
    }

    @Test
    void twoListenersOfOneNameOrOnePortAreRefused() {
        assertThatThrownBy(() -> config("listeners", "PLAINTEXT://:9092,plaintext://:9093"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Error creating broker listeners from '[PLAINTEXT://:9092, plaintext://:9093]': Each listener"
                        + " must have a different name, listeners: [PLAINTEXT://:9092, plaintext://:9093]");
        assertThatThrownBy(() -> config("listeners", "PLAINTEXT://:9092,SSL://:9092"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Each listener must have a different port");
        // One IPv4 and one IPv6 address may share a port; so may port-0 listeners.
        assertThat(config("listeners", "PLAINTEXT://127.0.0.1:9092,INTERNAL://[::1]:9092",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,INTERNAL:PLAINTEXT").listenerConfigs()).hasSize(2);
        assertThat(config("listeners", "PLAINTEXT://127.0.0.1:0,INTERNAL://127.0.0.1:0",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,INTERNAL:PLAINTEXT").listenerConfigs()).hasSize(2);
    }

    @Test
    void theInterBrokerListenerMustBeAdvertised() {
        // Its default is the listener named PLAINTEXT (security.inter.broker.protocol), absent here: refused for a
        // cluster member, as Kafka; a single node (no process.roles) dials no broker and takes its first listener.
        assertThat(config("listeners", "SSL://:9093").interBrokerListenerName()).isEqualTo("SSL");
        assertThatThrownBy(() -> config("listeners", "SSL://:9093,CONTROLLER://:9094", "process.roles", "broker,controller",
                "controller.listener.names", "CONTROLLER", "node.id", "1", "controller.quorum.voters", "1@localhost:9094",
                "listener.security.protocol.map", "SSL:SSL,CONTROLLER:PLAINTEXT"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("inter.broker.listener.name must be a listener name defined in advertised.listeners."
                        + " The valid options based on currently configured listeners are SSL");
        assertThatThrownBy(() -> config(
                "listeners", "CLIENT://:9092,INTERNAL://:9093",
                "advertised.listeners", "CLIENT://broker1:9092",
                "listener.security.protocol.map", "CLIENT:PLAINTEXT,INTERNAL:PLAINTEXT",
                "inter.broker.listener.name", "INTERNAL"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("inter.broker.listener.name must be a listener name defined in advertised.listeners."
                        + " The valid options based on currently configured listeners are CLIENT");
        assertThat(config("listeners", "SSL://:9093", "security.inter.broker.protocol", "SSL")
                .interBrokerListenerName()).isEqualTo("SSL");
    }

    @Test
    void interBrokerListenerNameAndProtocolAreExclusiveAndMustBeKnown() {
        assertThatThrownBy(() -> config("inter.broker.listener.name", "PLAINTEXT",
                "security.inter.broker.protocol", "PLAINTEXT"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Only one of inter.broker.listener.name and security.inter.broker.protocol should be set.");
        assertThatThrownBy(() -> config("inter.broker.listener.name", "REPLICATION"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Listener with name REPLICATION defined in inter.broker.listener.name not found in"
                        + " listener.security.protocol.map.");
        assertThatThrownBy(() -> config("security.inter.broker.protocol", "TLS"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid security protocol `TLS` defined in security.inter.broker.protocol");
    }

    @Test
    void advertisedListenersMustBeAmongTheListeners() {
        assertThatThrownBy(() -> config(
                "listeners", "PLAINTEXT://:9092",
                "advertised.listeners", "PLAINTEXT://broker1:9092,SSL://broker1:9093"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("advertised.listeners listener names must be equal to or a subset of the ones defined in"
                        + " listeners. Found PLAINTEXT,SSL. The valid options based on the current configuration are"
                        + " PLAINTEXT");
    }

    @Test
    void aBrokerWhoseListenersAreAllControllerListenersIsRefused() {
        assertThatThrownBy(() -> config(
                "process.roles", "broker,controller",
                "controller.quorum.voters", "1@127.0.0.1:9095",
                "controller.listener.names", "CONTROLLER",
                "listeners", "CONTROLLER://127.0.0.1:9095"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("There must be at least one broker advertised listener."
                        + " Perhaps all listeners appear in controller.listener.names?");
    }

    @Test
    void aSaslInterBrokerListenerMustEnableTheInterBrokerMechanism() {
        assertThatThrownBy(() -> config(
                "listeners", "SASL_PLAINTEXT://:9092",
                "security.inter.broker.protocol", "SASL_PLAINTEXT",
                "sasl.mechanism.inter.broker.protocol", "PLAIN"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("sasl.mechanism.inter.broker.protocol must be included in sasl.enabled.mechanisms when"
                        + " SASL is used for inter-broker communication");
        BrokerConfig c = config(
                "listeners", "SASL_PLAINTEXT://:9092",
                "security.inter.broker.protocol", "SASL_PLAINTEXT",
                "sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-256",
                "listener.name.sasl_plaintext.sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256");
        assertThat(c.saslMechanismInterBrokerProtocol()).isEqualTo("SCRAM-SHA-256");
        assertThat(c.interBrokerSecurityProtocol()).isEqualTo(SecurityProtocol.SASL_PLAINTEXT);
    }
}
