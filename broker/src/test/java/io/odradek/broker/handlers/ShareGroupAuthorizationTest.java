package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.CoordinatorAclFixture.alice;
import static io.odradek.broker.handlers.CoordinatorAclFixture.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.group.TopicCatalog;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterShareGroupOffsetsApi;
import io.odradek.wire.api.AlterShareGroupOffsetsApi.Request.AlterShareGroupOffsetsRequestTopic;
import io.odradek.wire.api.AlterShareGroupOffsetsApi.Request.AlterShareGroupOffsetsRequestTopic.AlterShareGroupOffsetsRequestPartition;
import io.odradek.wire.api.AlterShareGroupOffsetsApi.Response.AlterShareGroupOffsetsResponseTopic;
import io.odradek.wire.api.AlterShareGroupOffsetsApi.Response.AlterShareGroupOffsetsResponseTopic.AlterShareGroupOffsetsResponsePartition;
import io.odradek.wire.api.DeleteShareGroupOffsetsApi;
import io.odradek.wire.api.DescribeShareGroupOffsetsApi;
import io.odradek.wire.api.DescribeShareGroupOffsetsApi.Request.DescribeShareGroupOffsetsRequestGroup;
import io.odradek.wire.api.DescribeShareGroupOffsetsApi.Response.DescribeShareGroupOffsetsResponseGroup;
import io.odradek.wire.api.DescribeShareGroupOffsetsApi.Response.DescribeShareGroupOffsetsResponseGroup.DescribeShareGroupOffsetsResponseTopic;
import io.odradek.wire.api.DescribeShareGroupOffsetsApi.Response.DescribeShareGroupOffsetsResponseGroup.DescribeShareGroupOffsetsResponseTopic.DescribeShareGroupOffsetsResponsePartition;
import io.odradek.wire.api.ShareGroupDescribeApi;
import io.odradek.wire.api.ShareGroupDescribeApi.Response.DescribedGroup;
import io.odradek.wire.api.ShareGroupHeartbeatApi;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The share group handlers' authorization, as Kafka 4.4's KafkaApis checks it, with an authorizer that allows exactly what is listed. */
class ShareGroupAuthorizationTest {
    @TempDir
    Path dir;
    AdminFixture f;
    GroupCoordinator groups;

    @BeforeEach
    void start() throws Exception {
        f = new AdminFixture(dir, Map.of("offsets.topic.num.partitions", "2"));
        f.topics.createTopic("orders", 2, Map.of(), false);
        f.topics.createTopic("secret", 1, Map.of(), false);
        GroupCoordinatorConfig config = GroupCoordinatorConfig.from(f.config.effectiveConfigs());
        f.topics.createTopic(OffsetsTopic.NAME, config.offsetsTopicPartitions(), config.offsetsTopicConfigs(), false);
        groups = GroupCoordinator.create(config,
                p -> new PartitionLogCoordinatorLog(f.topics.partitionLog(OffsetsTopic.NAME, p).orElseThrow()), catalog());
        groups.startup();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!groups.isLoaded() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    private TopicCatalog catalog() {
        return new TopicCatalog() {
            @Override
            public Topic topic(String name) {
                return f.topics.topic(name).map(t -> new Topic(t.name(), t.id(), t.partitions())).orElse(null);
            }

            @Override
            public Topic topic(UUID id) {
                return f.topics.topicName(id).map(this::topic).orElse(null);
            }

            @Override
            public Collection<String> topicNames() {
                return f.topics.topics().stream().map(TopicInfo::name).toList();
            }
        };
    }

    @AfterEach
    void stop() {
        groups.close();
        f.close();
    }

    private static Struct join(String group, String memberId, String... topics) {
        return ShareGroupHeartbeatApi.Request.SCHEMA.newStruct()
                .set(ShareGroupHeartbeatApi.Request.GROUP_ID, group)
                .set(ShareGroupHeartbeatApi.Request.MEMBER_ID, memberId)
                .set(ShareGroupHeartbeatApi.Request.MEMBER_EPOCH, 0)
                .set(ShareGroupHeartbeatApi.Request.SUBSCRIBED_TOPIC_NAMES, List.of(topics));
    }

    private static ErrorCode error(Struct response, io.odradek.wire.schema.Field<Short> field) {
        return ErrorCode.forCode(response.get(field));
    }

    @Test
    void aHeartbeatNeedsReadOnTheGroupAndDescribeOnEverySubscribedTopic() {
        ShareGroupHeartbeatHandler heartbeat = new ShareGroupHeartbeatHandler(groups);
        Struct join = join("sg", UUID.randomUUID().toString(), "orders", "secret");
        assertThat(error(call(heartbeat, 1, join, alice("DESCRIBE TOPIC orders", "DESCRIBE TOPIC secret")),
                ShareGroupHeartbeatApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED);
        Struct noTopic = call(heartbeat, 1, join, alice("READ GROUP sg", "DESCRIBE TOPIC orders"));
        assertThat(error(noTopic, ShareGroupHeartbeatApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
        assertThat(noTopic.get(ShareGroupHeartbeatApi.Response.MEMBER_ID)).isNull();

        Struct badId = call(heartbeat, 1, join("sg", "x".repeat(37), "orders"), alice("READ GROUP sg", "DESCRIBE TOPIC orders"));
        assertThat(error(badId, ShareGroupHeartbeatApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(badId.get(ShareGroupHeartbeatApi.Response.ERROR_MESSAGE)).isEqualTo("Invalid member id in the request.");

        Struct joined = call(heartbeat, 1, join, alice("READ GROUP sg", "DESCRIBE TOPIC orders", "DESCRIBE TOPIC secret"));
        assertThat(error(joined, ShareGroupHeartbeatApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE);
        assertThat(joined.get(ShareGroupHeartbeatApi.Response.MEMBER_EPOCH)).isEqualTo(1);
        assertThat(joined.get(ShareGroupHeartbeatApi.Response.HEARTBEAT_INTERVAL_MS)).isEqualTo(5000);
    }

    @Test
    void describingNeedsDescribeOnTheGroupAndOnTheTopicsItIsAssigned() {
        ShareGroupHeartbeatHandler heartbeat = new ShareGroupHeartbeatHandler(groups);
        String member = UUID.randomUUID().toString();
        Struct joined = call(heartbeat, 1, join("sg", member, "secret"), alice("READ GROUP sg", "DESCRIBE TOPIC secret"));
        call(heartbeat, 1, ShareGroupHeartbeatApi.Request.SCHEMA.newStruct()
                .set(ShareGroupHeartbeatApi.Request.GROUP_ID, "sg").set(ShareGroupHeartbeatApi.Request.MEMBER_ID, member)
                .set(ShareGroupHeartbeatApi.Request.MEMBER_EPOCH, joined.get(ShareGroupHeartbeatApi.Response.MEMBER_EPOCH)),
                alice("READ GROUP sg"));
        ShareGroupDescribeHandler describe = new ShareGroupDescribeHandler(groups, f.topics);
        Struct request = ShareGroupDescribeApi.Request.SCHEMA.newStruct()
                .set(ShareGroupDescribeApi.Request.GROUP_IDS, List.of("sg", "missing"))
                .set(ShareGroupDescribeApi.Request.INCLUDE_AUTHORIZED_OPERATIONS, false);

        List<Struct> refused = call(describe, 1, request, alice("DESCRIBE GROUP missing")).get(ShareGroupDescribeApi.Response.GROUPS);
        assertThat(refused).extracting(g -> g.get(DescribedGroup.GROUP_ID) + " " + error(g, DescribedGroup.ERROR_CODE))
                .containsExactly("sg GROUP_AUTHORIZATION_FAILED", "missing GROUP_ID_NOT_FOUND");
        assertThat(refused.get(1).get(DescribedGroup.ERROR_MESSAGE)).isEqualTo("Group missing not found.");

        Struct hidden = call(describe, 1, request, alice("DESCRIBE GROUP sg")).get(ShareGroupDescribeApi.Response.GROUPS).get(1);
        assertThat(hidden.get(DescribedGroup.GROUP_ID)).isEqualTo("sg"); // after the refused "missing", as Kafka orders them
        assertThat(error(hidden, DescribedGroup.ERROR_CODE)).isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED);

        Struct shown = call(describe, 1, request, alice("DESCRIBE GROUP sg", "DESCRIBE TOPIC secret"))
                .get(ShareGroupDescribeApi.Response.GROUPS).get(1);
        assertThat(shown.get(DescribedGroup.GROUP_STATE)).isEqualTo("Stable");
        assertThat(shown.get(DescribedGroup.ASSIGNOR_NAME)).isEqualTo("simple");
        Struct m = shown.get(DescribedGroup.MEMBERS).get(0);
        assertThat(m.get(DescribedGroup.Member.MEMBER_ID)).isEqualTo(member);
        assertThat(m.get(DescribedGroup.Member.ASSIGNMENT).get(ShareGroupDescribeApi.Response.Assignment.TOPIC_PARTITIONS))
                .extracting(t -> t.get(ShareGroupDescribeApi.Response.TopicPartitions.TOPIC_NAME) + " "
                        + t.get(ShareGroupDescribeApi.Response.TopicPartitions.PARTITIONS))
                .containsExactly("secret [0]");
    }

    @Test
    void offsetApisNeedTheirGroupAndTopicOperations() {
        // Alter: READ on the group, then READ on each topic (per partition).
        Struct alter = AlterShareGroupOffsetsApi.Request.SCHEMA.newStruct()
                .set(AlterShareGroupOffsetsApi.Request.GROUP_ID, "sg")
                .set(AlterShareGroupOffsetsApi.Request.TOPICS, new ArrayList<>());
        for (String topic : List.of("orders", "secret")) {
            alter.add(AlterShareGroupOffsetsApi.Request.TOPICS).set(AlterShareGroupOffsetsRequestTopic.TOPIC_NAME, topic)
                    .set(AlterShareGroupOffsetsRequestTopic.PARTITIONS, new ArrayList<>())
                    .add(AlterShareGroupOffsetsRequestTopic.PARTITIONS)
                    .set(AlterShareGroupOffsetsRequestPartition.PARTITION_INDEX, 0)
                    .set(AlterShareGroupOffsetsRequestPartition.START_OFFSET, 3L);
        }
        AlterShareGroupOffsetsHandler alterHandler = new AlterShareGroupOffsetsHandler(groups, f.topics);
        assertThat(error(call(alterHandler, 0, alter, alice("READ TOPIC orders")), AlterShareGroupOffsetsApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED);
        Struct altered = call(alterHandler, 0, alter, alice("READ GROUP sg", "READ TOPIC orders"));
        assertThat(error(altered, AlterShareGroupOffsetsApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE);
        assertThat(altered.get(AlterShareGroupOffsetsApi.Response.RESPONSES)).extracting(t -> t.get(AlterShareGroupOffsetsResponseTopic.TOPIC_NAME)
                        + " " + ErrorCode.forCode(t.get(AlterShareGroupOffsetsResponseTopic.PARTITIONS).get(0)
                        .get(AlterShareGroupOffsetsResponsePartition.ERROR_CODE)))
                .containsExactly("orders NONE", "secret TOPIC_AUTHORIZATION_FAILED");

        // Describe: DESCRIBE on the group; all topics (Topics null) shows only those the client may DESCRIBE.
        DescribeShareGroupOffsetsHandler describe = new DescribeShareGroupOffsetsHandler(groups, f.topics);
        Struct all = DescribeShareGroupOffsetsApi.Request.SCHEMA.newStruct().set(DescribeShareGroupOffsetsApi.Request.GROUPS, new ArrayList<>());
        all.add(DescribeShareGroupOffsetsApi.Request.GROUPS).set(DescribeShareGroupOffsetsRequestGroup.GROUP_ID, "sg")
                .set(DescribeShareGroupOffsetsRequestGroup.TOPICS, null);
        Struct group = call(describe, 1, all, alice("DESCRIBE GROUP sg", "DESCRIBE TOPIC orders"))
                .get(DescribeShareGroupOffsetsApi.Response.GROUPS).get(0);
        assertThat(error(group, DescribeShareGroupOffsetsResponseGroup.ERROR_CODE)).isEqualTo(ErrorCode.NONE);
        assertThat(group.get(DescribeShareGroupOffsetsResponseGroup.TOPICS)).extracting(t -> t.get(DescribeShareGroupOffsetsResponseTopic.TOPIC_NAME)
                        + "-" + t.get(DescribeShareGroupOffsetsResponseTopic.PARTITIONS).get(0).get(DescribeShareGroupOffsetsResponsePartition.PARTITION_INDEX))
                .containsExactly("orders-0");
        Struct refused = call(describe, 1, all, alice("DESCRIBE TOPIC orders")).get(DescribeShareGroupOffsetsApi.Response.GROUPS).get(0);
        assertThat(error(refused, DescribeShareGroupOffsetsResponseGroup.ERROR_CODE)).isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED);

        // Delete: DELETE on the group.
        Struct delete = DeleteShareGroupOffsetsApi.Request.SCHEMA.newStruct().set(DeleteShareGroupOffsetsApi.Request.GROUP_ID, "sg")
                .set(DeleteShareGroupOffsetsApi.Request.TOPICS, new ArrayList<>());
        delete.add(DeleteShareGroupOffsetsApi.Request.TOPICS).set(DeleteShareGroupOffsetsApi.Request.DeleteShareGroupOffsetsRequestTopic.TOPIC_NAME, "orders");
        DeleteShareGroupOffsetsHandler deleteHandler = new DeleteShareGroupOffsetsHandler(groups, f.topics);
        assertThat(error(call(deleteHandler, 0, delete, alice("READ GROUP sg", "READ TOPIC orders")),
                DeleteShareGroupOffsetsApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED);
        Struct deleted = call(deleteHandler, 0, delete, alice("DELETE GROUP sg", "READ TOPIC orders"));
        assertThat(error(deleted, DeleteShareGroupOffsetsApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE);
        assertThat(ErrorCode.forCode(deleted.get(DeleteShareGroupOffsetsApi.Response.RESPONSES).get(0)
                .get(DeleteShareGroupOffsetsApi.Response.DeleteShareGroupOffsetsResponseTopic.ERROR_CODE))).isEqualTo(ErrorCode.NONE);
    }
}
