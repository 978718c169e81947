package io.odradek.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import io.odradek.broker.config.ConfigException;
import io.odradek.broker.config.ListenerConfig;
import io.odradek.replication.fetcher.BrokerClient;
import io.odradek.replication.fetcher.ClientSecurity;
import io.odradek.replication.security.InMemorySecurityMetadataStore;
import io.odradek.replication.security.SecurityMetadataStore.ScramChange;
import io.odradek.security.sasl.SaslServerMechanism;
import io.odradek.security.scram.ScramFormatter;
import io.odradek.security.scram.ScramMechanism;
import io.odradek.wire.api.MetadataApi;
import io.odradek.wire.schema.Struct;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SaslListenersTest {
    private static final String PLAIN_JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"admin\" password=\"admin-secret\" user_admin=\"admin-secret\";";
    private static final String SCRAM_JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required "
            + "username=\"broker\" password=\"broker-secret\";";

    @TempDir
    Path dir;

    private static ListenerConfig listener(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.put("node.id", "1");
        all.put("listeners", "SASL_PLAINTEXT://127.0.0.1:0");
        return BrokerConfig.of(all).listenerConfig("SASL_PLAINTEXT");
    }

    @Test
    void kafkasDefaultGssapiIsRefusedAtStartWithWhatToSet() {
        assertThatThrownBy(() -> SaslListeners.serverSettings(listener(Map.of()), new InMemorySecurityMetadataStore()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("GSSAPI")
                .hasMessageContaining("does not support Kerberos")
                .hasMessageContaining("listener.name.sasl_plaintext.sasl.enabled.mechanisms");
    }

    @Test
    void mechanismsComeFromTheListenerOverrideAndEachNeedsItsJaasConfig() {
        ListenerConfig config = listener(Map.of("sasl.enabled.mechanisms", "GSSAPI",
                "listener.name.sasl_plaintext.sasl.enabled.mechanisms", "SCRAM-SHA-512,PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_JAAS,
                "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config", SCRAM_JAAS,
                "connections.max.reauth.ms", "60000",
                "listener.name.sasl_plaintext.plain.connections.max.reauth.ms", "5000"));
        SaslServerSettings settings = SaslListeners.serverSettings(config, new InMemorySecurityMetadataStore());
        assertThat(settings.enabledMechanisms()).containsExactly("SCRAM-SHA-512", "PLAIN");
        assertThat(settings.newServer("PLAIN").mechanismName()).isEqualTo("PLAIN");
        assertThat(settings.newServer("SCRAM-SHA-512").mechanismName()).isEqualTo("SCRAM-SHA-512");
        assertThat(settings.newServer("SCRAM-SHA-256")).isNull();
        assertThat(settings.maxReauthMs("SCRAM-SHA-512")).isEqualTo(60000);
        assertThat(settings.maxReauthMs("PLAIN")).isEqualTo(5000);

        assertThatThrownBy(() -> SaslListeners.serverSettings(listener(Map.of("sasl.enabled.mechanisms", "PLAIN")),
                new InMemorySecurityMetadataStore()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Could not find a 'KafkaServer' or 'sasl_plaintext.KafkaServer' entry");
        assertThatThrownBy(() -> SaslListeners.serverSettings(listener(Map.of("sasl.enabled.mechanisms", "DIGEST-MD5")),
                new InMemorySecurityMetadataStore()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("unsupported SASL mechanism DIGEST-MD5");
    }

    @Test
    void jaasFileSectionOfTheListenerIsUsed() throws Exception {
        withPlainServerFromJaasFile("KafkaServer { org.apache.kafka.common.security.plain.PlainLoginModule required "
                + "user_other=\"x\"; };\nsasl_plaintext.KafkaServer { org.apache.kafka.common.security.plain.PlainLoginModule"
                + " required user_admin=\"from-file\"; };\n", server -> {
                    server.evaluateResponse("\u0000admin\u0000from-file".getBytes(StandardCharsets.UTF_8));
                    assertThat(server.authorizationId()).isEqualTo("admin");
                });
    }

    @Test
    void interBrokerClientsLogInWithPlainAndScramAndAreToldWhenRefused() throws Exception {
        Map<String, String> settings = new HashMap<>(Map.of("node.id", "1", "listeners", "SASL_PLAINTEXT://127.0.0.1:0",
                "log.dirs", dir.resolve("logs").toString(),
                "sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256",
                "connections.max.reauth.ms", "30000",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_JAAS,
                "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config", SCRAM_JAAS));
        BrokerConfig config = BrokerConfig.of(settings);
        try (Broker broker = Broker.start(config)) {
            broker.security().alterScramCredentials(List.of(new ScramChange("broker", ScramMechanism.SCRAM_SHA_256,
                    new ScramFormatter(ScramMechanism.SCRAM_SHA_256).credential("broker-secret", 4096))))
                    .get(10, TimeUnit.SECONDS);
            ListenerConfig listener = config.listenerConfig("SASL_PLAINTEXT");
            for (String mechanism : List.of("PLAIN", "SCRAM-SHA-256")) {
                ClientSecurity security = SaslListeners.interBroker(listener, mechanism);
                try (BrokerClient client = new BrokerClient("127.0.0.1", broker.port(), "inter-broker", 5000, 5000,
                        security)) {
                    Struct metadata = client.send(MetadataApi.SPEC, (short) 12, MetadataApi.Request.SCHEMA.newStruct()
                            .set(MetadataApi.Request.TOPICS, null));
                    assertThat(metadata.get(MetadataApi.Response.BROKERS)).hasSize(1);
                }
            }
            // A broker whose own JAAS password is wrong is refused, with the server's message.
            Map<String, String> wrong = new HashMap<>(settings);
            wrong.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_JAAS.replace(
                    "password=\"admin-secret\"", "password=\"nope\""));
            ClientSecurity refused = SaslListeners.interBroker(BrokerConfig.of(wrong).listenerConfig("SASL_PLAINTEXT"),
                    "PLAIN");
            try (BrokerClient client = new BrokerClient("127.0.0.1", broker.port(), "inter-broker", 5000, 5000,
                    refused)) {
                assertThatThrownBy(() -> client.send(MetadataApi.SPEC, (short) 12, MetadataApi.Request.SCHEMA
                        .newStruct().set(MetadataApi.Request.TOPICS, null)))
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining("Authentication failed: Invalid username or password");
            }
        }
    }

    @Test
    void interBrokerRefusesMechanismsItCannotLogInWith() {
        ListenerConfig listener = listener(Map.of());
        assertThatThrownBy(() -> SaslListeners.interBroker(listener, "GSSAPI"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("GSSAPI is not supported for inter-broker");
        assertThat(SaslListeners.interBroker(BrokerConfig.of(Map.of("node.id", "1")).listenerConfig("PLAINTEXT"),
                "GSSAPI")).isSameAs(ClientSecurity.PLAINTEXT);
    }

    @Test
    void plainUsersComeOnlyFromThePlainLoginModuleEntry() throws Exception {
        // As Kafka's PlainServerCallbackHandler: user_* options of another login module are no PLAIN users.
        withPlainServerFromJaasFile("KafkaServer { org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"broker\" password=\"broker-secret\" user_admin=\"from-scram-entry\"; };\n",
                server -> assertThatThrownBy(() -> server.evaluateResponse(
                        "\u0000admin\u0000from-scram-entry".getBytes(StandardCharsets.UTF_8)))
                        .hasMessageContaining("Invalid username or password"));
    }

    /** What a test does with the listener's PLAIN server. */
    private interface PlainServerCheck {
        void check(SaslServerMechanism server) throws Exception;
    }

    /**
     * Runs {@code check} on a PLAIN server of the SASL_PLAINTEXT listener while java.security.auth.login.config
     * names a JAAS file with {@code jaas}; the JVM-wide property is restored afterwards.
     */
    private void withPlainServerFromJaasFile(String jaas, PlainServerCheck check) throws Exception {
        Path file = dir.resolve("jaas.conf");
        Files.writeString(file, jaas);
        String old = System.getProperty("java.security.auth.login.config");
        System.setProperty("java.security.auth.login.config", file.toString());
        try {
            SaslServerSettings settings = SaslListeners.serverSettings(listener(Map.of("sasl.enabled.mechanisms",
                    "PLAIN")), new InMemorySecurityMetadataStore());
            check.check(settings.newServer("PLAIN"));
        } finally {
            if (old == null) {
                System.clearProperty("java.security.auth.login.config");
            } else {
                System.setProperty("java.security.auth.login.config", old);
            }
        }
    }
}
