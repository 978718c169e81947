package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.LogException;
import io.odradek.log.PartitionLog;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.MetadataApi.Request;
import io.odradek.wire.api.MetadataApi.Request.MetadataRequestTopic;
import io.odradek.wire.api.MetadataApi.Response;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseBroker;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseTopic;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseTopic.MetadataResponsePartition;
import io.odradek.wire.schema.Struct;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetadataHandlerTest {
    @TempDir
    Path dir;
    AdminFixture fx;

    @AfterEach
    void close() {
        if (fx != null) {
            fx.close();
        }
    }

    private AdminFixture fixture(Map<String, String> settings) {
        fx = new AdminFixture(dir, settings);
        return fx;
    }

    @Test
    void nullTopicListDescribesEveryTopicWithThisBrokerLeadingEveryPartition() {
        fixture(Map.of());
        TopicInfo orders = fx.topics.createTopic("orders", 2, Map.of(), false);
        TopicInfo audit = fx.topics.createTopic("audit", 1, Map.of(), false);

        Struct r = fx.call(fx.metadata(), 12, request((String[]) null));

        assertThat(r.get(Response.BROKERS)).singleElement().satisfies(b -> {
            assertThat(b.get(MetadataResponseBroker.NODE_ID)).isEqualTo(1);
            assertThat(b.get(MetadataResponseBroker.HOST)).isEqualTo("127.0.0.1");
            assertThat(b.get(MetadataResponseBroker.PORT)).isEqualTo(AdminFixture.PORT);
            assertThat(b.get(MetadataResponseBroker.RACK)).isNull();
        });
        assertThat(r.get(Response.CLUSTER_ID)).isEqualTo(fx.topics.clusterId()).hasSize(22);
        assertThat(r.get(Response.CONTROLLER_ID)).isEqualTo(1);
        List<Struct> topics = r.get(Response.TOPICS);
        assertThat(topics).extracting(t -> t.get(MetadataResponseTopic.NAME)).containsExactly("audit", "orders");
        assertThat(topics).extracting(t -> t.get(MetadataResponseTopic.TOPIC_ID)).containsExactly(audit.id(), orders.id());
        Struct ordersTopic = topics.get(1);
        assertThat(ordersTopic.get(MetadataResponseTopic.ERROR_CODE)).isZero();
        assertThat(ordersTopic.get(MetadataResponseTopic.IS_INTERNAL)).isFalse();
        assertThat(ordersTopic.get(MetadataResponseTopic.TOPIC_AUTHORIZED_OPERATIONS)).isEqualTo(Integer.MIN_VALUE);
        assertThat(ordersTopic.get(MetadataResponseTopic.PARTITIONS)).hasSize(2).allSatisfy(p -> {
            assertThat(p.get(MetadataResponsePartition.ERROR_CODE)).isZero();
            assertThat(p.get(MetadataResponsePartition.LEADER_ID)).isEqualTo(1);
            assertThat(p.get(MetadataResponsePartition.LEADER_EPOCH)).isZero();
            assertThat(p.get(MetadataResponsePartition.REPLICA_NODES)).containsExactly(1);
            assertThat(p.get(MetadataResponsePartition.ISR_NODES)).containsExactly(1);
            assertThat(p.get(MetadataResponsePartition.OFFLINE_REPLICAS)).isEmpty();
        }).extracting(p -> p.get(MetadataResponsePartition.PARTITION_INDEX)).containsExactly(0, 1);
    }

    @Test
    void emptyListIsAllTopicsAtV0AndNoTopicsLater() {
        fixture(Map.of());
        fx.topics.createTopic("orders", 1, Map.of(), false);

        assertThat(fx.call(fx.metadata(), 0, request()).get(Response.TOPICS)).hasSize(1);
        assertThat(fx.call(fx.metadata(), 1, request()).get(Response.TOPICS)).isEmpty();
    }

    @Test
    void unknownTopicIsCreatedWithNumPartitionsAndReturnedAtOnce() {
        fixture(Map.of("num.partitions", "3"));

        Struct r = fx.call(fx.metadata(), 9, request("fresh"));

        Struct topic = r.get(Response.TOPICS).get(0);
        assertThat(topic.get(MetadataResponseTopic.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(topic.get(MetadataResponseTopic.PARTITIONS)).hasSize(3);
        assertThat(fx.topics.topic("fresh")).get().extracting(TopicInfo::partitions).isEqualTo(3);
        assertThat(fx.topics.partitionLog("fresh", 2)).isPresent();
        assertThat(dir.resolve("fresh-2")).isDirectory();
    }

    @Test
    void requestFlagOrBrokerConfigCanForbidAutoCreation() {
        fixture(Map.of());
        Struct noAutoCreate = request("nope").set(Request.ALLOW_AUTO_TOPIC_CREATION, false);

        assertThat(errorOf(fx.call(fx.metadata(), 4, noAutoCreate))).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(fx.topics.topic("nope")).isEmpty();
        // Before v4 the flag does not exist: the broker config alone decides.
        assertThat(errorOf(fx.call(fx.metadata(), 3, noAutoCreate))).isEqualTo(ErrorCode.NONE);
        assertThat(fx.topics.topic("nope")).isPresent();
    }

    @Test
    void autoCreateDisabledAnswersUnknownTopic() {
        fixture(Map.of("auto.create.topics.enable", "false"));

        Struct topic = fx.call(fx.metadata(), 12, request("nope")).get(Response.TOPICS).get(0);

        assertThat(topic.get(MetadataResponseTopic.ERROR_CODE)).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(topic.get(MetadataResponseTopic.NAME)).isEqualTo("nope");
        assertThat(topic.get(MetadataResponseTopic.TOPIC_ID)).isEqualTo(new UUID(0, 0));
        assertThat(topic.get(MetadataResponseTopic.PARTITIONS)).isEmpty();
    }

    @Test
    void illegalNameIsInvalidTopicAndInternalTopicsAreNotAutoCreated() {
        fixture(Map.of());

        Struct r = fx.call(fx.metadata(), 9, request("bad/name", "__consumer_offsets", "__cluster_metadata"));

        assertThat(r.get(Response.TOPICS)).extracting(t -> t.get(MetadataResponseTopic.ERROR_CODE)).containsExactly(
                ErrorCode.INVALID_TOPIC_EXCEPTION.code(), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code(),
                ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(r.get(Response.TOPICS).get(1).get(MetadataResponseTopic.IS_INTERNAL)).isTrue();
        assertThat(fx.topics.topics()).isEmpty();
    }

    @Test
    void topicCollidingWithAnExistingOneIsNotAutoCreated() {
        fixture(Map.of());
        fx.topics.createTopic("a.b", 1, Map.of(), false);

        assertThat(errorOf(fx.call(fx.metadata(), 9, request("a_b")))).isEqualTo(ErrorCode.INVALID_TOPIC_EXCEPTION);
    }

    @Test
    void topicIdsAreRefusedBeforeV12() {
        fixture(Map.of());
        TopicInfo t = fx.topics.createTopic("orders", 1, Map.of(), false);
        Struct byId = Request.SCHEMA.newStruct();
        byId.add(Request.TOPICS).set(MetadataRequestTopic.TOPIC_ID, t.id()).set(MetadataRequestTopic.NAME, null);

        Struct r = fx.call(fx.metadata(), 10, byId);

        assertThat(r.get(Response.BROKERS)).isEmpty();
        assertThat(r.get(Response.TOPICS)).singleElement().satisfies(topic -> {
            assertThat(topic.get(MetadataResponseTopic.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
            assertThat(topic.get(MetadataResponseTopic.TOPIC_ID)).isEqualTo(t.id());
        });
    }

    @Test
    void v12LooksTopicsUpByIdAndAnswersUnknownTopicId() {
        fixture(Map.of());
        TopicInfo t = fx.topics.createTopic("orders", 2, Map.of(), false);
        UUID unknown = UUID.randomUUID();
        Struct byId = Request.SCHEMA.newStruct();
        byId.add(Request.TOPICS).set(MetadataRequestTopic.TOPIC_ID, t.id()).set(MetadataRequestTopic.NAME, null);
        byId.add(Request.TOPICS).set(MetadataRequestTopic.TOPIC_ID, unknown).set(MetadataRequestTopic.NAME, null);

        List<Struct> topics = fx.call(fx.metadata(), 12, byId).get(Response.TOPICS);

        assertThat(topics).hasSize(2);
        assertThat(topics.get(0).get(MetadataResponseTopic.NAME)).isEqualTo("orders");
        assertThat(topics.get(0).get(MetadataResponseTopic.PARTITIONS)).hasSize(2);
        assertThat(topics.get(1).get(MetadataResponseTopic.ERROR_CODE)).isEqualTo(ErrorCode.UNKNOWN_TOPIC_ID.code());
        assertThat(topics.get(1).get(MetadataResponseTopic.NAME)).isNull();
        assertThat(topics.get(1).get(MetadataResponseTopic.TOPIC_ID)).isEqualTo(unknown);
    }

    @Test
    void aPartitionInAnOfflineLogDirHasNoLeaderAndThisBrokerAsOfflineReplica() throws Exception {
        fixture(Map.of());
        fx.topics.createTopic("orders", 1, Map.of("segment.bytes", "100"), false);
        PartitionLog log = fx.topics.partitionLog("orders", 0).orElseThrow();
        log.append(DataPathFixture.batch(1L, "a"), 0);
        // A non-empty directory where the next segment file goes: the roll fails with an IOException.
        Path obstacle = log.dir().resolve("00000000000000000001.log");
        Files.createDirectories(obstacle);
        Files.writeString(obstacle.resolve("x"), "x");
        assertThatThrownBy(() -> log.append(DataPathFixture.batch(2L, "b"), 0)).isInstanceOf(LogException.class);

        Struct r = fx.call(fx.metadata(), 12, request("orders"));

        Struct topic = r.get(Response.TOPICS).get(0);
        assertThat(topic.get(MetadataResponseTopic.ERROR_CODE)).isZero();
        assertThat(topic.get(MetadataResponseTopic.PARTITIONS)).singleElement().satisfies(p -> {
            assertThat(p.get(MetadataResponsePartition.ERROR_CODE)).isEqualTo(ErrorCode.LEADER_NOT_AVAILABLE.code());
            assertThat(p.get(MetadataResponsePartition.LEADER_ID)).isEqualTo(-1);
            assertThat(p.get(MetadataResponsePartition.REPLICA_NODES)).containsExactly(1);
            assertThat(p.get(MetadataResponsePartition.OFFLINE_REPLICAS)).containsExactly(1);
        });
    }

    @Test
    void authorizedOperationsAreAllOperationsWhenAsked() {
        fixture(Map.of());
        fx.topics.createTopic("orders", 1, Map.of(), false);
        Struct req = request("orders").set(Request.INCLUDE_TOPIC_AUTHORIZED_OPERATIONS, true)
                .set(Request.INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS, true);

        Struct r = fx.call(fx.metadata(), 8, req);

        // READ WRITE CREATE DELETE ALTER DESCRIBE DESCRIBE_CONFIGS ALTER_CONFIGS = bits 3-8, 10, 11
        assertThat(r.get(Response.TOPICS).get(0).get(MetadataResponseTopic.TOPIC_AUTHORIZED_OPERATIONS)).isEqualTo(3576);
        assertThat(r.get(Response.CLUSTER_AUTHORIZED_OPERATIONS)).isEqualTo(8096);
    }

    private static ErrorCode errorOf(Struct response) {
        return ErrorCode.forCode(response.get(Response.TOPICS).get(0).get(MetadataResponseTopic.ERROR_CODE));
    }

    private static Struct request(String... names) {
        Struct r = Request.SCHEMA.newStruct();
        if (names == null) {
            return r.set(Request.TOPICS, null);
        }
        r.set(Request.TOPICS, List.of());
        for (String name : names) {
            r.add(Request.TOPICS).set(MetadataRequestTopic.NAME, name);
        }
        return r;
    }
}
