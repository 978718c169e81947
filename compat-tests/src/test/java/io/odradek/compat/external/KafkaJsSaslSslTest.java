package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.compat.OdradekBroker;
import io.odradek.compat.SaslListener;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * KafkaJS 2.2.4 over a SASL_SSL listener with SCRAM: Node's TLS checks the broker's certificate against the test CA
 * ({@code ssl: {ca: [PEM]}}) and its IP address, then KafkaJS logs in with SaslHandshake v1 and SaslAuthenticate
 * (mechanism {@code scram-sha-256} / {@code scram-sha-512}); producer and group consumer both log in.
 */
@ExtendWith(ExternalClients.class)
class KafkaJsSaslSslTest {
    private static final String SASL_SSL = "SASL_SSL";

    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withConfig(SaslListener.brokerConfig(SASL_SSL));

    @BeforeAll
    static void scramUsers() {
        SaslListener.addScramUser(broker, SASL_SSL, "SCRAM-SHA-256", "js256", "js-256-secret");
        SaslListener.addScramUser(broker, SASL_SSL, "SCRAM-SHA-512", "js512", "js-512-secret");
    }

    /** KafkaJS's ssl and sasl options for a SCRAM login trusting the test CA (a throwaway password). */
    private static KafkaJs kafkajs(String mechanism, String password) {
        String user = mechanism.equals("SCRAM-SHA-256") ? "js256" : "js512";
        return new KafkaJs(broker, Map.of(
                "ssl", Map.of("ca", List.of(SaslListener.certificates().caPem())),
                "sasl", Map.of("mechanism", mechanism.toLowerCase(), "username", user, "password", password)));
    }

    private static String password(String mechanism) {
        return mechanism.equals("SCRAM-SHA-256") ? "js-256-secret" : "js-512-secret";
    }

    @ParameterizedTest
    @ValueSource(strings = {"SCRAM-SHA-256", "SCRAM-SHA-512"})
    void keyedMessagesWithHeadersComeBackExactlyOverSaslSsl(String mechanism) throws Exception {
        String topic = "js-" + mechanism.toLowerCase();
        SaslListener.createTopic(broker, SASL_SSL, topic, 3);
        KafkaJs kafkajs = kafkajs(mechanism, password(mechanism));

        KafkaJs.Run produced = kafkajs.produce(topic, "none",
                List.of(KafkaJsTest.messages(0, 9), KafkaJsTest.messages(9, 15)));

        assertThat(produced.events("sent")).isNotEmpty()
                .allSatisfy(e -> assertThat(e.get("errorCode").asInt()).isZero());
        assertThat(produced.requestsSent()).as(produced.describe()).contains("SaslHandshake v1");
        KafkaJs.Run consumed = kafkajs.consume(Map.of("topic", topic, "groupId", topic + "-reader", "expect", 15));
        assertThat(KafkaJsTest.received(consumed)).as(consumed.describe())
                .containsExactlyInAnyOrderElementsOf(KafkaJsTest.expected(0, 15, key -> KcatTest.murmur2(key, 3)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"SCRAM-SHA-256", "SCRAM-SHA-512"})
    void wrongPasswordIsRefusedWithKafkasScramMessage(String mechanism) throws Exception {
        KafkaJs.Run run = kafkajs(mechanism, "wrong-password").run("produce.js",
                Map.of("topic", "js-refused", "compression", "none", "sends", List.of(KafkaJsTest.messages(0, 1))));

        assertThat(run.process().exitCode()).as(run.describe()).isEqualTo(1);
        assertThat(run.events("sent")).isEmpty();
        assertThat(run.events("error")).singleElement().satisfies(e -> assertThat(e.get("message").asText())
                .contains("SASL " + mechanism.replace("-SHA-", " SHA")
                        + " authentication failed: Authentication failed during authentication due to invalid "
                        + "credentials with SASL mechanism " + mechanism));
    }
}
