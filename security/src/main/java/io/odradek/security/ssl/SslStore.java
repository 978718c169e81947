package io.odradek.security.ssl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.time.Instant;

/**
 * A keystore or truststore loaded from Kafka's keys, as Kafka's DefaultSslEngineFactory loads them: a JKS / PKCS12
 * (any type the JDK knows) file, a PEM file, or PEM text given inline. Remembers its file's modification time so a
 * changed file can be noticed ({@link #modified()}); inline PEM never changes.
 */
public final class SslStore {
    public static final String PEM = "PEM";

    private final KeyStore keyStore;
    private final char[] keyPassword;
    private final Path file;
    private final Long lastModifiedMs;

    private SslStore(KeyStore keyStore, char[] keyPassword, Path file, Long lastModifiedMs) {
        this.keyStore = keyStore;
        this.keyPassword = keyPassword;
        this.file = file;
        this.lastModifiedMs = lastModifiedMs;
    }

    /**
     * The keystore of {@code ssl.keystore.*} and {@code ssl.key.password}, null when none is configured (a client
     * without a certificate); Kafka's checks and messages for inconsistent keys.
     */
    static SslStore keystore(String type, String location, String password, String keyPassword, String inlineKey,
            String inlineChain) {
        if (inlineKey != null) {
            if (!PEM.equals(type)) {
                throw new SslConfigException("SSL private key can be specified only for PEM, but key store type is "
                        + type + ".");
            } else if (inlineChain == null) {
                throw new SslConfigException("SSL private key is specified, but certificate chain is not specified.");
            } else if (location != null) {
                throw new SslConfigException("Both SSL key store location and separate private key are specified.");
            } else if (password != null) {
                throw new SslConfigException("SSL key store password cannot be specified with PEM format, only key "
                        + "password may be specified.");
            }
            return pemKeystore(inlineChain, inlineKey, keyPassword, null, null);
        } else if (inlineChain != null) {
            throw new SslConfigException("SSL certificate chain is specified, but private key is not specified");
        } else if (PEM.equals(type) && location != null) {
            if (password != null) {
                throw new SslConfigException("SSL key store password cannot be specified with PEM format, only key "
                        + "password may be specified");
            }
            Path path = Path.of(location);
            Long modified = lastModified(path);
            String text = readPem(path, "keystore");
            return pemKeystore(text, text, keyPassword, path, modified);
        } else if (location == null && password != null) {
            throw new SslConfigException("SSL key store is not specified, but key store password is specified.");
        } else if (location != null && password == null) {
            throw new SslConfigException("SSL key store is specified, but key store password is not specified.");
        } else if (location != null) {
            Path path = Path.of(location);
            Long modified = lastModified(path);
            KeyStore ks = loadFile(path, type, password, "keystore");
            return new SslStore(ks, (keyPassword != null ? keyPassword : password).toCharArray(), path, modified);
        }
        return null;
    }

    /** The truststore of {@code ssl.truststore.*}; null when none is configured (the JDK's default CAs then). */
    static SslStore truststore(String type, String location, String password, String inlineCertificates) {
        if (inlineCertificates != null) {
            if (!PEM.equals(type)) {
                throw new SslConfigException("SSL trust store certs can be specified only for PEM, but trust store type is "
                        + type + ".");
            } else if (location != null) {
                throw new SslConfigException("Both SSL trust store location and separate trust certificates are specified.");
            } else if (password != null) {
                throw new SslConfigException("SSL trust store password cannot be specified for PEM format.");
            }
            return new SslStore(pemTruststore(inlineCertificates), null, null, null);
        } else if (PEM.equals(type) && location != null) {
            if (password != null) {
                throw new SslConfigException("SSL trust store password cannot be specified for PEM format.");
            }
            Path path = Path.of(location);
            Long modified = lastModified(path);
            try {
                return new SslStore(pemTruststore(readPem(path, "truststore")), null, path, modified);
            } catch (SslConfigException e) {
                throw new SslConfigException("Failed to load PEM SSL keystore " + location, e);
            }
        } else if (location == null && password != null) {
            throw new SslConfigException("SSL trust store is not specified, but trust store password is specified.");
        } else if (location != null) {
            Path path = Path.of(location);
            Long modified = lastModified(path);
            return new SslStore(loadFile(path, type, password, "truststore"), null, path, modified);
        }
        return null;
    }

    public KeyStore keyStore() {
        return keyStore;
    }

    char[] keyPassword() {
        return keyPassword;
    }

    /** The file it was read from, null for inline PEM. */
    public Path file() {
        return file;
    }

    /** Whether the file's modification time differs from when it was loaded (Kafka's check before a rebuild). */
    public boolean modified() {
        if (file == null) {
            return false;
        }
        Long now = lastModified(file);
        return now != null && !now.equals(lastModifiedMs);
    }

    @Override
    public String toString() {
        return file == null ? "SslStore(inline PEM)" : "SslStore(path=" + file + ", modificationTime="
                + (lastModifiedMs == null ? null : Instant.ofEpochMilli(lastModifiedMs)) + ")";
    }

    private static SslStore pemKeystore(String chain, String key, String keyPassword, Path file, Long modified) {
        char[] password = keyPassword == null ? null : keyPassword.toCharArray();
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            PrivateKey privateKey = PemReader.privateKey(key, password);
            Certificate[] certs = PemReader.certificates(chain);
            // An in-memory store needs some key password; an unencrypted PEM key has none.
            char[] entryPassword = password == null ? new char[0] : password;
            ks.setKeyEntry("kafka", privateKey, entryPassword, certs);
            return new SslStore(ks, entryPassword, file, modified);
        } catch (GeneralSecurityException | IOException | SslConfigException e) {
            if (file != null) {
                throw new SslConfigException("Failed to load PEM SSL keystore " + file, e);
            }
            throw new SslConfigException("Invalid PEM keystore configs", e);
        }
    }

    private static KeyStore pemTruststore(String pem) {
        try {
            KeyStore ts = KeyStore.getInstance("PKCS12");
            ts.load(null, null);
            Certificate[] certs = PemReader.certificates(pem);
            for (int i = 0; i < certs.length; i++) {
                ts.setCertificateEntry("kafka" + i, certs[i]);
            }
            return ts;
        } catch (SslConfigException e) {
            throw e;
        } catch (GeneralSecurityException | IOException e) {
            throw new SslConfigException("Invalid PEM truststore configs", e);
        }
    }

    private static KeyStore loadFile(Path path, String type, String password, String what) {
        try (InputStream in = Files.newInputStream(path)) {
            KeyStore ks = KeyStore.getInstance(type);
            // Without a password a truststore still loads, without its integrity check (as Kafka).
            ks.load(in, password == null ? null : password.toCharArray());
            return ks;
        } catch (NoSuchFileException e) {
            throw new SslConfigException("Failed to load SSL " + what + " " + path + " of type " + type
                    + ": no such file");
        } catch (GeneralSecurityException | IOException e) {
            throw new SslConfigException("Failed to load SSL " + what + " " + path + " of type " + type, e);
        }
    }

    private static String readPem(Path path, String what) {
        try {
            return Files.readString(path, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new SslConfigException("Failed to load PEM SSL " + what + " " + path, e);
        }
    }

    private static Long lastModified(Path path) {
        try {
            return Files.getLastModifiedTime(path).toMillis();
        } catch (IOException e) {
            return null;
        }
    }
}
