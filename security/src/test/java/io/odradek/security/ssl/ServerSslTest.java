package io.odradek.security.ssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.OpenSsl;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.Map;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerSslTest {
    private static final TestCertificates CERTS = TestCertificates.shared();

    private static Map<String, String> server(String storeType, String engine) {
        Map<String, String> config = new HashMap<>(CERTS.server().keystoreConfig(storeType));
        config.putAll(CERTS.truststoreConfig(storeType));
        config.put("odradek.ssl.engine", engine);
        return config;
    }

    private static SSLEngine clientEngine(Map<String, String> config) {
        SSLEngine engine = ClientSsl.create(SslSettings.from(config)).context().createSSLEngine("localhost", 9093);
        engine.setUseClientMode(true);
        return engine;
    }

    private static SSLEngine serverEngine(ServerSsl ssl) {
        return ssl.newHandler(ByteBufAllocator.DEFAULT).engine();
    }

    @Test
    void openSslIsWhatServesWhenNettyTcnativeLoads() {
        assertThat(OpenSsl.isAvailable()).as("netty-tcnative on the test class path").isTrue();
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(server("JKS", "auto")), 0)) {
            assertThat(ssl.engine()).startsWith("OpenSSL");
        }
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(server("JKS", "jdk")), 0)) {
            assertThat(ssl.engine()).isEqualTo("JDK (SunJSSE)");
        }
    }

    @ParameterizedTest(name = "{0} stores, {1} engine")
    @CsvSource({"JKS,openssl", "PKCS12,openssl", "PEM,openssl", "JKS,jdk", "PKCS12,jdk", "PEM,jdk"})
    void mutualTlsGivesTheClientCertificatesMappedName(String storeType, String engine) throws Exception {
        Map<String, String> config = server(storeType, engine);
        config.put("ssl.client.auth", "required");
        config.put("ssl.principal.mapping.rules", "RULE:^CN=([^,]*),OU=Test,.*$/$1/L,DEFAULT");
        Map<String, String> client = new HashMap<>(CERTS.truststoreConfig(storeType));
        client.putAll(CERTS.client("Alice").keystoreConfig(storeType));
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(config), 0)) {
            SSLEngine server = serverEngine(ssl);
            Handshakes.run(clientEngine(client), server);
            assertThat(ssl.principal(server.getSession())).isEqualTo(KafkaPrincipal.user("alice"));
        }
    }

    @ParameterizedTest(name = "{0} engine")
    @CsvSource({"openssl", "jdk"})
    void oneWayTlsClientIsAnonymous(String engine) throws Exception {
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(server("PKCS12", engine)), 0)) {
            SSLEngine server = serverEngine(ssl);
            Handshakes.run(clientEngine(CERTS.truststoreConfig("PEM")), server);
            assertThat(ssl.principal(server.getSession())).isEqualTo(KafkaPrincipal.ANONYMOUS);
            assertThat(server.getSession().getProtocol()).isEqualTo("TLSv1.3");
        }
    }

    @ParameterizedTest(name = "{0} engine")
    @CsvSource({"openssl", "jdk"})
    void requestedClientAuthAcceptsClientsWithAndWithoutCertificates(String engine) throws Exception {
        Map<String, String> config = server("JKS", engine);
        config.put("ssl.client.auth", "requested");
        Map<String, String> withCert = new HashMap<>(CERTS.truststoreConfig("JKS"));
        withCert.putAll(CERTS.client("bob").keystoreConfig("JKS"));
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(config), 0)) {
            SSLEngine anonymous = serverEngine(ssl);
            Handshakes.run(clientEngine(CERTS.truststoreConfig("JKS")), anonymous);
            assertThat(ssl.principal(anonymous.getSession())).isEqualTo(KafkaPrincipal.ANONYMOUS);
            SSLEngine bob = serverEngine(ssl);
            Handshakes.run(clientEngine(withCert), bob);
            assertThat(ssl.principal(bob.getSession())).isEqualTo(KafkaPrincipal.user("CN=bob,OU=Test,O=Odradek"));
        }
    }

    @ParameterizedTest(name = "{0} engine")
    @CsvSource({"openssl", "jdk"})
    void requiredClientAuthRefusesAClientWithoutCertificate(String engine) {
        Map<String, String> config = server("JKS", engine);
        config.put("ssl.client.auth", "required");
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(config), 0)) {
            assertThatThrownBy(() -> Handshakes.run(clientEngine(CERTS.truststoreConfig("JKS")), serverEngine(ssl)))
                    .isInstanceOf(SSLException.class);
        }
    }

    @ParameterizedTest(name = "{0} engine")
    @CsvSource({"openssl", "jdk"})
    void clientThatDoesNotTrustTheServersCaFailsTheHandshake(String engine, @TempDir Path dir) {
        TestCertificates other = TestCertificates.create(dir);
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(server("JKS", engine)), 0)) {
            assertThatThrownBy(() -> Handshakes.run(clientEngine(other.truststoreConfig("JKS")), serverEngine(ssl)))
                    .isInstanceOf(SSLException.class)
                    .hasMessageContaining("PKIX path building failed");
        }
    }

    @Test
    void onlyTheEnabledProtocolsAreSpoken() {
        Map<String, String> config = server("JKS", "openssl");
        config.put("ssl.enabled.protocols", "TLSv1.3");
        Map<String, String> client = new HashMap<>(CERTS.truststoreConfig("JKS"));
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(config), 0)) {
            SSLEngine tls12 = clientEngine(client);
            tls12.setEnabledProtocols(new String[] {"TLSv1.2"});
            assertThatThrownBy(() -> Handshakes.run(tls12, serverEngine(ssl))).isInstanceOf(SSLException.class);
        }
    }

    @ParameterizedTest(name = "{0} engine")
    @CsvSource({"openssl", "jdk"})
    void configuredCipherSuiteIsTheOneNegotiated(String engine) throws Exception {
        Map<String, String> config = server("JKS", engine);
        config.put("ssl.enabled.protocols", "TLSv1.2");
        config.put("ssl.cipher.suites", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384");
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(config), 0)) {
            SSLEngine client = clientEngine(CERTS.truststoreConfig("JKS"));
            Handshakes.run(client, serverEngine(ssl));
            assertThat(client.getSession().getProtocol()).isEqualTo("TLSv1.2");
            assertThat(client.getSession().getCipherSuite()).isEqualTo("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384");
        }
    }

    @Test
    void changedKeystoreFileIsReloadedForNewConnections(@TempDir Path dir) throws Exception {
        Path keystore = dir.resolve("server.p12");
        Files.copy(CERTS.server().keystore("PKCS12"), keystore);
        Map<String, String> config = server("PKCS12", "openssl");
        config.put("ssl.keystore.location", keystore.toString());
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(config), 0)) {
            assertThat(ssl.reloadIfChanged()).isFalse();
            // A renewed certificate: same names, new key, signed by the same CA.
            TestCertificates.Identity renewed = CERTS.identity("renewed", TestCertificates.SERVER_DN,
                    TestCertificates.SERVER_SAN);
            replace(renewed.keystore("PKCS12"), keystore);
            assertThat(ssl.reloadIfChanged()).isTrue();
            assertThat(ssl.keystore().getCertificate(TestCertificates.KEY_ALIAS)).isEqualTo(renewed.certificate());
            SSLEngine client = clientEngine(CERTS.truststoreConfig("JKS"));
            Handshakes.run(client, serverEngine(ssl));
            assertThat((X509Certificate) client.getSession().getPeerCertificates()[0]).isEqualTo(renewed.certificate());
        }
    }

    @Test
    void reloadedKeystoreWithAnotherDistinguishedNameIsRefusedAndTheOldOneKept(@TempDir Path dir) throws Exception {
        Path keystore = dir.resolve("server.jks");
        Files.copy(CERTS.server().keystore("JKS"), keystore);
        Map<String, String> config = server("JKS", "jdk");
        config.put("ssl.keystore.location", keystore.toString());
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(config), 0)) {
            replace(CERTS.client("mallory").keystore("JKS"), keystore);
            assertThat(ssl.reloadIfChanged()).isFalse();
            assertThat(ssl.keystore().getCertificate(TestCertificates.KEY_ALIAS))
                    .isEqualTo(CERTS.server().certificate());
            assertThat(ssl.reloadIfChanged()).as("a refused change is tried once").isFalse();
        }
        config.put("ssl.allow.dn.changes", "true");
        config.put("ssl.allow.san.changes", "true");
        Files.copy(CERTS.server().keystore("JKS"), keystore, StandardCopyOption.REPLACE_EXISTING);
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(config), 0)) {
            replace(CERTS.client("mallory").keystore("JKS"), keystore);
            assertThat(ssl.reloadIfChanged()).isTrue();
        }
    }

    @Test
    void pollingPicksUpAChangedKeystoreOnItsOwn(@TempDir Path dir) throws Exception {
        Path keystore = dir.resolve("server.pem");
        Files.copy(CERTS.server().keystore("PEM"), keystore);
        Map<String, String> config = server("JKS", "openssl");
        config.remove("ssl.keystore.password");
        config.remove("ssl.key.password");
        config.put("ssl.keystore.type", "PEM");
        config.put("ssl.keystore.location", keystore.toString());
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(config), 50)) {
            TestCertificates.Identity renewed = CERTS.identity("renewed-pem", TestCertificates.SERVER_DN,
                    TestCertificates.SERVER_SAN);
            replace(renewed.keystore("PEM"), keystore);
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (ssl.reloads() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(ssl.reloads()).isEqualTo(1);
            assertThat(ssl.keystore().getCertificate("kafka")).isEqualTo(renewed.certificate());
        }
    }

    @Test
    void newKeystoreLocationFromADynamicConfigChangeServesNewConnections() throws Exception {
        try (ServerSsl ssl = ServerSsl.create("SSL", SslSettings.from(server("JKS", "openssl")), 0)) {
            TestCertificates.Identity renewed = CERTS.identity("renewed-dynamic", TestCertificates.SERVER_DN,
                    TestCertificates.SERVER_SAN);
            Map<String, String> next = server("JKS", "openssl");
            next.putAll(renewed.keystoreConfig("PKCS12"));
            assertThat(ssl.reconfigure(SslSettings.from(next))).isTrue();
            assertThat(ssl.reconfigure(SslSettings.from(next))).as("unchanged keys").isFalse();
            SSLEngine client = clientEngine(CERTS.truststoreConfig("JKS"));
            Handshakes.run(client, serverEngine(ssl));
            assertThat((X509Certificate) client.getSession().getPeerCertificates()[0]).isEqualTo(renewed.certificate());

            Map<String, String> otherName = server("JKS", "openssl");
            otherName.putAll(CERTS.client("mallory").keystoreConfig("JKS"));
            assertThat(ssl.reconfigure(SslSettings.from(otherName))).isFalse();
            assertThat(ssl.keystore().getCertificate(TestCertificates.KEY_ALIAS)).isEqualTo(renewed.certificate());
        }
    }

    /** Replaces {@code target} as a deploy tool would, with a modification time that surely differs. */
    private static void replace(Path source, Path target) throws Exception {
        FileTime before = Files.getLastModifiedTime(target);
        Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(target, FileTime.fromMillis(before.toMillis() + 2000));
    }
}
