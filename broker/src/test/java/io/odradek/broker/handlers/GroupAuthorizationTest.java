package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.CoordinatorAclFixture.alice;
import static io.odradek.broker.handlers.CoordinatorAclFixture.call;
import static io.odradek.broker.handlers.GroupRequests.joinRequest;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.security.Session;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.group.TopicCatalog;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.acl.AccessControlEntry;
import io.odradek.security.acl.AclAuthorizer;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.AclPermissionType;
import io.odradek.security.acl.PatternType;
import io.odradek.security.acl.ResourcePattern;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ConsumerGroupDescribeApi;
import io.odradek.wire.api.ConsumerGroupDescribeApi.Response.DescribedGroup;
import io.odradek.wire.api.ConsumerGroupHeartbeatApi;
import io.odradek.wire.api.DeleteGroupsApi;
import io.odradek.wire.api.DeleteGroupsApi.Response.DeletableGroupResult;
import io.odradek.wire.api.DescribeGroupsApi;
import io.odradek.wire.api.FindCoordinatorApi;
import io.odradek.wire.api.HeartbeatApi;
import io.odradek.wire.api.JoinGroupApi;
import io.odradek.wire.api.LeaveGroupApi;
import io.odradek.wire.api.ListGroupsApi;
import io.odradek.wire.api.ListGroupsApi.Response.ListedGroup;
import io.odradek.wire.api.OffsetCommitApi;
import io.odradek.wire.api.OffsetCommitApi.Request.OffsetCommitRequestTopic;
import io.odradek.wire.api.OffsetCommitApi.Request.OffsetCommitRequestTopic.OffsetCommitRequestPartition;
import io.odradek.wire.api.OffsetCommitApi.Response.OffsetCommitResponseTopic;
import io.odradek.wire.api.OffsetCommitApi.Response.OffsetCommitResponseTopic.OffsetCommitResponsePartition;
import io.odradek.wire.api.OffsetDeleteApi;
import io.odradek.wire.api.OffsetDeleteApi.Request.OffsetDeleteRequestTopic;
import io.odradek.wire.api.OffsetDeleteApi.Response.OffsetDeleteResponseTopic;
import io.odradek.wire.api.OffsetDeleteApi.Response.OffsetDeleteResponseTopic.OffsetDeleteResponsePartition;
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
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a client whose ACLs allow only some groups and topics sees from the group APIs: Kafka 4.4's checks
 * and errors, through the real codec and a real group coordinator. "orders" is readable where the test says
 * so, "secret" never is.
 */
class GroupAuthorizationTest {
    @TempDir
    Path dir;
    AdminFixture f;
    GroupCoordinator groups;

    @BeforeEach
    void start() throws Exception {
        f = new AdminFixture(dir, Map.of("offsets.topic.num.partitions", "2", "group.initial.rebalance.delay.ms", "0"));
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

    /** The fixture's topics as consumer-protocol groups are assigned from them. */
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

    @Test
    void findCoordinatorRefusesGroupsAndTransactionalIdsTheClientMayNotDescribe() {
        FindCoordinatorHandler handler = new FindCoordinatorHandler(f.node, groups, null);
        Session session = alice("DESCRIBE GROUP mine");

        Struct group = call(handler, 3, FindCoordinatorApi.Request.SCHEMA.newStruct().set(FindCoordinatorApi.Request.KEY, "other"),
                session);
        assertThat(group.get(FindCoordinatorApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED.code());
        assertThat(group.get(FindCoordinatorApi.Response.ERROR_MESSAGE)).isEqualTo("Group authorization failed.");
        assertThat(group.get(FindCoordinatorApi.Response.NODE_ID)).isEqualTo(-1);
        assertThat(group.get(FindCoordinatorApi.Response.HOST)).isEmpty();
        assertThat(group.get(FindCoordinatorApi.Response.PORT)).isEqualTo(-1);

        Struct txn = call(handler, 3, FindCoordinatorApi.Request.SCHEMA.newStruct().set(FindCoordinatorApi.Request.KEY, "mine")
                .set(FindCoordinatorApi.Request.KEY_TYPE, (byte) 1), session);
        assertThat(txn.get(FindCoordinatorApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code());
        assertThat(txn.get(FindCoordinatorApi.Response.ERROR_MESSAGE)).isEqualTo("Transactional Id authorization failed.");

        Struct batched = call(handler, 6, FindCoordinatorApi.Request.SCHEMA.newStruct()
                .set(FindCoordinatorApi.Request.COORDINATOR_KEYS, List.of("mine", "other")), session);
        assertThat(batched.get(FindCoordinatorApi.Response.COORDINATORS))
                .extracting(c -> c.get(FindCoordinatorApi.Response.Coordinator.KEY) + "@"
                        + c.get(FindCoordinatorApi.Response.Coordinator.NODE_ID) + " "
                        + ErrorCode.forCode(c.get(FindCoordinatorApi.Response.Coordinator.ERROR_CODE)) + " "
                        + c.get(FindCoordinatorApi.Response.Coordinator.ERROR_MESSAGE))
                .containsExactly("mine@1 NONE null", "other@-1 GROUP_AUTHORIZATION_FAILED null");
    }

    @Test
    void joiningSyncingHeartbeatingAndLeavingAGroupNeedReadOnIt() {
        Session reader = alice("READ GROUP g");
        Session stranger = alice("DESCRIBE GROUP g");
        Struct refusedJoin = call(new JoinGroupHandler(groups), 6, joinRequest("g", ""), stranger);
        assertThat(refusedJoin.get(JoinGroupApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED.code());
        assertThat(refusedJoin.get(JoinGroupApi.Response.GENERATION_ID)).isEqualTo(-1);
        assertThat(refusedJoin.get(JoinGroupApi.Response.MEMBER_ID)).isEmpty();
        assertThat(refusedJoin.get(JoinGroupApi.Response.PROTOCOL_NAME)).isEmpty();
        assertThat(call(new ListGroupsHandler(groups), 0, ListGroupsApi.Request.SCHEMA.newStruct(), Session.PLAINTEXT_ANONYMOUS)
                .get(ListGroupsApi.Response.GROUPS)).as("a refused join creates no group").isEmpty();

        Struct joined = call(new JoinGroupHandler(groups), 3, joinRequest("g", ""), reader);
        assertThat(joined.get(JoinGroupApi.Response.ERROR_CODE)).isZero();
        String member = joined.get(JoinGroupApi.Response.MEMBER_ID);

        Struct sync = SyncGroupApi.Request.SCHEMA.newStruct().set(SyncGroupApi.Request.GROUP_ID, "g")
                .set(SyncGroupApi.Request.GENERATION_ID, 1).set(SyncGroupApi.Request.MEMBER_ID, member)
                .set(SyncGroupApi.Request.PROTOCOL_TYPE, "consumer").set(SyncGroupApi.Request.PROTOCOL_NAME, "range");
        Struct refusedSync = call(new SyncGroupHandler(groups), 5, sync, stranger);
        assertThat(refusedSync.get(SyncGroupApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED.code());
        assertThat(refusedSync.get(SyncGroupApi.Response.ASSIGNMENT)).isEmpty();
        assertThat(call(new SyncGroupHandler(groups), 5, sync, reader).get(SyncGroupApi.Response.ERROR_CODE)).isZero();

        Struct heartbeat = HeartbeatApi.Request.SCHEMA.newStruct().set(HeartbeatApi.Request.GROUP_ID, "g")
                .set(HeartbeatApi.Request.MEMBER_ID, member).set(HeartbeatApi.Request.GENERATION_ID, 1);
        assertThat(call(new HeartbeatHandler(groups), 4, heartbeat, stranger).get(HeartbeatApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED.code());
        assertThat(call(new HeartbeatHandler(groups), 4, heartbeat, reader).get(HeartbeatApi.Response.ERROR_CODE)).isZero();

        Struct leave = LeaveGroupApi.Request.SCHEMA.newStruct().set(LeaveGroupApi.Request.GROUP_ID, "g");
        leave.add(LeaveGroupApi.Request.MEMBERS).set(LeaveGroupApi.Request.MemberIdentity.MEMBER_ID, member);
        Struct refusedLeave = call(new LeaveGroupHandler(groups), 5, leave, stranger);
        assertThat(refusedLeave.get(LeaveGroupApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED.code());
        assertThat(refusedLeave.get(LeaveGroupApi.Response.MEMBERS)).isEmpty();
        Struct left = call(new LeaveGroupHandler(groups), 5, leave, reader);
        assertThat(left.get(LeaveGroupApi.Response.ERROR_CODE)).isZero();
        assertThat(left.get(LeaveGroupApi.Response.MEMBERS)).extracting(m -> m.get(LeaveGroupApi.Response.MemberResponse.MEMBER_ID))
                .containsExactly(member);
    }

    @Test
    void offsetCommitNeedsReadOnTheGroupThenOnEachTopic() {
        OffsetCommitHandler commit = new OffsetCommitHandler(groups, f.topics);
        Struct request = commitRequest("g", "orders", 0, 42L, "secret", 0, 7L);

        assertThat(commitErrors(call(commit, 8, request, alice("READ TOPIC orders"))))
                .containsExactly("orders-0 GROUP_AUTHORIZATION_FAILED", "secret-0 GROUP_AUTHORIZATION_FAILED");
        assertThat(committed("g")).as("nothing committed when the group is refused").isEmpty();

        assertThat(commitErrors(call(commit, 8, request, alice("READ GROUP g", "READ TOPIC orders", "DESCRIBE TOPIC secret"))))
                .containsExactly("orders-0 NONE", "secret-0 TOPIC_AUTHORIZATION_FAILED");
        assertThat(committed("g")).containsExactly("orders-0=42");
    }

    @Test
    void offsetFetchShowsOnlyGroupsAndTopicsTheClientMayDescribe() {
        call(new OffsetCommitHandler(groups, f.topics), 8, commitRequest("g", "orders", 0, 42L, "secret", 0, 7L),
                Session.PLAINTEXT_ANONYMOUS);
        OffsetFetchHandler fetch = new OffsetFetchHandler(groups, f.topics);
        Session session = alice("DESCRIBE GROUP g", "DESCRIBE TOPIC orders");

        Struct v8 = OffsetFetchApi.Request.SCHEMA.newStruct();
        Struct asked = v8.add(OffsetFetchApi.Request.GROUPS).set(OffsetFetchRequestGroup.GROUP_ID, "g");
        asked.add(OffsetFetchRequestGroup.TOPICS).set(OffsetFetchRequestTopics.NAME, "orders")
                .set(OffsetFetchRequestTopics.PARTITION_INDEXES, List.of(0));
        asked.add(OffsetFetchRequestGroup.TOPICS).set(OffsetFetchRequestTopics.NAME, "secret")
                .set(OffsetFetchRequestTopics.PARTITION_INDEXES, List.of(0));
        v8.add(OffsetFetchApi.Request.GROUPS).set(OffsetFetchRequestGroup.GROUP_ID, "g").set(OffsetFetchRequestGroup.TOPICS, null);
        v8.add(OffsetFetchApi.Request.GROUPS).set(OffsetFetchRequestGroup.GROUP_ID, "hidden").set(OffsetFetchRequestGroup.TOPICS, null);
        List<Struct> answered = call(fetch, 8, v8, session).get(OffsetFetchApi.Response.GROUPS);
        assertThat(answered).extracting(g -> g.get(OffsetFetchResponseGroup.GROUP_ID) + " "
                + ErrorCode.forCode(g.get(OffsetFetchResponseGroup.ERROR_CODE)) + " " + groupOffsets(g))
                .containsExactly("g NONE [orders-0=42 NONE, secret-0=-1 TOPIC_AUTHORIZATION_FAILED]",
                        "g NONE [orders-0=42 NONE]",
                        "hidden GROUP_AUTHORIZATION_FAILED []");

        Struct single = OffsetFetchApi.Request.SCHEMA.newStruct().set(OffsetFetchApi.Request.GROUP_ID, "hidden");
        single.add(OffsetFetchApi.Request.TOPICS).set(OffsetFetchApi.Request.OffsetFetchRequestTopic.NAME, "orders")
                .set(OffsetFetchApi.Request.OffsetFetchRequestTopic.PARTITION_INDEXES, List.of(0, 1));
        Struct v7 = call(fetch, 7, single, session);
        assertThat(v7.get(OffsetFetchApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED.code());
        assertThat(v7.get(OffsetFetchApi.Response.TOPICS)).isEmpty();
        // v1 has no top-level error: every asked partition carries it
        assertThat(singleOffsets(call(fetch, 1, single, session)))
                .containsExactly("orders-0=-1 GROUP_AUTHORIZATION_FAILED", "orders-1=-1 GROUP_AUTHORIZATION_FAILED");

        Struct allTopics = OffsetFetchApi.Request.SCHEMA.newStruct().set(OffsetFetchApi.Request.GROUP_ID, "g")
                .set(OffsetFetchApi.Request.TOPICS, null);
        assertThat(singleOffsets(call(fetch, 7, allTopics, session))).containsExactly("orders-0=42 NONE");
        assertThat(singleOffsets(call(fetch, 7, allTopics, Session.PLAINTEXT_ANONYMOUS)))
                .as("without an authorizer everything is shown").containsExactly("orders-0=42 NONE", "secret-0=7 NONE");
    }

    @Test
    void offsetDeleteNeedsDeleteOnTheGroupAndReadOnEachTopic() {
        call(new OffsetCommitHandler(groups, f.topics), 8, commitRequest("g", "orders", 0, 42L, "secret", 0, 7L),
                Session.PLAINTEXT_ANONYMOUS);
        OffsetDeleteHandler delete = new OffsetDeleteHandler(groups, f.topics);
        Struct request = OffsetDeleteApi.Request.SCHEMA.newStruct().set(OffsetDeleteApi.Request.GROUP_ID, "g");
        request.add(OffsetDeleteApi.Request.TOPICS).set(OffsetDeleteRequestTopic.NAME, "orders")
                .add(OffsetDeleteRequestTopic.PARTITIONS);
        request.add(OffsetDeleteApi.Request.TOPICS).set(OffsetDeleteRequestTopic.NAME, "secret")
                .add(OffsetDeleteRequestTopic.PARTITIONS);

        Struct refused = call(delete, 0, request, alice("READ GROUP g", "READ TOPIC orders", "READ TOPIC secret"));
        assertThat(refused.get(OffsetDeleteApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED.code());
        assertThat(refused.get(OffsetDeleteApi.Response.TOPICS)).isEmpty();

        Struct deleted = call(delete, 0, request, alice("DELETE GROUP g", "READ TOPIC orders"));
        assertThat(deleted.get(OffsetDeleteApi.Response.ERROR_CODE)).isZero();
        assertThat(deleted.get(OffsetDeleteApi.Response.TOPICS)).flatExtracting(t -> t.get(OffsetDeleteResponseTopic.PARTITIONS)
                .stream().map(p -> t.get(OffsetDeleteResponseTopic.NAME) + "-" + p.get(OffsetDeleteResponsePartition.PARTITION_INDEX)
                        + " " + ErrorCode.forCode(p.get(OffsetDeleteResponsePartition.ERROR_CODE))).toList())
                .containsExactly("orders-0 NONE", "secret-0 TOPIC_AUTHORIZATION_FAILED");
        assertThat(committed("g")).containsExactly("secret-0=7");
    }

    @Test
    void describeListAndDeleteGroupsShowOnlyWhatTheClientMayDescribeOrDelete() {
        call(new JoinGroupHandler(groups), 3, joinRequest("mine", ""), Session.PLAINTEXT_ANONYMOUS);
        call(new OffsetCommitHandler(groups, f.topics), 8, commitRequest("other", "orders", 0, 1L, "orders", 1, 2L),
                Session.PLAINTEXT_ANONYMOUS);
        call(new OffsetCommitHandler(groups, f.topics), 8, commitRequest("doomed", "orders", 0, 1L, "orders", 1, 2L),
                Session.PLAINTEXT_ANONYMOUS);

        Struct describe = DescribeGroupsApi.Request.SCHEMA.newStruct().set(DescribeGroupsApi.Request.GROUPS, List.of("mine", "other"));
        List<Struct> described = call(new DescribeGroupsHandler(groups), 5, describe, alice("DESCRIBE GROUP mine"))
                .get(DescribeGroupsApi.Response.GROUPS);
        assertThat(described).extracting(g -> g.get(DescribeGroupsApi.Response.DescribedGroup.GROUP_ID) + " "
                        + ErrorCode.forCode(g.get(DescribeGroupsApi.Response.DescribedGroup.ERROR_CODE)) + " '"
                        + g.get(DescribeGroupsApi.Response.DescribedGroup.GROUP_STATE) + "' "
                        + g.get(DescribeGroupsApi.Response.DescribedGroup.MEMBERS).size())
                .as("refused groups first, as Kafka orders them")
                .containsExactly("other GROUP_AUTHORIZATION_FAILED '' 0", "mine NONE 'CompletingRebalance' 1");

        ListGroupsHandler list = new ListGroupsHandler(groups);
        assertThat(listed(call(list, 4, ListGroupsApi.Request.SCHEMA.newStruct(), alice("DESCRIBE GROUP other", "READ GROUP mine"))))
                .containsExactly("other");
        assertThat(listed(call(list, 4, ListGroupsApi.Request.SCHEMA.newStruct(), alice("DESCRIBE CLUSTER kafka-cluster"))))
                .containsExactlyInAnyOrder("mine", "other", "doomed");

        Struct delete = DeleteGroupsApi.Request.SCHEMA.newStruct()
                .set(DeleteGroupsApi.Request.GROUPS_NAMES, List.of("other", "doomed", "mine"));
        assertThat(call(new DeleteGroupsHandler(groups), 2, delete, alice("DELETE GROUP doomed", "DESCRIBE GROUP other"))
                .get(DeleteGroupsApi.Response.RESULTS))
                .extracting(r -> r.get(DeletableGroupResult.GROUP_ID) + " " + ErrorCode.forCode(r.get(DeletableGroupResult.ERROR_CODE)))
                .containsExactly("doomed NONE", "other GROUP_AUTHORIZATION_FAILED", "mine GROUP_AUTHORIZATION_FAILED");
        assertThat(listed(call(list, 4, ListGroupsApi.Request.SCHEMA.newStruct(), Session.PLAINTEXT_ANONYMOUS)))
                .containsExactlyInAnyOrder("mine", "other");
    }

    @Test
    void withoutAnAuthorizerDescribeGroupsReportsEveryGroupOperationForGroupsItDescribes() {
        call(new JoinGroupHandler(groups), 3, joinRequest("mine", ""), Session.PLAINTEXT_ANONYMOUS);
        Struct describe = DescribeGroupsApi.Request.SCHEMA.newStruct().set(DescribeGroupsApi.Request.GROUPS, List.of("mine", "gone"))
                .set(DescribeGroupsApi.Request.INCLUDE_AUTHORIZED_OPERATIONS, true);
        List<Struct> described = call(new DescribeGroupsHandler(groups), 6, describe, Session.PLAINTEXT_ANONYMOUS)
                .get(DescribeGroupsApi.Response.GROUPS);
        assertThat(described).extracting(g -> g.get(DescribeGroupsApi.Response.DescribedGroup.AUTHORIZED_OPERATIONS))
                .as("READ, DELETE and DESCRIBE; Kafka leaves the field at its default for a group not found")
                .containsExactly((1 << 3) | (1 << 6) | (1 << 8), Integer.MIN_VALUE);
    }

    @Test
    void consumerGroupHeartbeatNeedsReadOnTheGroupAndDescribeOnEverySubscribedTopic() {
        ConsumerGroupHeartbeatHandler heartbeat = new ConsumerGroupHeartbeatHandler(groups);
        Struct join = consumerJoin("cg", "orders", "secret");

        Struct noGroup = call(heartbeat, 0, join, alice("DESCRIBE TOPIC orders", "DESCRIBE TOPIC secret"));
        assertThat(ErrorCode.forCode(noGroup.get(ConsumerGroupHeartbeatApi.Response.ERROR_CODE)))
                .isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED);
        Struct noTopic = call(heartbeat, 0, join, alice("READ GROUP cg", "DESCRIBE TOPIC orders"));
        assertThat(ErrorCode.forCode(noTopic.get(ConsumerGroupHeartbeatApi.Response.ERROR_CODE)))
                .isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
        assertThat(noTopic.get(ConsumerGroupHeartbeatApi.Response.ERROR_MESSAGE)).isNull();
        assertThat(noTopic.get(ConsumerGroupHeartbeatApi.Response.MEMBER_ID)).isNull();
        assertThat(listed(call(new ListGroupsHandler(groups), 5, ListGroupsApi.Request.SCHEMA.newStruct(),
                Session.PLAINTEXT_ANONYMOUS))).as("no member joined").isEmpty();

        Struct joined = call(heartbeat, 0, join, alice("READ GROUP cg", "DESCRIBE TOPIC orders", "DESCRIBE TOPIC secret"));
        assertThat(joined.get(ConsumerGroupHeartbeatApi.Response.ERROR_CODE)).isZero();
        assertThat(joined.get(ConsumerGroupHeartbeatApi.Response.MEMBER_EPOCH)).isPositive();
    }

    @Test
    void consumerGroupDescribeRefusesGroupsWhoseAssignedTopicsTheClientMayNotDescribe() {
        ConsumerGroupHeartbeatHandler heartbeat = new ConsumerGroupHeartbeatHandler(groups);
        Struct joined = call(heartbeat, 0, consumerJoin("cg", "orders"), Session.PLAINTEXT_ANONYMOUS);
        assertThat(joined.get(ConsumerGroupHeartbeatApi.Response.ERROR_CODE)).isZero();
        awaitAssignment(heartbeat, "cg", joined.get(ConsumerGroupHeartbeatApi.Response.MEMBER_ID),
                joined.get(ConsumerGroupHeartbeatApi.Response.MEMBER_EPOCH), joined);
        ConsumerGroupDescribeHandler describe = new ConsumerGroupDescribeHandler(groups, f.topics);
        Struct request = ConsumerGroupDescribeApi.Request.SCHEMA.newStruct()
                .set(ConsumerGroupDescribeApi.Request.GROUP_IDS, List.of("cg", "other"));

        List<Struct> refused = call(describe, 0, request, alice("DESCRIBE GROUP cg")).get(ConsumerGroupDescribeApi.Response.GROUPS);
        assertThat(refused).extracting(g -> g.get(DescribedGroup.GROUP_ID) + " " + ErrorCode.forCode(g.get(DescribedGroup.ERROR_CODE))
                        + " " + g.get(DescribedGroup.ERROR_MESSAGE) + " " + g.get(DescribedGroup.MEMBERS).size())
                .containsExactly("other GROUP_AUTHORIZATION_FAILED null 0",
                        "cg TOPIC_AUTHORIZATION_FAILED " + ConsumerGroupDescribeHandler.HIDDEN_TOPICS_MESSAGE + " 0");

        List<Struct> shown = call(describe, 0, request, alice("DESCRIBE GROUP cg", "DESCRIBE TOPIC orders"))
                .get(ConsumerGroupDescribeApi.Response.GROUPS);
        assertThat(shown.get(1).get(DescribedGroup.ERROR_CODE)).isZero();
        assertThat(shown.get(1).get(DescribedGroup.MEMBERS)).flatExtracting(m -> m.get(DescribedGroup.Member.TARGET_ASSIGNMENT)
                        .get(DescribedGroup.Assignment.TOPIC_PARTITIONS))
                .extracting(t -> t.get(DescribedGroup.TopicPartitions.TOPIC_NAME) + " "
                        + t.get(DescribedGroup.TopicPartitions.PARTITIONS).stream().sorted().toList())
                .containsExactly("orders [0, 1]");
    }

    @Test
    void aConsumerWithReadAclsOnItsGroupAndATopicFindsItsCoordinatorCommitsAndFetchesThatTopicOnly() {
        AclAuthorizer acls = new AclAuthorizer(Set.of(), false);
        acls.refresh(() -> List.of(
                allow(ResourceType.GROUP, "etl", PatternType.LITERAL, AclOperation.READ),
                allow(ResourceType.TOPIC, "ord", PatternType.PREFIXED, AclOperation.READ)));
        Session alice = new Session(new KafkaPrincipal("User", "alice"), "PLAINTEXT", SecurityProtocol.SASL_PLAINTEXT,
                InetAddress.getLoopbackAddress(), acls);

        Struct find = call(new FindCoordinatorHandler(f.node, groups, null), 6, FindCoordinatorApi.Request.SCHEMA.newStruct()
                .set(FindCoordinatorApi.Request.COORDINATOR_KEYS, List.of("etl", "other")), alice);
        assertThat(find.get(FindCoordinatorApi.Response.COORDINATORS))
                .extracting(c -> ErrorCode.forCode(c.get(FindCoordinatorApi.Response.Coordinator.ERROR_CODE)))
                .as("READ implies DESCRIBE").containsExactly(ErrorCode.NONE, ErrorCode.GROUP_AUTHORIZATION_FAILED);
        assertThat(commitErrors(call(new OffsetCommitHandler(groups, f.topics), 8,
                commitRequest("etl", "orders", 1, 5L, "secret", 0, 6L), alice)))
                .containsExactly("orders-1 NONE", "secret-0 TOPIC_AUTHORIZATION_FAILED");
        Struct all = OffsetFetchApi.Request.SCHEMA.newStruct().set(OffsetFetchApi.Request.GROUP_ID, "etl")
                .set(OffsetFetchApi.Request.TOPICS, null);
        assertThat(singleOffsets(call(new OffsetFetchHandler(groups, f.topics), 7, all, alice))).containsExactly("orders-1=5 NONE");
    }

    @Test
    void aRegexSubscriptionIsAssignedOnlyTheMatchingTopicsTheMemberMayDescribe() throws Exception {
        f.topics.createTopic("a-1", 2, Map.of(), false);
        f.topics.createTopic("a-secret", 1, Map.of(), false);
        AclAuthorizer acls = new AclAuthorizer(Set.of(), false);
        acls.refresh(() -> List.of(
                allow(ResourceType.GROUP, "g", PatternType.LITERAL, AclOperation.READ),
                allow(ResourceType.TOPIC, "a-1", PatternType.LITERAL, AclOperation.READ)));
        Session alice = new Session(new KafkaPrincipal("User", "alice"), "PLAINTEXT", SecurityProtocol.SASL_PLAINTEXT,
                InetAddress.getLoopbackAddress(), acls);

        Struct joined = call(new ConsumerGroupHeartbeatHandler(groups), 1, ConsumerGroupHeartbeatApi.Request.SCHEMA.newStruct()
                .set(ConsumerGroupHeartbeatApi.Request.GROUP_ID, "g")
                .set(ConsumerGroupHeartbeatApi.Request.MEMBER_ID, UUID.randomUUID().toString())
                .set(ConsumerGroupHeartbeatApi.Request.MEMBER_EPOCH, 0)
                .set(ConsumerGroupHeartbeatApi.Request.REBALANCE_TIMEOUT_MS, 30_000)
                .set(ConsumerGroupHeartbeatApi.Request.SUBSCRIBED_TOPIC_NAMES, List.of())
                .set(ConsumerGroupHeartbeatApi.Request.SUBSCRIBED_TOPIC_REGEX, "a-.*")
                .set(ConsumerGroupHeartbeatApi.Request.TOPIC_PARTITIONS, List.of()), alice);

        assertThat(joined.get(ConsumerGroupHeartbeatApi.Response.ERROR_CODE)).isZero();
        UUID a1 = f.topics.topic("a-1").orElseThrow().id();
        assertThat(joined.get(ConsumerGroupHeartbeatApi.Response.ASSIGNMENT).get(ConsumerGroupHeartbeatApi.Response.Assignment.TOPIC_PARTITIONS))
                .as("a-secret matches the regex but alice may not DESCRIBE it")
                .extracting(t -> t.get(ConsumerGroupHeartbeatApi.Response.Assignment.TopicPartitions.TOPIC_ID) + " "
                        + t.get(ConsumerGroupHeartbeatApi.Response.Assignment.TopicPartitions.PARTITIONS).stream().sorted().toList())
                .containsExactly(a1 + " [0, 1]");
    }

    @Test
    void withoutAnAuthorizerTheGroupApisAskNothingAndRefuseNothing() {
        Session open = CoordinatorAclFixture.unauthorized();
        assertThat(call(new FindCoordinatorHandler(f.node, groups, null), 6, FindCoordinatorApi.Request.SCHEMA.newStruct()
                .set(FindCoordinatorApi.Request.COORDINATOR_KEYS, List.of("g")), open).get(FindCoordinatorApi.Response.COORDINATORS))
                .extracting(c -> c.get(FindCoordinatorApi.Response.Coordinator.ERROR_CODE)).containsExactly((short) 0);
        assertThat(commitErrors(call(new OffsetCommitHandler(groups, f.topics), 8,
                commitRequest("g", "orders", 0, 3L, "secret", 0, 4L), open))).containsExactly("orders-0 NONE", "secret-0 NONE");
        Struct all = OffsetFetchApi.Request.SCHEMA.newStruct().set(OffsetFetchApi.Request.GROUP_ID, "g")
                .set(OffsetFetchApi.Request.TOPICS, null);
        assertThat(singleOffsets(call(new OffsetFetchHandler(groups, f.topics), 7, all, open)))
                .containsExactly("orders-0=3 NONE", "secret-0=4 NONE");
        assertThat(listed(call(new ListGroupsHandler(groups), 4, ListGroupsApi.Request.SCHEMA.newStruct(), open))).containsExactly("g");
        assertThat(call(new ConsumerGroupHeartbeatHandler(groups), 0, consumerJoin("cg", "orders", "secret"), open)
                .get(ConsumerGroupHeartbeatApi.Response.ERROR_CODE)).isZero();
        assertThat(call(new ConsumerGroupDescribeHandler(groups, f.topics), 0, ConsumerGroupDescribeApi.Request.SCHEMA.newStruct()
                .set(ConsumerGroupDescribeApi.Request.GROUP_IDS, List.of("cg")), open).get(ConsumerGroupDescribeApi.Response.GROUPS))
                .extracting(g -> g.get(DescribedGroup.ERROR_CODE)).containsExactly((short) 0);
        assertThat(call(new DeleteGroupsHandler(groups), 2, DeleteGroupsApi.Request.SCHEMA.newStruct()
                .set(DeleteGroupsApi.Request.GROUPS_NAMES, List.of("g")), open).get(DeleteGroupsApi.Response.RESULTS))
                .extracting(r -> r.get(DeletableGroupResult.ERROR_CODE)).containsExactly((short) 0);
    }

    // ------------------------------------------------------------------ helpers

    private static AclBinding allow(ResourceType type, String name, PatternType patternType, AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, patternType),
                new AccessControlEntry("User:alice", "*", operation, AclPermissionType.ALLOW));
    }

    private static Struct consumerJoin(String group, String... topics) {
        return ConsumerGroupHeartbeatApi.Request.SCHEMA.newStruct()
                .set(ConsumerGroupHeartbeatApi.Request.GROUP_ID, group)
                .set(ConsumerGroupHeartbeatApi.Request.MEMBER_ID, "")
                .set(ConsumerGroupHeartbeatApi.Request.MEMBER_EPOCH, 0)
                .set(ConsumerGroupHeartbeatApi.Request.REBALANCE_TIMEOUT_MS, 30_000)
                .set(ConsumerGroupHeartbeatApi.Request.SUBSCRIBED_TOPIC_NAMES, List.of(topics))
                .set(ConsumerGroupHeartbeatApi.Request.TOPIC_PARTITIONS, List.of());
    }

    /** Heartbeats (up to 10 s) until the member has been assigned partitions, as a consumer would. */
    private static void awaitAssignment(ConsumerGroupHeartbeatHandler heartbeat, String group, String memberId, int epoch,
            Struct last) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        Struct response = last;
        while (response.get(ConsumerGroupHeartbeatApi.Response.ASSIGNMENT) == null
                || response.get(ConsumerGroupHeartbeatApi.Response.ASSIGNMENT)
                        .get(ConsumerGroupHeartbeatApi.Response.Assignment.TOPIC_PARTITIONS).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no assignment: " + response);
            }
            response = call(heartbeat, 0, ConsumerGroupHeartbeatApi.Request.SCHEMA.newStruct()
                    .set(ConsumerGroupHeartbeatApi.Request.GROUP_ID, group)
                    .set(ConsumerGroupHeartbeatApi.Request.MEMBER_ID, memberId)
                    .set(ConsumerGroupHeartbeatApi.Request.MEMBER_EPOCH, epoch), Session.PLAINTEXT_ANONYMOUS);
            epoch = response.get(ConsumerGroupHeartbeatApi.Response.MEMBER_EPOCH);
        }
    }

    /** A simple (generation -1) commit of two partitions. */
    private static Struct commitRequest(String group, String topicA, int partitionA, long offsetA, String topicB, int partitionB,
            long offsetB) {
        Struct request = OffsetCommitApi.Request.SCHEMA.newStruct().set(OffsetCommitApi.Request.GROUP_ID, group)
                .set(OffsetCommitApi.Request.GENERATION_ID_OR_MEMBER_EPOCH, -1);
        request.add(OffsetCommitApi.Request.TOPICS).set(OffsetCommitRequestTopic.NAME, topicA)
                .add(OffsetCommitRequestTopic.PARTITIONS).set(OffsetCommitRequestPartition.PARTITION_INDEX, partitionA)
                .set(OffsetCommitRequestPartition.COMMITTED_OFFSET, offsetA);
        request.add(OffsetCommitApi.Request.TOPICS).set(OffsetCommitRequestTopic.NAME, topicB)
                .add(OffsetCommitRequestTopic.PARTITIONS).set(OffsetCommitRequestPartition.PARTITION_INDEX, partitionB)
                .set(OffsetCommitRequestPartition.COMMITTED_OFFSET, offsetB);
        return request;
    }

    private static List<String> commitErrors(Struct response) {
        List<String> out = new ArrayList<>();
        for (Struct t : response.get(OffsetCommitApi.Response.TOPICS)) {
            for (Struct p : t.get(OffsetCommitResponseTopic.PARTITIONS)) {
                out.add(t.get(OffsetCommitResponseTopic.NAME) + "-" + p.get(OffsetCommitResponsePartition.PARTITION_INDEX) + " "
                        + ErrorCode.forCode(p.get(OffsetCommitResponsePartition.ERROR_CODE)));
            }
        }
        return out;
    }

    /** The group's committed offsets as a client with no authorizer fetches them (all topics). */
    private List<String> committed(String group) {
        Struct all = OffsetFetchApi.Request.SCHEMA.newStruct().set(OffsetFetchApi.Request.GROUP_ID, group)
                .set(OffsetFetchApi.Request.TOPICS, null);
        return singleOffsets(call(new OffsetFetchHandler(groups, f.topics), 7, all, Session.PLAINTEXT_ANONYMOUS)).stream()
                .map(s -> s.substring(0, s.indexOf(' '))).toList();
    }

    private static List<String> singleOffsets(Struct response) {
        List<String> out = new ArrayList<>();
        for (Struct t : response.get(OffsetFetchApi.Response.TOPICS)) {
            for (Struct p : t.get(OffsetFetchResponseTopic.PARTITIONS)) {
                out.add(t.get(OffsetFetchResponseTopic.NAME) + "-" + p.get(OffsetFetchResponsePartition.PARTITION_INDEX) + "="
                        + p.get(OffsetFetchResponsePartition.COMMITTED_OFFSET) + " "
                        + ErrorCode.forCode(p.get(OffsetFetchResponsePartition.ERROR_CODE)));
            }
        }
        return out;
    }

    private static List<String> groupOffsets(Struct group) {
        List<String> out = new ArrayList<>();
        for (Struct t : group.get(OffsetFetchResponseGroup.TOPICS)) {
            for (Struct p : t.get(OffsetFetchResponseTopics.PARTITIONS)) {
                out.add(t.get(OffsetFetchResponseTopics.NAME) + "-" + p.get(OffsetFetchResponsePartitions.PARTITION_INDEX) + "="
                        + p.get(OffsetFetchResponsePartitions.COMMITTED_OFFSET) + " "
                        + ErrorCode.forCode(p.get(OffsetFetchResponsePartitions.ERROR_CODE)));
            }
        }
        return out;
    }

    private static List<String> listed(Struct response) {
        return response.get(ListGroupsApi.Response.GROUPS).stream().map(g -> g.get(ListedGroup.GROUP_ID)).toList();
    }
}
