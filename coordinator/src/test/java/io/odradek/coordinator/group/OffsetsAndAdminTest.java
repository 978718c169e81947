package io.odradek.coordinator.group;

import static io.odradek.coordinator.group.CoordinatorFixture.protocol;
import static io.odradek.coordinator.group.CoordinatorFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Committed offsets, their durability, and the group administration APIs. */
class OffsetsAndAdminTest {
    private static final List<Protocol> ORDERS = List.of(protocol("range", "orders"));
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    private static final TopicPartition AUDIT_0 = new TopicPartition("audit", 0);

    @TempDir
    Path dir;
    private CoordinatorFixture f;

    private CoordinatorFixture fixture(GroupCoordinatorConfig config) {
        f = new CoordinatorFixture(dir, config);
        return f;
    }

    @AfterEach
    void close() {
        if (f != null) {
            f.close();
        }
    }

    @Test
    void aConsumerOutsideGroupManagementCommitsAndFetchesOffsets() {
        fixture(CoordinatorFixture.config(0));
        assertThat(f.commit("simple", -1, "", "orders", 0, 42L, "orders", 1, 7L))
                .containsExactly(entry(ORDERS_0, ErrorCode.NONE), entry(ORDERS_1, ErrorCode.NONE));

        OffsetFetchResult fetched = f.coordinator.fetchOffsets("simple", List.of(ORDERS_1, ORDERS_0, AUDIT_0)).join();
        assertThat(fetched.error()).isEqualTo(ErrorCode.NONE);
        assertThat(fetched.offsets().keySet()).containsExactly(ORDERS_1, ORDERS_0, AUDIT_0);
        assertThat(fetched.offsets().get(ORDERS_0).offset()).isEqualTo(42L);
        assertThat(fetched.offsets().get(ORDERS_0).leaderEpoch()).isEqualTo(5);
        assertThat(fetched.offsets().get(ORDERS_0).metadata()).isEqualTo("meta");
        assertThat(fetched.offsets().get(AUDIT_0)).isNull(); // never committed: offset -1 for the client

        assertThat(f.coordinator.fetchOffsets("simple", null).join().offsets().keySet()).containsExactly(ORDERS_0, ORDERS_1);
        assertThat(f.coordinator.fetchOffsets("unknown", List.of(ORDERS_0)).join().offsets()).containsEntry(ORDERS_0, null);
        assertThat(f.coordinator.listGroups(List.of(), List.of()).join().groups())
                .containsExactly(new GroupOverview("simple", "", "Empty", "classic"));
    }

    @Test
    void anOldConsumerWithTheEmptyGroupIdCommitsAndFetchesOffsetsAsKafkaLetsIt() {
        fixture(CoordinatorFixture.config(0));
        assertThat(f.commit("", -1, "", "orders", 0, 11L, "orders", 1, 12L))
                .containsExactly(entry(ORDERS_0, ErrorCode.NONE), entry(ORDERS_1, ErrorCode.NONE));

        OffsetFetchResult fetched = f.coordinator.fetchOffsets("", List.of(ORDERS_0, ORDERS_1)).join();
        assertThat(fetched.error()).isEqualTo(ErrorCode.NONE);
        assertThat(fetched.offsets().get(ORDERS_0).offset()).isEqualTo(11L);
        assertThat(fetched.offsets().get(ORDERS_1).offset()).isEqualTo(12L);
    }

    @Test
    void membersCommitWithTheirGenerationAndStaleOrUnknownOnesAreRefused() {
        fixture(CoordinatorFixture.config(0));
        List<JoinGroupResult> g = f.stableGroup("g", List.of(f.joinNew("g", "a", ORDERS)));
        JoinGroupResult a = g.get(0);
        assertThat(f.commit("g", 1, a.memberId(), "orders", 0, 10L)).containsEntry(ORDERS_0, ErrorCode.NONE);
        assertThat(f.commit("g", 0, a.memberId(), "orders", 0, 11L)).containsEntry(ORDERS_0, ErrorCode.ILLEGAL_GENERATION);
        assertThat(f.commit("g", 1, "stranger", "orders", 0, 11L)).containsEntry(ORDERS_0, ErrorCode.UNKNOWN_MEMBER_ID);
        assertThat(f.commit("g", -1, "", "orders", 0, 11L)).containsEntry(ORDERS_0, ErrorCode.UNKNOWN_MEMBER_ID);
        assertThat(f.commit("nosuchgroup", 3, "m", "orders", 0, 11L)).containsEntry(ORDERS_0, ErrorCode.GROUP_ID_NOT_FOUND);

        // A rebalance: commits are still taken while members rejoin, refused once the new generation is out.
        f.joinNew("g", "b", ORDERS);
        assertThat(f.commit("g", 1, a.memberId(), "orders", 0, 12L)).containsEntry(ORDERS_0, ErrorCode.NONE);
        JoinGroupResult a2 = f.join("g", a.memberId(), ORDERS).join();
        assertThat(f.commit("g", 2, a2.memberId(), "orders", 0, 13L)).containsEntry(ORDERS_0, ErrorCode.REBALANCE_IN_PROGRESS);
        assertThat(f.coordinator.fetchOffsets("g", List.of(ORDERS_0)).join().offsets().get(ORDERS_0).offset()).isEqualTo(12L);

        String tooLong = "x".repeat(4097);
        Map<TopicPartition, ErrorCode> big = f.coordinator.commitOffsets(new OffsetCommitRequest("other", -1, "", null, -1,
                List.of(new OffsetCommitRequest.Partition(ORDERS_0, 1, -1, tooLong),
                        new OffsetCommitRequest.Partition(ORDERS_1, 2, -1, null)), (short) 8)).join();
        assertThat(big).containsExactly(entry(ORDERS_0, ErrorCode.OFFSET_METADATA_TOO_LARGE), entry(ORDERS_1, ErrorCode.NONE));
        assertThat(f.coordinator.fetchOffsets("other", List.of(ORDERS_1)).join().offsets().get(ORDERS_1).metadata()).isEqualTo("");
    }

    @Test
    void offsetsAndAStableGroupSurviveARestart() {
        fixture(CoordinatorFixture.config(0));
        List<JoinGroupResult> g = f.stableGroup("g", List.of(f.joinNew("g", "a", ORDERS), f.joinNew("g", "b", ORDERS)));
        f.commit("g", 1, g.get(0).memberId(), "orders", 0, 100L, "orders", 1, 200L);
        f.commit("g", 1, g.get(0).memberId(), "orders", 0, 150L);
        f.commit("simple", -1, "", "audit", 0, 9L);

        f.restart();
        assertThat(f.coordinator.isLoaded()).isTrue();
        Map<TopicPartition, OffsetAndMetadata> offsets = f.coordinator.fetchOffsets("g", null).join().offsets();
        assertThat(offsets.get(ORDERS_0).offset()).isEqualTo(150L);
        assertThat(offsets.get(ORDERS_1).offset()).isEqualTo(200L);
        assertThat(f.coordinator.fetchOffsets("simple", List.of(AUDIT_0)).join().offsets().get(AUDIT_0).offset()).isEqualTo(9L);

        GroupDescription described = f.coordinator.describeGroup("g").join();
        assertThat(described.state()).isEqualTo("Stable");
        assertThat(described.protocolData()).isEqualTo("range");
        assertThat(described.members()).extracting(GroupDescription.Member::memberId)
                .containsExactlyInAnyOrder(g.get(0).memberId(), g.get(1).memberId());
        assertThat(described.members()).extracting(m -> text(m.assignment()))
                .containsExactlyInAnyOrder("assignment-of-" + g.get(0).memberId(), "assignment-of-" + g.get(1).memberId());
        // Members that were running carry on with their generation; one that stays silent times out.
        f.clock.advance(CoordinatorFixture.SESSION_TIMEOUT / 2);
        assertThat(f.heartbeat("g", g.get(0))).isEqualTo(ErrorCode.NONE);
        f.clock.advance(CoordinatorFixture.SESSION_TIMEOUT / 2);
        assertThat(f.heartbeat("g", g.get(0))).isEqualTo(ErrorCode.REBALANCE_IN_PROGRESS);
        assertThat(f.heartbeat("g", g.get(1))).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
    }

    @Test
    void anEmptiedGroupIsStoredAsEmptyAndKeepsItsOffsetsAcrossARestart() {
        fixture(CoordinatorFixture.config(0));
        List<JoinGroupResult> g = f.stableGroup("g", List.of(f.joinNew("g", "a", ORDERS)));
        f.commit("g", 1, g.get(0).memberId(), "orders", 0, 5L);
        f.coordinator.leaveGroup("g", List.of(new LeaveGroupResult.Member(g.get(0).memberId(), null, ErrorCode.NONE))).join();
        f.restart();
        GroupDescription described = f.coordinator.describeGroup("g").join();
        assertThat(described.state()).isEqualTo("Empty");
        assertThat(described.protocolType()).isEqualTo("consumer");
        assertThat(described.members()).isEmpty();
        assertThat(f.coordinator.fetchOffsets("g", List.of(ORDERS_0)).join().offsets().get(ORDERS_0).offset()).isEqualTo(5L);
        // A new consumer joins the reloaded group: generation 1 ran, 2 was the empty one, this is 3.
        var joining = f.joinNew("g", "c", ORDERS);
        f.clock.advance(0);
        assertThat(joining.join().error()).isEqualTo(ErrorCode.NONE);
        assertThat(joining.join().generationId()).isEqualTo(3);
        assertThat(f.coordinator.stateOf("g").join()).isEqualTo(GroupState.COMPLETING_REBALANCE);
    }

    @Test
    void aGroupWithMembersCannotBeDeletedAndADeletedOneStaysDeletedAfterARestart() {
        fixture(CoordinatorFixture.config(0));
        List<JoinGroupResult> g = f.stableGroup("g", List.of(f.joinNew("g", "a", ORDERS)));
        f.commit("g", 1, g.get(0).memberId(), "orders", 0, 5L);
        assertThat(f.coordinator.deleteGroup("g").join()).isEqualTo(ErrorCode.NON_EMPTY_GROUP);
        f.coordinator.leaveGroup("g", List.of(new LeaveGroupResult.Member(g.get(0).memberId(), null, ErrorCode.NONE))).join();
        assertThat(f.coordinator.deleteGroup("g").join()).isEqualTo(ErrorCode.NONE);
        assertThat(f.coordinator.deleteGroup("g").join()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
        assertThat(f.coordinator.describeGroup("g").join().error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);

        f.restart();
        assertThat(f.coordinator.describeGroup("g").join().state()).isEqualTo("Dead");
        assertThat(f.coordinator.fetchOffsets("g", List.of(ORDERS_0)).join().offsets().get(ORDERS_0)).isNull();
        assertThat(f.coordinator.listGroups(List.of(), List.of()).join().groups()).isEmpty();
    }

    @Test
    void offsetsOfSubscribedTopicsCannotBeDeletedButOthersCan() {
        fixture(CoordinatorFixture.config(0));
        List<JoinGroupResult> g = f.stableGroup("g", List.of(f.joinNew("g", "a", ORDERS)));
        f.commit("g", 1, g.get(0).memberId(), "orders", 0, 5L, "audit", 0, 6L);
        OffsetDeleteResult deleted = f.coordinator.deleteOffsets("g", List.of(ORDERS_0, AUDIT_0)).join();
        assertThat(deleted.error()).isEqualTo(ErrorCode.NONE);
        assertThat(deleted.partitions()).containsExactly(
                entry(ORDERS_0, ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC), entry(AUDIT_0, ErrorCode.NONE));
        Map<TopicPartition, OffsetAndMetadata> left = f.coordinator.fetchOffsets("g", null).join().offsets();
        assertThat(left.keySet()).containsExactly(ORDERS_0);
        assertThat(f.coordinator.deleteOffsets("nope", List.of(AUDIT_0)).join().error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);

        f.restart();
        assertThat(f.coordinator.fetchOffsets("g", null).join().offsets().keySet()).containsExactly(ORDERS_0);
    }

    @Test
    void anEmptyGroupsOffsetsExpireAfterTheRetentionAndTheGroupGoesWithThem() {
        fixture(GroupCoordinatorConfig.from(Map.of("offsets.topic.num.partitions", "3",
                "group.initial.rebalance.delay.ms", "0", "offsets.retention.minutes", "1",
                "offsets.retention.check.interval.ms", "1000")));
        List<JoinGroupResult> g = f.stableGroup("g", List.of(f.joinNew("g", "a", ORDERS)));
        f.commit("g", 1, g.get(0).memberId(), "orders", 0, 5L);
        f.commit("simple", -1, "", "audit", 0, 1L);
        for (int i = 0; i < 6; i++) {
            f.clock.advance(5_000);
            assertThat(f.heartbeat("g", g.get(0))).isEqualTo(ErrorCode.NONE);
        }
        f.coordinator.leaveGroup("g", List.of(new LeaveGroupResult.Member(g.get(0).memberId(), null, ErrorCode.NONE))).join();
        f.clock.advance(31_000); // the simple group's commit is 61 s old; "g" has been empty for 31 s
        assertThat(f.coordinator.describeGroup("simple").join().state()).isEqualTo("Dead");
        assertThat(f.coordinator.fetchOffsets("g", null).join().offsets()).containsOnlyKeys(ORDERS_0);
        f.clock.advance(30_000);
        assertThat(f.coordinator.fetchOffsets("g", null).join().offsets()).isEmpty();
        assertThat(f.coordinator.describeGroup("g").join().state()).isEqualTo("Dead");

        f.restart(); // the tombstones are in the log
        assertThat(f.coordinator.listGroups(List.of(), List.of()).join().groups()).isEmpty();
    }

    @Test
    void aCommitTimestampGivenByTheClientIsStoredAndRetentionCountsFromIt() {
        fixture(GroupCoordinatorConfig.from(Map.of("offsets.topic.num.partitions", "3",
                "group.initial.rebalance.delay.ms", "0", "offsets.retention.minutes", "1",
                "offsets.retention.check.interval.ms", "1000")));
        long now = f.clock.nowMs();
        // OffsetCommit v1 carries a commit timestamp per partition: one 59 s in the past, one -1 (now).
        List<OffsetCommitRequest.Partition> parts = List.of(
                new OffsetCommitRequest.Partition(ORDERS_0, 10L, -1, "", now - 59_000),
                new OffsetCommitRequest.Partition(ORDERS_1, 20L, -1, "", OffsetCommitRequest.Partition.NOW));
        assertThat(f.coordinator.commitOffsets(new OffsetCommitRequest("old-client", -1, "", null, -1, parts, (short) 1)).join())
                .containsExactly(entry(ORDERS_0, ErrorCode.NONE), entry(ORDERS_1, ErrorCode.NONE));
        Map<TopicPartition, OffsetAndMetadata> stored = f.coordinator.fetchOffsets("old-client", null).join().offsets();
        assertThat(stored.get(ORDERS_0).commitTimestampMs()).isEqualTo(now - 59_000);
        assertThat(stored.get(ORDERS_1).commitTimestampMs()).isEqualTo(now);

        f.clock.advance(2_000); // ORDERS_0's commit is now 61 s old: past offsets.retention.minutes
        assertThat(f.coordinator.fetchOffsets("old-client", null).join().offsets()).containsOnlyKeys(ORDERS_1);
        f.restart();
        assertThat(f.coordinator.fetchOffsets("old-client", null).join().offsets().get(ORDERS_1).offset()).isEqualTo(20L);
    }

    @Test
    void listGroupsFiltersByStateAndTypeAndDescribeShowsMembersOnlyWithMetadataWhenStable() {
        fixture(CoordinatorFixture.config(0));
        f.stableGroup("stable", List.of(f.joinNew("stable", "a", ORDERS)));
        f.joinNew("joining", "b", ORDERS); // parked: PreparingRebalance until the clock moves
        f.commit("simple", -1, "", "audit", 0, 1L);

        assertThat(f.coordinator.listGroups(List.of(), List.of()).join().groups()).extracting(GroupOverview::groupId)
                .containsExactlyInAnyOrder("stable", "joining", "simple");
        assertThat(f.coordinator.listGroups(List.of("STABLE", "empty"), List.of()).join().groups())
                .extracting(GroupOverview::groupId).containsExactlyInAnyOrder("stable", "simple");
        assertThat(f.coordinator.listGroups(List.of(), List.of("Classic")).join().groups()).hasSize(3);
        assertThat(f.coordinator.listGroups(List.of(), List.of("consumer")).join().groups()).isEmpty();

        GroupDescription stable = f.coordinator.describeGroup("stable").join();
        assertThat(stable.members()).singleElement().satisfies(m -> {
            assertThat(m.clientId()).isEqualTo("a");
            assertThat(m.clientHost()).isEqualTo("/127.0.0.1");
            assertThat(m.metadata()).isEqualTo(ORDERS.get(0).metadata());
        });
        GroupDescription joining = f.coordinator.describeGroup("joining").join();
        assertThat(joining.state()).isEqualTo("PreparingRebalance");
        assertThat(joining.protocolData()).isEmpty();
        assertThat(joining.members()).singleElement().satisfies(m -> assertThat(m.metadata()).isEmpty());
    }

    @Test
    void theOffsetsOfADeletedTopicAreDeletedForEveryGroup() {
        fixture(CoordinatorFixture.config(0));
        f.commit("g1", -1, "", "orders", 0, 1L, "audit", 0, 2L);
        f.commit("g2", -1, "", "orders", 1, 3L);
        assertThat(f.coordinator.onTopicsDeleted(List.of("orders")).join()).isEqualTo(2);
        assertThat(f.coordinator.fetchOffsets("g1", null).join().offsets().keySet()).containsExactly(AUDIT_0);
        assertThat(f.coordinator.fetchOffsets("g2", null).join().offsets()).isEmpty();
        f.restart();
        assertThat(f.coordinator.fetchOffsets("g1", null).join().offsets().keySet()).containsExactly(AUDIT_0);
    }

    @Test
    void requestsWaitForNothingButAreToldToRetryWhileThePartitionsLoad() {
        fixture(CoordinatorFixture.config(0));
        GroupCoordinator notStarted = GroupCoordinator.create(f.config, f::coordinatorLog, p -> f.clock);
        assertThat(notStarted.joinGroup(f.joinRequest("g", "", null, "c", ORDERS)).join().error())
                .isEqualTo(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
        assertThat(notStarted.fetchOffsets("g", null).join().error()).isEqualTo(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
        assertThat(notStarted.listGroups(List.of(), List.of()).join().error()).isEqualTo(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
    }

    @Test
    void withoutAnOffsetsTopicTheFirstGroupRequestCreatesItOnceAndGroupsAreServedWhenItExists() {
        fixture(CoordinatorFixture.config(0));
        AtomicInteger creations = new AtomicInteger();
        AtomicReference<CompletableFuture<Integer>> creation = new AtomicReference<>();
        GroupCoordinator onDemand = GroupCoordinator.createOnDemand(f.config, f::coordinatorLog, p -> f.clock, () -> {
            creations.incrementAndGet();
            creation.set(new CompletableFuture<>());
            return creation.get();
        });
        try {
            // ListGroups does not create it (as in Kafka): no partition hosted, no groups.
            assertThat(onDemand.listGroups(List.of(), List.of()).join())
                    .isEqualTo(new GroupCoordinator.ListGroupsResult(ErrorCode.NONE, List.of()));
            assertThat(creations).hasValue(0);
            assertThat(onDemand.fetchOffsets("g", null).join().error()).isEqualTo(ErrorCode.NOT_COORDINATOR);
            assertThat(onDemand.ensureOffsetsTopic()).isFalse();
            assertThat(creations).hasValue(1);
            creation.get().completeExceptionally(new IllegalStateException("disk full"));
            assertThat(onDemand.ensureOffsetsTopic()).isFalse();
            assertThat(creations).hasValue(2); // retried after the failure
            creation.get().complete(3);
            assertThat(onDemand.ensureOffsetsTopic()).isTrue();
            assertThat(onDemand.isLoaded()).isTrue(); // the manual scheduler loads at once
            assertThat(onDemand.fetchOffsets("g", null).join().error()).isEqualTo(ErrorCode.NONE);
            assertThat(creations).hasValue(2);
        } finally {
            onDemand.close();
        }
    }

    @Test
    void aPartitionThatMovesAwayAnswersNotCoordinatorAndComesBackWithItsOffsets() {
        fixture(CoordinatorFixture.config(0));
        f.commit("g", -1, "", "orders", 0, 7L);
        CompletableFuture<JoinGroupResult> parked = f.joinNew("g", "c", ORDERS); // waits for the initial delay
        int partition = f.coordinator.partitionFor("g");

        f.coordinator.onResignation(partition).join();

        assertThat(parked.join().error()).isEqualTo(ErrorCode.NOT_COORDINATOR);
        assertThat(f.coordinator.fetchOffsets("g", null).join().error()).isEqualTo(ErrorCode.NOT_COORDINATOR);
        assertThat(f.commit("g", -1, "", "orders", 0, 8L)).containsExactly(Map.entry(ORDERS_0, ErrorCode.NOT_COORDINATOR));
        assertThat(f.coordinator.isLoaded()).isFalse();

        f.coordinator.onElection(partition).join();
        assertThat(f.coordinator.isLoaded()).isTrue();
        assertThat(f.coordinator.fetchOffsets("g", null).join().offsets().get(ORDERS_0).offset()).isEqualTo(7L);
    }
}
