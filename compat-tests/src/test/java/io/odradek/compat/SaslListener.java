package io.odradek.compat;

import io.odradek.security.TestCertificates;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;

/**
 * A broker with one SASL listener (SASL_SSL or SASL_PLAINTEXT) set up as Kafka's documentation sets one up: every
 * key prefixed with {@code listener.name.<listener>.}, the TLS keystore made by {@link TestCertificates} at test
 * time, PLAIN users in the JAAS config, SCRAM users made through {@code Admin.alterUserScramCredentials}, the
 * listener also the inter-broker one (PLAIN as user {@link #ADMIN}). Clients log in with the settings made here.
 */
public final class SaslListener {
    public static final String PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
    public static final String SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";
    public static final String OAUTH_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";
    /** The PLAIN user the harness and the inter-broker client log in as. */
    public static final String ADMIN = "admin";
    public static final String ADMIN_PASSWORD = "admin-secret";
    /** A PLAIN user for the clients under test. */
    public static final String ALICE = "alice";
    public static final String ALICE_PASSWORD = "alice-secret";

    private static final TestCertificates CERTS = TestCertificates.shared();

    private SaslListener() {
    }

    /** The test CA every SASL_SSL client trusts. */
    public static TestCertificates certificates() {
        return CERTS;
    }

    /** Broker configs for one listener named after {@code protocol} ("SASL_SSL" or "SASL_PLAINTEXT"). */
    public static Map<String, String> brokerConfig(String protocol) {
        String prefix = "listener.name." + protocol.toLowerCase(Locale.ROOT) + ".";
        Map<String, String> config = new HashMap<>();
        config.put("listeners", protocol + "://127.0.0.1:0");
        config.put("inter.broker.listener.name", protocol);
        config.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        config.put(prefix + "sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512,OAUTHBEARER");
        config.put(prefix + "plain.sasl.jaas.config", PLAIN_MODULE + " required username=\"" + ADMIN
                + "\" password=\"" + ADMIN_PASSWORD + "\" user_" + ADMIN + "=\"" + ADMIN_PASSWORD + "\" user_" + ALICE
                + "=\"" + ALICE_PASSWORD + "\";");
        config.put(prefix + "scram-sha-256.sasl.jaas.config", SCRAM_MODULE + " required;");
        config.put(prefix + "scram-sha-512.sasl.jaas.config", SCRAM_MODULE + " required;");
        config.put(prefix + "oauthbearer.sasl.jaas.config", OAUTH_MODULE + " required;");
        config.put("group.initial.rebalance.delay.ms", "0");
        if (protocol.equals("SASL_SSL")) {
            CERTS.server().keystoreConfig("PKCS12").forEach((k, v) -> config.put(prefix + k, v));
        }
        return config;
    }

    /** A Java client's settings to log in on the listener with {@code mechanism} and this JAAS config. */
    public static Map<String, Object> client(String protocol, String mechanism, String jaas) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol);
        config.put(SaslConfigs.SASL_MECHANISM, mechanism);
        config.put(SaslConfigs.SASL_JAAS_CONFIG, jaas);
        if (protocol.equals("SASL_SSL")) {
            config.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
            config.put(SslConfigs.SSL_TRUSTSTORE_CERTIFICATES_CONFIG, CERTS.caPem());
        }
        return config;
    }

    public static Map<String, Object> plain(String protocol, String user, String password) {
        return client(protocol, "PLAIN", PLAIN_MODULE + " required username=\"" + user + "\" password=\"" + password
                + "\";");
    }

    public static Map<String, Object> scram(String protocol, String mechanism, String user, String password) {
        return client(protocol, mechanism, SCRAM_MODULE + " required username=\"" + user + "\" password=\""
                + password + "\";");
    }

    /** Kafka's unsecured OAUTHBEARER login: the client makes its own unsigned token for {@code subject}. */
    public static Map<String, Object> oauth(String protocol, String subject) {
        return client(protocol, "OAUTHBEARER", OAUTH_MODULE + " required unsecuredLoginStringClaim_sub=\"" + subject
                + "\";");
    }

    /** An Admin client logged in as {@link #ADMIN} with PLAIN, closed with the broker's other clients. */
    public static Admin admin(OdradekBroker broker, String protocol) {
        return admin(broker, plain(protocol, ADMIN, ADMIN_PASSWORD));
    }

    /** An Admin client with these settings (a login, a client certificate), closed with the broker's clients. */
    public static Admin admin(OdradekBroker broker, Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return broker.track(Admin.create(config));
    }

    public static void createTopic(OdradekBroker broker, String protocol, String topic, int partitions) {
        createTopic(admin(broker, protocol), topic, partitions);
    }

    public static void createTopic(Admin admin, String topic, int partitions) {
        OdradekBroker.await(admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all());
    }

    /**
     * Gives {@code user} a SCRAM credential (4096 iterations) through AlterUserScramCredentials; one mechanism per
     * request, as Kafka refuses two for the same user in one request.
     */
    public static void addScramUser(OdradekBroker broker, String protocol, String mechanism, String user,
            String password) {
        ScramMechanism m = ScramMechanism.fromMechanismName(mechanism);
        OdradekBroker.await(admin(broker, protocol).alterUserScramCredentials(List.of(
                new UserScramCredentialUpsertion(user, new ScramCredentialInfo(m, 4096), password))).all());
    }
}
