package io.odradek.compat;

import static io.odradek.compat.OdradekBroker.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigSource;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What Kafka's Admin client shows a user of a single Odradek broker. */
class AdminTest {
    private static final int NODE_ID = 3;

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of("node.id", Integer.toString(NODE_ID)));

    @Test
    void createdTopicIsListedAndDescribedWithItsPartitionsLeaderAndTopicId() {
        Admin admin = broker.admin();
        CreateTopicsResult created = admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1)));
        await(created.all());
        Uuid topicId = await(created.topicId("orders"));

        assertThat(await(created.numPartitions("orders"))).isEqualTo(3);
        assertThat(topicId).isNotIn(Uuid.ZERO_UUID, null);
        assertThat(await(admin.listTopics().names())).containsExactly("orders");

        TopicDescription description = await(admin.describeTopics(List.of("orders")).topicNameValues().get("orders"));
        Node self = new Node(NODE_ID, "127.0.0.1", broker.port());
        assertThat(description.name()).isEqualTo("orders");
        assertThat(description.isInternal()).isFalse();
        assertThat(description.topicId()).isEqualTo(topicId);
        assertThat(description.partitions()).extracting(TopicPartitionInfo::partition).containsExactly(0, 1, 2);
        for (TopicPartitionInfo partition : description.partitions()) {
            assertThat(partition.leader()).as("leader of %d", partition.partition()).isEqualTo(self);
            assertThat(partition.replicas()).as("replicas of %d", partition.partition()).containsExactly(self);
            assertThat(partition.isr()).as("isr of %d", partition.partition()).containsExactly(self);
        }

        TopicDescription byId = await(admin.describeTopics(TopicCollection.ofTopicIds(
                List.of(topicId))).topicIdValues().get(topicId));
        assertThat(byId.name()).isEqualTo("orders");
    }

    @Test
    void topicsCreatedTogetherAreAllListed() {
        await(broker.admin().createTopics(List.of(new NewTopic("a", 1, (short) 1), new NewTopic("b.b", 2, (short) 1),
                new NewTopic("c_c-c", 4, (short) 1))).all());

        assertThat(await(broker.admin().listTopics().names())).containsExactlyInAnyOrder("a", "b.b", "c_c-c");
        assertThat(await(broker.admin().describeTopics(List.of("a", "b.b", "c_c-c")).allTopicNames()))
                .extractingFromEntries(e -> e.getKey() + ":" + e.getValue().partitions().size())
                .containsExactlyInAnyOrder("a:1", "b.b:2", "c_c-c:4");
    }

    @Test
    void topicCreatedWithDefaultPartitionsGetsTheBrokersNumPartitions() {
        await(broker.admin().createTopics(List.of(new NewTopic("defaults", java.util.Optional.empty(),
                java.util.Optional.empty()))).all());

        TopicDescription description = await(broker.admin().describeTopics(List.of("defaults")).allTopicNames())
                .get("defaults");
        assertThat(description.partitions()).hasSize(1); // num.partitions defaults to 1
        assertThat(description.partitions().get(0).replicas()).hasSize(1);
    }

    @Test
    void deletedTopicDisappearsFromListAndDescribe() {
        broker.createTopic("short-lived", 2);
        broker.createTopic("kept", 1);

        await(broker.admin().deleteTopics(List.of("short-lived")).all());

        assertThat(await(broker.admin().listTopics().names())).containsExactly("kept");
        assertThatThrownBy(() -> await(broker.admin().describeTopics(List.of("short-lived")).allTopicNames()))
                .isInstanceOf(UnknownTopicOrPartitionException.class);
    }

    @Test
    void deletingAnUnknownTopicFailsWithUnknownTopic() {
        assertThatThrownBy(() -> await(broker.admin().deleteTopics(List.of("never-created")).all()))
                .isInstanceOf(UnknownTopicOrPartitionException.class);
    }

    @Test
    void topicRecreatedAfterDeletionHasANewIdAndNoOldRecords() throws Exception {
        broker.createTopic("reborn", 1);
        Uuid firstId = await(broker.admin().describeTopics(List.of("reborn")).allTopicNames()).get("reborn").topicId();
        var producer = Clients.producer(broker, Map.of());
        producer.send(new ProducerRecord<>("reborn", 0, "k", "before deletion")).get();

        await(broker.admin().deleteTopics(List.of("reborn")).all());
        broker.createTopic("reborn", 1);
        Uuid secondId = await(broker.admin().describeTopics(List.of("reborn")).allTopicNames()).get("reborn").topicId();

        assertThat(secondId).isNotEqualTo(firstId);
        var consumer = Clients.consumer(broker, Map.of());
        assertThat(Clients.readAll(consumer, Clients.partitions("reborn", 1), Duration.ofSeconds(30))).isEmpty();
    }

    @Test
    void creatingAnExistingTopicFailsWithTopicExists() {
        broker.createTopic("taken", 1);

        CreateTopicsResult result = broker.admin().createTopics(List.of(new NewTopic("taken", 1, (short) 1),
                new NewTopic("free", 1, (short) 1)));

        assertThatThrownBy(() -> await(result.values().get("taken"))).isInstanceOf(TopicExistsException.class);
        await(result.values().get("free")); // the other topic in the same request is created
        assertThat(await(broker.admin().listTopics().names())).containsExactlyInAnyOrder("taken", "free");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"bad/name", "has space", "..", ".", "ünïcode"})
    void invalidTopicNameIsRejected(String name) {
        assertThatThrownBy(() -> await(broker.admin().createTopics(List.of(new NewTopic(name, 1, (short) 1))).all()))
                .isInstanceOf(InvalidTopicException.class);
        assertThat(await(broker.admin().listTopics().names())).isEmpty();
    }

    @Test
    void topicNameLongerThan249CharactersIsRejected() {
        String name = "x".repeat(250);
        assertThatThrownBy(() -> await(broker.admin().createTopics(List.of(new NewTopic(name, 1, (short) 1))).all()))
                .isInstanceOf(InvalidTopicException.class);
        broker.createTopic("x".repeat(249), 1); // the longest legal name
    }

    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {0, -2})
    void invalidPartitionCountIsRejected(int partitions) {
        assertThatThrownBy(() -> await(broker.admin().createTopics(List.of(new NewTopic("p", partitions, (short) 1)))
                .all())).isInstanceOf(InvalidPartitionsException.class);
        assertThat(await(broker.admin().listTopics().names())).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"retention.ms=soon", "cleanup.policy=sometimes", "no.such.config=1", "segment.bytes=-1"})
    void topicWithAnInvalidConfigIsRejected(String setting) {
        String[] kv = setting.split("=", 2);
        NewTopic topic = new NewTopic("badly-configured", 1, (short) 1).configs(Map.of(kv[0], kv[1]));

        assertThatThrownBy(() -> await(broker.admin().createTopics(List.of(topic)).all()))
                .isInstanceOf(InvalidConfigurationException.class);
        assertThat(await(broker.admin().listTopics().names())).isEmpty();
    }

    @Test
    void validateOnlyCreationChecksTheTopicWithoutCreatingIt() {
        CreateTopicsResult result = broker.admin().createTopics(List.of(new NewTopic("dry-run", 4, (short) 1)),
                new CreateTopicsOptions().validateOnly(true));

        await(result.all());
        assertThat(await(result.numPartitions("dry-run"))).isEqualTo(4);
        assertThat(await(broker.admin().listTopics().names())).isEmpty();
    }

    @Test
    void describingAnUnknownTopicIdFailsWithUnknownTopicId() {
        Uuid unknown = Uuid.randomUuid();
        assertThatThrownBy(() -> await(broker.admin().describeTopics(TopicCollection.ofTopicIds(List.of(unknown)))
                .allTopicIds())).isInstanceOf(UnknownTopicIdException.class);
    }

    @Test
    void replicationFactorAboveTheBrokerCountIsRejected() {
        assertThatThrownBy(() -> await(broker.admin().createTopics(List.of(new NewTopic("r", 1, (short) 3))).all()))
                .isInstanceOf(InvalidReplicationFactorException.class);
    }

    @Test
    void describeClusterShowsAStableClusterIdAndThisBroker() {
        DescribeClusterResult first = broker.admin().describeCluster();
        String clusterId = await(first.clusterId());

        assertThat(clusterId).isNotBlank();
        assertThat(await(first.nodes())).containsExactly(new Node(NODE_ID, "127.0.0.1", broker.port()));
        assertThat(await(broker.admin().describeCluster().clusterId())).isEqualTo(clusterId);
    }

    @Test
    void topicConfigOverrideIsDescribedAsTopicConfigAndTheRestAsDefaults() {
        broker.createTopic("configured", 1, Map.of("retention.ms", "3600000", "cleanup.policy", "compact"));
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, "configured");

        Config config = await(broker.admin().describeConfigs(List.of(resource)).all()).get(resource);

        assertThat(entry(config, "retention.ms")).isEqualTo("3600000 DYNAMIC_TOPIC_CONFIG");
        assertThat(entry(config, "cleanup.policy")).isEqualTo("compact DYNAMIC_TOPIC_CONFIG");
        assertThat(entry(config, "segment.bytes")).isEqualTo("1073741824 DEFAULT_CONFIG");
        assertThat(entry(config, "max.message.bytes")).isEqualTo("1048588 DEFAULT_CONFIG");
        assertThat(config.entries()).extracting(ConfigEntry::name)
                .contains("retention.bytes", "min.insync.replicas", "compression.type", "message.timestamp.type");
    }

    @Test
    void describeConfigsOfAnUnknownTopicFailsWithUnknownTopic() {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, "absent");
        assertThatThrownBy(() -> await(broker.admin().describeConfigs(List.of(resource)).all()))
                .isInstanceOf(UnknownTopicOrPartitionException.class);
    }

    @Test
    void brokerConfigsShowWhatWasSetAndKafkasDefaults() {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(NODE_ID));

        Config config = await(broker.admin().describeConfigs(List.of(resource)).all()).get(resource);

        assertThat(entry(config, "node.id")).isEqualTo(NODE_ID + " STATIC_BROKER_CONFIG");
        assertThat(entry(config, "log.dirs")).isEqualTo(broker.logDir() + " STATIC_BROKER_CONFIG");
        assertThat(entry(config, "num.partitions")).isEqualTo("1 DEFAULT_CONFIG");
        assertThat(entry(config, "message.max.bytes")).isEqualTo("1048588 DEFAULT_CONFIG");
        assertThat(entry(config, "log.retention.hours")).isEqualTo("168 DEFAULT_CONFIG");
        assertThat(config.entries()).extracting(ConfigEntry::source)
                .doesNotContain(ConfigSource.DYNAMIC_TOPIC_CONFIG, ConfigSource.UNKNOWN);
    }

    /** "value SOURCE" of one config entry, or a note that it is missing. */
    private static String entry(Config config, String name) {
        ConfigEntry entry = config.get(name);
        return entry == null ? "<missing " + name + " among " + names(config) + ">" : entry.value() + " " + entry.source();
    }

    private static Set<String> names(Config config) {
        return config.entries().stream().map(ConfigEntry::name).collect(java.util.stream.Collectors.toSet());
    }
}
