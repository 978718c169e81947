package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.compat.OdradekBroker;
import io.odradek.compat.SaslListener;
import io.odradek.security.TestCertificates;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kcat (librdkafka 2.0, OpenSSL) on an SSL listener that requires a client certificate: with its certificate and
 * key (one PEM file, as TestCertificates writes it) it produces and consumes exactly; without one the broker refuses
 * the TLS handshake (alert "certificate required"). The topic is made by a Java Admin with PEM stores.
 */
@ExtendWith(ExternalClients.class)
class KcatMutualTlsTest {
    private static final TestCertificates CERTS = SaslListener.certificates();

    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withConfig(brokerConfig());

    private final Kcat kcat = new Kcat(broker);

    private static Map<String, String> brokerConfig() {
        Map<String, String> config = new HashMap<>();
        config.put("listeners", "SSL://127.0.0.1:0");
        config.put("inter.broker.listener.name", "SSL");
        config.put("ssl.client.auth", "required");
        config.putAll(CERTS.server().keystoreConfig("PKCS12"));
        config.putAll(CERTS.truststoreConfig("PKCS12"));
        return config;
    }

    /** librdkafka's TLS settings: the test CA, and the client's key and chain unless {@code commonName} is null. */
    private static String[] tls(String commonName) {
        List<String> args = new ArrayList<>(List.of("-X", "security.protocol=SSL",
                "-X", "ssl.ca.location=" + CERTS.truststore("PEM")));
        if (commonName != null) {
            String pem = CERTS.client(commonName).keystore("PEM").toString();
            args.addAll(List.of("-X", "ssl.certificate.location=" + pem, "-X", "ssl.key.location=" + pem));
        }
        return args.toArray(String[]::new);
    }

    @Test
    void clientWithCertificateProducesAndConsumesExactly() throws Exception {
        String[] tls = tls("kcat-client");
        OdradekBroker.await(SaslListener.admin(broker, Map.of("security.protocol", "SSL",
                "ssl.truststore.type", "PEM", "ssl.truststore.certificates", CERTS.caPem(),
                "ssl.keystore.type", "PEM", "ssl.keystore.certificate.chain",
                CERTS.client("admin").certificateChainPem(), "ssl.keystore.key", CERTS.client("admin").privateKeyPem()))
                .createTopics(List.of(new NewTopic("kcat-mtls", 1, (short) 1))).all());
        List<String> input = IntStream.range(0, 10).mapToObj(i -> "k" + i + ":v" + i).toList();
        List<String> produceArgs = new ArrayList<>(List.of("-K:"));
        produceArgs.addAll(List.of(tls));

        kcat.produce("kcat-mtls", input, produceArgs.toArray(String[]::new));

        assertThat(kcat.consumeAll("kcat-mtls", "%k=%s %p %o\\n", tls)).containsExactlyElementsOf(
                IntStream.range(0, 10).mapToObj(i -> "k" + i + "=v" + i + " 0 " + i).toList());
    }

    @Test
    void clientWithoutCertificateIsRefused() throws Exception {
        List<String> args = new ArrayList<>(List.of("-L", "-t", "kcat-mtls-refused", "-m", "3"));
        args.addAll(List.of(tls(null)));

        Subprocess.Result r = kcat.run(args, null);

        assertThat(r.exitCode()).as(r.describe()).isNotZero();
        assertThat(r.stdout()).doesNotContain("topic \"");
        // TLS 1.3: the broker's alert 116 arrives as the client reads its first answer.
        assertThat(r.stderr()).as(r.describe()).contains("alert certificate required");
    }
}
