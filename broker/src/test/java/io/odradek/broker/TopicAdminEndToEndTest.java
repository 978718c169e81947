package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's own AdminClient against a broker on a free port with a temp log dir. */
class TopicAdminEndToEndTest {
    @TempDir
    Path logDir;

    private Broker broker;
    private Admin admin;

    private void start() throws InterruptedException {
        broker = Broker.start(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", logDir.toString(), "node.id", "1", "log.retention.hours", "48")));
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        admin = Admin.create(props);
    }

    private void stop() {
        if (admin != null) {
            admin.close();
            admin = null;
        }
        if (broker != null) {
            broker.close();
            broker = null;
        }
    }

    @AfterEach
    void tearDown() {
        stop();
    }

    @Test
    void createListDescribeAndDeleteTopics() throws Exception {
        start();
        CreateTopicsResult created = admin.createTopics(List.of(
                new NewTopic("orders", 3, (short) 1).configs(Map.of("retention.ms", "60000")),
                new NewTopic("audit", Optional.empty(), Optional.empty())));
        created.all().get();
        assertThat(created.numPartitions("orders").get()).isEqualTo(3);
        assertThat(created.replicationFactor("orders").get()).isEqualTo(1);
        assertThat(created.topicId("orders").get().toString())
                .isEqualTo(kafkaId(broker.topics().topicId("orders").orElseThrow()));
        assertThat(created.config("orders").get().get("retention.ms").value()).isEqualTo("60000");

        assertThat(admin.listTopics().names().get()).containsExactlyInAnyOrder("orders", "audit");

        TopicDescription orders = admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
        assertThat(orders.isInternal()).isFalse();
        assertThat(orders.topicId().toString()).isEqualTo(kafkaId(broker.topics().topicId("orders").orElseThrow()));
        assertThat(orders.partitions()).extracting(TopicPartitionInfo::partition).containsExactly(0, 1, 2);
        assertThat(orders.partitions()).allSatisfy(p -> {
            assertThat(p.leader().id()).isEqualTo(1);
            assertThat(p.leader().port()).isEqualTo(broker.port());
            assertThat(p.replicas()).extracting(Node::id).containsExactly(1);
            assertThat(p.isr()).extracting(Node::id).containsExactly(1);
        });

        admin.deleteTopics(List.of("orders")).all().get();
        assertThat(admin.listTopics().names().get()).containsExactly("audit");
        assertThat(logDir.resolve("orders-0")).doesNotExist();

        Uuid auditId = admin.describeTopics(List.of("audit")).allTopicNames().get().get("audit").topicId();
        admin.deleteTopics(TopicCollection.ofTopicIds(List.of(auditId))).all().get();
        assertThat(admin.listTopics().names().get()).isEmpty();
        assertThat(logDir.resolve("audit-0")).doesNotExist();
    }

    @Test
    void creationErrorsAndValidateOnly() throws Exception {
        start();
        admin.createTopics(List.of(new NewTopic("taken", 1, (short) 1))).all().get();

        admin.createTopics(List.of(new NewTopic("dry", 2, (short) 1)), new CreateTopicsOptions().validateOnly(true))
                .all().get();
        assertThat(admin.listTopics().names().get()).containsExactly("taken");

        assertCause(admin.createTopics(List.of(new NewTopic("taken", 1, (short) 1))).all(),
                TopicExistsException.class, "Topic 'taken' already exists.");
        assertCause(admin.createTopics(List.of(new NewTopic("wide", 1, (short) 3))).all(),
                InvalidReplicationFactorException.class, "only 1 broker(s) are registered");
        assertCause(admin.createTopics(List.of(new NewTopic("conf", 1, (short) 1)
                .configs(Map.of("retention.ms", "soon")))).all(), InvalidConfigurationException.class, "retention.ms");
        assertCause(admin.createTopics(List.of(new NewTopic("bad name", 1, (short) 1))).all(),
                InvalidTopicException.class, "illegal");
        assertCause(admin.deleteTopics(List.of("missing")).all(), UnknownTopicOrPartitionException.class, "");
    }

    @Test
    void describeClusterShowsThisBrokerAsControllerWithItsBoundPort() throws Exception {
        start();
        DescribeClusterResult cluster = admin.describeCluster();

        assertThat(cluster.clusterId().get()).isEqualTo(broker.topics().clusterId()).hasSize(22);
        assertThat(cluster.controller().get().id()).isEqualTo(1);
        Collection<Node> nodes = cluster.nodes().get();
        assertThat(nodes).singleElement().satisfies(n -> {
            assertThat(n.id()).isEqualTo(1);
            assertThat(n.host()).isEqualTo("127.0.0.1");
            assertThat(n.port()).isEqualTo(broker.port());
        });
    }

    @Test
    void describeConfigsOfATopicAndOfTheBroker() throws Exception {
        start();
        admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                .all().get();
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "orders");
        ConfigResource node = new ConfigResource(ConfigResource.Type.BROKER, "1");

        Map<ConfigResource, Config> configs = admin.describeConfigs(List.of(topic, node),
                new DescribeConfigsOptions().includeSynonyms(true)).all().get();

        ConfigEntry policy = configs.get(topic).get("cleanup.policy");
        assertThat(policy.value()).isEqualTo("compact");
        assertThat(policy.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        ConfigEntry retention = configs.get(topic).get("retention.ms");
        assertThat(retention.value()).isEqualTo("172800000");
        // Kafka 4.4's ConfigHelper lists retention.ms's broker synonyms from log.retention.ms's own entries on,
        // so a static log.retention.hours sets the value but is neither its source nor a synonym.
        assertThat(retention.source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        assertThat(retention.synonyms()).isEmpty();
        assertThat(configs.get(topic).get("segment.bytes").source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        assertThat(configs.get(topic).get("segment.bytes").type()).isEqualTo(ConfigEntry.ConfigType.INT);

        ConfigEntry partitions = configs.get(node).get("num.partitions");
        assertThat(partitions.value()).isEqualTo("1");
        assertThat(partitions.source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        assertThat(configs.get(node).get("log.retention.hours").source())
                .isEqualTo(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG);
        assertThat(configs.get(node).get("node.id").value()).isEqualTo("1");

        assertCause(admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, "missing"))).all(),
                UnknownTopicOrPartitionException.class, "");
    }

    @Test
    void topicsAndIdsSurviveARestart() throws Exception {
        start();
        admin.createTopics(List.of(new NewTopic("orders", 2, (short) 1))).all().get();
        TopicDescription before = admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
        String clusterId = admin.describeCluster().clusterId().get();
        stop();

        start();

        TopicDescription after = admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
        assertThat(after.topicId()).isEqualTo(before.topicId());
        assertThat(after.partitions()).hasSize(2);
        assertThat(admin.describeCluster().clusterId().get()).isEqualTo(clusterId);
        assertThat(admin.listTopics().names().get()).isEqualTo(Set.of("orders"));
    }

    private static String kafkaId(java.util.UUID id) {
        return new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits()).toString();
    }

    private static void assertCause(org.apache.kafka.common.KafkaFuture<?> future, Class<? extends Throwable> type,
                                    String messagePart) {
        assertThatThrownBy(future::get).isInstanceOf(ExecutionException.class).cause().isInstanceOf(type)
                .hasMessageContaining(messagePart);
    }
}
