package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.CreateTopicsApi;
import io.odradek.wire.api.CreateTopicsApi.Request.CreatableTopic;
import io.odradek.wire.api.CreateTopicsApi.Response.CreatableTopicResult;
import io.odradek.wire.api.DeleteGroupsApi;
import io.odradek.wire.api.DeleteTopicsApi;
import io.odradek.wire.api.DeleteTopicsApi.Response.DeletableTopicResult;
import io.odradek.wire.api.DescribeGroupsApi;
import io.odradek.wire.api.DescribeGroupsApi.Response.DescribedGroup;
import io.odradek.wire.api.HeartbeatApi;
import io.odradek.wire.api.JoinGroupApi;
import io.odradek.wire.api.LeaveGroupApi;
import io.odradek.wire.api.OffsetCommitApi;
import io.odradek.wire.api.OffsetCommitApi.Request.OffsetCommitRequestTopic;
import io.odradek.wire.api.OffsetCommitApi.Request.OffsetCommitRequestTopic.OffsetCommitRequestPartition;
import io.odradek.wire.api.OffsetCommitApi.Response.OffsetCommitResponseTopic;
import io.odradek.wire.api.OffsetCommitApi.Response.OffsetCommitResponseTopic.OffsetCommitResponsePartition;
import io.odradek.wire.api.OffsetFetchApi;
import io.odradek.wire.api.OffsetFetchApi.Request.OffsetFetchRequestGroup;
import io.odradek.wire.api.OffsetFetchApi.Request.OffsetFetchRequestGroup.OffsetFetchRequestTopics;
import io.odradek.wire.api.OffsetFetchApi.Request.OffsetFetchRequestTopic;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseGroup;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseGroup.OffsetFetchResponseTopics;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseGroup.OffsetFetchResponseTopics.OffsetFetchResponsePartitions;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseTopic;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseTopic.OffsetFetchResponsePartition;
import io.odradek.wire.api.SyncGroupApi;
import io.odradek.wire.schema.Struct;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group and topic APIs at the versions Kafka 4 dropped or that only pre-2.1 clients send (OffsetCommit
 * v0-1, OffsetFetch v0, CreateTopics v0-1, DeleteTopics v0, the group APIs at v0), through the real codec.
 */
class OldVersionHandlersTest {
    @TempDir
    Path dir;
    AdminFixture f;
    GroupCoordinator groups;

    @BeforeEach
    void start() throws Exception {
        f = new AdminFixture(dir, Map.of("offsets.topic.num.partitions", "2", "group.initial.rebalance.delay.ms", "0"));
        groups = GroupCoordinators.startLoaded(f);
        f.topics.createTopic("orders", 2, Map.of(), false);
    }

    @AfterEach
    void stop() {
        groups.close();
        f.close();
    }

    @Test
    void offsetCommitV0IsASimpleCommitThatEveryOffsetFetchVersionReads() {
        Struct commit = OffsetCommitApi.Request.SCHEMA.newStruct().set(OffsetCommitApi.Request.GROUP_ID, "zk-era");
        Struct orders = commit.add(OffsetCommitApi.Request.TOPICS).set(OffsetCommitRequestTopic.NAME, "orders");
        commitPartition(orders, 0, 42L, "m");
        commitPartition(orders, 9, 1L, "");
        commitPartition(commit.add(OffsetCommitApi.Request.TOPICS).set(OffsetCommitRequestTopic.NAME, "nope"), 0, 1L, "");

        assertThat(commitResults(f.call(offsetCommit(), 0, commit)))
                .containsExactly("orders-0 0", "orders-9 " + ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code(),
                        "nope-0 " + ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());

        // v0 reads it back; a partition never committed is -1 with no error, an unknown topic's partition is
        // UNKNOWN_TOPIC_OR_PARTITION (Kafka's v0 checked the topic first).
        Struct fetch = OffsetFetchApi.Request.SCHEMA.newStruct().set(OffsetFetchApi.Request.GROUP_ID, "zk-era");
        fetch.add(OffsetFetchApi.Request.TOPICS).set(OffsetFetchRequestTopic.NAME, "orders")
                .set(OffsetFetchRequestTopic.PARTITION_INDEXES, List.of(0, 1, 5));
        fetch.add(OffsetFetchApi.Request.TOPICS).set(OffsetFetchRequestTopic.NAME, "nope")
                .set(OffsetFetchRequestTopic.PARTITION_INDEXES, List.of(0));
        assertThat(fetchResults(f.call(offsetFetch(), 0, fetch))).containsExactly(
                "orders-0 42 'm' 0", "orders-1 -1 '' 0", "orders-5 -1 '' " + ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code(),
                "nope-0 -1 '' " + ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
        // v1 is the coordinator's answer as Kafka 3.9 gave it: no topic check.
        assertThat(fetchResults(f.call(offsetFetch(), 1, fetch))).containsExactly(
                "orders-0 42 'm' 0", "orders-1 -1 '' 0", "orders-5 -1 '' 0", "nope-0 -1 '' 0");

        // The newest clients read the same store.
        Struct v8 = OffsetFetchApi.Request.SCHEMA.newStruct();
        v8.add(OffsetFetchApi.Request.GROUPS).set(OffsetFetchRequestGroup.GROUP_ID, "zk-era")
                .add(OffsetFetchRequestGroup.TOPICS).set(OffsetFetchRequestTopics.NAME, "orders")
                .set(OffsetFetchRequestTopics.PARTITION_INDEXES, List.of(0));
        assertThat(f.call(offsetFetch(), 8, v8).get(OffsetFetchApi.Response.GROUPS)).singleElement()
                .satisfies(g -> assertThat(g.get(OffsetFetchResponseGroup.TOPICS)).flatExtracting(t -> t.get(OffsetFetchResponseTopics.PARTITIONS))
                        .extracting(p -> p.get(OffsetFetchResponsePartitions.COMMITTED_OFFSET) + " " + p.get(OffsetFetchResponsePartitions.METADATA))
                        .containsExactly("42 m"));
        assertThat(stored("zk-era", 0).commitTimestampMs()).isPositive();
    }

    @Test
    void aV0ConsumerJoinsSyncsHeartbeatsCommitsWithV1AndLeavesAnEmptyGroup() {
        Struct joined = f.call(new JoinGroupHandler(groups), 0, joinV0("old-group"));
        assertThat(joined.get(JoinGroupApi.Response.ERROR_CODE)).isZero();
        assertThat(joined.get(JoinGroupApi.Response.GENERATION_ID)).isEqualTo(1);
        assertThat(joined.get(JoinGroupApi.Response.PROTOCOL_NAME)).isEqualTo("range");
        String member = joined.get(JoinGroupApi.Response.MEMBER_ID);
        assertThat(joined.get(JoinGroupApi.Response.LEADER)).isEqualTo(member);
        assertThat(joined.get(JoinGroupApi.Response.MEMBERS)).extracting(m -> m.get(JoinGroupApi.Response.JoinGroupResponseMember.MEMBER_ID)
                + " " + new String(m.get(JoinGroupApi.Response.JoinGroupResponseMember.METADATA), StandardCharsets.UTF_8))
                .containsExactly(member + " sub");

        Struct sync = SyncGroupApi.Request.SCHEMA.newStruct().set(SyncGroupApi.Request.GROUP_ID, "old-group")
                .set(SyncGroupApi.Request.GENERATION_ID, 1).set(SyncGroupApi.Request.MEMBER_ID, member);
        sync.add(SyncGroupApi.Request.ASSIGNMENTS).set(SyncGroupApi.Request.SyncGroupRequestAssignment.MEMBER_ID, member)
                .set(SyncGroupApi.Request.SyncGroupRequestAssignment.ASSIGNMENT, "orders:0,1".getBytes(StandardCharsets.UTF_8));
        Struct synced = f.call(new SyncGroupHandler(groups), 0, sync);
        assertThat(synced.get(SyncGroupApi.Response.ERROR_CODE)).isZero();
        assertThat(new String(synced.get(SyncGroupApi.Response.ASSIGNMENT), StandardCharsets.UTF_8)).isEqualTo("orders:0,1");

        Struct heartbeat = HeartbeatApi.Request.SCHEMA.newStruct().set(HeartbeatApi.Request.GROUP_ID, "old-group")
                .set(HeartbeatApi.Request.GENERATION_ID, 1).set(HeartbeatApi.Request.MEMBER_ID, member);
        assertThat(f.call(new HeartbeatHandler(groups), 0, heartbeat).get(HeartbeatApi.Response.ERROR_CODE)).isZero();

        // v1 commits as a member, with a commit timestamp of its own for one partition and -1 (now) for the other.
        long clientTime = System.currentTimeMillis() - 3_600_000;
        Struct commit = OffsetCommitApi.Request.SCHEMA.newStruct().set(OffsetCommitApi.Request.GROUP_ID, "old-group")
                .set(OffsetCommitApi.Request.GENERATION_ID_OR_MEMBER_EPOCH, 1).set(OffsetCommitApi.Request.MEMBER_ID, member);
        Struct orders = commit.add(OffsetCommitApi.Request.TOPICS).set(OffsetCommitRequestTopic.NAME, "orders");
        commitPartition(orders, 0, 100L, "first").set(OffsetCommitRequestPartition.COMMIT_TIMESTAMP, clientTime);
        commitPartition(orders, 1, 200L, null);
        long before = System.currentTimeMillis();
        assertThat(commitResults(f.call(offsetCommit(), 1, commit))).containsExactly("orders-0 0", "orders-1 0");
        assertThat(stored("old-group", 0).commitTimestampMs()).isEqualTo(clientTime);
        assertThat(stored("old-group", 1).commitTimestampMs()).isGreaterThanOrEqualTo(before);
        assertThat(stored("old-group", 1).metadata()).isEmpty();

        // A stale generation is refused; a v0 (simple) commit is refused while the group has a member.
        commit.set(OffsetCommitApi.Request.GENERATION_ID_OR_MEMBER_EPOCH, 7);
        assertThat(commitResults(f.call(offsetCommit(), 1, commit)))
                .containsOnly("orders-0 " + ErrorCode.ILLEGAL_GENERATION.code(), "orders-1 " + ErrorCode.ILLEGAL_GENERATION.code());
        assertThat(commitResults(f.call(offsetCommit(), 0, commit)))
                .containsOnly("orders-0 " + ErrorCode.UNKNOWN_MEMBER_ID.code(), "orders-1 " + ErrorCode.UNKNOWN_MEMBER_ID.code());

        Struct leave = LeaveGroupApi.Request.SCHEMA.newStruct().set(LeaveGroupApi.Request.GROUP_ID, "old-group")
                .set(LeaveGroupApi.Request.MEMBER_ID, member);
        assertThat(f.call(new LeaveGroupHandler(groups), 0, leave).get(LeaveGroupApi.Response.ERROR_CODE)).isZero();

        Struct describe = DescribeGroupsApi.Request.SCHEMA.newStruct().set(DescribeGroupsApi.Request.GROUPS, List.of("old-group", "none"));
        assertThat(f.call(new DescribeGroupsHandler(groups), 0, describe).get(DescribeGroupsApi.Response.GROUPS))
                .extracting(g -> g.get(DescribedGroup.GROUP_ID) + " " + g.get(DescribedGroup.ERROR_CODE) + " "
                        + g.get(DescribedGroup.GROUP_STATE) + " '" + g.get(DescribedGroup.PROTOCOL_TYPE) + "' " + g.get(DescribedGroup.MEMBERS).size())
                .containsExactly("old-group 0 Empty 'consumer' 0", "none 0 Dead '' 0");

        // Empty now: the old client's v0 commit goes through and a v0 fetch sees it.
        Struct simple = OffsetCommitApi.Request.SCHEMA.newStruct().set(OffsetCommitApi.Request.GROUP_ID, "old-group");
        commitPartition(simple.add(OffsetCommitApi.Request.TOPICS).set(OffsetCommitRequestTopic.NAME, "orders"), 0, 150L, "again");
        assertThat(commitResults(f.call(offsetCommit(), 0, simple))).containsExactly("orders-0 0");
        Struct fetch = OffsetFetchApi.Request.SCHEMA.newStruct().set(OffsetFetchApi.Request.GROUP_ID, "old-group");
        fetch.add(OffsetFetchApi.Request.TOPICS).set(OffsetFetchRequestTopic.NAME, "orders")
                .set(OffsetFetchRequestTopic.PARTITION_INDEXES, List.of(0, 1));
        assertThat(fetchResults(f.call(offsetFetch(), 0, fetch))).containsExactly("orders-0 150 'again' 0", "orders-1 200 '' 0");

        Struct delete = DeleteGroupsApi.Request.SCHEMA.newStruct().set(DeleteGroupsApi.Request.GROUPS_NAMES, List.of("old-group", "none"));
        assertThat(f.call(new DeleteGroupsHandler(groups), 0, delete).get(DeleteGroupsApi.Response.RESULTS))
                .extracting(r -> r.get(DeleteGroupsApi.Response.DeletableGroupResult.GROUP_ID) + " "
                        + r.get(DeleteGroupsApi.Response.DeletableGroupResult.ERROR_CODE))
                .containsExactly("old-group 0", "none " + ErrorCode.GROUP_ID_NOT_FOUND.code());
        assertThat(fetchResults(f.call(offsetFetch(), 0, fetch))).containsExactly("orders-0 -1 '' 0", "orders-1 -1 '' 0");
    }

    @Test
    void createTopicsV0AlwaysCreatesAndV1CanValidateOnlyAndExplainsErrors() {
        CreateTopicsHandler create = f.createTopics();
        Struct v0 = CreateTopicsApi.Request.SCHEMA.newStruct().set(CreateTopicsApi.Request.TIMEOUT_MS, 0);
        addTopic(v0, "legacy", 3, (short) 1);
        addTopic(v0, "orders", 1, (short) 1);
        addTopic(v0, "bad", 0, (short) 1);
        assertThat(f.call(create, 0, v0).get(CreateTopicsApi.Response.TOPICS)).extracting(
                        t -> t.get(CreatableTopicResult.NAME) + " " + t.get(CreatableTopicResult.ERROR_CODE))
                .containsExactly("legacy 0", "orders " + ErrorCode.TOPIC_ALREADY_EXISTS.code(),
                        "bad " + ErrorCode.INVALID_PARTITIONS.code());
        assertThat(f.topics.topic("legacy").orElseThrow().partitions()).isEqualTo(3);

        Struct v1 = CreateTopicsApi.Request.SCHEMA.newStruct().set(CreateTopicsApi.Request.VALIDATE_ONLY, true);
        addTopic(v1, "dry-run", 4, (short) 1);
        addTopic(v1, "too-many-replicas", 1, (short) 3);
        List<Struct> results = f.call(create, 1, v1).get(CreateTopicsApi.Response.TOPICS);
        assertThat(results).extracting(t -> t.get(CreatableTopicResult.NAME) + " " + t.get(CreatableTopicResult.ERROR_CODE))
                .containsExactly("dry-run 0", "too-many-replicas " + ErrorCode.INVALID_REPLICATION_FACTOR.code());
        assertThat(results.get(1).get(CreatableTopicResult.ERROR_MESSAGE)).isNotBlank();
        assertThat(f.topics.topic("dry-run")).isEmpty();
    }

    @Test
    void deleteTopicsV0DeletesByNameAndReportsUnknownTopics() {
        f.topics.createTopic("legacy", 1, Map.of(), false);
        Struct v0 = DeleteTopicsApi.Request.SCHEMA.newStruct().set(DeleteTopicsApi.Request.TOPIC_NAMES, List.of("legacy", "missing"))
                .set(DeleteTopicsApi.Request.TIMEOUT_MS, 30_000);
        assertThat(f.call(f.deleteTopics(), 0, v0).get(DeleteTopicsApi.Response.RESPONSES))
                .extracting(r -> r.get(DeletableTopicResult.NAME) + " " + r.get(DeletableTopicResult.ERROR_CODE))
                .containsExactly("legacy 0", "missing " + ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(f.topics.topic("legacy")).isEmpty();
    }

    // ------------------------------------------------------------------ helpers

    private OffsetCommitHandler offsetCommit() {
        return new OffsetCommitHandler(groups, f.topics);
    }

    private OffsetFetchHandler offsetFetch() {
        return new OffsetFetchHandler(groups, f.topics);
    }

    private OffsetAndMetadata stored(String group, int partition) {
        TopicPartition tp = new TopicPartition("orders", partition);
        return groups.fetchOffsets(group, List.of(tp)).join().offsets().get(tp);
    }

    private static Struct commitPartition(Struct topic, int partition, long offset, String metadata) {
        return topic.add(OffsetCommitRequestTopic.PARTITIONS).set(OffsetCommitRequestPartition.PARTITION_INDEX, partition)
                .set(OffsetCommitRequestPartition.COMMITTED_OFFSET, offset)
                .set(OffsetCommitRequestPartition.COMMITTED_METADATA, metadata);
    }

    /** "topic-partition error" for each partition of an OffsetCommit answer. */
    private static List<String> commitResults(Struct response) {
        return response.get(OffsetCommitApi.Response.TOPICS).stream().flatMap(t -> t.get(OffsetCommitResponseTopic.PARTITIONS).stream()
                .map(p -> t.get(OffsetCommitResponseTopic.NAME) + "-" + p.get(OffsetCommitResponsePartition.PARTITION_INDEX)
                        + " " + p.get(OffsetCommitResponsePartition.ERROR_CODE))).toList();
    }

    /** "topic-partition offset 'metadata' error" for each partition of a v0-7 OffsetFetch answer. */
    private static List<String> fetchResults(Struct response) {
        return response.get(OffsetFetchApi.Response.TOPICS).stream().flatMap(t -> t.get(OffsetFetchResponseTopic.PARTITIONS).stream()
                .map(p -> t.get(OffsetFetchResponseTopic.NAME) + "-" + p.get(OffsetFetchResponsePartition.PARTITION_INDEX) + " "
                        + p.get(OffsetFetchResponsePartition.COMMITTED_OFFSET) + " '" + p.get(OffsetFetchResponsePartition.METADATA)
                        + "' " + p.get(OffsetFetchResponsePartition.ERROR_CODE))).toList();
    }

    /** A JoinGroup v0 as a 0.9 consumer sends it: no rebalance timeout (the session timeout serves). */
    private static Struct joinV0(String group) {
        Struct join = JoinGroupApi.Request.SCHEMA.newStruct()
                .set(JoinGroupApi.Request.GROUP_ID, group)
                .set(JoinGroupApi.Request.SESSION_TIMEOUT_MS, 10_000)
                .set(JoinGroupApi.Request.MEMBER_ID, "")
                .set(JoinGroupApi.Request.PROTOCOL_TYPE, "consumer");
        join.add(JoinGroupApi.Request.PROTOCOLS).set(JoinGroupApi.Request.JoinGroupRequestProtocol.NAME, "range")
                .set(JoinGroupApi.Request.JoinGroupRequestProtocol.METADATA, "sub".getBytes(StandardCharsets.UTF_8));
        return join;
    }

    private static void addTopic(Struct request, String name, int partitions, short replicationFactor) {
        request.add(CreateTopicsApi.Request.TOPICS).set(CreatableTopic.NAME, name)
                .set(CreatableTopic.NUM_PARTITIONS, partitions).set(CreatableTopic.REPLICATION_FACTOR, replicationFactor);
    }
}
