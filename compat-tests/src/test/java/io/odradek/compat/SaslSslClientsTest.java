package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kafka-clients 4.4 over a SASL_SSL listener (TLS one way, then SASL inside it) with every mechanism Odradek
 * serves: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 (credentials made through AlterUserScramCredentials on the same
 * listener) and unsecured OAUTHBEARER. SSL alone and SASL_PLAINTEXT are covered by TlsClientsTest and
 * SaslClientsTest.
 */
class SaslSslClientsTest {
    private static final String SASL_SSL = "SASL_SSL";

    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withConfig(SaslListener.brokerConfig(SASL_SSL));

    @BeforeAll
    static void scramUsers() {
        SaslListener.addScramUser(BROKER, SASL_SSL, "SCRAM-SHA-256", "scram256", "s256-secret");
        SaslListener.addScramUser(BROKER, SASL_SSL, "SCRAM-SHA-512", "scram512", "s512-secret");
    }

    /**
     * Creates a 2-partition topic, sends six keyed records to chosen partitions and reads them back with a
     * consumer logged in the same way: partitions, offsets, keys and values exactly as sent.
     */
    static void produceAndConsume(OdradekBroker broker, String topic, Map<String, Object> login) throws Exception {
        SaslListener.createTopic(SaslListener.admin(broker, login), topic, 2);
        KafkaProducer<String, String> producer = Clients.producer(broker, login);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            RecordMetadata m = producer.send(new ProducerRecord<>(topic, i % 2, "key-" + i, "value-" + i))
                    .get(30, TimeUnit.SECONDS);
            sent.add(m.partition() + "@" + m.offset() + " key-" + i + "=value-" + i);
        }
        assertThat(sent).containsExactly("0@0 key-0=value-0", "1@0 key-1=value-1", "0@1 key-2=value-2",
                "1@1 key-3=value-3", "0@2 key-4=value-4", "1@2 key-5=value-5");

        KafkaConsumer<String, String> consumer = Clients.consumer(broker, login);
        List<ConsumerRecord<String, String>> records = Clients.readAll(consumer, Clients.partitions(topic, 2),
                Duration.ofSeconds(30));
        assertThat(records).extracting(r -> r.partition() + "@" + r.offset() + " " + r.key() + "=" + r.value())
                .containsExactlyInAnyOrderElementsOf(sent);
    }

    /** A refused login surfaces at once; the bound only keeps a regression from hanging the test. */
    private static Map<String, Object> quick(Map<String, Object> login) {
        Map<String, Object> config = new HashMap<>(login);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        return config;
    }

    @Test
    void plainUserProducesAndConsumesOverTls() throws Exception {
        produceAndConsume(BROKER, "sasl-ssl-plain",
                SaslListener.plain(SASL_SSL, SaslListener.ALICE, SaslListener.ALICE_PASSWORD));
    }

    @Test
    void scramSha256UserProducesAndConsumesOverTls() throws Exception {
        produceAndConsume(BROKER, "sasl-ssl-scram-256",
                SaslListener.scram(SASL_SSL, "SCRAM-SHA-256", "scram256", "s256-secret"));
    }

    @Test
    void scramSha512UserProducesAndConsumesOverTls() throws Exception {
        produceAndConsume(BROKER, "sasl-ssl-scram-512",
                SaslListener.scram(SASL_SSL, "SCRAM-SHA-512", "scram512", "s512-secret"));
    }

    @Test
    void oauthBearerUnsecuredTokenProducesAndConsumesOverTls() throws Exception {
        produceAndConsume(BROKER, "sasl-ssl-oauth", SaslListener.oauth(SASL_SSL, "carol"));
    }

    @Test
    void wrongScramPasswordOverTlsIsRefusedWithKafkasMessage() {
        KafkaProducer<String, String> producer = Clients.producer(BROKER,
                quick(SaslListener.scram(SASL_SSL, "SCRAM-SHA-512", "scram512", "wrong")));
        assertThatThrownBy(() -> producer.partitionsFor("sasl-ssl-plain"))
                .isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("Authentication failed during authentication due to invalid credentials with "
                        + "SASL mechanism SCRAM-SHA-512");
    }

    @Test
    void scramUserWithThe256CredentialOnlyCannotLogInWith512() {
        KafkaProducer<String, String> producer = Clients.producer(BROKER,
                quick(SaslListener.scram(SASL_SSL, "SCRAM-SHA-512", "scram256", "s256-secret")));
        assertThatThrownBy(() -> producer.partitionsFor("sasl-ssl-plain"))
                .isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("SASL mechanism SCRAM-SHA-512");
    }
}
