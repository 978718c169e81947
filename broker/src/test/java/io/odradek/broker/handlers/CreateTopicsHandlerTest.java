package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.metadata.TopicInfo;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.CreateTopicsApi.Request;
import io.odradek.wire.api.CreateTopicsApi.Request.CreatableTopic;
import io.odradek.wire.api.CreateTopicsApi.Request.CreatableTopic.CreatableReplicaAssignment;
import io.odradek.wire.api.CreateTopicsApi.Request.CreatableTopic.CreatableTopicConfig;
import io.odradek.wire.api.CreateTopicsApi.Response;
import io.odradek.wire.api.CreateTopicsApi.Response.CreatableTopicResult;
import io.odradek.wire.api.CreateTopicsApi.Response.CreatableTopicResult.CreatableTopicConfigs;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CreateTopicsHandlerTest {
    @TempDir
    Path dir;
    AdminFixture fx;

    @BeforeEach
    void open() {
        fx = new AdminFixture(dir, Map.of("num.partitions", "2", "log.retention.hours", "24"));
    }

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void createsTheTopicAndReportsIdPartitionsAndEffectiveConfigs() {
        Struct req = Request.SCHEMA.newStruct();
        addTopic(req, "orders", 3, (short) 1).add(CreatableTopic.CONFIGS)
                .set(CreatableTopicConfig.NAME, "cleanup.policy").set(CreatableTopicConfig.VALUE, "compact");

        Struct result = only(fx.call(fx.createTopics(), 7, req));

        TopicInfo created = fx.topics.topic("orders").orElseThrow();
        assertThat(created.partitions()).isEqualTo(3);
        assertThat(created.configs()).containsExactlyEntriesOf(Map.of("cleanup.policy", "compact"));
        assertThat(dir.resolve("orders-0")).isDirectory();
        assertThat(dir.resolve("orders-2")).isDirectory();
        assertThat(result.get(CreatableTopicResult.ERROR_CODE)).isZero();
        assertThat(result.get(CreatableTopicResult.ERROR_MESSAGE)).isNull();
        assertThat(result.get(CreatableTopicResult.TOPIC_ID)).isEqualTo(created.id());
        assertThat(result.get(CreatableTopicResult.NUM_PARTITIONS)).isEqualTo(3);
        assertThat(result.get(CreatableTopicResult.REPLICATION_FACTOR)).isEqualTo((short) 1);
        Map<String, Struct> configs = byName(result.get(CreatableTopicResult.CONFIGS));
        assertThat(configs).containsKeys("cleanup.policy", "retention.ms", "segment.bytes", "max.message.bytes");
        assertThat(configs.get("cleanup.policy").get(CreatableTopicConfigs.VALUE)).isEqualTo("compact");
        assertThat(configs.get("cleanup.policy").get(CreatableTopicConfigs.CONFIG_SOURCE)).isEqualTo((byte) 1);
        // log.retention.hours=24 was given to the broker: the value follows it, but Kafka's ConfigHelper reports
        // the source of retention.ms from log.retention.ms's own entries only (none here): DEFAULT_CONFIG.
        assertThat(configs.get("retention.ms").get(CreatableTopicConfigs.VALUE)).isEqualTo("86400000");
        assertThat(configs.get("retention.ms").get(CreatableTopicConfigs.CONFIG_SOURCE)).isEqualTo((byte) 5);
        assertThat(configs.get("segment.bytes").get(CreatableTopicConfigs.VALUE)).isEqualTo("1073741824");
        assertThat(configs.get("segment.bytes").get(CreatableTopicConfigs.CONFIG_SOURCE)).isEqualTo((byte) 5);
        assertThat(configs.get("segment.bytes").get(CreatableTopicConfigs.READ_ONLY)).isFalse();
    }

    @Test
    void minusOneTakesTheBrokerDefaults() {
        Struct req = Request.SCHEMA.newStruct();
        addTopic(req, "defaults", -1, (short) -1);

        Struct result = only(fx.call(fx.createTopics(), 5, req));

        assertThat(result.get(CreatableTopicResult.ERROR_CODE)).isZero();
        assertThat(result.get(CreatableTopicResult.NUM_PARTITIONS)).isEqualTo(2);
        assertThat(fx.topics.topic("defaults").orElseThrow().partitions()).isEqualTo(2);
    }

    @Test
    void validateOnlyChecksEverythingButCreatesNothing() {
        Struct req = Request.SCHEMA.newStruct().set(Request.VALIDATE_ONLY, true);
        addTopic(req, "dry-run", 4, (short) 1);
        addTopic(req, "dry-bad", 4, (short) 3);

        List<Struct> results = fx.call(fx.createTopics(), 7, req).get(Response.TOPICS);

        assertThat(results.get(0).get(CreatableTopicResult.ERROR_CODE)).isZero();
        assertThat(results.get(0).get(CreatableTopicResult.NUM_PARTITIONS)).isEqualTo(4);
        assertThat(results.get(1).get(CreatableTopicResult.ERROR_CODE))
                .isEqualTo(ErrorCode.INVALID_REPLICATION_FACTOR.code());
        assertThat(fx.topics.topics()).isEmpty();
        assertThat(dir.resolve("dry-run-0")).doesNotExist();
    }

    @Test
    void eachTopicFailsWithKafkasErrorAndMessage() {
        fx.topics.createTopic("taken", 1, Map.of(), false);
        fx.topics.createTopic("my.topic", 1, Map.of(), false);
        Struct req = Request.SCHEMA.newStruct();
        addTopic(req, "taken", 1, (short) 1);
        addTopic(req, "my_topic", 1, (short) 1);
        addTopic(req, "bad name", 1, (short) 1);
        addTopic(req, "zero-partitions", 0, (short) 1);
        addTopic(req, "three-replicas", 1, (short) 3);
        addTopic(req, "zero-replicas", 1, (short) 0);
        addTopic(req, "unknown-config", 1, (short) 1).add(CreatableTopic.CONFIGS)
                .set(CreatableTopicConfig.NAME, "no.such.config").set(CreatableTopicConfig.VALUE, "1");
        addTopic(req, "bad-config", 1, (short) 1).add(CreatableTopic.CONFIGS)
                .set(CreatableTopicConfig.NAME, "retention.ms").set(CreatableTopicConfig.VALUE, "soon");
        addTopic(req, "twice", 1, (short) 1);
        addTopic(req, "twice", 1, (short) 1);

        Map<String, Struct> results = byName(fx.call(fx.createTopics(), 6, req).get(Response.TOPICS));

        assertThat(results).hasSize(9);
        assertError(results.get("taken"), ErrorCode.TOPIC_ALREADY_EXISTS, "Topic 'taken' already exists.");
        assertError(results.get("my_topic"), ErrorCode.INVALID_TOPIC_EXCEPTION,
                "Topic 'my_topic' collides with existing topic: my.topic");
        assertError(results.get("bad name"), ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic name \"bad name\" is illegal, "
                + "it contains a character other than ASCII alphanumerics, '.', '_' and '-'");
        assertError(results.get("zero-partitions"), ErrorCode.INVALID_PARTITIONS,
                "Number of partitions was set to an invalid non-positive value.");
        assertError(results.get("three-replicas"), ErrorCode.INVALID_REPLICATION_FACTOR, "Unable to replicate the "
                + "partition 3 time(s): The target replication factor of 3 cannot be reached because only 1 broker(s) are registered.");
        assertError(results.get("zero-replicas"), ErrorCode.INVALID_REPLICATION_FACTOR,
                "Replication factor must be larger than 0, or -1 to use the default value.");
        assertThat(results.get("unknown-config").get(CreatableTopicResult.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_CONFIG.code());
        assertThat(results.get("unknown-config").get(CreatableTopicResult.ERROR_MESSAGE)).contains("no.such.config");
        assertThat(results.get("bad-config").get(CreatableTopicResult.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_CONFIG.code());
        assertThat(results.get("bad-config").get(CreatableTopicResult.ERROR_MESSAGE)).contains("retention.ms");
        assertError(results.get("twice"), ErrorCode.INVALID_REQUEST, "Duplicate topic name.");
        assertThat(results.get("three-replicas").get(CreatableTopicResult.NUM_PARTITIONS)).isEqualTo(-1);
        assertThat(results.get("three-replicas").get(CreatableTopicResult.TOPIC_ID)).isEqualTo(new UUID(0, 0));
        assertThat(fx.topics.topics()).extracting(TopicInfo::name).containsExactly("my.topic", "taken");
    }

    @Test
    void manualAssignmentMayNameOnlyThisBroker() {
        Struct req = Request.SCHEMA.newStruct();
        Struct ok = addTopic(req, "manual", -1, (short) -1);
        assign(ok, 0, 1);
        assign(ok, 1, 1);
        Struct otherBroker = addTopic(req, "elsewhere", -1, (short) -1);
        assign(otherBroker, 0, 2);
        Struct gap = addTopic(req, "gap", -1, (short) -1);
        assign(gap, 1, 1);
        Struct withCount = addTopic(req, "with-count", 2, (short) -1);
        assign(withCount, 0, 1);

        Map<String, Struct> results = byName(fx.call(fx.createTopics(), 4, req).get(Response.TOPICS));

        assertThat(results.get("manual").get(CreatableTopicResult.ERROR_CODE)).isZero();
        assertThat(fx.topics.topic("manual").orElseThrow().partitions()).isEqualTo(2);
        assertError(results.get("elsewhere"), ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                "The manual partition assignment includes broker 2, but no such broker is registered.");
        assertError(results.get("gap"), ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                "partitions should be a consecutive 0-based integer sequence");
        assertError(results.get("with-count"), ErrorCode.INVALID_REQUEST,
                "A manual partition assignment was specified, but numPartitions was not set to -1.");
    }

    @Test
    void topicsInOneRequestSeeEachOther() {
        Struct req = Request.SCHEMA.newStruct();
        addTopic(req, "x.y", 1, (short) 1);
        addTopic(req, "x_y", 1, (short) 1);

        List<Struct> results = fx.call(fx.createTopics(), 2, req).get(Response.TOPICS);

        assertThat(results).extracting(r -> r.get(CreatableTopicResult.ERROR_CODE))
                .containsExactly(ErrorCode.NONE.code(), ErrorCode.INVALID_TOPIC_EXCEPTION.code());
    }

    private static Struct addTopic(Struct req, String name, int partitions, short replicationFactor) {
        return req.add(Request.TOPICS).set(CreatableTopic.NAME, name).set(CreatableTopic.NUM_PARTITIONS, partitions)
                .set(CreatableTopic.REPLICATION_FACTOR, replicationFactor);
    }

    private static void assign(Struct topic, int partition, Integer... brokers) {
        topic.add(CreatableTopic.ASSIGNMENTS).set(CreatableReplicaAssignment.PARTITION_INDEX, partition)
                .set(CreatableReplicaAssignment.BROKER_IDS, List.of(brokers));
    }

    private static Struct only(Struct response) {
        assertThat(response.get(Response.TOPICS)).hasSize(1);
        return response.get(Response.TOPICS).get(0);
    }

    private static Map<String, Struct> byName(List<Struct> entries) {
        Map<String, Struct> m = new java.util.LinkedHashMap<>();
        for (Struct s : entries) {
            String name = s.schema() == CreatableTopicResult.SCHEMA ? s.get(CreatableTopicResult.NAME)
                    : s.get(CreatableTopicConfigs.NAME);
            m.put(name, s);
        }
        return m;
    }

    private static void assertError(Struct result, ErrorCode error, String message) {
        assertThat(result.get(CreatableTopicResult.ERROR_CODE)).as(result.toString()).isEqualTo(error.code());
        assertThat(result.get(CreatableTopicResult.ERROR_MESSAGE)).isEqualTo(message);
    }
}
