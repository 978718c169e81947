package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.odradek.broker.config.DynamicBrokerConfig;
import io.odradek.replication.config.LocalDynamicConfigStore;
import io.odradek.replication.metadata.ClusterMetadata;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.broker.quota.TestQuotaStore;
import io.odradek.broker.security.Session;
import io.odradek.wire.api.AlterClientQuotasApi;
import io.odradek.wire.api.AlterConfigsApi;
import io.odradek.wire.api.AlterPartitionReassignmentsApi;
import io.odradek.wire.api.AlterReplicaLogDirsApi;
import io.odradek.wire.api.CreatePartitionsApi;
import io.odradek.wire.api.CreateTopicsApi;
import io.odradek.wire.api.CreateTopicsApi.Response.CreatableTopicResult;
import io.odradek.wire.api.DeleteTopicsApi;
import io.odradek.wire.api.DeleteTopicsApi.Response.DeletableTopicResult;
import io.odradek.wire.api.DescribeClientQuotasApi;
import io.odradek.wire.api.DescribeClusterApi;
import io.odradek.wire.api.DescribeConfigsApi;
import io.odradek.wire.api.DescribeConfigsApi.Response.DescribeConfigsResult;
import io.odradek.wire.api.DescribeLogDirsApi;
import io.odradek.wire.api.DescribeQuorumApi;
import io.odradek.wire.api.DescribeTopicPartitionsApi;
import io.odradek.wire.api.DescribeTopicPartitionsApi.Response.DescribeTopicPartitionsResponseTopic;
import io.odradek.wire.api.ElectLeadersApi;
import io.odradek.wire.api.IncrementalAlterConfigsApi;
import io.odradek.wire.api.ListPartitionReassignmentsApi;
import io.odradek.wire.api.MetadataApi;
import io.odradek.wire.api.MetadataApi.Request.MetadataRequestTopic;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseTopic;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10: what Kafka 4.4 checks in the topic admin and cluster APIs (KafkaApis, ControllerApis, ConfigHelper),
 * with a scripted authorizer: exact error codes and messages, what stays visible and what is left unchanged.
 */
class AdminAuthorizationTest {
    private static final UUID ZERO = new UUID(0, 0);

    @TempDir
    Path dir;
    AdminFixture fx;
    ScriptedAuthorizer acls;

    @BeforeEach
    void open() {
        fx = new AdminFixture(dir);
        fx.topics.createTopic("orders", 1, Map.of(), false);
        fx.topics.createTopic("secret", 1, Map.of(), false);
        acls = new ScriptedAuthorizer();
        fx.session = acls.session();
    }

    @AfterEach
    void close() {
        fx.close();
    }

    // ------------------------------------------------------------------ Metadata

    @Test
    void allTopicsMetadataLeavesOutTopicsWithoutDescribe() {
        acls.allowTopic(AclOperation.DESCRIBE, "orders");

        Struct r = fx.call(fx.metadata(), 12, MetadataApi.Request.SCHEMA.newStruct().set(MetadataApi.Request.TOPICS, null));

        assertThat(r.get(MetadataApi.Response.TOPICS)).extracting(t -> t.get(MetadataResponseTopic.NAME))
                .containsExactly("orders");
        assertThat(r.get(MetadataApi.Response.BROKERS)).hasSize(1);
    }

    @Test
    void namedTopicWithoutDescribeIsRefusedWithoutSayingWhetherItExists() {
        acls.allowTopic(AclOperation.DESCRIBE, "orders");

        Struct r = fx.call(fx.metadata(), 12, metadataRequest(false, "orders", "secret", "ghost"));

        assertThat(r.get(MetadataApi.Response.TOPICS)).extracting(t -> t.get(MetadataResponseTopic.NAME),
                        t -> ErrorCode.forCode(t.get(MetadataResponseTopic.ERROR_CODE)), t -> t.get(MetadataResponseTopic.TOPIC_ID),
                        t -> t.get(MetadataResponseTopic.PARTITIONS).size())
                .containsExactly(tuple("orders", ErrorCode.NONE, fx.topics.topic("orders").orElseThrow().id(), 1),
                        tuple("secret", ErrorCode.TOPIC_AUTHORIZATION_FAILED, ZERO, 0),
                        tuple("ghost", ErrorCode.TOPIC_AUTHORIZATION_FAILED, ZERO, 0));
    }

    @Test
    void topicByIdWithoutDescribeNamesTheIdButNotTheTopic() {
        UUID id = fx.topics.topic("secret").orElseThrow().id();
        Struct request = MetadataApi.Request.SCHEMA.newStruct().set(MetadataApi.Request.TOPICS, List.of());
        request.add(MetadataApi.Request.TOPICS).set(MetadataRequestTopic.TOPIC_ID, id).set(MetadataRequestTopic.NAME, null);

        Struct r = fx.call(fx.metadata(), 12, request);

        Struct topic = r.get(MetadataApi.Response.TOPICS).get(0);
        assertThat(topic.get(MetadataResponseTopic.ERROR_CODE)).isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(topic.get(MetadataResponseTopic.NAME)).isNull();
        assertThat(topic.get(MetadataResponseTopic.TOPIC_ID)).isEqualTo(id);
    }

    @Test
    void autoCreationWithoutCreateIsRefusedAndCreatesNothing() {
        acls.allowTopic(AclOperation.DESCRIBE, "fresh");

        Struct r = fx.call(fx.metadata(), 12, metadataRequest(true, "fresh"));

        Struct topic = r.get(MetadataApi.Response.TOPICS).get(0);
        assertThat(topic.get(MetadataResponseTopic.ERROR_CODE)).isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(topic.get(MetadataResponseTopic.TOPIC_ID)).isEqualTo(ZERO);
        assertThat(fx.topics.topic("fresh")).isEmpty();
    }

    @Test
    void autoCreationWithCreateOnTheTopicCreatesIt() {
        acls.allowTopic(AclOperation.DESCRIBE, "fresh").allowTopic(AclOperation.CREATE, "fresh");

        Struct r = fx.call(fx.metadata(), 12, metadataRequest(true, "fresh"));

        assertThat(r.get(MetadataApi.Response.TOPICS).get(0).get(MetadataResponseTopic.ERROR_CODE))
                .isEqualTo(ErrorCode.NONE.code());
        assertThat(fx.topics.topic("fresh")).isPresent();
    }

    @Test
    void autoCreationWithCreateOnTheClusterCreatesIt() {
        acls.allowTopic(AclOperation.DESCRIBE, "fresh").allowCluster(AclOperation.CREATE);

        fx.call(fx.metadata(), 12, metadataRequest(true, "fresh"));

        assertThat(fx.topics.topic("fresh")).isPresent();
    }

    @Test
    void aMissingTopicNotToBeAutoCreatedNeedsNoCreate() {
        acls.allowTopic(AclOperation.DESCRIBE, "fresh");

        Struct r = fx.call(fx.metadata(), 12, metadataRequest(false, "fresh"));

        assertThat(r.get(MetadataApi.Response.TOPICS).get(0).get(MetadataResponseTopic.ERROR_CODE))
                .isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(acls.asked).noneMatch(g -> g.operation() == AclOperation.CREATE);
    }

    @Test
    void withoutAnAuthorizerAMissingTopicAlsoCarriesItsAuthorizedOperations() {
        fx.session = Session.PLAINTEXT_ANONYMOUS;

        Struct r = fx.call(fx.metadata(), 12, metadataRequest(false, "ghost")
                .set(MetadataApi.Request.INCLUDE_TOPIC_AUTHORIZED_OPERATIONS, true));

        Struct topic = r.get(MetadataApi.Response.TOPICS).get(0);
        assertThat(topic.get(MetadataResponseTopic.ERROR_CODE)).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(topic.get(MetadataResponseTopic.TOPIC_AUTHORIZED_OPERATIONS)).isEqualTo(3576);
    }

    @Test
    void clusterAuthorizedOperationsAreZeroWithoutDescribeOnTheCluster() {
        Struct r = fx.call(fx.metadata(), 10, MetadataApi.Request.SCHEMA.newStruct().set(MetadataApi.Request.TOPICS, null)
                .set(MetadataApi.Request.INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS, true));
        assertThat(r.get(MetadataApi.Response.CLUSTER_AUTHORIZED_OPERATIONS)).isZero();

        Struct d = fx.call(fx.describeCluster(), 1, DescribeClusterApi.Request.SCHEMA.newStruct()
                .set(DescribeClusterApi.Request.INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS, true));
        assertThat(d.get(DescribeClusterApi.Response.ERROR_CODE)).isZero();
        assertThat(d.get(DescribeClusterApi.Response.CLUSTER_AUTHORIZED_OPERATIONS)).isZero();
        assertThat(d.get(DescribeClusterApi.Response.BROKERS)).hasSize(1);
    }

    // ------------------------------------------------------------------ DescribeTopicPartitions

    @Test
    void describeTopicPartitionsRefusesNamedTopicsWithoutDescribeAndHidesThemFromListings() {
        Struct request = DescribeTopicPartitionsApi.Request.SCHEMA.newStruct()
                .set(DescribeTopicPartitionsApi.Request.RESPONSE_PARTITION_LIMIT, 2000);
        request.add(DescribeTopicPartitionsApi.Request.TOPICS).set(DescribeTopicPartitionsApi.Request.TopicRequest.NAME, "secret");
        request.add(DescribeTopicPartitionsApi.Request.TOPICS).set(DescribeTopicPartitionsApi.Request.TopicRequest.NAME, "ghost");

        Struct r = fx.call(new DescribeTopicPartitionsHandler(fx.cluster), 0, request);

        assertThat(r.get(DescribeTopicPartitionsApi.Response.TOPICS)).extracting(
                        t -> t.get(DescribeTopicPartitionsResponseTopic.NAME),
                        t -> ErrorCode.forCode(t.get(DescribeTopicPartitionsResponseTopic.ERROR_CODE)),
                        t -> t.get(DescribeTopicPartitionsResponseTopic.TOPIC_ID),
                        t -> t.get(DescribeTopicPartitionsResponseTopic.PARTITIONS).size())
                .containsExactly(tuple("ghost", ErrorCode.TOPIC_AUTHORIZATION_FAILED, ZERO, 0),
                        tuple("secret", ErrorCode.TOPIC_AUTHORIZATION_FAILED, ZERO, 0));

        Struct all = fx.call(new DescribeTopicPartitionsHandler(fx.cluster), 0, DescribeTopicPartitionsApi.Request.SCHEMA
                .newStruct().set(DescribeTopicPartitionsApi.Request.RESPONSE_PARTITION_LIMIT, 2000));
        assertThat(all.get(DescribeTopicPartitionsApi.Response.TOPICS)).isEmpty();
    }

    // ------------------------------------------------------------------ CreateTopics, DeleteTopics, CreatePartitions

    @Test
    void createTopicsNeedsCreateAndShowsConfigsOnlyWithDescribeConfigs() {
        acls.allowTopic(AclOperation.CREATE, "open").allowTopic(AclOperation.DESCRIBE_CONFIGS, "open")
                .allowTopic(AclOperation.CREATE, "blind");
        Struct request = CreateTopicsApi.Request.SCHEMA.newStruct();
        for (String name : List.of("open", "blind", "denied")) {
            request.add(CreateTopicsApi.Request.TOPICS).set(CreateTopicsApi.Request.CreatableTopic.NAME, name)
                    .set(CreateTopicsApi.Request.CreatableTopic.NUM_PARTITIONS, 2)
                    .set(CreateTopicsApi.Request.CreatableTopic.REPLICATION_FACTOR, (short) 1);
        }

        Struct r = fx.call(fx.createTopics(), 7, request);

        assertThat(r.get(CreateTopicsApi.Response.TOPICS)).extracting(t -> t.get(CreatableTopicResult.NAME),
                        t -> ErrorCode.forCode(t.get(CreatableTopicResult.ERROR_CODE)),
                        t -> t.get(CreatableTopicResult.ERROR_MESSAGE),
                        t -> ErrorCode.forCode(t.get(CreatableTopicResult.TOPIC_CONFIG_ERROR_CODE)),
                        t -> t.get(CreatableTopicResult.NUM_PARTITIONS),
                        t -> t.get(CreatableTopicResult.CONFIGS).isEmpty())
                .containsExactlyInAnyOrder(tuple("open", ErrorCode.NONE, null, ErrorCode.NONE, 2, false),
                        tuple("blind", ErrorCode.NONE, null, ErrorCode.TOPIC_AUTHORIZATION_FAILED, -1, true),
                        tuple("denied", ErrorCode.TOPIC_AUTHORIZATION_FAILED, "Authorization failed.", ErrorCode.NONE, -1, true));
        assertThat(fx.topics.topic("blind").orElseThrow().partitions()).isEqualTo(2);
        assertThat(fx.topics.topic("denied")).isEmpty();
    }

    @Test
    void createTopicsWithCreateOnTheClusterCreatesAnyTopic() {
        acls.allowCluster(AclOperation.CREATE);
        Struct request = CreateTopicsApi.Request.SCHEMA.newStruct();
        request.add(CreateTopicsApi.Request.TOPICS).set(CreateTopicsApi.Request.CreatableTopic.NAME, "anything")
                .set(CreateTopicsApi.Request.CreatableTopic.NUM_PARTITIONS, 1)
                .set(CreateTopicsApi.Request.CreatableTopic.REPLICATION_FACTOR, (short) 1);

        Struct r = fx.call(fx.createTopics(), 7, request);

        assertThat(r.get(CreateTopicsApi.Response.TOPICS).get(0).get(CreatableTopicResult.ERROR_CODE)).isZero();
        assertThat(fx.topics.topic("anything")).isPresent();
    }

    @Test
    void deleteTopicsByNameNeedsDescribeThenDelete() {
        acls.allowTopic(AclOperation.DESCRIBE, "orders").allowTopic(AclOperation.DESCRIBE, "ghost")
                .allowTopic(AclOperation.DELETE, "gone");
        fx.topics.createTopic("gone", 1, Map.of(), false);
        acls.allowTopic(AclOperation.DESCRIBE, "gone");
        Struct request = DeleteTopicsApi.Request.SCHEMA.newStruct().set(DeleteTopicsApi.Request.TIMEOUT_MS, 5000)
                .set(DeleteTopicsApi.Request.TOPIC_NAMES, List.of("gone", "orders", "secret", "ghost"));

        Struct r = fx.call(fx.deleteTopics(), 5, request);

        assertThat(r.get(DeleteTopicsApi.Response.RESPONSES)).extracting(t -> t.get(DeletableTopicResult.NAME),
                        t -> ErrorCode.forCode(t.get(DeletableTopicResult.ERROR_CODE)))
                .containsExactly(tuple("gone", ErrorCode.NONE),
                        tuple("orders", ErrorCode.TOPIC_AUTHORIZATION_FAILED),
                        tuple("secret", ErrorCode.TOPIC_AUTHORIZATION_FAILED),
                        tuple("ghost", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION));
        assertThat(fx.topics.topic("gone")).isEmpty();
        assertThat(fx.topics.topic("orders")).isPresent();
        assertThat(fx.topics.topic("secret")).isPresent();
    }

    @Test
    void deleteTopicsByIdNamesTheTopicOnlyToWhoMayDescribeIt() {
        acls.allowTopic(AclOperation.DESCRIBE, "orders");
        UUID orders = fx.topics.topic("orders").orElseThrow().id();
        UUID secret = fx.topics.topic("secret").orElseThrow().id();
        UUID unknown = UUID.randomUUID();
        Struct request = DeleteTopicsApi.Request.SCHEMA.newStruct().set(DeleteTopicsApi.Request.TIMEOUT_MS, 5000);
        for (UUID id : List.of(orders, secret, unknown)) {
            request.add(DeleteTopicsApi.Request.TOPICS).set(DeleteTopicsApi.Request.DeleteTopicState.NAME, null)
                    .set(DeleteTopicsApi.Request.DeleteTopicState.TOPIC_ID, id);
        }

        Struct r = fx.call(fx.deleteTopics(), 6, request);

        assertThat(r.get(DeleteTopicsApi.Response.RESPONSES)).extracting(t -> t.get(DeletableTopicResult.NAME),
                        t -> t.get(DeletableTopicResult.TOPIC_ID), t -> ErrorCode.forCode(t.get(DeletableTopicResult.ERROR_CODE)),
                        t -> t.get(DeletableTopicResult.ERROR_MESSAGE))
                .containsExactly(tuple("orders", orders, ErrorCode.TOPIC_AUTHORIZATION_FAILED, "Topic authorization failed."),
                        tuple(null, secret, ErrorCode.TOPIC_AUTHORIZATION_FAILED, "Topic authorization failed."),
                        tuple(null, unknown, ErrorCode.UNKNOWN_TOPIC_ID, "This server does not host this topic ID."));
        assertThat(fx.topics.topic("orders")).isPresent();
    }

    @Test
    void deleteTopicsWithDeleteOnTheClusterDeletesAnyTopic() {
        acls.allowCluster(AclOperation.DELETE);
        Struct request = DeleteTopicsApi.Request.SCHEMA.newStruct().set(DeleteTopicsApi.Request.TIMEOUT_MS, 5000)
                .set(DeleteTopicsApi.Request.TOPIC_NAMES, List.of("secret"));

        Struct r = fx.call(fx.deleteTopics(), 5, request);

        assertThat(r.get(DeleteTopicsApi.Response.RESPONSES).get(0).get(DeletableTopicResult.ERROR_CODE)).isZero();
        assertThat(fx.topics.topic("secret")).isEmpty();
    }

    @Test
    void createPartitionsNeedsAlterOnTheTopic() {
        acls.allowTopic(AclOperation.ALTER, "orders");
        Struct request = CreatePartitionsApi.Request.SCHEMA.newStruct().set(CreatePartitionsApi.Request.TIMEOUT_MS, 5000);
        for (String name : List.of("orders", "secret", "ghost")) {
            request.add(CreatePartitionsApi.Request.TOPICS).set(CreatePartitionsApi.Request.CreatePartitionsTopic.NAME, name)
                    .set(CreatePartitionsApi.Request.CreatePartitionsTopic.COUNT, 3)
                    .set(CreatePartitionsApi.Request.CreatePartitionsTopic.ASSIGNMENTS, null);
        }

        Struct r = fx.call(new CreatePartitionsHandler(fx.topics, fx.cluster), 3, request);

        assertThat(r.get(CreatePartitionsApi.Response.RESULTS)).extracting(
                        t -> t.get(CreatePartitionsApi.Response.CreatePartitionsTopicResult.NAME),
                        t -> ErrorCode.forCode(t.get(CreatePartitionsApi.Response.CreatePartitionsTopicResult.ERROR_CODE)),
                        t -> t.get(CreatePartitionsApi.Response.CreatePartitionsTopicResult.ERROR_MESSAGE))
                .containsExactly(tuple("orders", ErrorCode.NONE, null),
                        tuple("secret", ErrorCode.TOPIC_AUTHORIZATION_FAILED, null),
                        tuple("ghost", ErrorCode.TOPIC_AUTHORIZATION_FAILED, null));
        assertThat(fx.topics.topic("orders").orElseThrow().partitions()).isEqualTo(3);
        assertThat(fx.topics.topic("secret").orElseThrow().partitions()).isEqualTo(1);
    }

    // ------------------------------------------------------------------ configs

    @Test
    void describeConfigsChecksEachResource() {
        acls.allowTopic(AclOperation.DESCRIBE_CONFIGS, "orders");
        Struct request = DescribeConfigsApi.Request.SCHEMA.newStruct();
        addDescribe(request, ConfigResourceAccess.TOPIC, "orders");
        addDescribe(request, ConfigResourceAccess.TOPIC, "secret");
        addDescribe(request, ConfigResourceAccess.TOPIC, "ghost");
        addDescribe(request, ConfigResourceAccess.BROKER, "1");
        addDescribe(request, ConfigResourceAccess.BROKER_LOGGER, "1");
        addDescribe(request, ConfigResourceAccess.GROUP, "g");

        Struct r = fx.call(fx.describeConfigs(), 4, request);

        assertThat(r.get(DescribeConfigsApi.Response.RESULTS)).extracting(t -> t.get(DescribeConfigsResult.RESOURCE_NAME),
                        t -> ErrorCode.forCode(t.get(DescribeConfigsResult.ERROR_CODE)),
                        t -> t.get(DescribeConfigsResult.ERROR_MESSAGE), t -> t.get(DescribeConfigsResult.CONFIGS).isEmpty())
                .containsExactly(tuple("orders", ErrorCode.NONE, null, false),
                        tuple("secret", ErrorCode.TOPIC_AUTHORIZATION_FAILED, "Topic authorization failed.", true),
                        tuple("ghost", ErrorCode.TOPIC_AUTHORIZATION_FAILED, "Topic authorization failed.", true),
                        tuple("1", ErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Cluster authorization failed.", true),
                        tuple("1", ErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Cluster authorization failed.", true),
                        tuple("g", ErrorCode.GROUP_AUTHORIZATION_FAILED, "Group authorization failed.", true));
    }

    @Test
    void incrementalAlterConfigsChangesOnlyResourcesWithAlterConfigs() {
        acls.allowTopic(AclOperation.ALTER_CONFIGS, "orders");
        Struct request = IncrementalAlterConfigsApi.Request.SCHEMA.newStruct();
        for (Object[] target : new Object[][] {{ConfigResourceAccess.TOPIC, "orders"}, {ConfigResourceAccess.TOPIC, "secret"},
                {ConfigResourceAccess.BROKER, "1"}}) {
            boolean broker = (byte) target[0] == ConfigResourceAccess.BROKER;
            request.add(IncrementalAlterConfigsApi.Request.RESOURCES)
                    .set(IncrementalAlterConfigsApi.Request.AlterConfigsResource.RESOURCE_TYPE, (byte) target[0])
                    .set(IncrementalAlterConfigsApi.Request.AlterConfigsResource.RESOURCE_NAME, (String) target[1])
                    .add(IncrementalAlterConfigsApi.Request.AlterConfigsResource.CONFIGS)
                    .set(IncrementalAlterConfigsApi.Request.AlterConfigsResource.AlterableConfig.NAME,
                            broker ? "log.retention.ms" : "retention.ms")
                    .set(IncrementalAlterConfigsApi.Request.AlterConfigsResource.AlterableConfig.CONFIG_OPERATION, (byte) 0)
                    .set(IncrementalAlterConfigsApi.Request.AlterConfigsResource.AlterableConfig.VALUE, "60000");
        }

        Struct r = fx.call(new IncrementalAlterConfigsHandler(fx.topics, dynamicConfig()), 1, request);

        assertThat(r.get(IncrementalAlterConfigsApi.Response.RESPONSES)).extracting(
                        t -> t.get(IncrementalAlterConfigsApi.Response.AlterConfigsResourceResponse.RESOURCE_NAME),
                        t -> ErrorCode.forCode(t.get(IncrementalAlterConfigsApi.Response.AlterConfigsResourceResponse.ERROR_CODE)),
                        t -> t.get(IncrementalAlterConfigsApi.Response.AlterConfigsResourceResponse.ERROR_MESSAGE))
                .containsExactly(tuple("orders", ErrorCode.NONE, null),
                        tuple("secret", ErrorCode.TOPIC_AUTHORIZATION_FAILED, "Topic authorization failed."),
                        tuple("1", ErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Cluster authorization failed."));
        assertThat(fx.topics.topic("orders").orElseThrow().configs()).containsEntry("retention.ms", "60000");
        assertThat(fx.topics.topic("secret").orElseThrow().configs()).isEmpty();
    }

    @Test
    void legacyAlterConfigsNeedsAlterConfigsOnTheTopic() {
        Struct request = AlterConfigsApi.Request.SCHEMA.newStruct();
        request.add(AlterConfigsApi.Request.RESOURCES)
                .set(AlterConfigsApi.Request.AlterConfigsResource.RESOURCE_TYPE, ConfigResourceAccess.TOPIC)
                .set(AlterConfigsApi.Request.AlterConfigsResource.RESOURCE_NAME, "orders")
                .add(AlterConfigsApi.Request.AlterConfigsResource.CONFIGS)
                .set(AlterConfigsApi.Request.AlterConfigsResource.AlterableConfig.NAME, "retention.ms")
                .set(AlterConfigsApi.Request.AlterConfigsResource.AlterableConfig.VALUE, "60000");

        Struct r = fx.call(new AlterConfigsHandler(fx.topics, dynamicConfig()), 1, request);

        Struct result = r.get(AlterConfigsApi.Response.RESPONSES).get(0);
        assertThat(result.get(AlterConfigsApi.Response.AlterConfigsResourceResponse.ERROR_CODE))
                .isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(fx.topics.topic("orders").orElseThrow().configs()).isEmpty();
    }

    // ------------------------------------------------------------------ cluster operations

    @Test
    void describeLogDirsWithoutDescribeOnTheClusterIsEmptyWithTheError() {
        Struct r = fx.call(new DescribeLogDirsHandler(fx.topics), 4,
                DescribeLogDirsApi.Request.SCHEMA.newStruct().set(DescribeLogDirsApi.Request.TOPICS, null));

        assertThat(r.get(DescribeLogDirsApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(r.get(DescribeLogDirsApi.Response.RESULTS)).isEmpty();

        acls.allowCluster(AclOperation.DESCRIBE);
        Struct allowed = fx.call(new DescribeLogDirsHandler(fx.topics), 4,
                DescribeLogDirsApi.Request.SCHEMA.newStruct().set(DescribeLogDirsApi.Request.TOPICS, null));
        assertThat(allowed.get(DescribeLogDirsApi.Response.ERROR_CODE)).isZero();
        assertThat(allowed.get(DescribeLogDirsApi.Response.RESULTS)).hasSize(1);
    }

    @Test
    void electLeadersWithoutAlterOnTheClusterFailsEveryPartition() {
        Struct request = ElectLeadersApi.Request.SCHEMA.newStruct().set(ElectLeadersApi.Request.ELECTION_TYPE, (byte) 0)
                .set(ElectLeadersApi.Request.TIMEOUT_MS, 5000);
        request.add(ElectLeadersApi.Request.TOPIC_PARTITIONS).set(ElectLeadersApi.Request.TopicPartitions.TOPIC, "orders")
                .set(ElectLeadersApi.Request.TopicPartitions.PARTITIONS, List.of(0, 1));

        Struct r = fx.call(new ElectLeadersHandler(fx.cluster), 2, request);

        assertThat(r.get(ElectLeadersApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(r.get(ElectLeadersApi.Response.REPLICA_ELECTION_RESULTS).get(0)
                .get(ElectLeadersApi.Response.ReplicaElectionResult.PARTITION_RESULT)).extracting(
                        p -> p.get(ElectLeadersApi.Response.ReplicaElectionResult.PartitionResult.PARTITION_ID),
                        p -> ErrorCode.forCode(p.get(ElectLeadersApi.Response.ReplicaElectionResult.PartitionResult.ERROR_CODE)),
                        p -> p.get(ElectLeadersApi.Response.ReplicaElectionResult.PartitionResult.ERROR_MESSAGE))
                .containsExactly(tuple(0, ErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Cluster authorization failed."),
                        tuple(1, ErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Cluster authorization failed."));
    }

    @Test
    void partitionReassignmentsNeedAlterToChangeAndDescribeToList() {
        Struct alter = AlterPartitionReassignmentsApi.Request.SCHEMA.newStruct();
        alter.add(AlterPartitionReassignmentsApi.Request.TOPICS)
                .set(AlterPartitionReassignmentsApi.Request.ReassignableTopic.NAME, "orders")
                .add(AlterPartitionReassignmentsApi.Request.ReassignableTopic.PARTITIONS)
                .set(AlterPartitionReassignmentsApi.Request.ReassignableTopic.ReassignablePartition.PARTITION_INDEX, 0)
                .set(AlterPartitionReassignmentsApi.Request.ReassignableTopic.ReassignablePartition.REPLICAS, List.of(1));

        Struct altered = fx.call(new AlterPartitionReassignmentsHandler(fx.cluster), 0, alter);

        assertThat(altered.get(AlterPartitionReassignmentsApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
        Struct p = altered.get(AlterPartitionReassignmentsApi.Response.RESPONSES).get(0)
                .get(AlterPartitionReassignmentsApi.Response.ReassignableTopicResponse.PARTITIONS).get(0);
        assertThat(p.get(AlterPartitionReassignmentsApi.Response.ReassignableTopicResponse.ReassignablePartitionResponse.ERROR_CODE))
                .isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());

        Struct list = ListPartitionReassignmentsApi.Request.SCHEMA.newStruct();
        list.add(ListPartitionReassignmentsApi.Request.TOPICS)
                .set(ListPartitionReassignmentsApi.Request.ListPartitionReassignmentsTopics.NAME, "orders")
                .set(ListPartitionReassignmentsApi.Request.ListPartitionReassignmentsTopics.PARTITION_INDEXES, List.of(0));
        Struct listed = fx.call(new ListPartitionReassignmentsHandler(fx.cluster), 0, list);
        assertThat(listed.get(ListPartitionReassignmentsApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(listed.get(ListPartitionReassignmentsApi.Response.ERROR_MESSAGE)).isEqualTo("Cluster authorization failed.");
        assertThat(listed.get(ListPartitionReassignmentsApi.Response.TOPICS)).extracting(
                t -> t.get(ListPartitionReassignmentsApi.Response.OngoingTopicReassignment.NAME)).containsExactly("orders");

        acls.allowCluster(AclOperation.DESCRIBE);
        Struct allowed = fx.call(new ListPartitionReassignmentsHandler(fx.cluster), 0, list);
        assertThat(allowed.get(ListPartitionReassignmentsApi.Response.ERROR_CODE)).isZero();
        assertThat(allowed.get(ListPartitionReassignmentsApi.Response.TOPICS)).isEmpty();
    }

    @Test
    void describeQuorumNeedsDescribeOnTheCluster() {
        Struct request = DescribeQuorumApi.Request.SCHEMA.newStruct();
        request.add(DescribeQuorumApi.Request.TOPICS).set(DescribeQuorumApi.Request.TopicData.TOPIC_NAME, "__cluster_metadata")
                .add(DescribeQuorumApi.Request.TopicData.PARTITIONS)
                .set(DescribeQuorumApi.Request.TopicData.PartitionData.PARTITION_INDEX, 0);

        Struct r = fx.call(new DescribeQuorumHandler(fx.cluster), 2, request);

        assertThat(r.get(DescribeQuorumApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(r.get(DescribeQuorumApi.Response.ERROR_MESSAGE)).isEqualTo("Cluster authorization failed.");
        assertThat(r.get(DescribeQuorumApi.Response.TOPICS)).isEmpty();
        assertThat(acls.asked).containsExactly(new ScriptedAuthorizer.Grant(AclOperation.DESCRIBE, ResourceType.CLUSTER,
                "kafka-cluster"));
    }

    @Test
    void clientQuotasNeedDescribeConfigsToReadAndAlterConfigsToChange() {
        TestQuotaStore store = new TestQuotaStore();
        Struct alter = AlterClientQuotasApi.Request.SCHEMA.newStruct();
        Struct entry = alter.add(AlterClientQuotasApi.Request.ENTRIES);
        entry.add(AlterClientQuotasApi.Request.EntryData.ENTITY)
                .set(AlterClientQuotasApi.Request.EntryData.EntityData.ENTITY_TYPE, "user")
                .set(AlterClientQuotasApi.Request.EntryData.EntityData.ENTITY_NAME, "alice");
        entry.add(AlterClientQuotasApi.Request.EntryData.OPS)
                .set(AlterClientQuotasApi.Request.EntryData.OpData.KEY, "producer_byte_rate")
                .set(AlterClientQuotasApi.Request.EntryData.OpData.VALUE, 1024.0);

        Struct altered = fx.call(new AlterClientQuotasHandler(store), 1, alter);

        Struct answer = altered.get(AlterClientQuotasApi.Response.ENTRIES).get(0);
        assertThat(answer.get(AlterClientQuotasApi.Response.EntryData.ERROR_CODE))
                .isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(answer.get(AlterClientQuotasApi.Response.EntryData.ERROR_MESSAGE)).isEqualTo("Cluster authorization failed.");
        assertThat(answer.get(AlterClientQuotasApi.Response.EntryData.ENTITY)).extracting(
                        e -> e.get(AlterClientQuotasApi.Response.EntryData.EntityData.ENTITY_TYPE),
                        e -> e.get(AlterClientQuotasApi.Response.EntryData.EntityData.ENTITY_NAME))
                .containsExactly(tuple("user", "alice"));
        assertThat(store.quotas()).isEmpty();
        assertThat(store.alterCalls).isZero();

        Struct described = fx.call(new DescribeClientQuotasHandler(store), 1,
                DescribeClientQuotasApi.Request.SCHEMA.newStruct());
        assertThat(described.get(DescribeClientQuotasApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(described.get(DescribeClientQuotasApi.Response.ERROR_MESSAGE)).isEqualTo("Cluster authorization failed.");
        assertThat(described.get(DescribeClientQuotasApi.Response.ENTRIES)).isNull();
    }

    @Test
    void alterReplicaLogDirsWithoutAlterOnTheClusterMovesNothing() {
        Struct request = AlterReplicaLogDirsApi.Request.SCHEMA.newStruct();
        request.add(AlterReplicaLogDirsApi.Request.DIRS).set(AlterReplicaLogDirsApi.Request.AlterReplicaLogDir.PATH, "/elsewhere")
                .add(AlterReplicaLogDirsApi.Request.AlterReplicaLogDir.TOPICS)
                .set(AlterReplicaLogDirsApi.Request.AlterReplicaLogDir.AlterReplicaLogDirTopic.NAME, "orders")
                .set(AlterReplicaLogDirsApi.Request.AlterReplicaLogDir.AlterReplicaLogDirTopic.PARTITIONS, List.of(0));

        Struct r = fx.call(new AlterReplicaLogDirsHandler(fx.topics, null, null), 2, request);

        Struct topic = r.get(AlterReplicaLogDirsApi.Response.RESULTS).get(0);
        assertThat(topic.get(AlterReplicaLogDirsApi.Response.AlterReplicaLogDirTopicResult.TOPIC_NAME)).isEqualTo("orders");
        assertThat(topic.get(AlterReplicaLogDirsApi.Response.AlterReplicaLogDirTopicResult.PARTITIONS)).extracting(
                        p -> p.get(AlterReplicaLogDirsApi.Response.AlterReplicaLogDirTopicResult.AlterReplicaLogDirPartitionResult.PARTITION_INDEX),
                        p -> ErrorCode.forCode(p.get(
                                AlterReplicaLogDirsApi.Response.AlterReplicaLogDirTopicResult.AlterReplicaLogDirPartitionResult.ERROR_CODE)))
                .containsExactly(tuple(0, ErrorCode.CLUSTER_AUTHORIZATION_FAILED));
    }

    // ------------------------------------------------------------------ helpers

    private DynamicBrokerConfig dynamicConfig() {
        return new DynamicBrokerConfig(fx.config, new LocalDynamicConfigStore(dir.resolve(ClusterMetadata.DIR_NAME)));
    }

    private static Struct metadataRequest(boolean autoCreate, String... names) {
        Struct r = MetadataApi.Request.SCHEMA.newStruct().set(MetadataApi.Request.TOPICS, List.of())
                .set(MetadataApi.Request.ALLOW_AUTO_TOPIC_CREATION, autoCreate);
        for (String name : names) {
            r.add(MetadataApi.Request.TOPICS).set(MetadataRequestTopic.NAME, name);
        }
        return r;
    }

    private static void addDescribe(Struct request, byte type, String name) {
        request.add(DescribeConfigsApi.Request.RESOURCES)
                .set(DescribeConfigsApi.Request.DescribeConfigsResource.RESOURCE_TYPE, type)
                .set(DescribeConfigsApi.Request.DescribeConfigsResource.RESOURCE_NAME, name)
                .set(DescribeConfigsApi.Request.DescribeConfigsResource.CONFIGURATION_KEYS, null);
    }
}
