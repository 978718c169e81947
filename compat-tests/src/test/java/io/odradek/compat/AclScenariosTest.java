package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ACL scenarios with Kafka 4.4's Java clients logging in with SASL PLAIN over SASL_PLAINTEXT, against
 * a broker with Kafka's StandardAuthorizer class named in its config and {@code User:admin} a super user; the
 * ACLs are made by the admin through Admin.createAcls. Each test uses its own users and topics.
 */
class AclScenariosTest {
    private static final String PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";

    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withConfig(Map.of(
            "listeners", "SASL_PLAINTEXT://127.0.0.1:0",
            "inter.broker.listener.name", "SASL_PLAINTEXT",
            "sasl.mechanism.inter.broker.protocol", "PLAIN",
            "sasl.enabled.mechanisms", "PLAIN",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_MODULE + " required"
                    + " username=\"admin\" password=\"admin-secret\""
                    + " user_admin=\"admin-secret\" user_alice=\"alice-secret\" user_bob=\"bob-secret\""
                    + " user_carol=\"carol-secret\";",
            "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "super.users", "User:admin"));

    private static Map<String, Object> login(String user) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        config.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        config.put(SaslConfigs.SASL_JAAS_CONFIG, PLAIN_MODULE + " required username=\"" + user + "\" password=\""
                + user + "-secret\";");
        return config;
    }

    private static Admin admin() {
        Map<String, Object> config = login("admin");
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, BROKER.bootstrap());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return BROKER.track(Admin.create(config));
    }

    private static AclBinding acl(ResourceType type, String name, PatternType pattern, String user,
            AclOperation op, AclPermissionType permission) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry("User:" + user, "*", op, permission));
    }

    @BeforeAll
    static void topicsAndAcls() {
        Admin admin = admin();
        OdradekBroker.await(admin.createTopics(List.of("orders", "payments", "logs-app", "metrics", "audit",
                "ledger").stream().map(t -> new NewTopic(t, 1, (short) 1)).toList()).all());
        OdradekBroker.await(admin.createAcls(List.of(
                // alice: write and read topic orders, read group billing
                acl(ResourceType.TOPIC, "orders", PatternType.LITERAL, "alice", AclOperation.WRITE, AclPermissionType.ALLOW),
                acl(ResourceType.TOPIC, "orders", PatternType.LITERAL, "alice", AclOperation.READ, AclPermissionType.ALLOW),
                acl(ResourceType.GROUP, "billing", PatternType.LITERAL, "alice", AclOperation.READ, AclPermissionType.ALLOW),
                // bob: everything on topics whose names start with logs-
                acl(ResourceType.TOPIC, "logs-", PatternType.PREFIXED, "bob", AclOperation.ALL, AclPermissionType.ALLOW),
                // carol: everything on every topic, but writing ledger denied
                acl(ResourceType.TOPIC, "*", PatternType.LITERAL, "carol", AclOperation.ALL, AclPermissionType.ALLOW),
                acl(ResourceType.TOPIC, "ledger", PatternType.LITERAL, "carol", AclOperation.WRITE, AclPermissionType.DENY)))
                .all());
    }

    private static KafkaProducer<String, String> producer(String user) {
        Map<String, Object> config = login(user);
        config.put("max.block.ms", 15_000);
        config.put("delivery.timeout.ms", 20_000);
        config.put("request.timeout.ms", 10_000);
        return Clients.producer(BROKER, config);
    }

    private static KafkaConsumer<String, String> groupConsumer(String user, String group) {
        Map<String, Object> config = login(user);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return Clients.consumer(BROKER, config);
    }

    private static long send(KafkaProducer<String, String> producer, String topic, String key, String value)
            throws Exception {
        return producer.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS).offset();
    }

    /** Polls until {@code count} records came, or the poll throws (what a refused consumer sees). */
    private static List<ConsumerRecord<String, String>> poll(KafkaConsumer<String, String> consumer, int count) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (records.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + records.size() + " of " + count + " records in 30 s");
            }
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
        return records;
    }

    @Test
    void userAllowedToWriteTopicAAndReadGroupGDoesExactlyThat() throws Exception {
        KafkaProducer<String, String> producer = producer("alice");
        assertThat(List.of(send(producer, "orders", "k0", "v0"), send(producer, "orders", "k1", "v1")))
                .containsExactly(0L, 1L);

        KafkaConsumer<String, String> consumer = groupConsumer("alice", "billing");
        consumer.subscribe(List.of("orders"));
        assertThat(poll(consumer, 2)).extracting(ConsumerRecord::offset, ConsumerRecord::key, ConsumerRecord::value)
                .containsExactly(tuple(0L, "k0", "v0"), tuple(1L, "k1", "v1"));
        consumer.commitSync();
        TopicPartition orders = new TopicPartition("orders", 0);
        assertThat(consumer.committed(Set.of(orders)).get(orders).offset()).isEqualTo(2L);
    }

    @Test
    void readingOrWritingTopicBIsRefused() throws Exception {
        KafkaProducer<String, String> admin = producer("admin");
        assertThat(send(admin, "payments", "p", "secret")).isZero();

        KafkaConsumer<String, String> consumer = groupConsumer("alice", "billing");
        consumer.subscribe(List.of("payments"));
        assertThatThrownBy(() -> poll(consumer, 1)).isInstanceOfSatisfying(TopicAuthorizationException.class,
                e -> assertThat(e.unauthorizedTopics()).containsExactly("payments"));
        assertThatThrownBy(() -> send(producer("alice"), "payments", "k", "v"))
                .hasCauseInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void aGroupWithoutAclIsRefused() {
        KafkaConsumer<String, String> consumer = groupConsumer("alice", "other-group");
        consumer.subscribe(List.of("orders"));
        assertThatThrownBy(() -> poll(consumer, 1)).isInstanceOfSatisfying(GroupAuthorizationException.class,
                e -> assertThat(e.groupId()).isEqualTo("other-group"));
    }

    @Test
    void prefixedAclCoversEveryTopicStartingWithThePrefixOnly() throws Exception {
        KafkaProducer<String, String> producer = producer("bob");
        assertThat(send(producer, "logs-app", "l", "line")).isZero();
        assertThatThrownBy(() -> send(producer, "metrics", "m", "1")).hasCauseInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void denyBeatsAllow() throws Exception {
        KafkaProducer<String, String> producer = producer("carol");
        assertThat(send(producer, "audit", "a", "entry")).isZero(); // allowed by the wildcard
        assertThatThrownBy(() -> send(producer, "ledger", "l", "entry"))
                .hasCauseInstanceOf(TopicAuthorizationException.class);
        KafkaConsumer<String, String> reader = Clients.consumer(BROKER, login("carol"));
        assertThat(Clients.readAll(reader, Clients.partitions("audit", 1), Duration.ofSeconds(30)))
                .extracting(ConsumerRecord::key, ConsumerRecord::value).containsExactly(tuple("a", "entry"));
    }

    @Test
    void superUserNeedsNoAcl() throws Exception {
        KafkaProducer<String, String> producer = producer("admin");
        assertThat(send(producer, "metrics", "cpu", "42")).isZero();
        KafkaConsumer<String, String> consumer = groupConsumer("admin", "dashboards");
        consumer.subscribe(List.of("metrics"));
        assertThat(poll(consumer, 1)).extracting(ConsumerRecord::key, ConsumerRecord::value)
                .containsExactly(tuple("cpu", "42"));
        consumer.commitSync();
    }
}
