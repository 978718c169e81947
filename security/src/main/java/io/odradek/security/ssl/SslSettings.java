package io.odradek.security.ssl;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * Kafka's {@code ssl.*} keys for one listener or one client, parsed with Kafka 4.4's defaults (SslConfigs,
 * BrokerSecurityConfigs). Store passwords and inline PEM are kept only to load the stores and never printed.
 *
 * <p>Keys: {@code ssl.protocol} (TLSv1.3), {@code ssl.enabled.protocols} (TLSv1.2,TLSv1.3), {@code ssl.cipher.suites}
 * (the engine's defaults), {@code ssl.keystore.type} (JKS; PKCS12, PEM), {@code ssl.keystore.location},
 * {@code ssl.keystore.password}, {@code ssl.key.password}, {@code ssl.keystore.key}, {@code ssl.keystore.certificate.chain},
 * {@code ssl.truststore.type} (JKS), {@code ssl.truststore.location}, {@code ssl.truststore.password},
 * {@code ssl.truststore.certificates}, {@code ssl.keymanager.algorithm} / {@code ssl.trustmanager.algorithm} (the
 * JDK's defaults), {@code ssl.endpoint.identification.algorithm} (https; empty turns host name checks off),
 * {@code ssl.client.auth} (none; requested, required), {@code ssl.principal.mapping.rules} (DEFAULT),
 * {@code ssl.provider}, {@code ssl.secure.random.implementation} (JDK engine only), {@code ssl.allow.dn.changes} and
 * {@code ssl.allow.san.changes} (false: a reloaded keystore must keep its names). {@code ssl.engine.factory.class}
 * (a Kafka class) is refused. Odradek's own {@code odradek.ssl.engine}: auto (OpenSSL when netty-tcnative loads, the
 * JDK otherwise), openssl, jdk.
 */
public record SslSettings(String protocol, String provider, List<String> enabledProtocols, List<String> cipherSuites,
        String keystoreType, String keystoreLocation, String keystorePassword, String keyPassword, String keystoreKey,
        String keystoreCertificateChain, String truststoreType, String truststoreLocation, String truststorePassword,
        String truststoreCertificates, String keyManagerAlgorithm, String trustManagerAlgorithm,
        String endpointIdentificationAlgorithm, String secureRandomImplementation, ClientAuth clientAuth,
        String principalMappingRules, boolean allowDnChanges, boolean allowSanChanges, Engine engine) {

    public static final String DEFAULT_PROTOCOL = "TLSv1.3";
    public static final List<String> DEFAULT_ENABLED_PROTOCOLS = List.of("TLSv1.2", "TLSv1.3");
    public static final String ENGINE_KEY = "odradek.ssl.engine";

    /** {@code ssl.client.auth}. */
    public enum ClientAuth {
        REQUIRED, REQUESTED, NONE
    }

    /** Which TLS implementation serves a listener ({@code odradek.ssl.engine}). */
    public enum Engine {
        /** OpenSSL (BoringSSL through netty-tcnative) when it loads, else the JDK. */
        AUTO,
        OPENSSL,
        JDK
    }

    /** Reads the keys through {@code get} (key to value, null when unset: a listener's view, a client's map). */
    public static SslSettings from(Function<String, String> get) {
        if (blankToNull(get.apply("ssl.engine.factory.class")) != null) {
            throw SslConfigException.invalid("ssl.engine.factory.class", get.apply("ssl.engine.factory.class"),
                    "custom SSL engine factories (Kafka classes) are not supported; use the ssl.* keys");
        }
        String clientAuthText = get.apply("ssl.client.auth");
        ClientAuth clientAuth = ClientAuth.NONE;
        if (clientAuthText != null) {
            try {
                clientAuth = ClientAuth.valueOf(clientAuthText.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw SslConfigException.invalid("ssl.client.auth", clientAuthText,
                        "String must be one of: required, requested, none");
            }
        }
        String endpoint = get.apply("ssl.endpoint.identification.algorithm");
        String engineText = get.apply(ENGINE_KEY);
        Engine engine = Engine.AUTO;
        if (engineText != null && !engineText.isBlank()) {
            try {
                engine = Engine.valueOf(engineText.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw SslConfigException.invalid(ENGINE_KEY, engineText, "String must be one of: auto, openssl, jdk");
            }
        }
        return new SslSettings(
                orDefault(get.apply("ssl.protocol"), DEFAULT_PROTOCOL),
                blankToNull(get.apply("ssl.provider")),
                list(get.apply("ssl.enabled.protocols"), DEFAULT_ENABLED_PROTOCOLS),
                list(get.apply("ssl.cipher.suites"), List.of()),
                orDefault(get.apply("ssl.keystore.type"), "JKS"),
                blankToNull(get.apply("ssl.keystore.location")),
                get.apply("ssl.keystore.password"),
                get.apply("ssl.key.password"),
                blankToNull(get.apply("ssl.keystore.key")),
                blankToNull(get.apply("ssl.keystore.certificate.chain")),
                orDefault(get.apply("ssl.truststore.type"), "JKS"),
                blankToNull(get.apply("ssl.truststore.location")),
                get.apply("ssl.truststore.password"),
                blankToNull(get.apply("ssl.truststore.certificates")),
                orDefault(get.apply("ssl.keymanager.algorithm"), KeyManagerFactory.getDefaultAlgorithm()),
                orDefault(get.apply("ssl.trustmanager.algorithm"), TrustManagerFactory.getDefaultAlgorithm()),
                endpoint == null ? "https" : endpoint.trim(),
                blankToNull(get.apply("ssl.secure.random.implementation")),
                clientAuth,
                // Set to "" means no rules (every certificate refused, as Kafka), not the default.
                rulesOrDefault(get.apply("ssl.principal.mapping.rules")),
                bool(get, "ssl.allow.dn.changes"),
                bool(get, "ssl.allow.san.changes"),
                engine);
    }

    /** From a map of keys (a client's config, a test's). */
    public static SslSettings from(Map<String, String> config) {
        return from(config::get);
    }

    /** The same settings with another {@code ssl.client.auth} (SASL_SSL listeners without a listener override). */
    public SslSettings withClientAuth(ClientAuth auth) {
        return new SslSettings(protocol, provider, enabledProtocols, cipherSuites, keystoreType, keystoreLocation,
                keystorePassword, keyPassword, keystoreKey, keystoreCertificateChain, truststoreType, truststoreLocation,
                truststorePassword, truststoreCertificates, keyManagerAlgorithm, trustManagerAlgorithm,
                endpointIdentificationAlgorithm, secureRandomImplementation, auth, principalMappingRules, allowDnChanges,
                allowSanChanges, engine);
    }

    /** Whether clients check the server's host name against its certificate (https). */
    public boolean verifiesHostName() {
        return !endpointIdentificationAlgorithm.isEmpty();
    }

    /** Never the passwords or keys. */
    @Override
    public String toString() {
        return "SslSettings(protocol=" + protocol + ", enabledProtocols=" + enabledProtocols + ", keystore="
                + (keystoreLocation != null ? keystoreType + " " + keystoreLocation : keystoreKey != null ? "inline PEM" : "none")
                + ", truststore=" + (truststoreLocation != null ? truststoreType + " " + truststoreLocation
                        : truststoreCertificates != null ? "inline PEM" : "JDK default")
                + ", clientAuth=" + clientAuth.name().toLowerCase(Locale.ROOT) + ", engine=" + engine + ")";
    }

    /** Kafka's LIST parsing: comma separated, trimmed; an empty value is an empty list. */
    private static List<String> list(String value, List<String> defaultValue) {
        if (value == null) {
            return defaultValue;
        }
        if (value.isBlank()) {
            return List.of();
        }
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static boolean bool(Function<String, String> get, String key) {
        String value = get.apply(key);
        if (value == null) {
            return false;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw SslConfigException.invalid(key, value, "Expected value to be either true or false");
        };
    }

    private static String rulesOrDefault(String value) {
        return value == null ? SslPrincipalMapper.DEFAULT_RULES : value.trim();
    }

    private static String orDefault(String value, String defaultValue) {
        return value == null || value.isBlank() ? defaultValue : value.trim();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
