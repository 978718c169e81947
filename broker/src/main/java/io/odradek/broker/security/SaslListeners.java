package io.odradek.broker.security;

import io.odradek.broker.config.ConfigException;
import io.odradek.broker.config.ListenerConfig;
import io.odradek.replication.fetcher.ClientSecurity;
import io.odradek.replication.security.SecurityMetadataStore;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.sasl.JaasConfig;
import io.odradek.security.sasl.OAuthBearerServer;
import io.odradek.security.sasl.PlainClient;
import io.odradek.security.sasl.PlainServer;
import io.odradek.security.sasl.SaslClientMechanism;
import io.odradek.security.sasl.SaslServerMechanism;
import io.odradek.security.sasl.ScramClient;
import io.odradek.security.sasl.ScramServer;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * SASL for listeners (issue 10, sasl part): the server side per listener, the inter-broker client side.
 *
 * <p>Keys, resolved as Kafka does: {@code sasl.enabled.mechanisms} (listener-prefixable; Kafka's default GSSAPI is
 * refused: Odradek does not do Kerberos), per mechanism the JAAS entry
 * {@code listener.name.<l>.<mechanism>.sasl.jaas.config}, else the {@code <l>.KafkaServer} or {@code KafkaServer}
 * section of the file named by the system property {@code java.security.auth.login.config};
 * {@code connections.max.reauth.ms} (also {@code listener.name.<l>.<mechanism>.connections.max.reauth.ms});
 * {@code sasl.server.max.receive.size}. PLAIN checks the entry's {@code user_<name>} options; SCRAM reads the
 * credentials in the cluster metadata at each login; OAUTHBEARER validates unsecured JWS tokens with the entry's
 * {@code unsecuredValidator*} options (a custom {@code oauthbearer.sasl.server.callback.handler.class}, e.g. Kafka's
 * JWKS validator, is refused at start).
 */
public final class SaslListeners {
    private static final List<String> SUPPORTED = List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER");
    private static final String LOGIN_CONFIG_PROPERTY = "java.security.auth.login.config";

    private SaslListeners() {
    }

    /**
     * The SASL set-up of a SASL_PLAINTEXT or SASL_SSL listener from its keys ({@code sasl.enabled.mechanisms},
     * per-mechanism JAAS configs, {@code connections.max.reauth.ms}...), SCRAM credentials read from {@code store}.
     * ConfigException (naming the key, never a value) when the set-up cannot work.
     */
    public static SaslServerSettings serverSettings(ListenerConfig config, SecurityMetadataStore store) {
        List<String> mechanisms = enabledMechanisms(config);
        Map<String, Supplier<SaslServerMechanism>> factories = new LinkedHashMap<>();
        Map<String, Long> reauth = new LinkedHashMap<>();
        long listenerReauth = longKey(config, "connections.max.reauth.ms", config.get("connections.max.reauth.ms", "0"));
        for (String mechanism : mechanisms) {
            JaasConfig.Entry jaas = serverJaas(config, mechanism);
            factories.put(mechanism, serverFactory(config, mechanism, jaas, store));
            String own = config.own(mechanism.toLowerCase(Locale.ROOT) + ".connections.max.reauth.ms");
            reauth.put(mechanism, own == null ? listenerReauth
                    : longKey(config, mechanism.toLowerCase(Locale.ROOT) + ".connections.max.reauth.ms", own));
        }
        int maxReceive = (int) longKey(config, "sasl.server.max.receive.size",
                config.get("sasl.server.max.receive.size", "524288"));
        return new Settings(List.copyOf(mechanisms), factories, listenerReauth, reauth, maxReceive);
    }

    private record Settings(List<String> enabledMechanisms, Map<String, Supplier<SaslServerMechanism>> factories,
            long maxReauthMs, Map<String, Long> reauthByMechanism, int maxReceiveSize) implements SaslServerSettings {
        @Override
        public SaslServerMechanism newServer(String mechanism) {
            Supplier<SaslServerMechanism> f = factories.get(mechanism);
            return f == null ? null : f.get();
        }

        @Override
        public long maxReauthMs(String mechanism) {
            return reauthByMechanism.getOrDefault(mechanism, maxReauthMs);
        }
    }

    private static List<String> enabledMechanisms(ListenerConfig config) {
        List<String> mechanisms = new ArrayList<>();
        for (String m : config.get("sasl.enabled.mechanisms", "GSSAPI").split(",")) {
            if (!m.isBlank()) {
                mechanisms.add(m.trim());
            }
        }
        if (mechanisms.contains("GSSAPI")) {
            throw new ConfigException("Listener " + config.name() + " has SASL mechanism GSSAPI enabled (Kafka's default"
                    + " for sasl.enabled.mechanisms): Odradek does not support Kerberos. Set sasl.enabled.mechanisms (or "
                    + config.prefix() + "sasl.enabled.mechanisms) to some of " + String.join(", ", SUPPORTED));
        }
        for (String m : mechanisms) {
            if (!SUPPORTED.contains(m)) {
                throw new ConfigException("Listener " + config.name() + ": unsupported SASL mechanism " + m
                        + " in sasl.enabled.mechanisms (supported: " + String.join(", ", SUPPORTED) + ")");
            }
        }
        if (mechanisms.isEmpty()) {
            throw new ConfigException("Listener " + config.name() + " uses " + config.protocol()
                    + " but sasl.enabled.mechanisms is empty");
        }
        return mechanisms;
    }

    private static Supplier<SaslServerMechanism> serverFactory(ListenerConfig config, String mechanism,
            JaasConfig.Entry jaas, SecurityMetadataStore store) {
        switch (mechanism) {
            case "PLAIN":
                // As Kafka's PlainServerCallbackHandler: user_* options count only in a PlainLoginModule entry;
                // without one every PLAIN login fails.
                if (!jaas.loginModule().equals(loginModule("PLAIN"))) {
                    return () -> new PlainServer(user -> null);
                }
                return () -> PlainServer.fromJaas(jaas);
            case "OAUTHBEARER": {
                String handler = config.own("oauthbearer.sasl.server.callback.handler.class");
                if (handler != null && !handler.isBlank()) {
                    throw new ConfigException(config.prefix() + "oauthbearer.sasl.server.callback.handler.class is "
                            + "not supported: Odradek validates OAUTHBEARER tokens only as Kafka's unsecured JWS "
                            + "validator does (for development)");
                }
                OAuthBearerServer.Options options;
                try {
                    options = OAuthBearerServer.Options.fromJaas(jaas);
                } catch (IllegalArgumentException e) {
                    throw new ConfigException(config.prefix() + "oauthbearer.sasl.jaas.config: " + e.getMessage());
                }
                return () -> new OAuthBearerServer(options, System::currentTimeMillis);
            }
            default: {
                ScramMechanism scram = ScramMechanism.forMechanismName(mechanism);
                return () -> new ScramServer(scram, user -> credential(store, user, scram));
            }
        }
    }

    private static ScramCredential credential(SecurityMetadataStore store, String user, ScramMechanism mechanism) {
        Map<ScramMechanism, ScramCredential> forUser = store.scramCredentials().get(user);
        return forUser == null ? null : forUser.get(mechanism);
    }

    /**
     * The JAAS entry for {@code mechanism} on this listener: {@code listener.name.<l>.<mechanism>.sasl.jaas.config},
     * else the login config file's {@code <l>.KafkaServer} then {@code KafkaServer} section (the entry of the
     * mechanism's login module when there are several).
     */
    static JaasConfig.Entry serverJaas(ListenerConfig config, String mechanism) {
        String key = mechanism.toLowerCase(Locale.ROOT) + ".sasl.jaas.config";
        String value = config.own(key);
        if (value != null) {
            try {
                return JaasConfig.parseSingle(value);
            } catch (IllegalArgumentException e) {
                throw new ConfigException("Invalid " + config.prefix() + key + ": " + e.getMessage());
            }
        }
        String listenerSection = config.name().toLowerCase(Locale.ROOT) + ".KafkaServer";
        String file = System.getProperty(LOGIN_CONFIG_PROPERTY);
        if (file == null || file.isBlank()) {
            throw new ConfigException("Could not find a 'KafkaServer' or '" + listenerSection + "' entry in the JAAS "
                    + "configuration. System property '" + LOGIN_CONFIG_PROPERTY + "' is not set (or set "
                    + config.prefix() + key + ")");
        }
        Map<String, List<JaasConfig.Entry>> sections;
        try {
            sections = JaasConfig.parseFile(Files.readString(Path.of(file)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the JAAS file " + file, e);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("Invalid JAAS file " + file + ": " + e.getMessage());
        }
        List<JaasConfig.Entry> entries = sections.getOrDefault(listenerSection, sections.get("KafkaServer"));
        if (entries == null || entries.isEmpty()) {
            throw new ConfigException("Could not find a 'KafkaServer' or '" + listenerSection
                    + "' entry in the JAAS configuration " + file);
        }
        String module = loginModule(mechanism);
        return entries.stream().filter(e -> e.loginModule().equals(module)).findFirst().orElse(entries.get(0));
    }

    private static String loginModule(String mechanism) {
        return switch (mechanism) {
            case "PLAIN" -> "org.apache.kafka.common.security.plain.PlainLoginModule";
            case "OAUTHBEARER" -> "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";
            default -> "org.apache.kafka.common.security.scram.ScramLoginModule";
        };
    }

    private static long longKey(ListenerConfig config, String key, String value) {
        try {
            long v = Long.parseLong(value.trim());
            if (v < 0) {
                throw new ConfigException("Invalid value " + value + " for configuration " + config.prefix() + key
                        + ": Value must be at least 0");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new ConfigException("Invalid value " + value + " for configuration " + config.prefix() + key
                    + ": Not a number of type LONG");
        }
    }

    /**
     * How this broker connects to other brokers' inter-broker listener {@code interBroker}: TLS for SSL and
     * SASL_SSL, SASL with {@code sasl.mechanism.inter.broker.protocol} and the username / password of the
     * listener's JAAS entry for that mechanism (PLAIN or SCRAM; Kafka's default GSSAPI and OAUTHBEARER are refused).
     */
    public static ClientSecurity interBroker(ListenerConfig interBroker, String saslMechanism) {
        SecurityProtocol protocol = interBroker.protocol();
        if (protocol == SecurityProtocol.PLAINTEXT) {
            return ClientSecurity.PLAINTEXT;
        }
        TlsListeners.TlsConnector tls = protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL
                ? TlsListeners.connector(interBroker) : null;
        if (protocol == SecurityProtocol.SSL) {
            return new SaslClientSecurity(tls, null, null);
        }
        String mechanism = saslMechanism == null || saslMechanism.isBlank() ? "GSSAPI" : saslMechanism.trim();
        if (!mechanism.equals("PLAIN") && ScramMechanism.forMechanismName(mechanism) == null) {
            throw new ConfigException("sasl.mechanism.inter.broker.protocol " + mechanism + " is not supported for "
                    + "inter-broker connections (use PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512)");
        }
        JaasConfig.Entry jaas = serverJaas(interBroker, mechanism);
        String username = jaas.option("username");
        String password = jaas.option("password");
        if (username == null || password == null) {
            throw new ConfigException("The JAAS config of mechanism " + mechanism + " on the inter-broker listener "
                    + interBroker.name() + " must have the options username and password (the broker's own login)");
        }
        ScramMechanism scram = ScramMechanism.forMechanismName(mechanism);
        Supplier<SaslClientMechanism> clients = scram == null ? () -> new PlainClient(username, password)
                : () -> new ScramClient(scram, username, password);
        return new SaslClientSecurity(tls, mechanism, clients);
    }
}
