package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.security.TestCertificates;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listener's TLS and SASL keys stored as dynamic broker configs: a PLAIN password rotated with
 * IncrementalAlterConfigs holds for the next login (the old one is refused), and still after a restart; a keystore
 * rotated so is the one served after a restart (listeners are built from the stored dynamic configs, not only the
 * static ones).
 */
class DynamicListenerSecurityTest {
    private static final String JAAS_KEY = "listener.name.sasl_plaintext.plain.sasl.jaas.config";

    @TempDir
    Path logDir;

    private BrokerConfig config() {
        Map<String, String> settings = new HashMap<>();
        settings.put("node.id", "1");
        settings.put("listeners", "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0");
        settings.put("sasl.enabled.mechanisms", "PLAIN");
        settings.put(JAAS_KEY, jaas("old-secret"));
        settings.put("log.dirs", logDir.toString());
        return BrokerConfig.of(settings);
    }

    private static String jaas(String alicePassword) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required user_alice=\"" + alicePassword + "\";";
    }

    /** The broker's node ids as alice sees them over SASL_PLAINTEXT with {@code password}. */
    private static List<Integer> loginAsAlice(Broker broker, String password) throws Exception {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.address("SASL_PLAINTEXT").getPort());
        props.put(AdminClientConfig.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        props.put("sasl.mechanism", "PLAIN");
        props.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required "
                + "username=\"alice\" password=\"" + password + "\";");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        try (Admin admin = Admin.create(props)) {
            return admin.describeCluster().nodes().get(15, TimeUnit.SECONDS).stream().map(Node::id).toList();
        }
    }

    @Test
    void aPlainPasswordRotatedDynamicallyHoldsForTheNextLoginAndAfterARestart() throws Exception {
        try (Broker broker = Broker.start(config())) {
            assertThat(loginAsAlice(broker, "old-secret")).containsExactly(1);
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    "127.0.0.1:" + broker.address("PLAINTEXT").getPort()))) {
                admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.BROKER, "1"),
                        List.of(new AlterConfigOp(new ConfigEntry(JAAS_KEY, jaas("new-secret")),
                                AlterConfigOp.OpType.SET)))).all().get(15, TimeUnit.SECONDS);
            }
            assertThat(loginAsAlice(broker, "new-secret")).containsExactly(1);
            assertThatThrownBy(() -> loginAsAlice(broker, "old-secret")).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
        try (Broker restarted = Broker.start(config())) {
            assertThat(loginAsAlice(restarted, "new-secret")).containsExactly(1);
            assertThatThrownBy(() -> loginAsAlice(restarted, "old-secret")).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void aKeystoreRotatedDynamicallyIsServedAfterARestart() throws Exception {
        TestCertificates certs = TestCertificates.shared();
        TestCertificates.Identity rotated = certs.identity("rotated-server", "CN=rotated,OU=Test,O=Odradek",
                TestCertificates.SERVER_SAN);
        Map<String, String> settings = new HashMap<>();
        settings.put("node.id", "1");
        settings.put("listeners", "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0");
        settings.put("ssl.keystore.type", "PKCS12");
        settings.put("ssl.keystore.location", certs.server().keystore("PKCS12").toString());
        settings.put("ssl.keystore.password", TestCertificates.PASSWORD);
        settings.put("ssl.key.password", TestCertificates.PASSWORD);
        // The rotated certificate has another subject: Kafka refuses that change unless the listener allows it.
        settings.put("listener.name.ssl.ssl.allow.dn.changes", "true");
        settings.put("log.dirs", logDir.toString());
        try (Broker broker = Broker.start(BrokerConfig.of(settings))) {
            assertThat(serverCertificateSubject(broker, certs)).isEqualTo(certs.server().distinguishedName());
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    "127.0.0.1:" + broker.address("PLAINTEXT").getPort()))) {
                admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.BROKER, "1"), List.of(
                        new AlterConfigOp(new ConfigEntry("listener.name.ssl.ssl.keystore.location",
                                rotated.keystore("PKCS12").toString()), AlterConfigOp.OpType.SET),
                        new AlterConfigOp(new ConfigEntry("listener.name.ssl.ssl.keystore.password",
                                TestCertificates.PASSWORD), AlterConfigOp.OpType.SET),
                        new AlterConfigOp(new ConfigEntry("listener.name.ssl.ssl.key.password",
                                TestCertificates.PASSWORD), AlterConfigOp.OpType.SET))))
                        .all().get(15, TimeUnit.SECONDS);
            }
        }
        try (Broker restarted = Broker.start(BrokerConfig.of(settings))) {
            assertThat(serverCertificateSubject(restarted, certs)).isEqualTo("CN=rotated,OU=Test,O=Odradek");
        }
    }

    /** The subject of the certificate the SSL listener presents to a client trusting the test CA. */
    private static String serverCertificateSubject(Broker broker, TestCertificates certs) throws Exception {
        java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(certs.truststore("PKCS12"))) {
            trust.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) context.getSocketFactory()
                .createSocket("127.0.0.1", broker.address("SSL").getPort())) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            return ((java.security.cert.X509Certificate) socket.getSession().getPeerCertificates()[0])
                    .getSubjectX500Principal().getName();
        }
    }
}
