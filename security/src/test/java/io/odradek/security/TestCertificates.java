package io.odradek.security;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.PBEParameterSpec;

/**
 * Keys and certificates for TLS tests, made at test time with the JDK's keytool (no secrets committed): a CA, a
 * server certificate for {@code localhost} / {@code 127.0.0.1} and client certificates with a common name the test
 * chooses, all signed by the CA, as JKS and PKCS12 keystores, PEM files and PEM strings, in a directory of the test's.
 *
 * <p>Keys are EC P-256 (quick to make: keytool runs once per key, request and signature, about half a second each).
 * Every store and key has the password {@link #PASSWORD}, a throwaway test string. Typical use:
 *
 * <pre>{@code
 * TestCertificates certs = TestCertificates.shared();           // one CA + server per test JVM
 * Map<String, String> broker = certs.server().keystoreConfig("PKCS12");
 * Map<String, String> client = certs.truststoreConfig("JKS");  // trusts the CA
 * client.putAll(certs.client("alice").keystoreConfig("PEM"));  // mutual TLS as CN=alice,OU=Test,O=Odradek
 * TestCertificates other = TestCertificates.create(tempDir);   // another CA: its certificates are not trusted
 * }</pre>
 */
public final class TestCertificates {
    /** The password of every store and key made here (a test string, not a secret). */
    public static final String PASSWORD = "test-password";
    /** The alias of the key entry in every keystore made here. */
    public static final String KEY_ALIAS = "key";
    /** The server certificate's subject and names (SAN), as clients dial a test broker. */
    public static final String SERVER_DN = "CN=localhost,OU=Test,O=Odradek";
    public static final String SERVER_SAN = "IP:127.0.0.1,DNS:localhost";

    private static final String CA_ALIAS = "ca";
    private static TestCertificates shared;

    private final Path dir;
    private final Path caKeystore;
    private final X509Certificate caCertificate;
    private final Identity server;
    private final Map<String, Identity> clients = new ConcurrentHashMap<>();

    private TestCertificates(Path dir) {
        this.dir = dir;
        this.caKeystore = dir.resolve("ca.p12");
        String caName = "CN=Odradek Test CA " + Long.toHexString(new SecureRandom().nextLong()) + ",O=Odradek";
        keytool("-genkeypair", "-alias", CA_ALIAS, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", caName,
                "-ext", "BC:c=ca:true", "-ext", "KU:c=keyCertSign,cRLSign", "-validity", "3650",
                "-keystore", caKeystore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD,
                "-keypass", PASSWORD);
        try {
            this.caCertificate = (X509Certificate) load(caKeystore, "PKCS12").getCertificate(CA_ALIAS);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the CA keytool made", e);
        }
        write(dir.resolve("ca.pem"), pem("CERTIFICATE", encoded(caCertificate)));
        writeTruststore("JKS");
        writeTruststore("PKCS12");
        this.server = newIdentity("server", SERVER_DN, SERVER_SAN);
    }

    /** A new CA and server certificate in {@code dir} (a different CA from every other instance). */
    public static TestCertificates create(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new TestCertificates(dir);
    }

    /** One set per test JVM (in a temp dir removed at exit), for tests that need no CA of their own. */
    public static synchronized TestCertificates shared() {
        if (shared == null) {
            try {
                Path dir = Files.createTempDirectory("odradek-test-certs");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(dir)));
                shared = create(dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return shared;
    }

    public Path dir() {
        return dir;
    }

    /** The server's key and certificate: {@link #SERVER_DN}, valid for {@code localhost} and {@code 127.0.0.1}. */
    public Identity server() {
        return server;
    }

    /** A client certificate with subject {@code CN=<commonName>,OU=Test,O=Odradek}, made once per name. */
    public Identity client(String commonName) {
        return clients.computeIfAbsent(commonName,
                cn -> newIdentity("client-" + safeFileName(cn), "CN=" + cn + ",OU=Test,O=Odradek", null));
    }

    /** A key and certificate signed by this CA with any subject and, when not null, subject alternative names. */
    public Identity identity(String fileName, String distinguishedName, String subjectAltNamesOrNull) {
        return newIdentity(safeFileName(fileName), distinguishedName, subjectAltNamesOrNull);
    }

    public X509Certificate caCertificate() {
        return caCertificate;
    }

    /** The CA certificate as PEM text (what {@code ssl.truststore.certificates} takes). */
    public String caPem() {
        return pem("CERTIFICATE", encoded(caCertificate));
    }

    /** A truststore holding the CA certificate: "JKS" and "PKCS12" (password {@link #PASSWORD}), "PEM" (no password). */
    public Path truststore(String type) {
        return switch (type.toUpperCase(Locale.ROOT)) {
            case "JKS" -> dir.resolve("truststore.jks");
            case "PKCS12" -> dir.resolve("truststore.p12");
            case "PEM" -> dir.resolve("ca.pem");
            default -> throw new IllegalArgumentException("no truststore of type " + type);
        };
    }

    /**
     * Kafka's ssl.truststore.* keys trusting this CA: a file for JKS and PKCS12 (with password), the inline
     * certificate for PEM ({@code ssl.truststore.certificates}).
     */
    public Map<String, String> truststoreConfig(String type) {
        Map<String, String> config = new LinkedHashMap<>();
        String upper = type.toUpperCase(Locale.ROOT);
        config.put("ssl.truststore.type", upper);
        if (upper.equals("PEM")) {
            config.put("ssl.truststore.certificates", caPem());
        } else {
            config.put("ssl.truststore.location", truststore(upper).toString());
            config.put("ssl.truststore.password", PASSWORD);
        }
        return config;
    }

    /** A key with its certificate chain (own certificate, then the CA's), in every form Kafka reads. */
    public final class Identity {
        private final String fileName;
        private final String distinguishedName;
        private final PrivateKey privateKey;
        private final X509Certificate[] chain;

        private Identity(String fileName, String distinguishedName, PrivateKey privateKey, X509Certificate[] chain) {
            this.fileName = fileName;
            this.distinguishedName = distinguishedName;
            this.privateKey = privateKey;
            this.chain = chain;
        }

        /** The subject as given when it was made, e.g. {@code CN=alice,OU=Test,O=Odradek}. */
        public String distinguishedName() {
            return distinguishedName;
        }

        public X509Certificate certificate() {
            return chain[0];
        }

        /**
         * The keystore file: "JKS" and "PKCS12" (store and key password {@link #PASSWORD}, alias {@link #KEY_ALIAS}),
         * "PEM" (unencrypted PKCS#8 key followed by the certificate chain, as Kafka's PEM keystore files).
         */
        public Path keystore(String type) {
            return switch (type.toUpperCase(Locale.ROOT)) {
                case "JKS" -> dir.resolve(fileName + ".jks");
                case "PKCS12" -> dir.resolve(fileName + ".p12");
                case "PEM" -> dir.resolve(fileName + ".pem");
                default -> throw new IllegalArgumentException("no keystore of type " + type);
            };
        }

        /** The certificate chain as PEM text ({@code ssl.keystore.certificate.chain}). */
        public String certificateChainPem() {
            StringBuilder pem = new StringBuilder();
            for (X509Certificate c : chain) {
                pem.append(pem("CERTIFICATE", encoded(c)));
            }
            return pem.toString();
        }

        /** The private key as unencrypted PKCS#8 PEM text ({@code ssl.keystore.key} without {@code ssl.key.password}). */
        public String privateKeyPem() {
            return pem("PRIVATE KEY", privateKey.getEncoded());
        }

        /**
         * The private key as encrypted PKCS#8 PEM text, for {@code ssl.keystore.key} with {@code ssl.key.password}.
         * PBEWithSHA1AndDESede: a PBE scheme the JDK both writes and reads by name, as Kafka's PEM reader needs.
         */
        public String encryptedPrivateKeyPem(String password) {
            try {
                String algorithm = "PBEWithSHA1AndDESede";
                byte[] salt = new byte[16];
                new SecureRandom().nextBytes(salt);
                Cipher cipher = Cipher.getInstance(algorithm);
                cipher.init(Cipher.ENCRYPT_MODE, SecretKeyFactory.getInstance(algorithm)
                        .generateSecret(new PBEKeySpec(password.toCharArray())), new PBEParameterSpec(salt, 10_000));
                byte[] encrypted = cipher.doFinal(privateKey.getEncoded());
                AlgorithmParameters params = cipher.getParameters();
                return pem("ENCRYPTED PRIVATE KEY", new EncryptedPrivateKeyInfo(params, encrypted).getEncoded());
            } catch (GeneralSecurityException | IOException e) {
                throw new IllegalStateException("cannot encrypt the test key", e);
            }
        }

        /**
         * Kafka's ssl.keystore.* keys for this identity: the file with store and key passwords for JKS and PKCS12;
         * for PEM the inline chain and unencrypted key ({@code ssl.keystore.certificate.chain}, {@code ssl.keystore.key}).
         */
        public Map<String, String> keystoreConfig(String type) {
            Map<String, String> config = new LinkedHashMap<>();
            String upper = type.toUpperCase(Locale.ROOT);
            config.put("ssl.keystore.type", upper);
            if (upper.equals("PEM")) {
                config.put("ssl.keystore.certificate.chain", certificateChainPem());
                config.put("ssl.keystore.key", privateKeyPem());
            } else {
                config.put("ssl.keystore.location", keystore(upper).toString());
                config.put("ssl.keystore.password", PASSWORD);
                config.put("ssl.key.password", PASSWORD);
            }
            return config;
        }

        @Override
        public String toString() {
            return distinguishedName;
        }
    }

    // ---- making them

    private Identity newIdentity(String fileName, String distinguishedName, String subjectAltNames) {
        Path p12 = dir.resolve(fileName + ".p12");
        Path csr = dir.resolve(fileName + ".csr");
        Path crt = dir.resolve(fileName + ".crt");
        deleteQuietly(p12);
        keytool("-genkeypair", "-alias", KEY_ALIAS, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", distinguishedName, "-validity", "3650", "-keystore", p12.toString(),
                "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-certreq", "-alias", KEY_ALIAS, "-keystore", p12.toString(), "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-file", csr.toString());
        List<String> sign = new ArrayList<>(List.of("-gencert", "-alias", CA_ALIAS, "-keystore", caKeystore.toString(),
                "-storetype", "PKCS12", "-storepass", PASSWORD, "-infile", csr.toString(), "-outfile", crt.toString(),
                "-rfc", "-validity", "3650", "-ext", "KU=digitalSignature,keyAgreement",
                "-ext", "EKU=serverAuth,clientAuth"));
        if (subjectAltNames != null) {
            sign.add("-ext");
            sign.add("SAN=" + subjectAltNames);
        }
        keytool(sign.toArray(String[]::new));
        try {
            PrivateKey key = (PrivateKey) load(p12, "PKCS12").getKey(KEY_ALIAS, PASSWORD.toCharArray());
            X509Certificate own;
            try (InputStream in = Files.newInputStream(crt)) {
                own = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            }
            X509Certificate[] chain = {own, caCertificate};
            for (String type : List.of("PKCS12", "JKS")) {
                KeyStore ks = KeyStore.getInstance(type);
                ks.load(null, null);
                ks.setKeyEntry(KEY_ALIAS, key, PASSWORD.toCharArray(), chain);
                store(ks, dir.resolve(fileName + (type.equals("JKS") ? ".jks" : ".p12")));
            }
            Identity identity = new Identity(fileName, distinguishedName, key, chain);
            write(dir.resolve(fileName + ".pem"), identity.privateKeyPem() + identity.certificateChainPem());
            Files.deleteIfExists(csr);
            return identity;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the key keytool made for " + distinguishedName, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void writeTruststore(String type) {
        try {
            KeyStore ks = KeyStore.getInstance(type);
            ks.load(null, null);
            ks.setCertificateEntry(CA_ALIAS, caCertificate);
            store(ks, truststore(type));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot write the test truststore", e);
        }
    }

    private static void store(KeyStore ks, Path file) throws GeneralSecurityException, IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, PASSWORD.toCharArray());
        }
    }

    private static KeyStore load(Path file, String type) {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore ks = KeyStore.getInstance(type);
            ks.load(in, PASSWORD.toCharArray());
            return ks;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot load " + file, e);
        }
    }

    /** Runs the JDK's keytool (a short-lived JVM: tiered C1 only, it starts faster) and fails with its output. */
    private static void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.add("-J-XX:TieredStopAtLevel=1");
        command.add("-J-XX:+UseSerialGC");
        command.add("-noprompt");
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool " + args[0] + " failed: "
                        + new String(output, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while keytool ran", e);
        }
    }

    private static byte[] encoded(Certificate certificate) {
        try {
            return certificate.getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    /** Parses PEM certificates (tests checking what a store holds). */
    public static List<X509Certificate> parseCertificates(String pem) {
        try {
            List<X509Certificate> certs = new ArrayList<>();
            for (Certificate c : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
                certs.add((X509Certificate) c);
            }
            return certs;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String safeFileName(String name) {
        return name.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static void deleteQuietly(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temp dir left behind is harmless
        }
    }
}
