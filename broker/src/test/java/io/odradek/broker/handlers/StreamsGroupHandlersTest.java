package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.CoordinatorAclFixture.alice;
import static io.odradek.broker.handlers.CoordinatorAclFixture.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.security.Session;
import io.odradek.coordinator.group.GroupConfigSource;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.group.StreamsGroupConfig;
import io.odradek.coordinator.group.TopicCatalog;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.StreamsGroupDescribeApi;
import io.odradek.wire.api.StreamsGroupHeartbeatApi.Request;
import io.odradek.wire.api.StreamsGroupHeartbeatApi.Response;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * StreamsGroupHeartbeat and StreamsGroupDescribe through the real codec, a real group coordinator and the
 * fixture's topics: the broker creating a topology's internal topics, and Kafka 4.4's authorization.
 */
class StreamsGroupHandlersTest {
    static final String REPARTITION = "app-counts-repartition";
    static final String CHANGELOG = "app-counts-changelog";

    @TempDir
    Path dir;
    AdminFixture f;
    GroupCoordinator groups;

    @BeforeEach
    void start() throws Exception {
        f = new AdminFixture(dir, Map.of("offsets.topic.num.partitions", "2"));
        f.topics.createTopic("lines", 3, Map.of(), false);
        GroupCoordinatorConfig config = GroupCoordinatorConfig.from(f.config.effectiveConfigs());
        f.topics.createTopic(OffsetsTopic.NAME, config.offsetsTopicPartitions(), config.offsetsTopicConfigs(), false);
        groups = GroupCoordinator.create(config,
                p -> new PartitionLogCoordinatorLog(f.topics.partitionLog(OffsetsTopic.NAME, p).orElseThrow()), catalog());
        groups.configureStreams(StreamsGroupConfig.from(f.config.effectiveConfigs(), GroupConfigSource.NONE));
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

    /** Word count's topology as Kafka Streams sends it on joining. */
    static Struct join(String memberId) {
        Struct r = Request.SCHEMA.newStruct()
                .set(Request.GROUP_ID, "app").set(Request.MEMBER_ID, memberId).set(Request.MEMBER_EPOCH, 0)
                .set(Request.ENDPOINT_INFORMATION_EPOCH, 0).set(Request.REBALANCE_TIMEOUT_MS, 30_000)
                .set(Request.PROCESS_ID, "process-" + memberId)
                .set(Request.ACTIVE_TASKS, List.of()).set(Request.STANDBY_TASKS, List.of()).set(Request.WARMUP_TASKS, List.of())
                .set(Request.CLIENT_TAGS, List.of());
        Struct topology = Request.Topology.SCHEMA.newStruct().set(Request.Topology.EPOCH, 1)
                .set(Request.Topology.SUBTOPOLOGIES, List.of());
        topology.add(Request.Topology.SUBTOPOLOGIES)
                .set(Request.Topology.Subtopology.SUBTOPOLOGY_ID, "0")
                .set(Request.Topology.Subtopology.SOURCE_TOPICS, List.of("lines"))
                .set(Request.Topology.Subtopology.SOURCE_TOPIC_REGEX, List.of())
                .set(Request.Topology.Subtopology.STATE_CHANGELOG_TOPICS, List.of())
                .set(Request.Topology.Subtopology.REPARTITION_SINK_TOPICS, List.of(REPARTITION))
                .set(Request.Topology.Subtopology.REPARTITION_SOURCE_TOPICS, List.of())
                .set(Request.Topology.Subtopology.COPARTITION_GROUPS, List.of());
        topology.add(Request.Topology.SUBTOPOLOGIES)
                .set(Request.Topology.Subtopology.SUBTOPOLOGY_ID, "1")
                .set(Request.Topology.Subtopology.SOURCE_TOPICS, List.of(REPARTITION))
                .set(Request.Topology.Subtopology.SOURCE_TOPIC_REGEX, List.of())
                .set(Request.Topology.Subtopology.STATE_CHANGELOG_TOPICS, List.of(topicInfo(CHANGELOG, Map.of("cleanup.policy", "compact"))))
                .set(Request.Topology.Subtopology.REPARTITION_SINK_TOPICS, List.of())
                .set(Request.Topology.Subtopology.REPARTITION_SOURCE_TOPICS, List.of(topicInfo(REPARTITION, Map.of("retention.ms", "-1"))))
                .set(Request.Topology.Subtopology.COPARTITION_GROUPS, List.of());
        return r.set(Request.TOPOLOGY, topology);
    }

    private static Struct topicInfo(String name, Map<String, String> configs) {
        Struct t = Request.TopicInfo.SCHEMA.newStruct().set(Request.TopicInfo.NAME, name).set(Request.TopicInfo.PARTITIONS, 0)
                .set(Request.TopicInfo.REPLICATION_FACTOR, (short) 0).set(Request.TopicInfo.TOPIC_CONFIGS, List.of());
        configs.forEach((k, v) -> t.add(Request.TopicInfo.TOPIC_CONFIGS).set(Request.KeyValue.KEY, k).set(Request.KeyValue.VALUE, v));
        return t;
    }

    private static Struct heartbeat(String memberId, int epoch) {
        return Request.SCHEMA.newStruct().set(Request.GROUP_ID, "app").set(Request.MEMBER_ID, memberId)
                .set(Request.MEMBER_EPOCH, epoch).set(Request.ENDPOINT_INFORMATION_EPOCH, 0);
    }

    private void awaitTopic(String name) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (f.topics.topic(name).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    @Test
    void theBrokerCreatesTheInternalTopicsAndTheNextHeartbeatAssignsEveryTask() throws Exception {
        StreamsGroupHeartbeatHandler handler = new StreamsGroupHeartbeatHandler(groups, f.topics);
        Struct joined = call(handler, 1, join("m1"), CoordinatorAclFixture.unauthorized());
        assertThat(joined.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(joined.get(Response.MEMBER_EPOCH)).isEqualTo(1);
        assertThat(joined.get(Response.HEARTBEAT_INTERVAL_MS)).isEqualTo(5000);
        assertThat(joined.get(Response.ACCEPTABLE_RECOVERY_LAG)).isEqualTo(10_000L);
        assertThat(joined.get(Response.STATUS)).extracting(s -> s.get(Response.Status.STATUS_CODE) + " " + s.get(Response.Status.STATUS_DETAIL))
                .containsExactly("3 Internal topics are missing: [" + CHANGELOG + ", " + REPARTITION + "]");
        assertThat(joined.get(Response.ACTIVE_TASKS)).isEmpty();

        awaitTopic(REPARTITION);
        awaitTopic(CHANGELOG);
        TopicInfo repartition = f.topics.topic(REPARTITION).orElseThrow();
        TopicInfo changelog = f.topics.topic(CHANGELOG).orElseThrow();
        assertThat(repartition.partitions()).isEqualTo(3);
        assertThat(repartition.configs()).containsEntry("retention.ms", "-1");
        assertThat(changelog.partitions()).isEqualTo(3);
        assertThat(changelog.configs()).containsEntry("cleanup.policy", "compact");

        Struct assigned = call(handler, 1, heartbeat("m1", 1).set(Request.ACTIVE_TASKS, List.of()), CoordinatorAclFixture.unauthorized());
        assertThat(assigned.get(Response.MEMBER_EPOCH)).isEqualTo(2);
        assertThat(assigned.get(Response.STATUS)).isEmpty();
        assertThat(assigned.get(Response.ACTIVE_TASKS)).extracting(t -> t.get(Response.TaskIds.SUBTOPOLOGY_ID) + "=" + t.get(Response.TaskIds.PARTITIONS))
                .containsExactly("0=[0, 1, 2]", "1=[0, 1, 2]");

        Struct describe = StreamsGroupDescribeApi.Request.SCHEMA.newStruct().set(StreamsGroupDescribeApi.Request.GROUP_IDS, List.of("app", "nope"))
                .set(StreamsGroupDescribeApi.Request.INCLUDE_AUTHORIZED_OPERATIONS, false);
        List<Struct> described = call(new StreamsGroupDescribeHandler(groups), 1, describe, CoordinatorAclFixture.unauthorized())
                .get(StreamsGroupDescribeApi.Response.GROUPS);
        Struct app = described.get(0);
        assertThat(app.get(StreamsGroupDescribeApi.Response.DescribedGroup.GROUP_STATE)).isEqualTo("Stable");
        assertThat(app.get(StreamsGroupDescribeApi.Response.DescribedGroup.GROUP_EPOCH)).isEqualTo(2);
        assertThat(app.get(StreamsGroupDescribeApi.Response.DescribedGroup.MEMBERS)).extracting(
                m -> m.get(StreamsGroupDescribeApi.Response.DescribedGroup.Member.PROCESS_ID)).containsExactly("process-m1");
        assertThat(described.get(1).get(StreamsGroupDescribeApi.Response.DescribedGroup.ERROR_CODE))
                .isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND.code());
        assertThat(described.get(1).get(StreamsGroupDescribeApi.Response.DescribedGroup.ERROR_MESSAGE)).isEqualTo("Group nope not found.");
    }

    @Test
    void heartbeatsNeedReadOnTheGroupDescribeOnTheTopologysTopicsAndCreateForTheInternalOnes() throws Exception {
        StreamsGroupHeartbeatHandler handler = new StreamsGroupHeartbeatHandler(groups, f.topics);
        Session describeOnly = alice("DESCRIBE GROUP app");
        assertThat(call(handler, 1, join("m1"), describeOnly).get(Response.ERROR_CODE))
                .isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED.code());

        Struct noTopics = call(handler, 1, join("m1"), alice("READ GROUP app", "DESCRIBE TOPIC lines"));
        assertThat(noTopics.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(noTopics.get(Response.ERROR_MESSAGE))
                .isEqualTo("The following topics are not authorized for DESCRIBE: " + CHANGELOG + ", " + REPARTITION);

        Struct noCreate = call(handler, 1, join("m1"), alice("READ GROUP app", "DESCRIBE TOPIC lines",
                "DESCRIBE TOPIC " + REPARTITION, "DESCRIBE TOPIC " + CHANGELOG, "CREATE TOPIC " + CHANGELOG));
        assertThat(noCreate.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(noCreate.get(Response.STATUS)).extracting(s -> s.get(Response.Status.STATUS_CODE) + " " + s.get(Response.Status.STATUS_DETAIL))
                .containsExactly("3 Internal topics are missing: [" + CHANGELOG + ", " + REPARTITION + "]",
                        "3 Unauthorized to CREATE on topics " + REPARTITION + ".");
        awaitTopic(CHANGELOG);
        assertThat(f.topics.topic(CHANGELOG)).isPresent();
        assertThat(f.topics.topic(REPARTITION)).isEmpty();
    }

    @Test
    void aChangelogThatCannotBeCreatedIsNamedWithItsErrorInTheNextHeartbeatsStatus() throws Exception {
        StreamsGroupHeartbeatHandler handler = new StreamsGroupHeartbeatHandler(groups, f.topics);
        Struct join = join("m1");
        join.get(Request.TOPOLOGY).get(Request.Topology.SUBTOPOLOGIES).get(1).get(Request.Topology.Subtopology.STATE_CHANGELOG_TOPICS)
                .get(0).set(Request.TopicInfo.REPLICATION_FACTOR, (short) 3); // one broker here
        assertThat(call(handler, 1, join, CoordinatorAclFixture.unauthorized()).get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        awaitTopic(REPARTITION);

        String detail = "";
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!detail.contains("Creation failed") && System.nanoTime() < deadline) {
            Thread.sleep(5);
            Struct next = call(handler, 1, heartbeat("m1", 1).set(Request.ACTIVE_TASKS, List.of()), CoordinatorAclFixture.unauthorized());
            detail = next.get(Response.STATUS).isEmpty() ? "" : next.get(Response.STATUS).get(0).get(Response.Status.STATUS_DETAIL);
        }
        assertThat(detail).isEqualTo("Internal topics are missing: [" + CHANGELOG + "] Creation failed: " + CHANGELOG
                + ": INVALID_REPLICATION_FACTOR (Unable to replicate the partition 3 time(s): The target replication factor of 3"
                + " cannot be reached because only 1 broker(s) are registered.).");
        assertThat(f.topics.topic(CHANGELOG)).isEmpty();
    }

    @Test
    void describingAGroupWhoseTopologyUsesATopicTheCallerCannotDescribeIsTopicAuthorizationFailed() {
        StreamsGroupHeartbeatHandler handler = new StreamsGroupHeartbeatHandler(groups, f.topics);
        assertThat(call(handler, 1, join("m1"), CoordinatorAclFixture.unauthorized()).get(Response.ERROR_CODE))
                .isEqualTo(ErrorCode.NONE.code());
        Struct describe = StreamsGroupDescribeApi.Request.SCHEMA.newStruct().set(StreamsGroupDescribeApi.Request.GROUP_IDS, List.of("app"))
                .set(StreamsGroupDescribeApi.Request.INCLUDE_AUTHORIZED_OPERATIONS, false);
        StreamsGroupDescribeHandler describer = new StreamsGroupDescribeHandler(groups);

        Struct notAllTopics = call(describer, 1, describe, alice("DESCRIBE GROUP app", "DESCRIBE TOPIC lines", "DESCRIBE TOPIC " + REPARTITION))
                .get(StreamsGroupDescribeApi.Response.GROUPS).get(0);
        assertThat(notAllTopics.get(StreamsGroupDescribeApi.Response.DescribedGroup.ERROR_CODE))
                .isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(notAllTopics.get(StreamsGroupDescribeApi.Response.DescribedGroup.ERROR_MESSAGE))
                .isEqualTo("The described group uses topics that the client is not authorized to describe.");
        assertThat(notAllTopics.get(StreamsGroupDescribeApi.Response.DescribedGroup.MEMBERS)).isEmpty();

        Struct allTopics = call(describer, 1, describe, alice("DESCRIBE GROUP app", "DESCRIBE TOPIC lines",
                "DESCRIBE TOPIC " + REPARTITION, "DESCRIBE TOPIC " + CHANGELOG)).get(StreamsGroupDescribeApi.Response.GROUPS).get(0);
        assertThat(allTopics.get(StreamsGroupDescribeApi.Response.DescribedGroup.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(allTopics.get(StreamsGroupDescribeApi.Response.DescribedGroup.MEMBERS)).hasSize(1);
    }
}
