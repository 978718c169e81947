package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.GroupRequests.joinRequest;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DeleteGroupsApi;
import io.odradek.wire.api.DescribeGroupsApi;
import io.odradek.wire.api.DescribeGroupsApi.Response.DescribedGroup;
import io.odradek.wire.api.FindCoordinatorApi;
import io.odradek.wire.api.HeartbeatApi;
import io.odradek.wire.api.JoinGroupApi;
import io.odradek.wire.api.LeaveGroupApi;
import io.odradek.wire.api.ListGroupsApi;
import io.odradek.wire.api.OffsetCommitApi;
import io.odradek.wire.api.OffsetCommitApi.Request.OffsetCommitRequestTopic;
import io.odradek.wire.api.OffsetCommitApi.Request.OffsetCommitRequestTopic.OffsetCommitRequestPartition;
import io.odradek.wire.api.OffsetCommitApi.Response.OffsetCommitResponseTopic;
import io.odradek.wire.api.OffsetCommitApi.Response.OffsetCommitResponseTopic.OffsetCommitResponsePartition;
import io.odradek.wire.api.OffsetDeleteApi;
import io.odradek.wire.api.OffsetFetchApi;
import io.odradek.wire.api.OffsetFetchApi.Request.OffsetFetchRequestGroup;
import io.odradek.wire.api.OffsetFetchApi.Request.OffsetFetchRequestGroup.OffsetFetchRequestTopics;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseGroup;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseGroup.OffsetFetchResponseTopics;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseGroup.OffsetFetchResponseTopics.OffsetFetchResponsePartitions;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseTopic;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseTopic.OffsetFetchResponsePartition;
import io.odradek.wire.api.SyncGroupApi;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The group API handlers at the versions where their behaviour differs, through the real codec. */
class GroupHandlersTest {
    @TempDir
    Path dir;
    AdminFixture f;
    GroupCoordinator groups;
    UUID ordersId;

    @BeforeEach
    void start() throws Exception {
        f = new AdminFixture(dir, Map.of("offsets.topic.num.partitions", "2", "group.initial.rebalance.delay.ms", "0"));
        groups = GroupCoordinators.startLoaded(f);
        ordersId = f.topics.createTopic("orders", 2, Map.of(), false).id();
    }

    @AfterEach
    void stop() {
        groups.close();
        f.close();
    }

    @Test
    void findCoordinatorNamesThisBrokerForGroupsAndTransactionsAtEveryVersion() {
        FindCoordinatorHandler handler = new FindCoordinatorHandler(f.node, groups, null);
        Struct v0 = f.call(handler, 0, FindCoordinatorApi.Request.SCHEMA.newStruct().set(FindCoordinatorApi.Request.KEY, "g"));
        assertThat(v0.get(FindCoordinatorApi.Response.ERROR_CODE)).isZero();
        assertThat(v0.get(FindCoordinatorApi.Response.NODE_ID)).isEqualTo(AdminFixture.NODE_ID);
        assertThat(v0.get(FindCoordinatorApi.Response.HOST)).isEqualTo("127.0.0.1");
        assertThat(v0.get(FindCoordinatorApi.Response.PORT)).isEqualTo(AdminFixture.PORT);

        Struct share = f.call(handler, 3, FindCoordinatorApi.Request.SCHEMA.newStruct()
                .set(FindCoordinatorApi.Request.KEY, "s").set(FindCoordinatorApi.Request.KEY_TYPE, (byte) 2));
        assertThat(share.get(FindCoordinatorApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());

        Struct batched = f.call(handler, 6, FindCoordinatorApi.Request.SCHEMA.newStruct()
                .set(FindCoordinatorApi.Request.COORDINATOR_KEYS, List.of("a", "b")));
        assertThat(batched.get(FindCoordinatorApi.Response.COORDINATORS))
                .extracting(c -> c.get(FindCoordinatorApi.Response.Coordinator.KEY) + "@"
                        + c.get(FindCoordinatorApi.Response.Coordinator.NODE_ID) + ":"
                        + c.get(FindCoordinatorApi.Response.Coordinator.PORT) + " "
                        + c.get(FindCoordinatorApi.Response.Coordinator.ERROR_CODE))
                .containsExactly("a@1:19092 0", "b@1:19092 0");
    }

    @Test
    void joinGroupGivesOldClientsAMemberAtOnceAndNewOnesAMemberIdToRejoinWith() {
        JoinGroupHandler join = new JoinGroupHandler(groups);
        Struct v3 = f.call(join, 3, joinRequest("old", ""));
        assertThat(v3.get(JoinGroupApi.Response.ERROR_CODE)).isZero();
        assertThat(v3.get(JoinGroupApi.Response.GENERATION_ID)).isEqualTo(1);
        assertThat(v3.get(JoinGroupApi.Response.PROTOCOL_NAME)).isEqualTo("range");
        assertThat(v3.get(JoinGroupApi.Response.MEMBER_ID)).startsWith("test-");
        assertThat(v3.get(JoinGroupApi.Response.LEADER)).isEqualTo(v3.get(JoinGroupApi.Response.MEMBER_ID));
        assertThat(v3.get(JoinGroupApi.Response.MEMBERS)).hasSize(1);

        Struct v6 = f.call(join, 6, joinRequest("new", ""));
        assertThat(v6.get(JoinGroupApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.MEMBER_ID_REQUIRED.code());
        assertThat(v6.get(JoinGroupApi.Response.PROTOCOL_NAME)).isEmpty(); // not nullable before v7
        Struct v7 = f.call(join, 7, joinRequest("new", ""));
        assertThat(v7.get(JoinGroupApi.Response.PROTOCOL_NAME)).isNull();

        String memberId = v7.get(JoinGroupApi.Response.MEMBER_ID);
        Struct joined = f.call(join, 9, joinRequest("new", memberId));
        assertThat(joined.get(JoinGroupApi.Response.ERROR_CODE)).isZero();
        assertThat(joined.get(JoinGroupApi.Response.PROTOCOL_TYPE)).isEqualTo("consumer");
        assertThat(joined.get(JoinGroupApi.Response.SKIP_ASSIGNMENT)).isFalse();

        Struct sync = f.call(new SyncGroupHandler(groups), 5, SyncGroupApi.Request.SCHEMA.newStruct()
                .set(SyncGroupApi.Request.GROUP_ID, "new").set(SyncGroupApi.Request.GENERATION_ID, 1)
                .set(SyncGroupApi.Request.MEMBER_ID, memberId).set(SyncGroupApi.Request.PROTOCOL_TYPE, "consumer")
                .set(SyncGroupApi.Request.PROTOCOL_NAME, "range"));
        assertThat(sync.get(SyncGroupApi.Response.ERROR_CODE)).isZero();
        assertThat(sync.get(SyncGroupApi.Response.PROTOCOL_NAME)).isEqualTo("range");

        HeartbeatHandler heartbeat = new HeartbeatHandler(groups);
        assertThat(f.call(heartbeat, 0, heartbeat("new", memberId, 1)).get(HeartbeatApi.Response.ERROR_CODE)).isZero();
        assertThat(f.call(heartbeat, 4, heartbeat("new", memberId, 2)).get(HeartbeatApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.ILLEGAL_GENERATION.code());

        Struct badTimeout = joinRequest("x", "").set(JoinGroupApi.Request.SESSION_TIMEOUT_MS, 10);
        assertThat(f.call(join, 9, badTimeout).get(JoinGroupApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.INVALID_SESSION_TIMEOUT.code());
    }

    @Test
    void leaveGroupReportsAnUnknownMemberAtTopLevelBeforeV3AndPerMemberAfter() {
        JoinGroupHandler join = new JoinGroupHandler(groups);
        String member = f.call(join, 3, joinRequest("g", "")).get(JoinGroupApi.Response.MEMBER_ID);
        LeaveGroupHandler leave = new LeaveGroupHandler(groups);
        Struct v0 = f.call(leave, 0, LeaveGroupApi.Request.SCHEMA.newStruct()
                .set(LeaveGroupApi.Request.GROUP_ID, "g").set(LeaveGroupApi.Request.MEMBER_ID, "ghost"));
        assertThat(v0.get(LeaveGroupApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID.code());

        Struct v3 = LeaveGroupApi.Request.SCHEMA.newStruct().set(LeaveGroupApi.Request.GROUP_ID, "g");
        v3.add(LeaveGroupApi.Request.MEMBERS).set(LeaveGroupApi.Request.MemberIdentity.MEMBER_ID, member);
        v3.add(LeaveGroupApi.Request.MEMBERS).set(LeaveGroupApi.Request.MemberIdentity.MEMBER_ID, "")
                .set(LeaveGroupApi.Request.MemberIdentity.GROUP_INSTANCE_ID, "nobody");
        Struct left = f.call(leave, 5, v3);
        assertThat(left.get(LeaveGroupApi.Response.ERROR_CODE)).isZero();
        assertThat(left.get(LeaveGroupApi.Response.MEMBERS)).extracting(m -> m.get(LeaveGroupApi.Response.MemberResponse.ERROR_CODE))
                .containsExactly((short) 0, ErrorCode.UNKNOWN_MEMBER_ID.code());

        Struct unknownGroup = LeaveGroupApi.Request.SCHEMA.newStruct().set(LeaveGroupApi.Request.GROUP_ID, "none");
        assertThat(f.call(leave, 4, unknownGroup).get(LeaveGroupApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void offsetsAreCommittedAndFetchedByNameAndByTopicIdAcrossVersions() {
        OffsetCommitHandler commit = new OffsetCommitHandler(groups, f.topics);
        Struct byName = OffsetCommitApi.Request.SCHEMA.newStruct().set(OffsetCommitApi.Request.GROUP_ID, "g");
        Struct orders = byName.add(OffsetCommitApi.Request.TOPICS).set(OffsetCommitRequestTopic.NAME, "orders");
        orders.add(OffsetCommitRequestTopic.PARTITIONS).set(OffsetCommitRequestPartition.PARTITION_INDEX, 0)
                .set(OffsetCommitRequestPartition.COMMITTED_OFFSET, 42L).set(OffsetCommitRequestPartition.COMMITTED_LEADER_EPOCH, 3)
                .set(OffsetCommitRequestPartition.COMMITTED_METADATA, "m");
        orders.add(OffsetCommitRequestTopic.PARTITIONS).set(OffsetCommitRequestPartition.PARTITION_INDEX, 9);
        byName.add(OffsetCommitApi.Request.TOPICS).set(OffsetCommitRequestTopic.NAME, "nope")
                .add(OffsetCommitRequestTopic.PARTITIONS).set(OffsetCommitRequestPartition.PARTITION_INDEX, 0);
        Struct committed = f.call(commit, 8, byName);
        assertThat(committed.get(OffsetCommitApi.Response.TOPICS)).flatExtracting(t -> t.get(OffsetCommitResponseTopic.PARTITIONS)
                .stream().map(p -> t.get(OffsetCommitResponseTopic.NAME) + "-" + p.get(OffsetCommitResponsePartition.PARTITION_INDEX)
                        + " " + p.get(OffsetCommitResponsePartition.ERROR_CODE)).toList())
                .containsExactly("orders-0 0", "orders-9 3", "nope-0 3");

        Struct byId = OffsetCommitApi.Request.SCHEMA.newStruct().set(OffsetCommitApi.Request.GROUP_ID, "g");
        byId.add(OffsetCommitApi.Request.TOPICS).set(OffsetCommitRequestTopic.TOPIC_ID, ordersId)
                .add(OffsetCommitRequestTopic.PARTITIONS).set(OffsetCommitRequestPartition.PARTITION_INDEX, 1)
                .set(OffsetCommitRequestPartition.COMMITTED_OFFSET, 7L);
        byId.add(OffsetCommitApi.Request.TOPICS).set(OffsetCommitRequestTopic.TOPIC_ID, UUID.randomUUID())
                .add(OffsetCommitRequestTopic.PARTITIONS).set(OffsetCommitRequestPartition.PARTITION_INDEX, 0);
        Struct committedById = f.call(commit, 10, byId);
        assertThat(committedById.get(OffsetCommitApi.Response.TOPICS)).flatExtracting(t -> t.get(OffsetCommitResponseTopic.PARTITIONS))
                .extracting(p -> p.get(OffsetCommitResponsePartition.ERROR_CODE))
                .containsExactly((short) 0, ErrorCode.UNKNOWN_TOPIC_ID.code());

        OffsetFetchHandler fetch = new OffsetFetchHandler(groups, f.topics);
        Struct v1 = OffsetFetchApi.Request.SCHEMA.newStruct().set(OffsetFetchApi.Request.GROUP_ID, "g");
        v1.add(OffsetFetchApi.Request.TOPICS).set(OffsetFetchApi.Request.OffsetFetchRequestTopic.NAME, "orders")
                .set(OffsetFetchApi.Request.OffsetFetchRequestTopic.PARTITION_INDEXES, List.of(0, 1));
        assertThat(f.call(fetch, 5, v1).get(OffsetFetchApi.Response.TOPICS)).flatExtracting(t -> t.get(OffsetFetchResponseTopic.PARTITIONS))
                .extracting(p -> p.get(OffsetFetchResponsePartition.COMMITTED_OFFSET) + "/"
                        + p.get(OffsetFetchResponsePartition.COMMITTED_LEADER_EPOCH) + "/" + p.get(OffsetFetchResponsePartition.METADATA))
                .containsExactly("42/3/m", "7/-1/");
        Struct all = OffsetFetchApi.Request.SCHEMA.newStruct().set(OffsetFetchApi.Request.GROUP_ID, "g")
                .set(OffsetFetchApi.Request.TOPICS, null);
        assertThat(f.call(fetch, 7, all).get(OffsetFetchApi.Response.TOPICS)).flatExtracting(t -> t.get(OffsetFetchResponseTopic.PARTITIONS))
                .hasSize(2);

        Struct v8 = OffsetFetchApi.Request.SCHEMA.newStruct();
        v8.add(OffsetFetchApi.Request.GROUPS).set(OffsetFetchRequestGroup.GROUP_ID, "g").set(OffsetFetchRequestGroup.TOPICS, null);
        v8.add(OffsetFetchApi.Request.GROUPS).set(OffsetFetchRequestGroup.GROUP_ID, "unknown")
                .add(OffsetFetchRequestGroup.TOPICS).set(OffsetFetchRequestTopics.NAME, "orders")
                .set(OffsetFetchRequestTopics.PARTITION_INDEXES, List.of(0));
        List<Struct> answered = f.call(fetch, 8, v8).get(OffsetFetchApi.Response.GROUPS);
        assertThat(answered).extracting(g -> g.get(OffsetFetchResponseGroup.GROUP_ID)).containsExactly("g", "unknown");
        assertThat(answered.get(1).get(OffsetFetchResponseGroup.TOPICS)).flatExtracting(t -> t.get(OffsetFetchResponseTopics.PARTITIONS))
                .extracting(p -> p.get(OffsetFetchResponsePartitions.COMMITTED_OFFSET) + " '" + p.get(OffsetFetchResponsePartitions.METADATA) + "'")
                .containsExactly("-1 ''");

        Struct v10 = OffsetFetchApi.Request.SCHEMA.newStruct();
        Struct group = v10.add(OffsetFetchApi.Request.GROUPS).set(OffsetFetchRequestGroup.GROUP_ID, "g");
        group.add(OffsetFetchRequestGroup.TOPICS).set(OffsetFetchRequestTopics.TOPIC_ID, ordersId)
                .set(OffsetFetchRequestTopics.PARTITION_INDEXES, List.of(0));
        group.add(OffsetFetchRequestGroup.TOPICS).set(OffsetFetchRequestTopics.TOPIC_ID, UUID.randomUUID())
                .set(OffsetFetchRequestTopics.PARTITION_INDEXES, List.of(0));
        List<Struct> topics = f.call(fetch, 10, v10).get(OffsetFetchApi.Response.GROUPS).get(0).get(OffsetFetchResponseGroup.TOPICS);
        assertThat(topics.get(0).get(OffsetFetchResponseTopics.TOPIC_ID)).isEqualTo(ordersId);
        assertThat(topics).flatExtracting(t -> t.get(OffsetFetchResponseTopics.PARTITIONS))
                .extracting(p -> p.get(OffsetFetchResponsePartitions.COMMITTED_OFFSET) + " " + p.get(OffsetFetchResponsePartitions.ERROR_CODE))
                .containsExactly("42 0", "-1 " + ErrorCode.UNKNOWN_TOPIC_ID.code());
    }

    @Test
    void describeListAndDeleteGroupsAndTheirOffsets() {
        String member = f.call(new JoinGroupHandler(groups), 3, joinRequest("active", "")).get(JoinGroupApi.Response.MEMBER_ID);
        Struct commit = OffsetCommitApi.Request.SCHEMA.newStruct().set(OffsetCommitApi.Request.GROUP_ID, "simple");
        commit.add(OffsetCommitApi.Request.TOPICS).set(OffsetCommitRequestTopic.NAME, "orders")
                .add(OffsetCommitRequestTopic.PARTITIONS).set(OffsetCommitRequestPartition.COMMITTED_OFFSET, 5L);
        f.call(new OffsetCommitHandler(groups, f.topics), 9, commit);

        DescribeGroupsHandler describe = new DescribeGroupsHandler(groups);
        Struct request = DescribeGroupsApi.Request.SCHEMA.newStruct()
                .set(DescribeGroupsApi.Request.GROUPS, List.of("active", "missing"))
                .set(DescribeGroupsApi.Request.INCLUDE_AUTHORIZED_OPERATIONS, true);
        List<Struct> v5 = f.call(describe, 5, request).get(DescribeGroupsApi.Response.GROUPS);
        assertThat(v5).extracting(g -> g.get(DescribedGroup.GROUP_STATE)).containsExactly("CompletingRebalance", "Dead");
        assertThat(v5).extracting(g -> g.get(DescribedGroup.ERROR_CODE)).containsOnly((short) 0);
        assertThat(v5.get(0).get(DescribedGroup.AUTHORIZED_OPERATIONS)).isEqualTo(DescribeGroupsHandler.ALL_GROUP_OPERATIONS);
        assertThat(v5.get(0).get(DescribedGroup.MEMBERS)).extracting(m -> m.get(DescribedGroup.DescribedGroupMember.MEMBER_ID) + " "
                + m.get(DescribedGroup.DescribedGroupMember.CLIENT_HOST)).containsExactly(member + " /127.0.0.1");
        List<Struct> v6 = f.call(describe, 6, request).get(DescribeGroupsApi.Response.GROUPS);
        assertThat(v6.get(1).get(DescribedGroup.ERROR_CODE)).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND.code());

        ListGroupsHandler list = new ListGroupsHandler(groups);
        assertThat(f.call(list, 0, ListGroupsApi.Request.SCHEMA.newStruct()).get(ListGroupsApi.Response.GROUPS))
                .extracting(g -> g.get(ListGroupsApi.Response.ListedGroup.GROUP_ID) + ":" + g.get(ListGroupsApi.Response.ListedGroup.PROTOCOL_TYPE))
                .containsExactlyInAnyOrder("active:consumer", "simple:");
        Struct emptyOnly = ListGroupsApi.Request.SCHEMA.newStruct().set(ListGroupsApi.Request.STATES_FILTER, List.of("Empty"));
        assertThat(f.call(list, 4, emptyOnly).get(ListGroupsApi.Response.GROUPS))
                .extracting(g -> g.get(ListGroupsApi.Response.ListedGroup.GROUP_ID) + ":" + g.get(ListGroupsApi.Response.ListedGroup.GROUP_STATE))
                .containsExactly("simple:Empty");
        Struct consumerType = ListGroupsApi.Request.SCHEMA.newStruct().set(ListGroupsApi.Request.TYPES_FILTER, List.of("consumer"));
        assertThat(f.call(list, 5, consumerType).get(ListGroupsApi.Response.GROUPS)).isEmpty();

        OffsetDeleteHandler offsetDelete = new OffsetDeleteHandler(groups, f.topics);
        Struct delOffsets = OffsetDeleteApi.Request.SCHEMA.newStruct().set(OffsetDeleteApi.Request.GROUP_ID, "simple");
        Struct t = delOffsets.add(OffsetDeleteApi.Request.TOPICS).set(OffsetDeleteApi.Request.OffsetDeleteRequestTopic.NAME, "orders");
        t.add(OffsetDeleteApi.Request.OffsetDeleteRequestTopic.PARTITIONS);
        delOffsets.add(OffsetDeleteApi.Request.TOPICS).set(OffsetDeleteApi.Request.OffsetDeleteRequestTopic.NAME, "nope")
                .add(OffsetDeleteApi.Request.OffsetDeleteRequestTopic.PARTITIONS);
        Struct deletedOffsets = f.call(offsetDelete, 0, delOffsets);
        assertThat(deletedOffsets.get(OffsetDeleteApi.Response.ERROR_CODE)).isZero();
        assertThat(deletedOffsets.get(OffsetDeleteApi.Response.TOPICS)).flatExtracting(x -> x.get(OffsetDeleteApi.Response.OffsetDeleteResponseTopic.PARTITIONS))
                .extracting(p -> p.get(OffsetDeleteApi.Response.OffsetDeleteResponseTopic.OffsetDeleteResponsePartition.ERROR_CODE))
                .containsExactly((short) 0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(f.call(offsetDelete, 0, OffsetDeleteApi.Request.SCHEMA.newStruct().set(OffsetDeleteApi.Request.GROUP_ID, "none"))
                .get(OffsetDeleteApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND.code());

        Struct delete = DeleteGroupsApi.Request.SCHEMA.newStruct()
                .set(DeleteGroupsApi.Request.GROUPS_NAMES, List.of("active", "simple", "missing"));
        assertThat(f.call(new DeleteGroupsHandler(groups), 3, delete).get(DeleteGroupsApi.Response.RESULTS))
                .extracting(r -> r.get(DeleteGroupsApi.Response.DeletableGroupResult.GROUP_ID) + " "
                        + r.get(DeleteGroupsApi.Response.DeletableGroupResult.ERROR_CODE))
                .containsExactly("active " + ErrorCode.NON_EMPTY_GROUP.code(), "simple 0",
                        "missing " + ErrorCode.GROUP_ID_NOT_FOUND.code());
    }

    // ------------------------------------------------------------------ helpers

    private static Struct heartbeat(String group, String memberId, int generation) {
        return HeartbeatApi.Request.SCHEMA.newStruct().set(HeartbeatApi.Request.GROUP_ID, group)
                .set(HeartbeatApi.Request.MEMBER_ID, memberId).set(HeartbeatApi.Request.GENERATION_ID, generation);
    }
}
