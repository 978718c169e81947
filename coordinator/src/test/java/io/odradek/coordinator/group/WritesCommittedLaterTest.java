package io.odradek.coordinator.group;

import static io.odradek.coordinator.group.CoordinatorFixture.REBALANCE_TIMEOUT;
import static io.odradek.coordinator.group.CoordinatorFixture.bytes;
import static io.odradek.coordinator.group.CoordinatorFixture.protocol;
import static io.odradek.coordinator.group.CoordinatorFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group coordinator when its writes are committed later, as on a replicated partition: answers wait
 * for the commit, reads see committed state only, and a failed write changes nothing.
 */
class WritesCommittedLaterTest {
    private static final List<Protocol> RANGE = List.of(protocol("range", "orders"));
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);

    @TempDir
    Path dir;
    private CoordinatorFixture f;

    @AfterEach
    void close() {
        if (f != null) {
            f.close();
        }
    }

    private CompletableFuture<Map<TopicPartition, ErrorCode>> commitAsync(long offset) {
        return f.coordinator.commitOffsets(new OffsetCommitRequest("g", -1, "", null, -1,
                List.of(new OffsetCommitRequest.Partition(ORDERS_0, offset, 5, "meta")), (short) 9));
    }

    @Test
    void anOffsetCommitIsAnsweredOnceCommittedAndFetchesSeeItOnlyThen() {
        f = new CoordinatorFixture(dir, CoordinatorFixture.config(0));
        f.holdAppends();
        CompletableFuture<Map<TopicPartition, ErrorCode>> commit = commitAsync(42);

        assertThat(commit).isNotDone();
        assertThat(f.heldAppends()).isEqualTo(1);
        assertThat(f.coordinator.fetchOffsets("g", null).join().offsets()).isEmpty();

        f.commitAppends();
        assertThat(commit.join()).containsExactly(Map.entry(ORDERS_0, ErrorCode.NONE));
        assertThat(f.coordinator.fetchOffsets("g", null).join().offsets().get(ORDERS_0).offset()).isEqualTo(42L);
    }

    @Test
    void aFailedOffsetCommitIsAnsweredWithTheCoordinatorErrorAndTheOldOffsetStays() {
        f = new CoordinatorFixture(dir, CoordinatorFixture.config(0));
        f.commit("g", -1, "", "orders", 0, 7L);
        f.holdAppends();
        CompletableFuture<Map<TopicPartition, ErrorCode>> commit = commitAsync(42);

        f.failNextAppend(ErrorCode.NOT_LEADER_OR_FOLLOWER);

        // The client looks the coordinator up again and retries, as against Kafka.
        assertThat(commit.join()).containsExactly(Map.entry(ORDERS_0, ErrorCode.NOT_COORDINATOR));
        assertThat(f.coordinator.fetchOffsets("g", null).join().offsets().get(ORDERS_0).offset()).isEqualTo(7L);
        f.restart();
        assertThat(f.coordinator.fetchOffsets("g", null).join().offsets().get(ORDERS_0).offset()).isEqualTo(7L);
    }

    @Test
    void theLeadersAssignmentReachesEveryMemberOnlyOnceItIsCommitted() {
        f = new CoordinatorFixture(dir, CoordinatorFixture.config(0));
        CompletableFuture<JoinGroupResult> a = f.joinNew("g", "a", RANGE);
        CompletableFuture<JoinGroupResult> b = f.joinNew("g", "b", RANGE);
        f.clock.advance(0);
        JoinGroupResult leader = a.join().memberId().equals(a.join().leader()) ? a.join() : b.join();
        JoinGroupResult follower = leader == a.join() ? b.join() : a.join();
        f.holdAppends();

        CompletableFuture<SyncGroupResult> followerSync = f.sync("g", follower, Map.of());
        CompletableFuture<SyncGroupResult> leaderSync = f.sync("g", leader, Map.of(
                leader.memberId(), bytes("p0"), follower.memberId(), bytes("p1")));
        CompletableFuture<ErrorCode> heartbeat = f.coordinator.heartbeat("g", follower.memberId(), null, follower.generationId());

        assertThat(f.heldAppends()).isEqualTo(1);
        assertThat(leaderSync).isNotDone();
        assertThat(followerSync).isNotDone();
        assertThat(heartbeat).isNotDone(); // queued behind the write in flight
        assertThat(f.coordinator.stateOf("g").join()).isEqualTo(GroupState.COMPLETING_REBALANCE);

        f.commitAppends();
        assertThat(text(leaderSync.join().assignment())).isEqualTo("p0");
        assertThat(text(followerSync.join().assignment())).isEqualTo("p1");
        assertThat(heartbeat.join()).isEqualTo(ErrorCode.NONE);
        assertThat(f.coordinator.stateOf("g").join()).isEqualTo(GroupState.STABLE);
    }

    @Test
    void aFailedAssignmentWriteAnswersEverySyncWithTheErrorAndTheGroupRebalances() {
        f = new CoordinatorFixture(dir, CoordinatorFixture.config(0));
        CompletableFuture<JoinGroupResult> a = f.joinNew("g", "a", RANGE);
        f.clock.advance(0);
        JoinGroupResult leader = a.join();
        f.holdAppends();

        CompletableFuture<SyncGroupResult> sync = f.sync("g", leader, Map.of(leader.memberId(), bytes("p0")));
        f.failNextAppend(ErrorCode.REQUEST_TIMED_OUT);

        assertThat(sync.join().error()).isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE);
        assertThat(f.coordinator.stateOf("g").join()).isEqualTo(GroupState.PREPARING_REBALANCE);
    }

    @Test
    void consumerGroupHeartbeatsAreAnsweredOnceCommittedAndEachSeesTheOneBefore() {
        f = new CoordinatorFixture(dir, CoordinatorFixture.config(0));
        UUID orders = f.topics.create("orders", 2);
        f.holdAppends();

        CompletableFuture<ConsumerGroupHeartbeatResult> first = f.coordinator.consumerGroupHeartbeat(join("m1"));
        CompletableFuture<ConsumerGroupHeartbeatResult> second = f.coordinator.consumerGroupHeartbeat(join("m2"));
        assertThat(first).isNotDone();
        assertThat(second).isNotDone();
        assertThat(f.heldAppends()).isEqualTo(1); // the second is computed only once the first is applied
        assertThat(f.coordinator.consumerStateOf("g").join()).isNull();

        f.commitAppends();
        assertThat(first.join().memberEpoch()).isEqualTo(1);
        assertThat(first.join().assignment()).isEqualTo(Map.of(orders, Set.of(0, 1)));
        assertThat(second.join().memberEpoch()).isEqualTo(2); // the group epoch the first join left, bumped
        assertThat(second.join().assignment()).isEqualTo(Map.of()); // its partition is still the first's to revoke
        assertThat(f.coordinator.consumerStateOf("g").join()).isEqualTo(ConsumerGroupState.RECONCILING);
    }

    private static ConsumerGroupHeartbeatRequest join(String memberId) {
        return new ConsumerGroupHeartbeatRequest("g", memberId, 0, null, null, REBALANCE_TIMEOUT, List.of("orders"),
                null, null, Map.of(), "client-" + memberId, "/127.0.0.1", (short) 1);
    }
}
