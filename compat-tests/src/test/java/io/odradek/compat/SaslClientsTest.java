package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.replication.security.SecurityMetadataStore.ScramChange;
import io.odradek.security.scram.ScramFormatter;
import io.odradek.security.scram.ScramMechanism;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.requests.MetadataRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka 4.4's Java clients over SASL_PLAINTEXT with each mechanism Odradek serves: PLAIN (JAAS user_ entries),
 * SCRAM-SHA-256 and SCRAM-SHA-512 (credentials in the cluster metadata), OAUTHBEARER with Kafka's unsecured JWS
 * login on the client; refusals surface as the client's SaslAuthenticationException.
 */
class SaslClientsTest {
    private static final String PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
    private static final String SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";
    private static final String OAUTH_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";

    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withConfig(Map.of(
            "listeners", "SASL_PLAINTEXT://127.0.0.1:0",
            "sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512,OAUTHBEARER",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_MODULE
                    + " required user_alice=\"alice-secret\" user_admin=\"admin-secret\";",
            "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config", SCRAM_MODULE + " required;",
            "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config", SCRAM_MODULE + " required;",
            "listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config", OAUTH_MODULE + " required;"));

    @BeforeAll
    static void credentials() throws Exception {
        BROKER.broker().security().alterScramCredentials(List.of(
                new ScramChange("scram256", ScramMechanism.SCRAM_SHA_256,
                        new ScramFormatter(ScramMechanism.SCRAM_SHA_256).credential("s256-secret", 4096)),
                new ScramChange("scram512", ScramMechanism.SCRAM_SHA_512,
                        new ScramFormatter(ScramMechanism.SCRAM_SHA_512).credential("s512-secret", 4096))))
                .get(10, TimeUnit.SECONDS);
    }

    static Map<String, Object> sasl(String mechanism, String jaas) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        config.put(SaslConfigs.SASL_MECHANISM, mechanism);
        config.put(SaslConfigs.SASL_JAAS_CONFIG, jaas);
        return config;
    }

    static Map<String, Object> plain(String user, String password) {
        return sasl("PLAIN", PLAIN_MODULE + " required username=\"" + user + "\" password=\"" + password + "\";");
    }

    static Map<String, Object> scram(String mechanism, String user, String password) {
        return sasl(mechanism, SCRAM_MODULE + " required username=\"" + user + "\" password=\"" + password + "\";");
    }

    static Map<String, Object> oauth(String subject, int lifetimeSeconds) {
        return sasl("OAUTHBEARER", OAUTH_MODULE + " required unsecuredLoginStringClaim_sub=\"" + subject
                + "\" unsecuredLoginLifetimeSeconds=\"" + lifetimeSeconds + "\";");
    }

    private static Admin admin(Map<String, Object> security) {
        Map<String, Object> config = new HashMap<>(security);
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, BROKER.bootstrap());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return BROKER.track(Admin.create(config));
    }

    /** Creates the topic, produces three records and reads them back, all as the client {@code security} logs in. */
    private static void produceAndConsume(String topic, Map<String, Object> security) throws Exception {
        OdradekBroker.await(admin(security).createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all());
        KafkaProducer<String, String> producer = Clients.producer(BROKER, security);
        for (int i = 0; i < 3; i++) {
            RecordMetadata m = producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i)).get(30, TimeUnit.SECONDS);
            assertThat(m.offset()).isEqualTo(i);
        }
        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, security);
        List<ConsumerRecord<String, String>> records = Clients.readAll(consumer, Clients.partitions(topic, 1),
                Duration.ofSeconds(30));
        assertThat(records).extracting(ConsumerRecord::offset, ConsumerRecord::key, ConsumerRecord::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, "k0", "v0"),
                        org.assertj.core.groups.Tuple.tuple(1L, "k1", "v1"),
                        org.assertj.core.groups.Tuple.tuple(2L, "k2", "v2"));
    }

    @Test
    void plainUserProducesAndConsumes() throws Exception {
        produceAndConsume("sasl-plain", plain("alice", "alice-secret"));
    }

    @Test
    void scramSha256UserProducesAndConsumes() throws Exception {
        produceAndConsume("sasl-scram-256", scram("SCRAM-SHA-256", "scram256", "s256-secret"));
    }

    @Test
    void scramSha512UserProducesAndConsumes() throws Exception {
        produceAndConsume("sasl-scram-512", scram("SCRAM-SHA-512", "scram512", "s512-secret"));
    }

    @Test
    void oauthBearerUnsecuredTokenProducesAndConsumes() throws Exception {
        produceAndConsume("sasl-oauth", oauth("alice", 3600));
    }

    @Test
    void wrongPlainPasswordIsRefused() {
        assertThatThrownBy(() -> OdradekBroker.await(admin(plain("alice", "wrong")).describeCluster().clusterId()))
                .isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("Authentication failed: Invalid username or password");
    }

    @Test
    void wrongScramPasswordIsRefusedWithKafkasGenericMessage() {
        assertThatThrownBy(() -> OdradekBroker.await(
                admin(scram("SCRAM-SHA-256", "scram256", "wrong")).describeCluster().clusterId()))
                .isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("Authentication failed during authentication due to invalid credentials with "
                        + "SASL mechanism SCRAM-SHA-256");
    }

    @Test
    void unknownScramUserIsRefused() {
        assertThatThrownBy(() -> OdradekBroker.await(
                admin(scram("SCRAM-SHA-512", "nobody", "x")).describeCluster().clusterId()))
                .isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("Authentication failed during authentication due to invalid credentials with "
                        + "SASL mechanism SCRAM-SHA-512");
    }

    @Test
    void expiredOauthTokenIsRefusedWithTheJsonStatus() {
        Admin admin = admin(oauth("alice", -60)); // the unsecured login makes a token that expired a minute ago
        assertThatThrownBy(() -> OdradekBroker.await(admin.describeCluster().clusterId()))
                .isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("{\"status\":\"invalid_token\"}");
    }

    @Test
    void requestBeforeAuthenticationClosesTheConnection() throws Exception {
        try (RawConnection raw = new RawConnection(BROKER.port())) {
            raw.send(new MetadataRequest.Builder(new MetadataRequestData().setTopics(null)).build((short) 12));
            assertThat(raw.closedByBroker()).isTrue();
        }
    }
}
