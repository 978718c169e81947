package io.odradek.coordinator.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.group.streams.ConfiguredTopology;
import io.odradek.coordinator.group.streams.StickyTaskAssignor;
import io.odradek.coordinator.offsets.StreamsGroupRecord;
import io.odradek.coordinator.offsets.StreamsGroupRecord.StreamsTopology;
import io.odradek.coordinator.offsets.StreamsGroupRecord.Subtopology;
import io.odradek.coordinator.offsets.StreamsGroupRecord.TopicInfo;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams groups (KIP-1071) at the protocol level, on a manual clock: members are driven the way Kafka Streams
 * drives them (join with epoch 0 and the topology, heartbeat with the epoch and the tasks it owns), over real
 * {@code __consumer_offsets} logs, with Kafka's sticky task assignor. The topology is word count's: subtopology
 * 0 reads {@code lines} and writes the repartition topic, subtopology 1 reads it and keeps a store with a
 * changelog.
 */
class StreamsGroupProtocolTest {
    static final int SESSION_TIMEOUT = 45_000;
    static final String REPARTITION = "app-counts-repartition";
    static final String CHANGELOG = "app-counts-changelog";

    @TempDir
    Path dir;
    CoordinatorFixture f;

    @BeforeEach
    void open() {
        f = new CoordinatorFixture(dir, GroupCoordinatorConfig.from(Map.of("offsets.topic.num.partitions", "3")),
                StreamsGroupConfig.from(Map.of(), GroupConfigSource.NONE, StickyTaskAssignor::new));
    }

    @AfterEach
    void close() {
        f.close();
    }

    static StreamsTopology wordCount() {
        return new StreamsTopology(1, List.of(
                new Subtopology("0", List.of("lines"), List.of(), List.of(), List.of(REPARTITION), List.of(), List.of()),
                new Subtopology("1", List.of(REPARTITION), List.of(),
                        List.of(new TopicInfo(CHANGELOG, 0, (short) 0, Map.of("cleanup.policy", "compact"))), List.of(),
                        List.of(new TopicInfo(REPARTITION, 0, (short) 0, Map.of("cleanup.policy", "delete"))), List.of())));
    }

    /** A Streams client's member: it gives up revoked tasks at once unless told to hold them. */
    final class Member {
        final String memberId;
        final String processId;
        int epoch;
        Map<String, Set<Integer>> active = new TreeMap<>();
        boolean holdRevoked;
        /** Its interactive-queries endpoint (null: none), and the endpoint epoch it last heard. */
        StreamsGroupRecord.Endpoint endpoint;
        int endpointEpoch;
        /** Static membership (KIP-345): its group.instance.id, or null. */
        String instanceId;
        List<StreamsGroupHeartbeatResult.EndpointPartitions> endpoints;

        Member(String memberId) {
            this.memberId = memberId;
            this.processId = "process-" + memberId;
        }

        StreamsGroupHeartbeatResult join() {
            epoch = 0;
            active = new TreeMap<>();
            return send(request(0, wordCount(), Map.of()));
        }

        StreamsGroupHeartbeatResult heartbeat() {
            return send(request(epoch, null, active));
        }

        StreamsGroupHeartbeatResult leave() {
            return send(request(-1, null, null));
        }

        StreamsGroupHeartbeatRequest request(int memberEpoch, StreamsTopology topology, Map<String, Set<Integer>> owned) {
            return new StreamsGroupHeartbeatRequest("app", memberId, memberEpoch, endpointEpoch, instanceId, null,
                    memberEpoch == 0 ? 30_000 : -1, topology, owned, owned == null ? null : Map.of(), owned == null ? null : Map.of(),
                    memberEpoch == 0 ? processId : null, memberEpoch == 0 ? endpoint : null, memberEpoch == 0 ? Map.of() : null, false,
                    "client-" + memberId,
                    "/127.0.0.1", (short) 1);
        }

        StreamsGroupHeartbeatResult send(StreamsGroupHeartbeatRequest req) {
            StreamsGroupHeartbeatResult r = f.coordinator.streamsGroupHeartbeat(req).join();
            if (r.error() == ErrorCode.NONE) {
                epoch = r.memberEpoch();
                endpointEpoch = r.endpointInformationEpoch();
                if (r.partitionsByEndpoint() != null) {
                    endpoints = r.partitionsByEndpoint();
                }
                if (r.tasks() != null) {
                    if (holdRevoked) {
                        Map<String, Set<Integer>> union = new TreeMap<>(active);
                        r.tasks().active().forEach((s, p) -> union.merge(s, p, (a, b) -> {
                            Set<Integer> u = new TreeSet<>(a);
                            u.addAll(b);
                            return u;
                        }));
                        active = union;
                    } else {
                        active = new TreeMap<>(r.tasks().active());
                    }
                }
            }
            return r;
        }
    }

    private static Map<String, Set<Integer>> allTasks() {
        return Map.of("0", Set.of(0, 1, 2, 3), "1", Set.of(0, 1, 2, 3));
    }

    @Test
    void firstMemberInitializesTheTopologyAndIsToldWhichInternalTopicsTheBrokerMustCreate() {
        f.topics.create("lines", 4);
        StreamsGroupHeartbeatResult r = new Member("m1").join();

        assertThat(r.error()).isEqualTo(ErrorCode.NONE);
        assertThat(r.memberEpoch()).isEqualTo(1);
        assertThat(r.heartbeatIntervalMs()).isEqualTo(5000);
        assertThat(r.tasks()).isEqualTo(StreamsGroupRecord.Tasks.EMPTY);
        assertThat(r.statuses()).containsExactly(new StreamsGroupHeartbeatResult.Status(ConfiguredTopology.MISSING_INTERNAL_TOPICS,
                "Internal topics are missing: [" + CHANGELOG + ", " + REPARTITION + "]"));
        // The repartition topic takes the partition count of the source writing to it; the changelog one per task.
        assertThat(r.internalTopicsToCreate()).isEqualTo(Map.of(
                CHANGELOG, new ConfiguredTopology.TopicToCreate(CHANGELOG, 4, (short) -1, Map.of("cleanup.policy", "compact")),
                REPARTITION, new ConfiguredTopology.TopicToCreate(REPARTITION, 4, (short) -1, Map.of("cleanup.policy", "delete"))));
        StreamsGroupDescription d = f.coordinator.describeStreamsGroup("app").join();
        assertThat(d.state()).isEqualTo("NotReady");
        assertThat(d.topology()).isEqualTo(wordCount());
    }

    @Test
    void onceTheInternalTopicsExistTheMemberGetsEveryTask() {
        f.topics.create("lines", 4);
        Member m1 = new Member("m1");
        m1.join();
        f.topics.create(REPARTITION, 4);
        f.topics.create(CHANGELOG, 4);

        StreamsGroupHeartbeatResult r = m1.heartbeat();
        assertThat(r.memberEpoch()).isEqualTo(2);
        assertThat(r.statuses()).isEmpty();
        assertThat(r.internalTopicsToCreate()).isEmpty();
        assertThat(r.tasks().active()).isEqualTo(allTasks());
        StreamsGroupDescription d = f.coordinator.describeStreamsGroup("app").join();
        assertThat(d.state()).isEqualTo("Stable");
        // Described as configured: the internal topics with their partition counts.
        Subtopology counting = d.topology().subtopologies().get(1);
        assertThat(counting.stateChangelogTopics()).extracting(TopicInfo::partitions).containsExactly(4);
        assertThat(counting.repartitionSourceTopics()).extracting(TopicInfo::partitions).containsExactly(4);
    }

    @Test
    void aMissingSourceTopicIsReportedAndNoTasksAreAssigned() {
        StreamsGroupHeartbeatResult r = new Member("m1").join();
        assertThat(r.statuses()).containsExactly(new StreamsGroupHeartbeatResult.Status(ConfiguredTopology.MISSING_SOURCE_TOPICS,
                "Source topics lines are missing."));
        assertThat(r.internalTopicsToCreate()).isEmpty();
        assertThat(r.tasks()).isEqualTo(StreamsGroupRecord.Tasks.EMPTY);
    }

    @Test
    void anInternalTopicWithTheWrongPartitionCountIsReported() {
        f.topics.create("lines", 4);
        f.topics.create(REPARTITION, 4);
        f.topics.create(CHANGELOG, 2);
        StreamsGroupHeartbeatResult r = new Member("m1").join();
        assertThat(r.statuses()).containsExactly(new StreamsGroupHeartbeatResult.Status(
                ConfiguredTopology.INCORRECTLY_PARTITIONED_TOPICS,
                "Existing internal topic " + CHANGELOG + " has invalid number of partitions: expected: 4; actual: 2."));
        assertThat(r.tasks().active()).isEmpty();
    }

    private Member readyMember(String id) {
        Member m = new Member(id);
        m.join();
        m.heartbeat();
        return m;
    }

    @Test
    void twoMembersSplitTheTasksAndATaskMovesOnlyAfterItsOwnerRevokedIt() {
        f.topics.create("lines", 4);
        f.topics.create(REPARTITION, 4);
        f.topics.create(CHANGELOG, 4);
        Member m1 = readyMember("m1");
        assertThat(m1.active).isEqualTo(allTasks());

        Member m2 = new Member("m2");
        m1.holdRevoked = true;
        StreamsGroupHeartbeatResult joined = m2.join();
        // Everything still belongs to m1: m2 is at the new epoch with nothing yet.
        assertThat(joined.tasks().active()).isEmpty();

        StreamsGroupHeartbeatResult revoke = m1.heartbeat();
        int revokedCount = 8 - count(revoke.tasks().active());
        assertThat(revokedCount).isEqualTo(4);
        assertThat(m2.heartbeat().tasks()).isNull(); // m1 still reports every task: nothing is free
        assertThat(m2.active).isEmpty();

        m1.holdRevoked = false;
        m1.active = new TreeMap<>(revoke.tasks().active()); // m1 gives the revoked tasks up
        StreamsGroupHeartbeatResult afterRevoke = m1.heartbeat();
        assertThat(afterRevoke.memberEpoch()).isEqualTo(m2.epoch);
        StreamsGroupHeartbeatResult assigned = m2.heartbeat();
        assertThat(count(assigned.tasks().active())).isEqualTo(4);
        assertThat(union(m1.active, m2.active)).isEqualTo(allTasks());
        assertThat(f.coordinator.describeStreamsGroup("app").join().state()).isEqualTo("Stable");
    }

    @Test
    void aMemberLeavingHandsItsTasksToTheOther() {
        f.topics.create("lines", 4);
        f.topics.create(REPARTITION, 4);
        f.topics.create(CHANGELOG, 4);
        Member m1 = readyMember("m1");
        Member m2 = new Member("m2");
        m2.join();
        m1.heartbeat(); // told to revoke half
        m1.heartbeat(); // reports them revoked
        m2.heartbeat();
        assertThat(count(m2.active)).isEqualTo(4);

        StreamsGroupHeartbeatResult left = m2.leave();
        assertThat(left.error()).isEqualTo(ErrorCode.NONE);
        assertThat(left.memberEpoch()).isEqualTo(-1);
        m1.heartbeat();
        assertThat(m1.active).isEqualTo(allTasks());
        assertThat(f.coordinator.describeStreamsGroup("app").join().members()).hasSize(1);
    }

    @Test
    void aMemberWhoseSessionTimesOutIsRemovedAndItsTasksMove() {
        f.topics.create("lines", 4);
        f.topics.create(REPARTITION, 4);
        f.topics.create(CHANGELOG, 4);
        Member m1 = readyMember("m1");
        Member m2 = new Member("m2");
        m2.join();
        m1.heartbeat();
        m2.heartbeat();
        for (int i = 0; i < 10; i++) {
            f.clock.advance(5000);
            m1.heartbeat();
        }
        assertThat(m2.heartbeat().error()).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
        assertThat(m1.active).isEqualTo(allTasks());
    }

    @Test
    void theGroupItsMembersAndTasksAreReadBackFromTheLogAfterARestart() {
        f.topics.create("lines", 4);
        f.topics.create(REPARTITION, 4);
        f.topics.create(CHANGELOG, 4);
        Member m1 = readyMember("m1");
        StreamsGroupDescription before = f.coordinator.describeStreamsGroup("app").join();

        f.restart();
        StreamsGroupDescription after = f.coordinator.describeStreamsGroup("app").join();
        assertThat(after).isEqualTo(before);
        assertThat(after.members().get(0).assignment().active()).isEqualTo(allTasks());
        int epochBefore = m1.epoch;
        StreamsGroupHeartbeatResult r = m1.heartbeat();
        assertThat(r.error()).isEqualTo(ErrorCode.NONE);
        assertThat(r.memberEpoch()).isEqualTo(epochBefore).isEqualTo(1); // topics existed at the join: tasks at once
        assertThat(r.tasks()).isNull();
    }

    @Test
    void offsetsCommitWithTheMembersEpochAndAStaleEpochIsRefused() {
        f.topics.create("lines", 4);
        f.topics.create(REPARTITION, 4);
        f.topics.create(CHANGELOG, 4);
        Member m1 = readyMember("m1");
        TopicPartition lines0 = new TopicPartition("lines", 0);
        List<OffsetCommitRequest.Partition> offsets = List.of(new OffsetCommitRequest.Partition(lines0, 42, -1, ""));

        assertThat(f.coordinator.commitOffsets(new OffsetCommitRequest("app", m1.epoch, "m1", null, -1, offsets, (short) 10)).join())
                .isEqualTo(Map.of(lines0, ErrorCode.NONE));
        assertThat(f.coordinator.commitOffsets(new OffsetCommitRequest("app", m1.epoch + 1, "m1", null, -1, offsets, (short) 10)).join())
                .isEqualTo(Map.of(lines0, ErrorCode.STALE_MEMBER_EPOCH));
        assertThat(f.coordinator.commitOffsets(new OffsetCommitRequest("app", m1.epoch, "nobody", null, -1, offsets, (short) 10)).join())
                .isEqualTo(Map.of(lines0, ErrorCode.UNKNOWN_MEMBER_ID));
        OffsetFetchResult fetched = f.coordinator.fetchOffsets("app", "m1", m1.epoch, List.of(lines0)).join();
        assertThat(fetched.offsets().get(lines0).offset()).isEqualTo(42);
        assertThat(f.coordinator.fetchOffsets("app", "m1", m1.epoch - 1, List.of(lines0)).join().error())
                .isEqualTo(ErrorCode.STALE_MEMBER_EPOCH);
    }

    @Test
    void aCommitAtThePreviousEpochIsRefusedForATaskTheMemberHasGivenUpAndAcceptedForOneItKept() {
        f.topics.create("lines", 4);
        f.topics.create(REPARTITION, 4);
        f.topics.create(CHANGELOG, 4);
        Member m1 = readyMember("m1");
        int oldEpoch = m1.epoch;
        Member m2 = new Member("m2");
        m2.join();
        m1.heartbeat(); // told to revoke half its tasks; gives them up at once
        m1.heartbeat(); // reports them gone: the new epoch
        m2.heartbeat();
        assertThat(m1.epoch).isGreaterThan(oldEpoch);
        int kept = m1.active.get("0").iterator().next();
        int given = m2.active.get("0").iterator().next();
        TopicPartition keptPartition = new TopicPartition("lines", kept);
        TopicPartition givenPartition = new TopicPartition("lines", given);
        List<OffsetCommitRequest.Partition> offsets = List.of(new OffsetCommitRequest.Partition(keptPartition, 7, -1, ""),
                new OffsetCommitRequest.Partition(givenPartition, 7, -1, ""));

        Map<TopicPartition, ErrorCode> result = f.coordinator.commitOffsets(
                new OffsetCommitRequest("app", oldEpoch, "m1", null, -1, offsets, (short) 10)).join();

        assertThat(result).isEqualTo(Map.of(keptPartition, ErrorCode.NONE, givenPartition, ErrorCode.STALE_MEMBER_EPOCH));
        Map<TopicPartition, ?> stored = f.coordinator.fetchOffsets("app", null, -1, List.of(keptPartition, givenPartition)).join().offsets();
        assertThat(stored.get(givenPartition)).isNull();
        assertThat(((io.odradek.coordinator.offsets.OffsetAndMetadata) stored.get(keptPartition)).offset()).isEqualTo(7);
    }

    @Test
    void aHeartbeatAtThePreviousEpochReportingAStandbyTaskNotAssignedIsFenced() {
        f.topics.create("lines", 4);
        f.topics.create(REPARTITION, 4);
        f.topics.create(CHANGELOG, 4);
        Member m1 = readyMember("m1");
        int oldEpoch = m1.epoch;
        Member m2 = new Member("m2");
        m2.join();
        m1.heartbeat();
        m1.heartbeat();
        assertThat(m1.epoch).isGreaterThan(oldEpoch);
        StreamsGroupHeartbeatRequest resent = m1.request(oldEpoch, null, m1.active);
        StreamsGroupHeartbeatRequest withStandby = new StreamsGroupHeartbeatRequest(resent.groupId(), resent.memberId(),
                resent.memberEpoch(), resent.endpointInformationEpoch(), resent.instanceId(), resent.rackId(),
                resent.rebalanceTimeoutMs(), null, resent.activeTasks(), Map.of("1", Set.of(0)), Map.of(), null, null, null,
                false, resent.clientId(), resent.clientHost(), resent.apiVersion());

        assertThat(f.coordinator.streamsGroupHeartbeat(withStandby).join().error()).isEqualTo(ErrorCode.FENCED_MEMBER_EPOCH);
        assertThat(f.coordinator.streamsGroupHeartbeat(resent).join().error()).isEqualTo(ErrorCode.NONE);
    }

    @Test
    void requestsKafkaRefusesAreRefusedWithItsErrors() {
        f.topics.create("lines", 4);
        Member m1 = new Member("m1");
        m1.join();
        Member stranger = new Member("m2");
        stranger.epoch = 1;
        assertThat(stranger.heartbeat().error()).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
        StreamsGroupHeartbeatResult ahead = m1.send(m1.request(m1.epoch + 5, null, Map.of()));
        assertThat(ahead.error()).isEqualTo(ErrorCode.FENCED_MEMBER_EPOCH);
        StreamsGroupHeartbeatResult topologyLate = m1.send(m1.request(1, wordCount(), Map.of()));
        assertThat(topologyLate.error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(topologyLate.errorMessage()).isEqualTo("Topology can only be provided when (re-)joining.");
        StreamsTopology other = new StreamsTopology(1, List.of(
                new Subtopology("0", List.of("lines"), List.of(), List.of(), List.of(), List.of(), List.of())));
        StreamsGroupHeartbeatResult changed = new Member("m3").send(new Member("m3").request(0, other, Map.of()));
        assertThat(changed.error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(changed.errorMessage()).isEqualTo("Topology updates are not supported yet.");

        StreamsTopology invalid = new StreamsTopology(1, List.of(
                new Subtopology("0", List.of("lines"), List.of(), List.of(), List.of("nowhere"), List.of(), List.of())));
        assertThat(new Member("m4").send(new Member("m4").request(0, invalid, Map.of())).error())
                .isEqualTo(ErrorCode.STREAMS_INVALID_TOPOLOGY);
    }

    /** A subtopology reading "in" whose copartition group names source topic 5, which it does not have. */
    private static StreamsTopology badCopartitionIndex() {
        return new StreamsTopology(1, List.of(new Subtopology("0", List.of("in"), List.of(), List.of(), List.of(), List.of(),
                List.of(new StreamsGroupRecord.CopartitionGroup(List.of((short) 5), List.of(), List.of())))));
    }

    @Test
    void aCopartitionGroupNamingATopicTheSubtopologyDoesNotHaveIsAnInvalidTopologyAtTheJoin() {
        Member m1 = new Member("m1");
        StreamsGroupHeartbeatResult r = m1.send(m1.request(0, badCopartitionIndex(), Map.of()));

        assertThat(r.error()).isEqualTo(ErrorCode.STREAMS_INVALID_TOPOLOGY);
        assertThat(r.errorMessage()).isEqualTo(
                "Copartition group of subtopology 0 refers to source topic index 5, but the subtopology has 1 source topic.");
        assertThat(f.coordinator.describeStreamsGroup("app").join().error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
    }

    @Test
    void aStoredTopologyThatCannotBeConfiguredDoesNotFailLoadingTheOffsetsPartition() {
        Member m1 = new Member("m1");
        assertThat(m1.join().error()).isEqualTo(ErrorCode.NONE);
        // A topology stored before its indices were checked, written behind the coordinator's back.
        int p = io.odradek.coordinator.offsets.OffsetsTopic.partitionFor("app", 3);
        f.coordinatorLog(p).append(io.odradek.coordinator.runtime.CoordinatorLoader.batch(
                io.odradek.coordinator.offsets.OffsetsRecordCodec.SERDE,
                List.of(new StreamsGroupRecord.Topology("app", badCopartitionIndex())), f.clock.nowMs())).join();
        f.topics.create("in", 1); // past the missing-source-topics check: the copartition group is read

        f.restart();
        StreamsGroupDescription described = f.coordinator.describeStreamsGroup("app").join();
        assertThat(described.error()).isEqualTo(ErrorCode.NONE);
        assertThat(described.topology()).isEqualTo(badCopartitionIndex());
        assertThat(described.members()).extracting(StreamsGroupDescription.Member::memberId).containsExactly("m1");

        StreamsGroupHeartbeatResult r = m1.heartbeat();
        assertThat(r.error()).isEqualTo(ErrorCode.NONE);
        assertThat(r.statuses()).hasSize(1);
        assertThat(r.statuses().get(0).code()).isEqualTo(ConfiguredTopology.INCORRECTLY_PARTITIONED_TOPICS);
        assertThat(r.statuses().get(0).detail()).startsWith(ConfiguredTopology.CONFIGURATION_FAILED)
                .contains("IndexOutOfBoundsException");
        assertThat(r.tasks()).isNull();
    }

    @Test
    void aGroupIdIsOfOneTypeOnly() {
        f.topics.create("lines", 4);
        new Member("m1").join();
        ConsumerGroupHeartbeatResult consumer = f.coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequest("app", "c1", 0,
                null, null, 30_000, List.of("lines"), null, null, Map.of(), "c", "/127.0.0.1", (short) 1, null)).join();
        assertThat(consumer.error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
        assertThat(consumer.errorMessage()).isEqualTo("Group app is not a consumer group.");

        f.coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequest("orders-app", "c1", 0,
                null, null, 30_000, List.of("lines"), null, null, Map.of(), "c", "/127.0.0.1", (short) 1, null)).join();
        StreamsGroupHeartbeatResult streams = f.coordinator.streamsGroupHeartbeat(new StreamsGroupHeartbeatRequest("orders-app", "s1", 0,
                0, null, null, 30_000, wordCount(), Map.of(), Map.of(), Map.of(), "p", null, Map.of(), false, "c", "/127.0.0.1",
                (short) 1)).join();
        assertThat(streams.error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
        assertThat(streams.errorMessage()).isEqualTo("Group orders-app is not a streams group.");
        assertThat(f.coordinator.listGroups(List.of(), List.of("streams")).join().groups())
                .containsExactly(new GroupOverview("app", "streams", "NotReady", "streams"));
    }

    @Test
    void anEmptyGroupIsDeletedWithItsOffsetsAndANonEmptyOneIsNot() {
        f.topics.create("lines", 4);
        Member m1 = new Member("m1");
        m1.join();
        assertThat(f.coordinator.deleteGroup("app").join()).isEqualTo(ErrorCode.NON_EMPTY_GROUP);
        m1.leave();
        assertThat(f.coordinator.describeStreamsGroup("app").join().state()).isEqualTo("Empty");
        assertThat(f.coordinator.deleteGroup("app").join()).isEqualTo(ErrorCode.NONE);
        assertThat(f.coordinator.describeStreamsGroup("app").join().error()).isEqualTo(ErrorCode.GROUP_ID_NOT_FOUND);
    }

    @Test
    void groupConfigsOverrideTheBrokersIntervalsAndStandbyReplicasAndTheMaxSizeHolds() {
        f.close();
        Map<String, String> groupConfigs = Map.of("streams.heartbeat.interval.ms", "700", "streams.session.timeout.ms", "9000",
                "streams.num.standby.replicas", "1");
        f = new CoordinatorFixture(dir, GroupCoordinatorConfig.from(Map.of("offsets.topic.num.partitions", "3")),
                StreamsGroupConfig.from(Map.of("group.streams.max.size", "2"), id -> id.equals("app") ? groupConfigs : Map.of(),
                        StickyTaskAssignor::new));
        f.topics.create("lines", 4);
        f.topics.create(REPARTITION, 4);
        f.topics.create(CHANGELOG, 4);
        Member m1 = readyMember("m1");
        assertThat(m1.heartbeat().heartbeatIntervalMs()).isEqualTo(700);
        Member m2 = new Member("m2");
        m2.join();
        for (int i = 0; i < 3; i++) {
            m1.heartbeat();
            m2.heartbeat();
        }
        // One standby per task of the stateful subtopology, on the other process than its active task.
        StreamsGroupDescription d = f.coordinator.describeStreamsGroup("app").join();
        for (StreamsGroupDescription.Member m : d.members()) {
            Set<Integer> standby = m.assignment().standby().getOrDefault("1", Set.of());
            assertThat(standby).hasSize(2).doesNotContainAnyElementsOf(m.assignment().active().getOrDefault("1", Set.of()));
            assertThat(m.assignment().standby()).doesNotContainKey("0"); // stateless: no standbys
        }
        assertThat(new Member("m3").join().error()).isEqualTo(ErrorCode.GROUP_MAX_SIZE_REACHED);

        f.clock.advance(9001); // streams.session.timeout.ms of the group, not the broker's 45 s
        assertThat(f.coordinator.describeStreamsGroup("app").join().members()).isEmpty();
    }

    @Test
    void membersWithEndpointsLearnWhichPartitionsEachEndpointServes() {
        f.topics.create("lines", 4);
        f.topics.create(REPARTITION, 4);
        f.topics.create(CHANGELOG, 4);
        Member m1 = new Member("m1");
        m1.endpoint = new StreamsGroupRecord.Endpoint("host-1", 7001);
        m1.join();
        assertThat(m1.endpoints).containsExactly(new StreamsGroupHeartbeatResult.EndpointPartitions(m1.endpoint,
                Map.of("lines", Set.of(0, 1, 2, 3), REPARTITION, Set.of(0, 1, 2, 3)), Map.of()));
        StreamsGroupHeartbeatResult quiet = m1.heartbeat();
        assertThat(quiet.partitionsByEndpoint()).as("nothing changed since the epoch it heard").isNull();

        Member m2 = new Member("m2");
        m2.endpoint = new StreamsGroupRecord.Endpoint("host-2", 7002);
        m2.join();
        for (int i = 0; i < 3; i++) {
            m1.heartbeat();
            m2.heartbeat();
        }
        m1.heartbeat();
        assertThat(m1.endpoints).extracting(e -> e.endpoint().host()).containsExactlyInAnyOrder("host-1", "host-2");
        Map<String, Set<Integer>> all = new TreeMap<>();
        for (StreamsGroupHeartbeatResult.EndpointPartitions e : m1.endpoints) {
            e.activePartitions().forEach((t, p) -> all.computeIfAbsent(t, x -> new TreeSet<>()).addAll(p));
            assertThat(e.activePartitions().values().stream().mapToInt(Set::size).sum()).isEqualTo(4);
        }
        assertThat(all).isEqualTo(Map.of("lines", Set.of(0, 1, 2, 3), REPARTITION, Set.of(0, 1, 2, 3)));
    }

    @Test
    void aStaticMemberRestartedUnderANewMemberIdKeepsItsTasks() {
        f.topics.create("lines", 4);
        f.topics.create(REPARTITION, 4);
        f.topics.create(CHANGELOG, 4);
        Member m1 = new Member("m1");
        m1.instanceId = "instance-1";
        m1.join();
        Member m2 = readyMember("m2");
        for (int i = 0; i < 3; i++) {
            m1.heartbeat();
            m2.heartbeat();
        }
        Map<String, Set<Integer>> held = m1.active;
        assertThat(count(held)).isEqualTo(4);

        StreamsGroupHeartbeatResult paused = m1.send(m1.request(-2, null, null));
        assertThat(paused.memberEpoch()).isEqualTo(-2);
        Member restarted = new Member("m1-again");
        restarted.instanceId = "instance-1";
        StreamsGroupHeartbeatResult back = restarted.join();
        assertThat(back.error()).isEqualTo(ErrorCode.NONE);
        assertThat(back.tasks().active()).isEqualTo(held);
        assertThat(f.coordinator.describeStreamsGroup("app").join().members()).extracting(StreamsGroupDescription.Member::memberId)
                .containsExactlyInAnyOrder("m2", "m1-again");

        Member impostor = new Member("m3");
        impostor.instanceId = "instance-1";
        assertThat(impostor.join().error()).isEqualTo(ErrorCode.UNRELEASED_INSTANCE_ID);
    }

    private static int count(Map<String, Set<Integer>> tasks) {
        return tasks.values().stream().mapToInt(Set::size).sum();
    }

    private static Map<String, Set<Integer>> union(Map<String, Set<Integer>> a, Map<String, Set<Integer>> b) {
        Map<String, Set<Integer>> out = new TreeMap<>();
        for (Map<String, Set<Integer>> m : List.of(a, b)) {
            m.forEach((s, p) -> out.computeIfAbsent(s, x -> new TreeSet<>()).addAll(p));
        }
        return out;
    }
}
