package io.odradek.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SignatureException;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestCertificatesTest {
    private final TestCertificates certs = TestCertificates.shared();

    @Test
    void serverCertificateNamesLocalhostAndLoopbackAndIsSignedByTheCa() throws Exception {
        X509Certificate server = certs.server().certificate();
        assertThat(server.getSubjectX500Principal().getName()).isEqualTo("CN=localhost,OU=Test,O=Odradek");
        assertThat(server.getSubjectAlternativeNames()).containsExactlyInAnyOrder(List.of(7, "127.0.0.1"),
                List.of(2, "localhost"));
        server.verify(certs.caCertificate().getPublicKey());
    }

    @Test
    void clientCertificatesCarryTheChosenCommonNameInEveryStoreType() throws Exception {
        TestCertificates.Identity alice = certs.client("alice");
        for (String type : List.of("JKS", "PKCS12")) {
            KeyStore ks = KeyStore.getInstance(type);
            try (InputStream in = Files.newInputStream(alice.keystore(type))) {
                ks.load(in, TestCertificates.PASSWORD.toCharArray());
            }
            assertThat(ks.getKey(TestCertificates.KEY_ALIAS, TestCertificates.PASSWORD.toCharArray()))
                    .isInstanceOf(PrivateKey.class);
            X509Certificate cert = (X509Certificate) ks.getCertificateChain(TestCertificates.KEY_ALIAS)[0];
            assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=alice,OU=Test,O=Odradek");
        }
        String pemFile = Files.readString(alice.keystore("PEM"));
        assertThat(pemFile).startsWith("-----BEGIN PRIVATE KEY-----").contains(alice.certificateChainPem());
        assertThat(TestCertificates.parseCertificates(alice.certificateChainPem()))
                .containsExactly(alice.certificate(), certs.caCertificate());
        assertThat(alice.encryptedPrivateKeyPem("pw")).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----");
        assertThat(certs.client("alice")).isSameAs(alice);
    }

    @Test
    void anotherInstanceHasAnotherCa(@TempDir Path dir) {
        TestCertificates other = TestCertificates.create(dir);
        assertThat(other.caCertificate()).isNotEqualTo(certs.caCertificate());
        assertThatThrownBy(() -> other.server().certificate().verify(certs.caCertificate().getPublicKey()))
                .isInstanceOf(SignatureException.class);
        assertThat(TestCertificates.parseCertificates(other.caPem())).containsExactly(other.caCertificate());
    }
}
