package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.metadata.TopicInfo;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.CreateTopicsApi.Request;
import io.odradek.wire.api.MetadataApi;
import io.odradek.wire.api.CreateTopicsApi.Request.CreatableTopic;
import io.odradek.wire.api.CreateTopicsApi.Response;
import io.odradek.wire.api.CreateTopicsApi.Response.CreatableTopicResult;
import io.odradek.wire.schema.Struct;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The partition limits (per request as Kafka's controller, per broker as odradek.max.partitions) and reserved names. */
class CreateTopicsLimitsTest {
    @TempDir
    Path dir;
    AdminFixture fx;

    @BeforeEach
    void open() {
        fx = new AdminFixture(dir, Map.of("num.partitions", "3", "odradek.max.partitions", "12000"));
    }

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void aHundredThousandPartitionsAreRefusedWithKafkasPolicyViolationAndNothingIsCreated() throws IOException {
        Struct req = Request.SCHEMA.newStruct();
        addTopic(req, "huge", 100_000);

        Struct result = only(fx.call(fx.createTopics(), 7, req));

        assertThat(result.get(CreatableTopicResult.NAME)).isEqualTo("huge");
        assertThat(result.get(CreatableTopicResult.ERROR_CODE)).isEqualTo(ErrorCode.POLICY_VIOLATION.code());
        assertThat(result.get(CreatableTopicResult.ERROR_MESSAGE))
                .isEqualTo("Excessively large number of partitions per request.");
        assertThat(fx.topics.topics()).isEmpty();
        assertThat(partitionDirs()).isEmpty();
    }

    @Test
    void theRequestLimitCountsEveryTopicOfTheRequestAndRefusesThemAll() throws IOException {
        Struct req = Request.SCHEMA.newStruct();
        addTopic(req, "a", 5_000);
        addTopic(req, "b", 4_999);
        addTopic(req, "c", -1); // num.partitions=3: 10,002 in all

        List<Struct> results = fx.call(fx.createTopics(), 7, req).get(Response.TOPICS);

        assertThat(results).extracting(r -> r.get(CreatableTopicResult.NAME)).containsExactly("a", "b", "c");
        assertThat(results).allSatisfy(r -> {
            assertThat(r.get(CreatableTopicResult.ERROR_CODE)).isEqualTo(ErrorCode.POLICY_VIOLATION.code());
            assertThat(r.get(CreatableTopicResult.ERROR_MESSAGE))
                    .isEqualTo("Excessively large number of partitions per request.");
        });
        assertThat(fx.topics.topics()).isEmpty();
        assertThat(partitionDirs()).isEmpty();
    }

    @Test
    void validateOnlyAnswersTheSameLimit() {
        Struct req = Request.SCHEMA.newStruct().set(Request.VALIDATE_ONLY, true);
        addTopic(req, "huge", 10_001);

        Struct result = only(fx.call(fx.createTopics(), 7, req));

        assertThat(result.get(CreatableTopicResult.ERROR_CODE)).isEqualTo(ErrorCode.POLICY_VIOLATION.code());
        assertThat(fx.topics.topics()).isEmpty();
    }

    @Test
    void theBrokerPartitionLimitRefusesATopicThatWouldExceedItAndNamesTheSetting() throws IOException {
        fx.close();
        fx = new AdminFixture(dir, Map.of("odradek.max.partitions", "10"));
        Struct first = Request.SCHEMA.newStruct();
        addTopic(first, "six", 6);
        assertThat(only(fx.call(fx.createTopics(), 7, first)).get(CreatableTopicResult.ERROR_CODE)).isZero();

        Struct req = Request.SCHEMA.newStruct();
        addTopic(req, "five", 5);
        addTopic(req, "four", 4);
        List<Struct> results = fx.call(fx.createTopics(), 7, req).get(Response.TOPICS);

        assertThat(results.get(0).get(CreatableTopicResult.ERROR_CODE)).isEqualTo(ErrorCode.POLICY_VIOLATION.code());
        assertThat(results.get(0).get(CreatableTopicResult.ERROR_MESSAGE)).isEqualTo("Topic 'five' with 5 "
                + "partition(s) would bring this broker to 11 partitions, above its limit of 10 (odradek.max.partitions).");
        assertThat(results.get(1).get(CreatableTopicResult.ERROR_CODE)).isZero();
        assertThat(fx.topics.topics()).extracting(TopicInfo::name).containsExactly("four", "six");
        assertThat(partitionDirs()).hasSize(10).noneMatch(d -> d.startsWith("five-"));
    }

    @Test
    void autoCreationObeysTheBrokerPartitionLimit() throws IOException {
        fx.close();
        fx = new AdminFixture(dir, Map.of("odradek.max.partitions", "2", "num.partitions", "3"));
        Struct req = MetadataApi.Request.SCHEMA.newStruct()
                .set(MetadataApi.Request.ALLOW_AUTO_TOPIC_CREATION, true);
        req.add(MetadataApi.Request.TOPICS)
                .set(MetadataApi.Request.MetadataRequestTopic.NAME, "auto");

        Struct r = fx.call(fx.metadata(), 12, req);

        Struct topic = r.get(MetadataApi.Response.TOPICS).get(0);
        assertThat(topic.get(MetadataApi.Response.MetadataResponseTopic.ERROR_CODE))
                .isEqualTo(ErrorCode.POLICY_VIOLATION.code());
        assertThat(fx.topics.topics()).isEmpty();
        assertThat(partitionDirs()).isEmpty();
    }

    @Test
    void aNonPositivePartitionCountIsInvalidPartitions() {
        Struct req = Request.SCHEMA.newStruct();
        addTopic(req, "zero", 0);
        addTopic(req, "negative", -5);

        List<Struct> results = fx.call(fx.createTopics(), 7, req).get(Response.TOPICS);

        assertThat(results).allSatisfy(r -> {
            assertThat(r.get(CreatableTopicResult.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_PARTITIONS.code());
            assertThat(r.get(CreatableTopicResult.ERROR_MESSAGE))
                    .isEqualTo("Number of partitions was set to an invalid non-positive value.");
        });
    }

    @Test
    void aClientCannotCreateTheInternalTopics() throws IOException {
        Struct req = Request.SCHEMA.newStruct();
        addTopic(req, "__consumer_offsets", 1);
        addTopic(req, "__transaction_state", 1);
        addTopic(req, "__share_group_state", 1);
        addTopic(req, "__cluster_metadata", 1);
        addTopic(req, "fine", 1);

        List<Struct> results = fx.call(fx.createTopics(), 7, req).get(Response.TOPICS);

        for (Struct r : results.subList(0, 4)) {
            String name = r.get(CreatableTopicResult.NAME);
            assertThat(r.get(CreatableTopicResult.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
            assertThat(r.get(CreatableTopicResult.ERROR_MESSAGE))
                    .isEqualTo("Creation of internal topic " + name + " is prohibited.");
        }
        assertThat(results.get(4).get(CreatableTopicResult.ERROR_CODE)).isZero();
        assertThat(fx.topics.topics()).extracting(TopicInfo::name).containsExactly("fine");
        assertThat(partitionDirs()).containsExactly("fine-0");
    }

    @Test
    void theBrokerItselfStillCreatesInternalTopics() {
        TopicInfo offsets = fx.topics.createTopic("__consumer_offsets", 3, Map.of("cleanup.policy", "compact"), false);

        assertThat(offsets.internal()).isTrue();
        assertThat(fx.topics.partitionLog("__consumer_offsets", 2)).isPresent();
    }

    private List<String> partitionDirs() throws IOException {
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .filter(n -> !n.equals("__cluster_metadata")).sorted().toList();
        }
    }

    private static void addTopic(Struct req, String name, int partitions) {
        req.add(Request.TOPICS).set(CreatableTopic.NAME, name).set(CreatableTopic.NUM_PARTITIONS, partitions)
                .set(CreatableTopic.REPLICATION_FACTOR, (short) -1);
    }

    private static Struct only(Struct response) {
        assertThat(response.get(Response.TOPICS)).hasSize(1);
        return response.get(Response.TOPICS).get(0);
    }
}
