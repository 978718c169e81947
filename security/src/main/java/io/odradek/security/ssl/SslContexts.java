package io.odradek.security.ssl;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds TLS contexts from {@link SslSettings} the way Kafka's DefaultSslEngineFactory does: key managers from the
 * keystore ({@code ssl.keymanager.algorithm}), trust managers from the truststore or the JDK's default CAs
 * ({@code ssl.trustmanager.algorithm}), {@code SSLContext.getInstance(ssl.protocol[, ssl.provider])}, then the enabled
 * protocols, cipher suites and client authentication on every engine. Servers use OpenSSL through netty-tcnative
 * when it loads (unless {@code ssl.provider} names a JDK provider or {@code odradek.ssl.engine=jdk}), the JDK's
 * engine otherwise; clients (inter-broker, tests) use the JDK.
 */
public final class SslContexts {
    private SslContexts() {
    }

    /** A server context, its stores and the engine serving it (one generation; see {@link ServerSsl} for reloads). */
    public record Server(SslContext context, SslStore keystore, SslStore truststore, String engine) {
    }

    /** A server context for {@code settings}; SslConfigException for keys that cannot make one. */
    public static Server server(SslSettings settings) {
        SslStore keystore = SslStore.keystore(settings.keystoreType(), settings.keystoreLocation(),
                settings.keystorePassword(), settings.keyPassword(), settings.keystoreKey(),
                settings.keystoreCertificateChain());
        if (keystore == null) {
            throw new SslConfigException("An SSL listener needs a keystore: set ssl.keystore.location (with "
                    + "ssl.keystore.password), or ssl.keystore.type=PEM with ssl.keystore.key and "
                    + "ssl.keystore.certificate.chain");
        }
        SslStore truststore = truststore(settings);
        KeyManagerFactory kmf = keyManagers(settings, keystore);
        TrustManagerFactory tmf = trustManagers(settings, truststore);
        SSLContext jdk = jdkContext(settings, kmf.getKeyManagers(), tmf);
        ClientAuth clientAuth = switch (settings.clientAuth()) {
            case REQUIRED -> ClientAuth.REQUIRE;
            case REQUESTED -> ClientAuth.OPTIONAL;
            case NONE -> ClientAuth.NONE;
        };
        String[] protocols = settings.enabledProtocols().isEmpty() ? null
                : settings.enabledProtocols().toArray(String[]::new);
        try {
            if (useOpenSsl(settings)) {
                SslContext context = SslContextBuilder.forServer(kmf)
                        .sslProvider(SslProvider.OPENSSL)
                        .trustManager(tmf)
                        .clientAuth(clientAuth)
                        .protocols(protocols)
                        .ciphers(settings.cipherSuites().isEmpty() ? null : settings.cipherSuites())
                        .build();
                return new Server(context, keystore, truststore, "OpenSSL (" + OpenSsl.versionString() + ")");
            }
            // The JDK engine's own defaults when no suites are given, as Kafka (Netty would narrow them).
            List<String> ciphers = settings.cipherSuites().isEmpty()
                    ? Arrays.asList(jdk.getDefaultSSLParameters().getCipherSuites()) : settings.cipherSuites();
            SslContext context = new JdkSslContext(jdk, false, ciphers, IdentityCipherSuiteFilter.INSTANCE, null,
                    clientAuth, protocols, false);
            return new Server(context, keystore, truststore, "JDK (" + jdk.getProvider().getName() + ")");
        } catch (SSLException | IllegalArgumentException e) {
            throw new SslConfigException("Cannot create the SSL context (" + settings + ")", e);
        }
    }

    /** A JDK client context: the keystore's certificate when one is set (mutual TLS), the truststore's CAs. */
    public static SSLContext client(SslSettings settings) {
        SslStore keystore = SslStore.keystore(settings.keystoreType(), settings.keystoreLocation(),
                settings.keystorePassword(), settings.keyPassword(), settings.keystoreKey(),
                settings.keystoreCertificateChain());
        KeyManager[] keyManagers = keystore == null ? null : keyManagers(settings, keystore).getKeyManagers();
        return jdkContext(settings, keyManagers, trustManagers(settings, truststore(settings)));
    }

    /** The engine {@link #server} picks for {@code settings}, without building anything. */
    public static boolean useOpenSsl(SslSettings settings) {
        return switch (settings.engine()) {
            case JDK -> false;
            case OPENSSL -> {
                if (!OpenSsl.isAvailable()) {
                    throw new SslConfigException("odradek.ssl.engine=openssl, but OpenSSL (netty-tcnative) is not "
                            + "available here", OpenSsl.unavailabilityCause());
                }
                yield true;
            }
            case AUTO -> settings.provider() == null && OpenSsl.isAvailable();
        };
    }

    static SslStore truststore(SslSettings settings) {
        return SslStore.truststore(settings.truststoreType(), settings.truststoreLocation(),
                settings.truststorePassword(), settings.truststoreCertificates());
    }

    private static KeyManagerFactory keyManagers(SslSettings settings, SslStore keystore) {
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(settings.keyManagerAlgorithm());
            kmf.init(keystore.keyStore(), keystore.keyPassword());
            return kmf;
        } catch (GeneralSecurityException e) {
            throw new SslConfigException("Cannot use the SSL keystore " + keystore + " with key manager algorithm "
                    + settings.keyManagerAlgorithm() + " (check ssl.key.password)", e);
        }
    }

    private static TrustManagerFactory trustManagers(SslSettings settings, SslStore truststore) {
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(settings.trustManagerAlgorithm());
            tmf.init(truststore == null ? null : truststore.keyStore());
            return tmf;
        } catch (GeneralSecurityException e) {
            throw new SslConfigException("Cannot use the SSL truststore " + truststore + " with trust manager "
                    + "algorithm " + settings.trustManagerAlgorithm(), e);
        }
    }

    private static SSLContext jdkContext(SslSettings settings, KeyManager[] keyManagers, TrustManagerFactory tmf) {
        try {
            SSLContext context = settings.provider() != null
                    ? SSLContext.getInstance(settings.protocol(), settings.provider())
                    : SSLContext.getInstance(settings.protocol());
            SecureRandom random = settings.secureRandomImplementation() == null ? null
                    : SecureRandom.getInstance(settings.secureRandomImplementation());
            context.init(keyManagers, tmf.getTrustManagers(), random);
            return context;
        } catch (GeneralSecurityException e) {
            throw new SslConfigException("Cannot create an SSL context for ssl.protocol " + settings.protocol()
                    + (settings.provider() == null ? "" : " and ssl.provider " + settings.provider()), e);
        }
    }
}
