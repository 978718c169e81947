package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.odradek.compat.OdradekBroker;
import io.odradek.compat.SaslListener;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * confluent-kafka-python (1.7 on librdkafka 2.0) logging in with SASL PLAIN over SASL_PLAINTEXT and over SASL_SSL
 * (the broker's certificate checked against the test CA and its IP address): a plain producer's records come
 * back exactly; a wrong password is refused with the broker's PLAIN message, as librdkafka reports it.
 */
@ExtendWith(ExternalClients.class)
class ConfluentKafkaPythonSaslTest {
    @RegisterExtension
    static final OdradekBroker saslPlaintext = OdradekBroker.withConfig(SaslListener.brokerConfig("SASL_PLAINTEXT"));
    @RegisterExtension
    static final OdradekBroker saslSsl = OdradekBroker.withConfig(SaslListener.brokerConfig("SASL_SSL"));

    private static OdradekBroker broker(String protocol) {
        return protocol.equals("SASL_SSL") ? saslSsl : saslPlaintext;
    }

    /** librdkafka's settings for a PLAIN login (a throwaway test password). */
    private static Map<String, Object> plain(String protocol, String password) {
        Map<String, Object> config = new HashMap<>(Map.of("security.protocol", protocol, "sasl.mechanisms", "PLAIN",
                "sasl.username", SaslListener.ALICE, "sasl.password", password));
        if (protocol.equals("SASL_SSL")) {
            config.put("ssl.ca.location", SaslListener.certificates().truststore("PEM").toString());
        }
        return config;
    }

    @ParameterizedTest
    @ValueSource(strings = {"SASL_PLAINTEXT", "SASL_SSL"})
    void plainLoginProducesAndConsumesExactRecords(String protocol) throws Exception {
        String topic = "py-" + protocol.toLowerCase().replace('_', '-');
        SaslListener.createTopic(broker(protocol), protocol, topic, 2);
        ConfluentKafkaPython python = new ConfluentKafkaPython(broker(protocol));
        List<Map<String, Object>> messages = IntStream.range(0, 8)
                .mapToObj(i -> ConfluentKafkaPython.message(topic, i % 2, "k" + i, "v" + i)).toList();

        ConfluentKafkaPython.Run sent = python.run("send", Map.of("messages", messages,
                "config", plain(protocol, SaslListener.ALICE_PASSWORD)));

        List<String> expected = IntStream.range(0, 8).mapToObj(i -> (i % 2) + "@" + (i / 2) + " k" + i + "=v" + i)
                .toList();
        assertThat(sent.events("delivered")).as(sent.describe())
                .extracting(e -> line(e) + " " + e.get("error").asText())
                .containsExactlyInAnyOrderElementsOf(expected.stream().map(l -> l + " null").toList());
        assertThat(Kcat.requestsSent(sent.process())).contains("SaslHandshake v1");

        ConfluentKafkaPython.Run consumed = python.run("consume", Map.of("topic", topic, "partitions", 2,
                "isolation", "read_uncommitted", "config", plain(protocol, SaslListener.ALICE_PASSWORD)));
        for (int p = 0; p < 2; p++) { // in offset order within each partition
            String prefix = p + "@";
            assertThat(consumed.events("message")).as(consumed.describe())
                    .extracting(ConfluentKafkaPythonSaslTest::line).filteredOn(l -> l.startsWith(prefix))
                    .containsExactlyElementsOf(expected.stream().filter(l -> l.startsWith(prefix)).toList());
        }
        assertThat(consumed.events("message")).hasSize(expected.size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"SASL_PLAINTEXT", "SASL_SSL"})
    void wrongPasswordIsRefusedWithTheBrokersPlainMessage(String protocol) throws Exception {
        ConfluentKafkaPython python = new ConfluentKafkaPython(broker(protocol));

        ConfluentKafkaPython.Run run = python.run("metadata", Map.of("config", plain(protocol, "wrong-password")));

        assertThat(run.events("metadata")).as(run.describe()).isEmpty();
        assertThat(run.events("clientError")).as(run.describe()).anySatisfy(e -> {
            assertThat(e.get("name").asText()).isEqualTo("_AUTHENTICATION");
            assertThat(e.get("message").asText())
                    .contains("SASL authentication error: Authentication failed: Invalid username or password");
        });
    }

    /** "partition@offset key=value". */
    private static String line(JsonNode e) {
        return e.get("partition").asInt() + "@" + e.get("offset").asLong() + " " + e.get("key").asText() + "="
                + e.get("value").asText();
    }
}
