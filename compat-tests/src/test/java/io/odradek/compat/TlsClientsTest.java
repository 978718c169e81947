package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import io.odradek.security.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kafka-clients 4.4 against an Odradek SSL listener: one-way and mutual TLS with JKS, PKCS12 and PEM stores,
 * refusals the client reports as SslAuthenticationException, the client certificate's mapped name as the quota user,
 * and a keystore replaced on disk while the broker runs.
 */
class TlsClientsTest {
    private static final TestCertificates CERTS = TestCertificates.shared();

    @TempDir
    Path logDir;
    private Broker broker;
    private final Deque<AutoCloseable> clients = new ArrayDeque<>();

    @AfterEach
    void stop() throws Exception {
        while (!clients.isEmpty()) {
            clients.pop().close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private void start(Map<String, String> tls) throws InterruptedException {
        Map<String, String> config = new HashMap<>(tls);
        config.put("node.id", "1");
        config.put("listeners", "SSL://127.0.0.1:0");
        config.put("listener.security.protocol.map", "SSL:SSL");
        config.put("log.dirs", logDir.toString());
        broker = Broker.start(BrokerConfig.of(config));
    }

    private static Map<String, String> brokerStores(String type) {
        Map<String, String> config = new HashMap<>(CERTS.server().keystoreConfig(type));
        config.putAll(CERTS.truststoreConfig(type));
        return config;
    }

    /** A client's SSL settings: trusting the test CA, with {@code commonName}'s certificate unless it is null. */
    private static Map<String, Object> sslClient(String storeType, String commonName) {
        Map<String, Object> config = new HashMap<>(CERTS.truststoreConfig(storeType));
        if (commonName != null) {
            config.putAll(CERTS.client(commonName).keystoreConfig(storeType));
        }
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        return config;
    }

    private <T extends AutoCloseable> T track(T client) {
        clients.push(client);
        return client;
    }

    private String bootstrap() {
        return "localhost:" + broker.port();
    }

    private Admin admin(Map<String, Object> ssl) {
        Map<String, Object> config = new HashMap<>(ssl);
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 15_000);
        return track(Admin.create(config));
    }

    private KafkaProducer<String, String> producer(Map<String, Object> ssl) {
        Map<String, Object> config = new HashMap<>(ssl);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
        return track(new KafkaProducer<>(config, new StringSerializer(), new StringSerializer()));
    }

    private KafkaConsumer<String, String> consumer(Map<String, Object> ssl) {
        Map<String, Object> config = new HashMap<>(ssl);
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4 * 1024 * 1024);
        config.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 8 * 1024 * 1024);
        return track(new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer()));
    }

    private void createTopic(Map<String, Object> ssl, String topic, int partitions) throws Exception {
        admin(ssl).createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    }

    /** Produces {@code count} records of about {@code valueBytes} bytes and reads them all back, in order. */
    private void roundTrip(Map<String, Object> ssl, String topic, int count, int valueBytes) throws Exception {
        createTopic(ssl, topic, 1);
        KafkaProducer<String, String> producer = producer(ssl);
        List<String> sent = new ArrayList<>();
        String padding = "x".repeat(valueBytes);
        for (int i = 0; i < count; i++) {
            String value = i + ":" + padding;
            sent.add(value);
            producer.send(new ProducerRecord<>(topic, "key-" + i, value));
        }
        producer.flush();

        KafkaConsumer<String, String> consumer = consumer(ssl);
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        List<ConsumerRecord<String, String>> got = new ArrayList<>();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (got.size() < count && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(500)).forEach(got::add);
        }
        assertThat(got).extracting(ConsumerRecord::offset)
                .containsExactlyElementsOf(java.util.stream.LongStream.range(0, count).boxed().toList());
        assertThat(got).extracting(ConsumerRecord::key)
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, count).mapToObj(i -> "key-" + i).toList());
        assertThat(got).extracting(ConsumerRecord::value).containsExactlyElementsOf(sent);
    }

    @Test
    void oneWayTlsProducesAndConsumesSeveralMegabytesExactly() throws Exception {
        start(brokerStores("JKS"));
        // 4 MB: the consumer's fetches are file regions sent through the TLS chunking stage.
        roundTrip(sslClient("JKS", null), "tls-one-way", 2_000, 2_000);
    }

    @Test
    void mutualTlsWithPkcs12StoresProducesAndConsumesExactly() throws Exception {
        Map<String, String> config = brokerStores("PKCS12");
        config.put("ssl.client.auth", "required");
        start(config);
        roundTrip(sslClient("PKCS12", "alice"), "tls-mutual", 1_500, 3_000);
    }

    @Test
    void pemStoresOnBrokerAndClientWork() throws Exception {
        Map<String, String> config = brokerStores("PEM"); // inline ssl.keystore.key / certificate chain / CA
        config.put("ssl.client.auth", "required");
        start(config);
        roundTrip(sslClient("PEM", "pem-client"), "tls-pem", 200, 100);
    }

    @Test
    void clientThatDoesNotTrustTheBrokersCertificateGetsSslAuthenticationException(@TempDir Path otherCa)
            throws Exception {
        start(brokerStores("JKS"));
        Map<String, Object> untrusting = new HashMap<>(TestCertificates.create(otherCa).truststoreConfig("JKS"));
        untrusting.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        assertThatThrownBy(() -> admin(untrusting).describeCluster().nodes().get())
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(SslAuthenticationException.class)
                .hasMessageContaining("SSL handshake failed");
    }

    @Test
    void clientWithoutCertificateIsRefusedWhenClientAuthIsRequired() throws Exception {
        Map<String, String> config = brokerStores("JKS");
        config.put("ssl.client.auth", "required");
        start(config);
        assertThatThrownBy(() -> admin(sslClient("JKS", null)).describeCluster().nodes().get())
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(SslAuthenticationException.class);
    }

    @Test
    void principalMappingRulesNameTheQuotaUser() throws Exception {
        Map<String, String> config = brokerStores("JKS");
        config.put("ssl.client.auth", "required");
        config.put("ssl.principal.mapping.rules", "RULE:^CN=([^,]+),OU=Test,O=Odradek$/$1/L,DEFAULT");
        start(config);
        Admin admin = admin(sslClient("JKS", "admin"));
        admin.createTopics(List.of(new NewTopic("metered", 1, (short) 1))).all().get();
        // A quota for the mapped name "alice" (her certificate says CN=Alice,OU=Test,O=Odradek).
        admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "alice")),
                List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1024.0))))).all().get();

        String value = "v".repeat(64 * 1024);
        KafkaProducer<String, String> alice = producer(sslClient("JKS", "Alice"));
        alice.send(new ProducerRecord<>("metered", value)).get();
        KafkaProducer<String, String> bob = producer(sslClient("JKS", "Bob"));
        bob.send(new ProducerRecord<>("metered", value)).get();

        assertThat(metric(alice.metrics(), "produce-throttle-time-max")).as("alice is held to her quota").isPositive();
        assertThat(metric(bob.metrics(), "produce-throttle-time-max")).as("bob has no quota").isZero();
        clients.remove(alice);
        alice.close(Duration.ZERO);
    }

    @Test
    void keystoreReplacedOnDiskServesNewConnections(@TempDir Path stores) throws Exception {
        Path keystore = stores.resolve("server.p12");
        Files.copy(CERTS.server().keystore("PKCS12"), keystore);
        Map<String, String> config = brokerStores("PKCS12");
        config.put("ssl.keystore.location", keystore.toString());
        config.put("odradek.ssl.store.reload.interval.ms", "100");
        start(config);
        Map<String, Object> ssl = sslClient("JKS", null);
        createTopic(ssl, "before-reload", 1);
        assertThat(serverCertificate()).isEqualTo(CERTS.server().certificate());

        TestCertificates.Identity renewed = CERTS.identity("renewed-server", TestCertificates.SERVER_DN,
                TestCertificates.SERVER_SAN);
        FileTime before = Files.getLastModifiedTime(keystore);
        Files.copy(renewed.keystore("PKCS12"), keystore, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(keystore, FileTime.fromMillis(before.toMillis() + 2_000));
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!serverCertificate().equals(renewed.certificate()) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(serverCertificate()).isEqualTo(renewed.certificate());
        roundTrip(ssl, "after-reload", 10, 10);
    }

    @Test
    void keystoreLocationSetWithIncrementalAlterConfigsServesNewConnections() throws Exception {
        start(brokerStores("PKCS12"));
        Map<String, Object> ssl = sslClient("JKS", null);
        TestCertificates.Identity renewed = CERTS.identity("renewed-by-config", TestCertificates.SERVER_DN,
                TestCertificates.SERVER_SAN);
        admin(ssl).incrementalAlterConfigs(Map.of(
                new org.apache.kafka.common.config.ConfigResource(
                        org.apache.kafka.common.config.ConfigResource.Type.BROKER, "1"),
                List.of(new org.apache.kafka.clients.admin.AlterConfigOp(
                        new org.apache.kafka.clients.admin.ConfigEntry("listener.name.ssl.ssl.keystore.location",
                                renewed.keystore("PKCS12").toString()),
                        org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET)))).all().get();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!serverCertificate().equals(renewed.certificate()) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(serverCertificate()).isEqualTo(renewed.certificate());
        roundTrip(ssl, "after-alter", 10, 10);
    }

    @Test
    void unusableKeystoreSetWithIncrementalAlterConfigsIsRefusedWithInvalidRequestAndNotStored() throws Exception {
        start(brokerStores("PKCS12"));
        Map<String, Object> ssl = sslClient("JKS", null);
        Admin admin = admin(ssl);
        org.apache.kafka.common.config.ConfigResource brokerOne = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.BROKER, "1");
        // A wrong keystore password: the new context cannot be built.
        assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(brokerOne, List.of(
                new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(
                        "listener.name.ssl.ssl.keystore.password", "wrong"),
                        org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET)))).all().get())
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(org.apache.kafka.common.errors.InvalidRequestException.class)
                .hasMessageContaining("Validation of dynamic config update of SSLFactory failed");
        // A keystore whose certificate names another subject, without ssl.allow.dn.changes.
        TestCertificates.Identity other = CERTS.identity("other-dn", "CN=elsewhere,OU=Test,O=Odradek",
                TestCertificates.SERVER_SAN);
        assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(brokerOne, List.of(
                new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(
                        "listener.name.ssl.ssl.keystore.location", other.keystore("PKCS12").toString()),
                        org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET)))).all().get())
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(org.apache.kafka.common.errors.InvalidRequestException.class)
                .hasMessageContaining("Validation of dynamic config update of SSLFactory failed")
                .hasMessageContaining("Keystore DistinguishedName does not match");

        // Nothing was stored, and the listener still serves its certificate.
        assertThat(admin.describeConfigs(List.of(brokerOne)).all().get().get(brokerOne).entries())
                .filteredOn(e -> e.name().startsWith("listener.name.ssl."))
                .filteredOn(e -> e.source() == org.apache.kafka.clients.admin.ConfigEntry.ConfigSource
                        .DYNAMIC_BROKER_CONFIG)
                .isEmpty();
        assertThat(serverCertificate()).isEqualTo(CERTS.server().certificate());
    }

    /** The certificate a new TLS connection to the broker is shown. */
    private X509Certificate serverCertificate() throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", CERTS.caCertificate());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, tmf.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", broker.port())) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        return metrics.entrySet().stream().filter(m -> m.getKey().name().equals(name))
                .mapToDouble(m -> ((Number) m.getValue().metricValue()).doubleValue())
                .filter(v -> !Double.isNaN(v)).max().orElse(0);
    }
}
