package io.odradek.security.ssl;

import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * PEM as Kafka reads it for {@code ssl.keystore.type=PEM} / {@code ssl.truststore.type=PEM}: X.509 certificates,
 * and one PKCS#8 private key ({@code BEGIN PRIVATE KEY}, or {@code BEGIN ENCRYPTED PRIVATE KEY} decrypted with
 * {@code ssl.key.password}; RSA, DSA or EC). Text around the entries is ignored, as are encapsulated headers
 * ({@code Proc-Type: ...}) inside them; the base64 may be wrapped or not.
 */
final class PemReader {
    private PemReader() {
    }

    static Certificate[] certificates(String pem) throws GeneralSecurityException {
        List<byte[]> entries = entries(pem, "CERTIFICATE");
        if (entries.isEmpty()) {
            throw new SslConfigException("No matching CERTIFICATE entries in PEM file");
        }
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        Certificate[] certs = new Certificate[entries.size()];
        for (int i = 0; i < certs.length; i++) {
            certs[i] = factory.generateCertificate(new ByteArrayInputStream(entries.get(i)));
        }
        return certs;
    }

    /** The one private key in {@code pem}; {@code password} null means the key is not encrypted. */
    static PrivateKey privateKey(String pem, char[] password) throws GeneralSecurityException, java.io.IOException {
        List<byte[]> entries = entries(pem, "PRIVATE KEY");
        if (entries.isEmpty()) {
            throw new SslConfigException("No matching PRIVATE KEY entries in PEM file");
        }
        if (entries.size() != 1) {
            throw new SslConfigException("Expected one private key, but found " + entries.size());
        }
        PKCS8EncodedKeySpec spec;
        if (password == null) {
            spec = new PKCS8EncodedKeySpec(entries.get(0));
        } else {
            EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(entries.get(0));
            String algorithm = info.getAlgName();
            Cipher cipher = Cipher.getInstance(algorithm);
            cipher.init(Cipher.DECRYPT_MODE,
                    SecretKeyFactory.getInstance(algorithm).generateSecret(new PBEKeySpec(password)),
                    info.getAlgParameters());
            spec = info.getKeySpec(cipher);
        }
        InvalidKeySpecException first = null;
        for (String algorithm : new String[] {"RSA", "DSA", "EC"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (InvalidKeySpecException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        throw new SslConfigException("Private key could not be loaded", first);
    }

    /**
     * The DER bytes of every {@code -----BEGIN ...<label>...-----} entry, in order. The label may be preceded by
     * other words (so "PRIVATE KEY" also finds "ENCRYPTED PRIVATE KEY") and its spaces may be any whitespace.
     */
    static List<byte[]> entries(String pem, String label) {
        List<byte[]> out = new ArrayList<>();
        String wanted = label.replace(" ", "");
        int pos = 0;
        while (true) {
            int begin = pem.indexOf("-----BEGIN", pos);
            if (begin < 0) {
                return out;
            }
            int beginEnd = pem.indexOf("-----", begin + "-----BEGIN".length());
            if (beginEnd < 0) {
                return out;
            }
            String beginLabel = pem.substring(begin + "-----BEGIN".length(), beginEnd);
            int end = pem.indexOf("-----END", beginEnd + 5);
            if (end < 0) {
                return out;
            }
            int endClose = pem.indexOf("-----", end + "-----END".length());
            pos = endClose < 0 ? pem.length() : endClose + 5;
            if (!beginLabel.replaceAll("\\s", "").endsWith(wanted)) {
                continue;
            }
            StringBuilder base64 = new StringBuilder();
            for (String line : pem.substring(beginEnd + 5, end).split("\\R")) {
                if (!line.contains(":")) { // encapsulated headers (Proc-Type:, DEK-Info:) are not base64
                    base64.append(line.replaceAll("\\s", ""));
                }
            }
            try {
                out.add(Base64.getDecoder().decode(base64.toString()));
            } catch (IllegalArgumentException e) {
                throw new SslConfigException("Invalid base64 in a PEM " + label + " entry");
            }
        }
    }
}
