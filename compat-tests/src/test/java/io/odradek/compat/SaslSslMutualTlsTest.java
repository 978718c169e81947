package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.security.TestCertificates;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Mutual TLS and SASL together on one SASL_SSL listener: {@code listener.name.sasl_ssl.ssl.client.auth=required}
 * (Kafka honours ssl.client.auth on a SASL_SSL listener only with the listener prefix, KIP-684), so a client needs
 * a certificate the broker trusts and then a SASL login.
 */
class SaslSslMutualTlsTest {
    private static final String SASL_SSL = "SASL_SSL";
    private static final TestCertificates CERTS = SaslListener.certificates();

    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withConfig(brokerConfig());

    private static Map<String, String> brokerConfig() {
        Map<String, String> config = new HashMap<>(SaslListener.brokerConfig(SASL_SSL));
        config.put("listener.name.sasl_ssl.ssl.client.auth", "required");
        CERTS.truststoreConfig("PKCS12").forEach((k, v) -> config.put("listener.name.sasl_ssl." + k, v));
        return config;
    }

    /** The login plus a client certificate (CN=bob) as a PKCS12 keystore. */
    private static Map<String, Object> withCertificate(Map<String, Object> login) {
        Map<String, Object> config = new HashMap<>(login);
        config.putAll(CERTS.client("bob").keystoreConfig("PKCS12"));
        return config;
    }

    @BeforeAll
    static void scramUser() throws Exception {
        Map<String, Object> admin = withCertificate(
                SaslListener.plain(SASL_SSL, SaslListener.ADMIN, SaslListener.ADMIN_PASSWORD));
        OdradekBroker.await(SaslListener.admin(BROKER, admin).alterUserScramCredentials(List.of(
                new UserScramCredentialUpsertion("mtls256", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096),
                        "m-256-secret"))).all());
    }

    @Test
    void clientWithCertificateAndScramLoginProducesAndConsumesExactly() throws Exception {
        SaslSslClientsTest.produceAndConsume(BROKER, "mtls-scram",
                withCertificate(SaslListener.scram(SASL_SSL, "SCRAM-SHA-256", "mtls256", "m-256-secret")));
    }

    @Test
    void clientWithCertificateAndPlainLoginProducesAndConsumesExactly() throws Exception {
        SaslSslClientsTest.produceAndConsume(BROKER, "mtls-plain",
                withCertificate(SaslListener.plain(SASL_SSL, SaslListener.ALICE, SaslListener.ALICE_PASSWORD)));
    }

    @Test
    void rightPasswordWithoutClientCertificateIsRefusedInTheTlsHandshake() {
        Map<String, Object> config = new HashMap<>(
                SaslListener.scram(SASL_SSL, "SCRAM-SHA-256", "mtls256", "m-256-secret"));
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, config);
        assertThatThrownBy(() -> producer.partitionsFor("mtls-scram"))
                .isInstanceOf(SslAuthenticationException.class);
    }
}
