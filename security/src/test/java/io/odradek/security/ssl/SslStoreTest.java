package io.odradek.security.ssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.security.TestCertificates;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kafka's checks of the ssl.keystore.* / ssl.truststore.* keys, with its messages. */
class SslStoreTest {
    private static final TestCertificates CERTS = TestCertificates.shared();

    private static SslContexts.Server build(Map<String, String> config) {
        return SslContexts.server(SslSettings.from(config));
    }

    @Test
    void pemKeyWithAnotherKeystoreTypeIsRefused() {
        Map<String, String> config = new HashMap<>(CERTS.server().keystoreConfig("PEM"));
        config.put("ssl.keystore.type", "JKS");
        assertThatThrownBy(() -> build(config)).isInstanceOf(SslConfigException.class)
                .hasMessage("SSL private key can be specified only for PEM, but key store type is JKS.");
    }

    @Test
    void pemKeystoreWithAStorePasswordIsRefused() {
        Map<String, String> config = new HashMap<>(CERTS.server().keystoreConfig("PEM"));
        config.put("ssl.keystore.password", "x");
        assertThatThrownBy(() -> build(config)).hasMessage(
                "SSL key store password cannot be specified with PEM format, only key password may be specified.");
    }

    @Test
    void keystoreWithoutPasswordIsRefused() {
        Map<String, String> config = new HashMap<>(CERTS.server().keystoreConfig("JKS"));
        config.remove("ssl.keystore.password");
        assertThatThrownBy(() -> build(config))
                .hasMessage("SSL key store is specified, but key store password is not specified.");
    }

    @Test
    void wrongKeystorePasswordNamesTheFileAndType() {
        Map<String, String> config = new HashMap<>(CERTS.server().keystoreConfig("PKCS12"));
        config.put("ssl.keystore.password", "wrong");
        assertThatThrownBy(() -> build(config)).hasMessageStartingWith("Failed to load SSL keystore "
                + CERTS.server().keystore("PKCS12") + " of type PKCS12");
    }

    @Test
    void trustCertificatesNeedThePemType() {
        Map<String, String> config = new HashMap<>(CERTS.server().keystoreConfig("JKS"));
        config.put("ssl.truststore.certificates", CERTS.caPem());
        assertThatThrownBy(() -> build(config))
                .hasMessage("SSL trust store certs can be specified only for PEM, but trust store type is JKS.");
    }

    @Test
    void listenerWithoutKeystoreIsRefusedClearly() {
        assertThatThrownBy(() -> build(Map.of())).hasMessageStartingWith("An SSL listener needs a keystore");
    }

    @Test
    void encryptedPemKeyLoadsWithTheKeyPassword() {
        Map<String, String> config = new HashMap<>(CERTS.server().keystoreConfig("PEM"));
        config.put("ssl.keystore.key", CERTS.server().encryptedPrivateKeyPem("key-secret"));
        config.put("ssl.key.password", "key-secret");
        assertThat(build(config).keystore().keyStore()).isNotNull();
        config.put("ssl.key.password", "wrong");
        assertThatThrownBy(() -> build(config)).hasMessageStartingWith("Invalid PEM keystore configs");
    }

    @Test
    void pemWithoutAKeyIsRefused() {
        Map<String, String> config = new HashMap<>(CERTS.server().keystoreConfig("PEM"));
        config.put("ssl.keystore.key", CERTS.caPem());
        assertThatThrownBy(() -> build(config))
                .hasMessage("Invalid PEM keystore configs: No matching PRIVATE KEY entries in PEM file");
    }

    @Test
    void unknownClientAuthAndCustomEngineFactoriesAreRefused() {
        assertThatThrownBy(() -> SslSettings.from(Map.of("ssl.client.auth", "always"))).hasMessage(
                "Invalid value always for configuration ssl.client.auth: String must be one of: required, requested, none");
        assertThatThrownBy(() -> SslSettings.from(Map.of("ssl.engine.factory.class", "com.example.Factory")))
                .hasMessageStartingWith("Invalid value com.example.Factory for configuration ssl.engine.factory.class");
    }

    @Test
    void kafkasDefaults() {
        SslSettings s = SslSettings.from(Map.of());
        assertThat(s.protocol()).isEqualTo("TLSv1.3");
        assertThat(s.enabledProtocols()).containsExactly("TLSv1.2", "TLSv1.3");
        assertThat(s.keystoreType()).isEqualTo("JKS");
        assertThat(s.truststoreType()).isEqualTo("JKS");
        assertThat(s.endpointIdentificationAlgorithm()).isEqualTo("https");
        assertThat(s.clientAuth()).isEqualTo(SslSettings.ClientAuth.NONE);
        assertThat(s.principalMappingRules()).isEqualTo("DEFAULT");
        assertThat(s.keyManagerAlgorithm()).isEqualTo("SunX509");
        assertThat(s.trustManagerAlgorithm()).isEqualTo("PKIX");
        assertThat(s.toString()).doesNotContain(TestCertificates.PASSWORD);
    }
}
