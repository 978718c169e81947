package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.compat.OdradekBroker;
import io.odradek.compat.SaslListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kcat 1.7 (librdkafka 2.0 on Debian 12) over a SASL_SSL listener with PLAIN, SCRAM and OAUTHBEARER: librdkafka checks the
 * broker's certificate against the test CA (ssl.ca.location) and its host name (its default
 * ssl.endpoint.identification.algorithm=https; the certificate names 127.0.0.1), then logs in with SaslHandshake v1
 * and SaslAuthenticate v0. Refusals are checked in kcat's own error output.
 */
@ExtendWith(ExternalClients.class)
class KcatSaslSslTest {
    private static final String SASL_SSL = "SASL_SSL";

    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withConfig(SaslListener.brokerConfig(SASL_SSL));

    private static final String FORMAT = "%k=%s %p %o\\n";
    private static final List<String> KEYS = IntStream.range(0, 12).mapToObj(i -> "key-" + (i % 5)).toList();
    private static final List<String> INPUT = IntStream.range(0, KEYS.size())
            .mapToObj(i -> KEYS.get(i) + ":value-" + i).toList();

    private final Kcat kcat = new Kcat(broker);

    @BeforeAll
    static void scramUsers() {
        SaslListener.addScramUser(broker, SASL_SSL, "SCRAM-SHA-256", "kcat256", "kcat-256-secret");
        SaslListener.addScramUser(broker, SASL_SSL, "SCRAM-SHA-512", "kcat512", "kcat-512-secret");
    }

    /** librdkafka's settings for a SASL_SSL login; a throwaway test password. */
    private static String[] login(String mechanism, String user, String password) {
        return new String[] {"-X", "security.protocol=SASL_SSL", "-X", "sasl.mechanisms=" + mechanism,
                "-X", "sasl.username=" + user, "-X", "sasl.password=" + password,
                "-X", "ssl.ca.location=" + SaslListener.certificates().truststore("PEM")};
    }

    private static String user(String mechanism) {
        return mechanism.equals("SCRAM-SHA-256") ? "kcat256" : "kcat512";
    }

    private static String password(String mechanism) {
        return mechanism.equals("SCRAM-SHA-256") ? "kcat-256-secret" : "kcat-512-secret";
    }

    @Test
    void keyedMessagesOverSaslSslWithPlainComeBackExactly() throws Exception {
        String[] login = login("PLAIN", SaslListener.ALICE, SaslListener.ALICE_PASSWORD);
        Subprocess.Result produced = produceKeyed("kcat-plain", login);

        assertThat(kcat.consumeAll("kcat-plain", FORMAT, login)).containsExactlyInAnyOrderElementsOf(expected());
        assertThat(Kcat.requestsSent(produced)).as(produced.describe()).contains("SaslHandshake v1");
    }

    /**
     * librdkafka's own unsecured JWS (enable.sasl.oauthbearer.unsecure.jwt, header alg "none", claims sub, iat, exp)
     * accepted by the broker's unsecured OAUTHBEARER validator, as Kafka's accepts it.
     */
    @Test
    void oauthBearerUnsecuredTokenFromLibrdkafkaProducesAndConsumesExactly() throws Exception {
        String[] login = {"-X", "security.protocol=SASL_SSL", "-X", "sasl.mechanisms=OAUTHBEARER",
                "-X", "enable.sasl.oauthbearer.unsecure.jwt=true",
                "-X", "sasl.oauthbearer.config=principal=kcat-oauth lifeSeconds=600",
                "-X", "ssl.ca.location=" + SaslListener.certificates().truststore("PEM")};
        Subprocess.Result produced = produceKeyed("kcat-oauth", login);

        assertThat(kcat.consumeAll("kcat-oauth", FORMAT, login)).containsExactlyInAnyOrderElementsOf(expected());
        assertThat(Kcat.requestsSent(produced)).as(produced.describe()).contains("SaslHandshake v1");
    }

    /**
     * librdkafka before 2.6.1 puts its client nonce in front of the server's combined nonce once more in the
     * client-final message (librdkafka #4895); Kafka 4.x compares that nonce with the server's exactly
     * (ScramSaslServer, since the fix for CVE-2024-56128), and so does Odradek: such a librdkafka cannot log in
     * with SCRAM to Kafka 4.4 either, and is refused with Kafka's generic message. A newer librdkafka (a newer
     * Debian) logs in, and its records come back exactly.
     */
    @ParameterizedTest
    @ValueSource(strings = {"SCRAM-SHA-256", "SCRAM-SHA-512"})
    void scramLoginOverSaslSslWorksFromLibrdkafka261AndIsRefusedBeforeAsByKafka44(String mechanism)
            throws Exception {
        String topic = "kcat-" + mechanism.toLowerCase(Locale.ROOT);
        String[] login = login(mechanism, user(mechanism), password(mechanism));
        if (librdkafkaSendsExactScramNonce()) {
            Subprocess.Result produced = produceKeyed(topic, login);
            assertThat(kcat.consumeAll(topic, FORMAT, login)).containsExactlyInAnyOrderElementsOf(expected());
            assertThat(Kcat.requestsSent(produced)).as(produced.describe()).contains("SaslHandshake v1");
        } else {
            Subprocess.Result r = metadata(login);
            assertThat(r.exitCode()).as(r.describe()).isNotZero();
            assertThat(r.stderr()).as(r.describe()).contains("SASL authentication error: Authentication failed "
                    + "during authentication due to invalid credentials with SASL mechanism " + mechanism);
        }
    }

    /** Creates the topic (3 partitions) and produces 12 keyed messages with Kafka's murmur2 partitioner. */
    private Subprocess.Result produceKeyed(String topic, String[] login) throws Exception {
        SaslListener.createTopic(broker, SASL_SSL, topic, 3);
        List<String> produceArgs = new ArrayList<>(List.of("-K:", "-X", "partitioner=murmur2_random"));
        produceArgs.addAll(List.of(login));
        return kcat.produce(topic, INPUT, produceArgs.toArray(String[]::new));
    }

    /** "key=value-i partition offset" for each of the 12 messages, offsets counted per partition. */
    private static List<String> expected() {
        List<String> expected = new ArrayList<>();
        Map<Integer, Integer> next = new HashMap<>();
        for (int i = 0; i < KEYS.size(); i++) {
            int p = KcatTest.murmur2(KEYS.get(i), 3);
            expected.add(KEYS.get(i) + "=value-" + i + " " + p + " " + (next.merge(p, 1, Integer::sum) - 1));
        }
        return expected;
    }

    /** {@code kcat -L}: connects and logs in, nothing else. */
    private Subprocess.Result metadata(String[] login) throws Exception {
        List<String> args = new ArrayList<>(List.of("-L", "-t", "kcat-refused", "-m", "3"));
        args.addAll(List.of(login));
        return kcat.run(args, null);
    }

    /** librdkafka 2.6.1 and later (the version kcat -V names) send the server's nonce as it was sent. */
    private static boolean librdkafkaSendsExactScramNonce() throws Exception {
        Subprocess.Result r = Subprocess.run(List.of("kcat", "-V"), null, Map.of(), Duration.ofSeconds(10),
                ExternalClients.outputDir().resolve("kcat-version"));
        Matcher m = Pattern.compile("librdkafka (\\d+)\\.(\\d+)\\.(\\d+)").matcher(r.stdout() + r.stderr());
        assertThat(m.find()).as("librdkafka version in kcat -V: %s", r.stdout()).isTrue();
        int version = Integer.parseInt(m.group(1)) * 1_000_000 + Integer.parseInt(m.group(2)) * 1_000
                + Integer.parseInt(m.group(3));
        return version >= 2_006_001;
    }

    @Test
    void wrongPlainPasswordIsRefusedWithKafkasMessage() throws Exception {
        Subprocess.Result r = metadata(login("PLAIN", SaslListener.ALICE, "wrong-password"));

        assertThat(r.exitCode()).as(r.describe()).isNotZero();
        assertThat(r.stdout()).doesNotContain("topic \"");
        assertThat(r.stderr()).as(r.describe())
                .contains("SASL authentication error: Authentication failed: Invalid username or password");
    }

    /** (With a librdkafka before 2.6.1 the nonce is refused before the password is looked at; same message.) */
    @ParameterizedTest
    @ValueSource(strings = {"SCRAM-SHA-256", "SCRAM-SHA-512"})
    void wrongPasswordIsRefusedWithKafkasScramMessage(String mechanism) throws Exception {
        Subprocess.Result r = metadata(login(mechanism, user(mechanism), "wrong-password"));

        assertThat(r.exitCode()).as(r.describe()).isNotZero();
        assertThat(r.stdout()).doesNotContain("topic \"");
        assertThat(r.stderr()).as(r.describe()).contains("SASL authentication error: Authentication failed during "
                + "authentication due to invalid credentials with SASL mechanism " + mechanism);
    }
}
