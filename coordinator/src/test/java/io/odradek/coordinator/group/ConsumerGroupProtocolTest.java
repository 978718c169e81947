package io.odradek.coordinator.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KIP-848 consumer groups at the protocol level, on a manual clock: members are driven the way the Kafka
 * client drives them (join with epoch 0, heartbeat with the epoch and owned partitions it has).
 */
class ConsumerGroupProtocolTest {
    static final int SESSION_TIMEOUT = 6000;
    static final int HEARTBEAT_INTERVAL = 1000;
    static final int REBALANCE_TIMEOUT = 30_000;

    @TempDir
    Path dir;
    CoordinatorFixture f;
    UUID orders;

    @BeforeEach
    void open() {
        f = new CoordinatorFixture(dir, config(Map.of()));
        orders = f.topics.create("orders", 6);
    }

    @AfterEach
    void close() {
        f.close();
    }

    static GroupCoordinatorConfig config(Map<String, String> more) {
        Map<String, String> props = new HashMap<>(Map.of("offsets.topic.num.partitions", "3",
                "group.initial.rebalance.delay.ms", "0",
                "group.consumer.session.timeout.ms", Integer.toString(SESSION_TIMEOUT),
                "group.consumer.min.session.timeout.ms", "1000",
                "group.consumer.heartbeat.interval.ms", Integer.toString(HEARTBEAT_INTERVAL),
                "group.consumer.min.heartbeat.interval.ms", "100"));
        props.putAll(more);
        return GroupCoordinatorConfig.from(props);
    }

    /** A consumer as the Kafka client runs one: it gives up revoked partitions at once unless told to hold them. */
    final class Member {
        final String group;
        String memberId;
        String instanceId;
        List<String> topics;
        String assignor;
        int epoch;
        Map<UUID, Set<Integer>> owned = new TreeMap<>();
        boolean holdRevoked;
        String regex;
        /** The topics it may DESCRIBE, sent with each heartbeat as the broker's handler does (null: all). */
        Predicate<String> describable;

        Member(String group, String memberId, String... topics) {
            this.group = group;
            this.memberId = memberId;
            this.topics = List.of(topics);
        }

        ConsumerGroupHeartbeatResult join() {
            epoch = 0;
            owned = new TreeMap<>();
            return send(new ConsumerGroupHeartbeatRequest(group, memberId, 0, instanceId, null, REBALANCE_TIMEOUT, topics,
                    regex, assignor, Map.of(), "client-" + memberId, "/127.0.0.1", (short) 1, describable));
        }

        ConsumerGroupHeartbeatResult heartbeat() {
            Map<UUID, List<Integer>> reported = new LinkedHashMap<>();
            owned.forEach((t, p) -> reported.put(t, List.copyOf(p)));
            return send(new ConsumerGroupHeartbeatRequest(group, memberId, epoch, null, null, -1, null, null, null,
                    reported, "client-" + memberId, "/127.0.0.1", (short) 1, describable));
        }

        ConsumerGroupHeartbeatResult leave() {
            return send(new ConsumerGroupHeartbeatRequest(group, memberId, instanceId == null ? -1 : -2, instanceId, null, -1,
                    null, null, null, null, "client-" + memberId, "/127.0.0.1", (short) 1));
        }

        ConsumerGroupHeartbeatResult send(ConsumerGroupHeartbeatRequest req) {
            ConsumerGroupHeartbeatResult r = f.coordinator.consumerGroupHeartbeat(req).join();
            if (r.error() == ErrorCode.NONE && req.memberEpoch() >= 0) {
                epoch = r.memberEpoch();
                memberId = r.memberId();
                if (r.assignment() != null) {
                    Map<UUID, Set<Integer>> next = new TreeMap<>();
                    r.assignment().forEach((t, p) -> next.put(t, new TreeSet<>(p)));
                    if (holdRevoked) {
                        owned.forEach((t, p) -> next.computeIfAbsent(t, x -> new TreeSet<>()).addAll(p));
                    }
                    owned = next;
                }
            }
            return r;
        }

        Set<Integer> partitions(UUID topic) {
            return owned.getOrDefault(topic, Set.of());
        }
    }

    Member member(String id, String... topics) {
        return new Member("g", id, topics.length == 0 ? new String[] {"orders"} : topics);
    }

    ConsumerGroupState state() {
        return f.coordinator.consumerStateOf("g").join();
    }

    @Test
    void theFirstMemberGetsEveryPartitionAtEpochOne() {
        Member a = member("a");
        ConsumerGroupHeartbeatResult r = a.join();
        assertThat(r.error()).isEqualTo(ErrorCode.NONE);
        assertThat(r.memberId()).isEqualTo("a");
        assertThat(r.memberEpoch()).isEqualTo(1);
        assertThat(r.heartbeatIntervalMs()).isEqualTo(HEARTBEAT_INTERVAL);
        assertThat(r.assignment()).isEqualTo(Map.of(orders, Set.of(0, 1, 2, 3, 4, 5)));
        assertThat(state()).isEqualTo(ConsumerGroupState.STABLE);

        ConsumerGroupHeartbeatResult steady = a.heartbeat();
        assertThat(steady.memberEpoch()).isEqualTo(1);
        assertThat(steady.assignment()).isNull(); // nothing changed: the member keeps what it has
    }

    @Test
    void version0MembersGetAServerGeneratedMemberId() {
        ConsumerGroupHeartbeatResult r = f.coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequest("g", "", 0,
                null, null, REBALANCE_TIMEOUT, List.of("orders"), null, null, Map.of(), "c", "/127.0.0.1", (short) 0)).join();
        assertThat(r.error()).isEqualTo(ErrorCode.NONE);
        assertThat(r.memberId()).matches("[A-Za-z0-9_-]{22}");

        ConsumerGroupHeartbeatResult v1 = f.coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequest("g", "", 0,
                null, null, REBALANCE_TIMEOUT, List.of("orders"), null, null, Map.of(), "c", "/127.0.0.1", (short) 1)).join();
        assertThat(v1.error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(v1.errorMessage()).isEqualTo("MemberId can't be empty.");
    }

    @Test
    void aSecondMemberGetsPartitionsOnlyOnceTheFirstHasRevokedThem() {
        Member a = member("a");
        a.join();
        a.holdRevoked = true;
        Member b = member("b");

        ConsumerGroupHeartbeatResult joined = b.join();
        assertThat(joined.memberEpoch()).isEqualTo(2);
        assertThat(joined.assignment()).isEmpty(); // its partitions are still a's
        assertThat(state()).isEqualTo(ConsumerGroupState.RECONCILING);

        ConsumerGroupHeartbeatResult revoke = a.heartbeat();
        assertThat(revoke.memberEpoch()).isEqualTo(1); // a stays at its epoch until it has revoked
        assertThat(revoke.assignment()).isEqualTo(Map.of(orders, Set.of(0, 1, 2)));
        assertThat(a.heartbeat().memberEpoch()).isEqualTo(1); // still reports 3, 4, 5
        assertThat(b.heartbeat().assignment()).isNull();
        assertThat(b.partitions(orders)).isEmpty();

        a.holdRevoked = false;
        a.owned = new TreeMap<>(Map.of(orders, new TreeSet<>(Set.of(0, 1, 2)))); // onPartitionsRevoked done
        ConsumerGroupHeartbeatResult revoked = a.heartbeat();
        assertThat(revoked.memberEpoch()).isEqualTo(2);
        ConsumerGroupHeartbeatResult assigned = b.heartbeat();
        assertThat(assigned.memberEpoch()).isEqualTo(2);
        assertThat(assigned.assignment()).isEqualTo(Map.of(orders, Set.of(3, 4, 5)));
        assertThat(state()).isEqualTo(ConsumerGroupState.STABLE);
    }

    @Test
    void whenAMemberLeavesTheOthersAreGivenItsPartitions() {
        Member a = member("a");
        Member b = member("b");
        stable(a, b);
        ConsumerGroupHeartbeatResult left = b.leave();
        assertThat(left.error()).isEqualTo(ErrorCode.NONE);
        assertThat(left.memberEpoch()).isEqualTo(-1);

        ConsumerGroupHeartbeatResult r = a.heartbeat();
        assertThat(r.memberEpoch()).isEqualTo(3);
        assertThat(r.assignment()).isEqualTo(Map.of(orders, Set.of(0, 1, 2, 3, 4, 5)));
        assertThat(b.heartbeat().error()).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aMemberThatStopsHeartbeatingIsFencedAfterTheSessionTimeout() {
        Member a = member("a");
        Member b = member("b");
        stable(a, b);
        for (int i = 0; i < 5; i++) {
            f.clock.advance(HEARTBEAT_INTERVAL);
            a.heartbeat();
        }
        assertThat(f.coordinator.describeConsumerGroup("g").join().members()).hasSize(2); // 5 s < 6 s session
        f.clock.advance(HEARTBEAT_INTERVAL);
        ConsumerGroupHeartbeatResult r = a.heartbeat();
        assertThat(r.assignment()).isEqualTo(Map.of(orders, Set.of(0, 1, 2, 3, 4, 5)));
        assertThat(b.heartbeat().error()).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);

        ConsumerGroupHeartbeatResult rejoined = b.join(); // the client rejoins with its id and epoch 0
        assertThat(rejoined.error()).isEqualTo(ErrorCode.NONE);
        assertThat(rejoined.memberEpoch()).isGreaterThan(r.memberEpoch());
    }

    @Test
    void aMemberThatDoesNotRevokeWithinItsRebalanceTimeoutIsFenced() {
        Member a = member("a");
        a.join();
        a.holdRevoked = true;
        Member b = member("b");
        b.join();
        a.heartbeat(); // told to revoke 3, 4, 5; holds on to them
        for (int t = 0; t < REBALANCE_TIMEOUT; t += HEARTBEAT_INTERVAL) {
            f.clock.advance(HEARTBEAT_INTERVAL);
            b.heartbeat();
            if (t + HEARTBEAT_INTERVAL < REBALANCE_TIMEOUT) {
                assertThat(a.heartbeat().error()).isEqualTo(ErrorCode.NONE);
            }
        }
        assertThat(a.heartbeat().error()).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
        b.heartbeat();
        assertThat(b.owned).isEqualTo(Map.of(orders, Set.of(0, 1, 2, 3, 4, 5)));
    }

    @Test
    void anEpochTheCoordinatorDidNotGiveIsFenced() {
        Member a = member("a");
        a.join();
        a.epoch = 5;
        ConsumerGroupHeartbeatResult ahead = a.heartbeat();
        assertThat(ahead.error()).isEqualTo(ErrorCode.FENCED_MEMBER_EPOCH);
        assertThat(ahead.errorMessage()).contains("greater member epoch (5)");

        Member b = member("b");
        b.join();
        a.epoch = 1;
        a.heartbeat(); // told to revoke 3, 4, 5: it does at once
        a.heartbeat(); // and reports it: epoch 2
        assertThat(a.epoch).isEqualTo(2);
        a.epoch = 1; // the previous epoch, owning a subset of its assignment: a lost response, accepted
        assertThat(a.heartbeat().error()).isEqualTo(ErrorCode.NONE);
        a.owned = new TreeMap<>(Map.of(orders, new TreeSet<>(Set.of(5))));
        a.epoch = 1;
        assertThat(a.heartbeat().error()).isEqualTo(ErrorCode.FENCED_MEMBER_EPOCH); // 5 is not its partition
    }

    @Test
    void uniformBalancesAcrossTopicsWhileRangeCoPartitions() {
        UUID audit = f.topics.create("audit", 3);
        f.topics.setPartitions("orders", 3);
        Member a = new Member("u", "a", "orders", "audit");
        Member b = new Member("u", "b", "orders", "audit");
        stable(a, b);
        assertThat(count(a.owned)).isEqualTo(3);
        assertThat(count(b.owned)).isEqualTo(3);

        Member c = new Member("r", "c", "orders", "audit");
        c.assignor = "range";
        Member d = new Member("r", "d", "orders", "audit");
        d.assignor = "range";
        stable(c, d);
        assertThat(c.owned).isEqualTo(Map.of(orders, Set.of(0, 1), audit, Set.of(0, 1)));
        assertThat(d.owned).isEqualTo(Map.of(orders, Set.of(2), audit, Set.of(2)));
        assertThat(f.coordinator.describeConsumerGroup("r").join().assignorName()).isEqualTo("range");
        assertThat(f.coordinator.describeConsumerGroup("u").join().assignorName()).isEqualTo("uniform");
    }

    @Test
    void moreTopicPartitionsRebalanceTheGroupAtTheNextHeartbeat() {
        Member a = member("a");
        Member b = member("b");
        stable(a, b);
        f.topics.setPartitions("orders", 8);
        ConsumerGroupHeartbeatResult r = a.heartbeat();
        assertThat(r.memberEpoch()).isEqualTo(3);
        b.heartbeat();
        assertThat(count(a.owned) + count(b.owned)).isEqualTo(8);
        assertThat(count(a.owned)).isEqualTo(4);
    }

    @Test
    void aTopicCreatedLaterIsAssignedToItsSubscribers() {
        Member a = member("a", "orders", "later");
        a.join();
        assertThat(a.owned).isEqualTo(Map.of(orders, Set.of(0, 1, 2, 3, 4, 5)));
        UUID later = f.topics.create("later", 2);
        assertThat(a.heartbeat().memberEpoch()).isEqualTo(2);
        assertThat(a.owned).containsEntry(later, Set.of(0, 1));
    }

    @Test
    void aRegexSubscriptionMatchesWholeTopicNames() {
        UUID ordersEu = f.topics.create("orders-eu", 2);
        f.topics.create("audit", 2);
        ConsumerGroupHeartbeatResult r = f.coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequest("g", "a", 0,
                null, null, REBALANCE_TIMEOUT, null, "orders.*", null, Map.of(), "c", "/127.0.0.1", (short) 1)).join();
        assertThat(r.assignment()).isEqualTo(Map.of(orders, Set.of(0, 1, 2, 3, 4, 5), ordersEu, Set.of(0, 1)));
        assertThat(f.coordinator.describeConsumerGroup("g").join().members().get(0).subscribedTopicRegex()).isEqualTo("orders.*");

        ConsumerGroupHeartbeatResult bad = f.coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequest("g", "b", 0,
                null, null, REBALANCE_TIMEOUT, null, "orders[", null, Map.of(), "c", "/127.0.0.1", (short) 1)).join();
        assertThat(bad.error()).isEqualTo(ErrorCode.INVALID_REGULAR_EXPRESSION);
    }

    @Test
    void aRegexResolvesForEachMemberOnlyToTheTopicsItMayDescribe() {
        UUID secret = f.topics.create("orders-secret", 2);
        Member a = new Member("g", "a");
        a.regex = "orders.*";
        a.describable = topic -> !topic.equals("orders-secret");
        assertThat(a.join().assignment()).isEqualTo(Map.of(orders, Set.of(0, 1, 2, 3, 4, 5)));

        Member b = new Member("g", "b");
        b.regex = "orders.*";
        b.join();
        settle(a, b);
        assertThat(a.owned).as("a may not DESCRIBE orders-secret").doesNotContainKey(secret).containsKey(orders);
        assertThat(b.owned).containsEntry(secret, Set.of(0, 1));
        assertThat(union(a, b)).isEqualTo(Map.of(orders, Set.of(0, 1, 2, 3, 4, 5), secret, Set.of(0, 1)));

        // b loses DESCRIBE on it: its next heartbeat rebalances the group and nobody is assigned the topic.
        int epochBefore = f.coordinator.describeConsumerGroup("g").join().groupEpoch();
        b.describable = a.describable;
        b.heartbeat();
        assertThat(f.coordinator.describeConsumerGroup("g").join().groupEpoch()).isEqualTo(epochBefore + 1);
        settle(a, b);
        assertThat(union(a, b)).isEqualTo(Map.of(orders, Set.of(0, 1, 2, 3, 4, 5)));
        assertThat(f.coordinator.deleteOffsets("g", List.of(new TopicPartition("orders-secret", 0), new TopicPartition("orders", 0)))
                .join().partitions()).as("the group's regexes no longer resolve to orders-secret")
                .containsEntry(new TopicPartition("orders-secret", 0), ErrorCode.NONE)
                .containsEntry(new TopicPartition("orders", 0), ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC);
    }

    /** Heartbeats both members until neither's assignment moves. */
    private void settle(Member a, Member b) {
        for (int i = 0; i < 10; i++) {
            a.heartbeat();
            b.heartbeat();
        }
        assertThat(state()).isEqualTo(ConsumerGroupState.STABLE);
    }

    private static Map<UUID, Set<Integer>> union(Member a, Member b) {
        Map<UUID, Set<Integer>> out = new TreeMap<>();
        for (Member m : List.of(a, b)) {
            m.owned.forEach((t, p) -> out.computeIfAbsent(t, x -> new TreeSet<>()).addAll(p));
        }
        return out;
    }

    @Test
    void badRequestsGetKafkasErrors() {
        assertThat(f.coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequest("g", "a", 0, null, null, -1,
                List.of("orders"), null, null, Map.of(), "c", "/h", (short) 1)).join().errorMessage())
                .isEqualTo("RebalanceTimeoutMs must be provided in first request.");
        assertThat(f.coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequest("g", "a", 0, null, null, 1000,
                null, null, null, Map.of(), "c", "/h", (short) 1)).join().error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(f.coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequest("g", "a", -3, null, null, -1,
                null, null, null, null, "c", "/h", (short) 1)).join().errorMessage()).isEqualTo("MemberEpoch is invalid.");
        Member sticky = member("a");
        sticky.assignor = "sticky";
        ConsumerGroupHeartbeatResult unsupported = sticky.join();
        assertThat(unsupported.error()).isEqualTo(ErrorCode.UNSUPPORTED_ASSIGNOR);
        assertThat(unsupported.errorMessage()).isEqualTo("ServerAssignor sticky is not supported. Supported assignors: uniform, range.");

        Member ghost = member("ghost");
        ghost.epoch = 3;
        assertThat(ghost.heartbeat().error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
        member("a").join();
        assertThat(ghost.heartbeat().error()).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aFullGroupTurnsNewMembersAway() {
        f.close();
        f = new CoordinatorFixture(dir.resolve("small"), config(Map.of("group.consumer.max.size", "2")));
        f.topics.create("orders", 6);
        member("a").join();
        member("b").join();
        ConsumerGroupHeartbeatResult third = member("c").join();
        assertThat(third.error()).isEqualTo(ErrorCode.GROUP_MAX_SIZE_REACHED);
    }

    @Test
    void aStaticMemberComingBackUnderItsInstanceIdKeepsItsPartitionsWithoutARebalance() {
        Member a = member("a");
        a.instanceId = "instance-a";
        Member b = member("b");
        stable(a, b);
        Map<UUID, Set<Integer>> had = a.owned;
        int epoch = f.coordinator.describeConsumerGroup("g").join().groupEpoch();

        Member other = member("a2");
        other.instanceId = "instance-a";
        assertThat(other.join().error()).isEqualTo(ErrorCode.UNRELEASED_INSTANCE_ID); // a has not left

        assertThat(a.leave().memberEpoch()).isEqualTo(-2);
        ConsumerGroupHeartbeatResult back = other.join();
        assertThat(back.error()).isEqualTo(ErrorCode.NONE);
        assertThat(back.memberEpoch()).isEqualTo(epoch);
        assertThat(back.assignment()).isEqualTo(had);
        ConsumerGroupDescription d = f.coordinator.describeConsumerGroup("g").join();
        assertThat(d.groupEpoch()).isEqualTo(epoch);
        assertThat(d.members()).extracting(ConsumerGroupDescription.Member::memberId).containsExactlyInAnyOrder("a2", "b");
    }

    @Test
    void groupsAndTheirAssignmentsSurviveARestart() {
        Member a = member("a");
        Member b = member("b");
        stable(a, b);
        f.commitConsumerOffset("g", "a", a.epoch, "orders", 0, 42);
        f.restart();
        f.clock.advance(0);

        ConsumerGroupDescription d = f.coordinator.describeConsumerGroup("g").join();
        assertThat(d.state()).isEqualTo("Stable");
        assertThat(d.groupEpoch()).isEqualTo(2);
        assertThat(d.assignmentEpoch()).isEqualTo(2);
        assertThat(d.members()).extracting(ConsumerGroupDescription.Member::memberEpoch).containsOnly(2);
        assertThat(d.members().get(0).assignment()).isEqualTo(a.owned);
        assertThat(d.members().get(1).targetAssignment()).isEqualTo(b.owned);

        ConsumerGroupHeartbeatResult r = a.heartbeat(); // carries on at its epoch
        assertThat(r.error()).isEqualTo(ErrorCode.NONE);
        assertThat(r.memberEpoch()).isEqualTo(2);
        assertThat(f.coordinator.fetchOffsets("g", "a", 2, null).join().offsets())
                .containsKey(new TopicPartition("orders", 0));

        f.clock.advance(SESSION_TIMEOUT - HEARTBEAT_INTERVAL); // restored members get a fresh session
        a.heartbeat();
        f.clock.advance(HEARTBEAT_INTERVAL); // b never came back
        assertThat(f.coordinator.describeConsumerGroup("g").join().members()).hasSize(1);
    }

    @Test
    void offsetCommitsAreCheckedAgainstTheMemberEpoch() {
        Member a = member("a");
        a.join();
        assertThat(f.commitConsumerOffset("g", "a", 1, "orders", 0, 10)).isEqualTo(ErrorCode.NONE);
        assertThat(f.commitConsumerOffset("g", "a", 2, "orders", 0, 10)).isEqualTo(ErrorCode.STALE_MEMBER_EPOCH);
        assertThat(f.commitConsumerOffset("g", "zz", 1, "orders", 0, 10)).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
        assertThat(f.commitConsumerOffset("g", "", -1, "orders", 0, 10)).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);

        Member b = member("b");
        b.join();
        a.heartbeat(); // revokes 3-5
        a.heartbeat(); // epoch 2, keeps 0-2 (assigned at epoch 1)
        assertThat(a.epoch).isEqualTo(2);
        assertThat(f.commitConsumerOffset("g", "a", 1, "orders", 0, 11)).isEqualTo(ErrorCode.NONE); // held since epoch 1
        assertThat(f.commitConsumerOffset("g", "a", 1, "orders", 4, 11)).isEqualTo(ErrorCode.STALE_MEMBER_EPOCH); // b's now

        assertThat(f.coordinator.fetchOffsets("g", "a", 1, null).join().error()).isEqualTo(ErrorCode.STALE_MEMBER_EPOCH);
        assertThat(f.coordinator.fetchOffsets("g", "a", 2, null).join().offsets().get(new TopicPartition("orders", 0)).offset())
                .isEqualTo(11L);
        assertThat(f.coordinator.fetchOffsets("g", null, -1, null).join().error()).isEqualTo(ErrorCode.NONE);

        a.leave();
        b.leave();
        assertThat(f.commitConsumerOffset("g", "", -1, "orders", 1, 5)).isEqualTo(ErrorCode.NONE); // admin, empty group
    }

    @Test
    void aClassicGroupWithMembersIsNotAConsumerGroupAndViceVersa() {
        CoordinatorFixture c = f;
        c.joinNew("classic", "x", List.of(CoordinatorFixture.protocol("range", "orders")));
        c.clock.advance(0);
        ConsumerGroupHeartbeatResult r = new Member("classic", "a", "orders").join();
        assertThat(r.error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
        assertThat(r.errorMessage()).isEqualTo("Group classic is not a consumer group.");

        member("a").join();
        JoinGroupResult join = c.coordinator.joinGroup(c.joinRequest("g", "", null, "x",
                List.of(CoordinatorFixture.protocol("range", "orders")))).join();
        assertThat(join.error()).isEqualTo(ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
        assertThat(f.coordinator.describeGroup("g").join().error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
        assertThat(f.coordinator.describeConsumerGroup("classic").join().errorMessage())
                .isEqualTo("Group classic is not a consumer group.");
    }

    @Test
    void emptyGroupsConvertBetweenTheProtocolsKeepingTheirOffsets() {
        assertThat(f.commit("g", -1, "", "orders", 0, 7L)).containsValue(ErrorCode.NONE); // a simple classic group
        Member a = member("a");
        assertThat(a.join().error()).isEqualTo(ErrorCode.NONE);
        assertThat(f.coordinator.fetchOffsets("g", "a", a.epoch, null).join().offsets().get(new TopicPartition("orders", 0)).offset())
                .isEqualTo(7L);
        a.leave();

        JoinGroupResult first = f.coordinator.joinGroup(f.joinRequest("g", "", null, "x",
                List.of(CoordinatorFixture.protocol("range", "orders")))).join();
        assertThat(first.error()).isEqualTo(ErrorCode.MEMBER_ID_REQUIRED);
        assertThat(f.coordinator.consumerStateOf("g").join()).isNull();
        f.restart();
        f.clock.advance(0);
        assertThat(f.coordinator.consumerStateOf("g").join()).isNull();
        assertThat(f.coordinator.fetchOffsets("g", null).join().offsets().get(new TopicPartition("orders", 0)).offset())
                .isEqualTo(7L);
    }

    @Test
    void listAndDescribeReportConsumerGroups() {
        Member a = member("a");
        a.join();
        GroupCoordinator.ListGroupsResult all = f.coordinator.listGroups(List.of(), List.of()).join();
        assertThat(all.groups()).containsExactly(new GroupOverview("g", "consumer", "Stable", "consumer"));
        assertThat(f.coordinator.listGroups(List.of(), List.of("classic")).join().groups()).isEmpty();
        assertThat(f.coordinator.listGroups(List.of("empty"), List.of("Consumer")).join().groups()).isEmpty();

        ConsumerGroupDescription d = f.coordinator.describeConsumerGroup("g").join();
        assertThat(d.error()).isEqualTo(ErrorCode.NONE);
        assertThat(d.members()).singleElement().satisfies(m -> {
            assertThat(m.memberId()).isEqualTo("a");
            assertThat(m.clientId()).isEqualTo("client-a");
            assertThat(m.clientHost()).isEqualTo("/127.0.0.1");
            assertThat(m.subscribedTopicNames()).containsExactly("orders");
            assertThat(m.assignment()).isEqualTo(Map.of(orders, Set.of(0, 1, 2, 3, 4, 5)));
        });
        assertThat(f.coordinator.describeConsumerGroup("nope").join().errorMessage()).isEqualTo("Group nope not found.");

        assertThat(f.coordinator.deleteGroup("g").join()).isEqualTo(ErrorCode.NON_EMPTY_GROUP);
        a.leave();
        assertThat(state()).isEqualTo(ConsumerGroupState.EMPTY);
        assertThat(f.coordinator.deleteGroup("g").join()).isEqualTo(ErrorCode.NONE);
        assertThat(state()).isNull();
    }

    /** Joins the members and heartbeats them until every one is reconciled. */
    void stable(Member... members) {
        for (Member m : members) {
            m.join();
        }
        for (int round = 0; round < 5; round++) {
            for (Member m : members) {
                m.heartbeat();
            }
        }
        assertThat(f.coordinator.consumerStateOf(members[0].group).join()).isEqualTo(ConsumerGroupState.STABLE);
    }

    static int count(Map<UUID, Set<Integer>> assignment) {
        return assignment.values().stream().mapToInt(Set::size).sum();
    }
}
