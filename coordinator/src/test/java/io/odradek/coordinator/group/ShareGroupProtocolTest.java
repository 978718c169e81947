package io.odradek.coordinator.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Share groups (KIP-932) in the group coordinator, on a manual clock, with members driven as Kafka's
 * KafkaShareConsumer drives them: join with epoch 0 and its own member id, then heartbeat with its epoch.
 */
class ShareGroupProtocolTest {
    static final int SESSION_TIMEOUT = 45_000;

    @TempDir
    Path dir;
    CoordinatorFixture f;
    FakeSharePersister persister = new FakeSharePersister();
    UUID orders;

    @BeforeEach
    void open() {
        f = new CoordinatorFixture(dir, CoordinatorFixture.config(0), new ShareGroupServices(
                ShareGroupConfig.from(Map.of("group.share.max.size", "3")), GroupConfigSource.NONE, persister));
        orders = f.topics.create("orders", 1);
    }

    @AfterEach
    void close() {
        f.close();
    }

    /** A share consumer: its own member id, the epoch it was told. */
    final class Member {
        final String group;
        final String memberId = UUID.randomUUID().toString();
        int epoch;
        Map<UUID, Set<Integer>> assigned = Map.of();

        Member(String group) {
            this.group = group;
        }

        ShareGroupHeartbeatResult join(String... topics) {
            return send(0, List.of(topics));
        }

        ShareGroupHeartbeatResult heartbeat() {
            return send(epoch, null);
        }

        ShareGroupHeartbeatResult leave() {
            return send(-1, null);
        }

        ShareGroupHeartbeatResult send(int withEpoch, List<String> topics) {
            ShareGroupHeartbeatResult r = f.coordinator.shareGroupHeartbeat(new ShareGroupHeartbeatRequest(group, memberId,
                    withEpoch, null, topics, "client-" + memberId.substring(0, 4), "/127.0.0.1")).join();
            if (r.error() == ErrorCode.NONE) {
                epoch = r.memberEpoch();
                if (r.assignment() != null) {
                    assigned = r.assignment();
                }
            }
            return r;
        }
    }

    @Test
    void firstHeartbeatInitializesSharePartitionsAndTheNextAssignsThem() {
        Member a = new Member("queue");
        ShareGroupHeartbeatResult joined = a.join("orders");
        assertThat(joined.error()).isEqualTo(ErrorCode.NONE);
        assertThat(joined.memberId()).isEqualTo(a.memberId);
        assertThat(joined.memberEpoch()).isEqualTo(1);
        assertThat(joined.heartbeatIntervalMs()).isEqualTo(5000);
        assertThat(joined.assignment()).isEmpty(); // nothing has share state yet
        // Initialized at the group epoch, start offset -1: the partition leader applies share.auto.offset.reset.
        assertThat(persister.initialized).containsExactly(
                new FakeSharePersister.Initialized(new SharePartitionKey("queue", orders, 0), 1, -1));

        ShareGroupHeartbeatResult next = a.heartbeat();
        assertThat(next.memberEpoch()).isEqualTo(2);
        assertThat(next.assignment()).isEqualTo(Map.of(orders, Set.of(0)));
        assertThat(a.heartbeat().assignment()).isNull(); // unchanged: not repeated
        assertThat(persister.initialized).hasSize(1); // initialized once
    }

    @Test
    void threeMembersOnOnePartitionAllGetIt() {
        List<Member> members = List.of(new Member("queue"), new Member("queue"), new Member("queue"));
        members.forEach(m -> m.join("orders"));
        members.forEach(Member::heartbeat);
        members.forEach(Member::heartbeat);
        for (Member m : members) {
            assertThat(m.assigned).isEqualTo(Map.of(orders, Set.of(0)));
        }
        ShareGroupDescription d = f.coordinator.describeShareGroup("queue").join();
        assertThat(d.state()).isEqualTo("Stable");
        assertThat(d.assignorName()).isEqualTo("simple");
        assertThat(d.members()).extracting(ShareGroupDescription.Member::memberId)
                .containsExactly(members.get(0).memberId, members.get(1).memberId, members.get(2).memberId);
        assertThat(d.members()).allSatisfy(m -> {
            assertThat(m.assignment()).isEqualTo(Map.of(orders, Set.of(0)));
            assertThat(m.memberEpoch()).isEqualTo(d.assignmentEpoch());
            assertThat(m.subscribedTopicNames()).containsExactly("orders");
        });
    }

    @Test
    void partitionsAreSpreadWhenTheyOutnumberMembers() {
        UUID events = f.topics.create("events", 4);
        Member a = new Member("spread");
        Member b = new Member("spread");
        a.join("events");
        b.join("events");
        a.heartbeat();
        b.heartbeat();
        a.heartbeat();
        assertThat(a.assigned.get(events)).hasSize(2);
        assertThat(b.assigned.get(events)).hasSize(2);
        Set<Integer> all = new HashSet<>(a.assigned.get(events));
        all.addAll(b.assigned.get(events));
        assertThat(all).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void aMemberThatStopsHeartbeatingIsFencedAndTheOthersTakeItsPartitions() {
        UUID events = f.topics.create("events", 2);
        Member a = new Member("g");
        Member b = new Member("g");
        a.join("events");
        b.join("events");
        a.heartbeat();
        b.heartbeat();
        a.heartbeat();
        assertThat(a.assigned.get(events)).hasSize(1);
        f.clock.advance(SESSION_TIMEOUT - 1000);
        a.heartbeat(); // a keeps its session, b does not
        f.clock.advance(2000);
        assertThat(b.heartbeat().error()).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
        a.heartbeat();
        assertThat(a.assigned).isEqualTo(Map.of(events, Set.of(0, 1)));
    }

    @Test
    void aLeavingMemberIsAnsweredWithEpochMinusOneAndTheGroupBecomesEmpty() {
        Member a = new Member("g");
        a.join("orders");
        ShareGroupHeartbeatResult left = a.leave();
        assertThat(left.error()).isEqualTo(ErrorCode.NONE);
        assertThat(left.memberId()).isEqualTo(a.memberId);
        assertThat(left.memberEpoch()).isEqualTo(-1);
        assertThat(f.coordinator.describeShareGroup("g").join().state()).isEqualTo("Empty");
        assertThat(f.coordinator.listGroups(List.of("empty"), List.of("share")).join().groups())
                .containsExactly(new GroupOverview("g", "share", "Empty", "share"));
        assertThat(f.coordinator.listGroups(List.of(), List.of("consumer")).join().groups()).isEmpty();
    }

    @Test
    void heartbeatsAreCheckedAsKafkaChecksThem() {
        Member a = new Member("g");
        assertThat(a.send(0, null).errorMessage()).isEqualTo("SubscribedTopicNames must be set in first request.");
        assertThat(a.send(0, List.of()).error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(a.send(-2, null).errorMessage()).isEqualTo("MemberEpoch is invalid.");
        ShareGroupHeartbeatResult unknownGroup = a.send(3, null);
        assertThat(unknownGroup.error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
        assertThat(unknownGroup.errorMessage()).isEqualTo("Share group g not found.");
        a.join("orders");
        ShareGroupHeartbeatResult stranger = new Member("g").send(1, null);
        assertThat(stranger.error()).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
        ShareGroupHeartbeatResult ahead = a.send(a.epoch + 5, null);
        assertThat(ahead.error()).isEqualTo(ErrorCode.FENCED_MEMBER_EPOCH);
        assertThat(ahead.errorMessage()).startsWith("The share group member has a greater member epoch (6)");
    }

    @Test
    void aFullGroupRefusesAnotherMember() {
        for (int i = 0; i < 3; i++) {
            assertThat(new Member("g").join("orders").error()).isEqualTo(ErrorCode.NONE);
        }
        ShareGroupHeartbeatResult fourth = new Member("g").join("orders");
        assertThat(fourth.error()).isEqualTo(ErrorCode.GROUP_MAX_SIZE_REACHED);
        assertThat(fourth.errorMessage()).isEqualTo("The share group has reached its maximum capacity of 3 members.");
    }

    @Test
    void groupIdsOfOtherTypesAreRefusedBothWays() {
        f.coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequest("consumers", "c1", 0, null, null, 30000,
                List.of("orders"), null, null, Map.of(), "c", "/127.0.0.1", (short) 1, null)).join();
        ShareGroupHeartbeatResult share = new Member("consumers").join("orders");
        assertThat(share.error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
        assertThat(share.errorMessage()).isEqualTo("Group consumers is not a share group.");

        new Member("shared").join("orders");
        ConsumerGroupHeartbeatResult consumer = f.coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequest("shared",
                "c2", 0, null, null, 30000, List.of("orders"), null, null, Map.of(), "c", "/127.0.0.1", (short) 1, null)).join();
        assertThat(consumer.error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
        assertThat(consumer.errorMessage()).isEqualTo("Group shared is not a consumer group.");
        JoinGroupResult classic = f.join("shared", "", List.of(CoordinatorFixture.protocol("range", "orders"))).join();
        assertThat(classic.error()).isEqualTo(ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
        assertThat(f.coordinator.fetchOffsets("shared", null).join().error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
        assertThat(f.coordinator.describeGroup("shared").join().error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
    }

    @Test
    void aFailedInitializationIsNotSeenByTheMemberAndALaterHeartbeatRetriesIt() {
        persister.initializeError = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
        Member a = new Member("g");
        ShareGroupHeartbeatResult joined = a.join("orders");
        // As Kafka 4.4: the heartbeat is answered without waiting for the persister, whose error is only logged.
        assertThat(joined.error()).isEqualTo(ErrorCode.NONE);
        assertThat(joined.memberEpoch()).isEqualTo(1);
        assertThat(joined.assignment()).isEmpty();
        assertThat(persister.initialized).isEmpty();

        persister.initializeError = ErrorCode.NONE;
        ShareGroupHeartbeatResult retried = a.heartbeat(); // the failed partition is uninitialized again: retried now
        assertThat(retried.error()).isEqualTo(ErrorCode.NONE);
        assertThat(persister.initialized).extracting(FakeSharePersister.Initialized::key)
                .containsExactly(new SharePartitionKey("g", orders, 0));
        a.heartbeat();
        assertThat(a.assigned).isEqualTo(Map.of(orders, Set.of(0)));
    }

    @Test
    void aJoinIsAnsweredWhileTheShareStateIsStillInitializingAndTheNextHeartbeatAfterItGetsThePartition() throws Exception {
        persister.holdInitialize = true;
        Member a = new Member("g");
        ShareGroupHeartbeatResult joined = f.coordinator.shareGroupHeartbeat(new ShareGroupHeartbeatRequest("g", a.memberId,
                0, null, List.of("orders"), "client", "/127.0.0.1")).get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(joined.error()).isEqualTo(ErrorCode.NONE);
        assertThat(joined.memberEpoch()).isEqualTo(1);
        assertThat(joined.assignment()).isEmpty();
        a.epoch = 1;
        ShareGroupHeartbeatResult meanwhile = a.heartbeat(); // still initializing: nothing to assign, not tried twice
        assertThat(meanwhile.error()).isEqualTo(ErrorCode.NONE);
        assertThat(a.assigned).isEmpty();

        assertThat(persister.releaseHeld()).isEqualTo(1);
        a.heartbeat();
        assertThat(a.assigned).isEqualTo(Map.of(orders, Set.of(0)));
        assertThat(persister.initialized).extracting(FakeSharePersister.Initialized::key)
                .containsExactly(new SharePartitionKey("g", orders, 0));
    }

    @Test
    void membersAndShareStateSurviveARestart() {
        Member a = new Member("g");
        a.join("orders");
        a.heartbeat();
        f.restart();
        ShareGroupDescription d = f.coordinator.describeShareGroup("g").join();
        assertThat(d.members()).extracting(ShareGroupDescription.Member::memberId).containsExactly(a.memberId);
        assertThat(d.members().get(0).assignment()).isEqualTo(Map.of(orders, Set.of(0)));
        assertThat(a.heartbeat().error()).isEqualTo(ErrorCode.NONE);
        assertThat(persister.initialized).hasSize(1); // the state is known initialized after the restart
    }

    @Test
    void deletingAShareGroupDeletesItsShareStateOnceItIsEmpty() {
        Member a = new Member("g");
        a.join("orders");
        assertThat(f.coordinator.deleteGroup("g").join()).isEqualTo(ErrorCode.NON_EMPTY_GROUP);
        a.leave();
        assertThat(f.coordinator.deleteGroup("g").join()).isEqualTo(ErrorCode.NONE);
        assertThat(persister.deleted).containsExactly(new SharePartitionKey("g", orders, 0));
        assertThat(f.coordinator.describeShareGroup("g").join().error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
        f.restart();
        assertThat(f.coordinator.describeShareGroup("g").join().errorMessage()).isEqualTo("Group g not found.");
    }

    @Test
    void offsetsAreDescribedAlteredAndDeletedThroughTheSharePersister() {
        Member a = new Member("g");
        a.join("orders");
        ShareGroupOffsets.Described all = f.coordinator.describeShareGroupOffsets("g", null).join();
        assertThat(all.topics()).isEqualTo(Map.of(orders, Map.of(0,
                new ShareGroupOffsets.PartitionOffset(0, ErrorCode.NONE, null, -1, 0, 0))));

        assertThat(f.coordinator.alterShareGroupOffsets("g", Map.of(orders, Map.of(0, 42L))).join().error())
                .isEqualTo(ErrorCode.NON_EMPTY_GROUP);
        a.leave();
        ShareGroupOffsets.Altered altered = f.coordinator.alterShareGroupOffsets("g", Map.of(orders, Map.of(0, 42L))).join();
        assertThat(altered.partitions()).isEqualTo(Map.of(orders, Map.of(0, ErrorCode.NONE)));
        assertThat(persister.initialized.get(persister.initialized.size() - 1).startOffset()).isEqualTo(42);
        assertThat(f.coordinator.describeShareGroupOffsets("g", new TreeMap<>(Map.of(orders, List.of(0)))).join()
                .topics().get(orders).get(0).startOffset()).isEqualTo(42);

        ShareGroupOffsets.Deleted deleted = f.coordinator.deleteShareGroupOffsets("g", Set.of(orders)).join();
        assertThat(deleted.topics()).isEqualTo(Map.of(orders, ErrorCode.NONE));
        assertThat(persister.deleted).containsExactly(new SharePartitionKey("g", orders, 0));
        assertThat(f.coordinator.describeShareGroupOffsets("g", null).join().topics()).isEmpty();
        assertThat(f.coordinator.deleteShareGroupOffsets("g", Set.of(orders)).join().topics())
                .isEqualTo(Map.of(orders, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)); // nothing left to delete
    }

    @Test
    void alteringOffsetsOfAnUnknownIdMakesAnEmptyShareGroup() {
        ShareGroupOffsets.Altered altered = f.coordinator.alterShareGroupOffsets("fresh", Map.of(orders, Map.of(0, 7L))).join();
        assertThat(altered.error()).isEqualTo(ErrorCode.NONE);
        assertThat(f.coordinator.describeShareGroup("fresh").join().state()).isEqualTo("Empty");
        assertThat(f.coordinator.deleteShareGroupOffsets("nobody", Set.of(orders)).join().error())
                .isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
    }


    @Test
    void aGroupsOwnSessionTimeoutAndHeartbeatIntervalWinOverTheBrokers() {
        f.close();
        Map<String, Map<String, String>> configs = Map.of("tuned",
                Map.of("share.session.timeout.ms", "60000", "share.heartbeat.interval.ms", "7000"));
        f = new CoordinatorFixture(dir, CoordinatorFixture.config(0), new ShareGroupServices(ShareGroupConfig.defaults(),
                groupId -> configs.getOrDefault(groupId, Map.of()), persister));
        f.topics.create("orders", 1);
        Member tuned = new Member("tuned");
        Member plain = new Member("plain");
        assertThat(tuned.join("orders").heartbeatIntervalMs()).isEqualTo(7000);
        assertThat(plain.join("orders").heartbeatIntervalMs()).isEqualTo(5000);
        f.clock.advance(50_000); // past the broker's 45 s, within the group's 60 s
        assertThat(plain.heartbeat().error()).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
        assertThat(tuned.heartbeat().error()).isEqualTo(ErrorCode.NONE);
    }

    @Test
    void aDeletedTopicLeavesTheGroupsShareStateAndARecreatedOneIsInitializedAfresh() {
        Member a = new Member("g");
        a.join("orders");
        a.heartbeat();
        f.topics.delete("orders");
        f.coordinator.onTopicsDeleted(List.of("orders")).join();
        assertThat(f.coordinator.describeShareGroupOffsets("g", null).join().topics()).isEmpty();
        a.heartbeat();
        assertThat(a.assigned).isEmpty();

        f.topics.create("orders", 2); // created again (with the same id here: TestTopics derives ids from names)
        a.send(a.epoch, List.of("orders"));
        a.heartbeat();
        assertThat(a.assigned).isEqualTo(Map.of(orders, Set.of(0, 1)));
        // Partition 0's state was forgotten with the topic: it is initialized again, with the new partition 1.
        assertThat(persister.initialized).extracting(i -> i.key().partition()).containsExactly(0, 0, 1);
    }

    @Test
    void alteringOffsetsAnswersEachPartitionAndKeepsOnlyThoseInitialized() {
        UUID events = f.topics.create("events", 2);
        persister.failingPartitions.add(1);
        ShareGroupOffsets.Altered altered = f.coordinator.alterShareGroupOffsets("g", Map.of(events, Map.of(0, 5L, 1, 6L))).join();
        assertThat(altered.partitions()).isEqualTo(Map.of(events, Map.of(0, ErrorCode.NONE, 1, ErrorCode.FENCED_STATE_EPOCH)));
        assertThat(f.coordinator.describeShareGroupOffsets("g", null).join().topics().get(events).keySet()).containsExactly(0);
    }
}
