package io.odradek.coordinator.group;

import static io.odradek.coordinator.group.CoordinatorFixture.REBALANCE_TIMEOUT;
import static io.odradek.coordinator.group.CoordinatorFixture.SESSION_TIMEOUT;
import static io.odradek.coordinator.group.CoordinatorFixture.bytes;
import static io.odradek.coordinator.group.CoordinatorFixture.protocol;
import static io.odradek.coordinator.group.CoordinatorFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JoinGroup, SyncGroup, Heartbeat and LeaveGroup as a classic consumer group sees them. */
class GroupMembershipTest {
    private static final List<Protocol> RANGE = List.of(protocol("range", "orders"));

    @TempDir
    Path dir;
    private CoordinatorFixture f;

    private CoordinatorFixture fixture(int initialDelayMs) {
        f = new CoordinatorFixture(dir, CoordinatorFixture.config(initialDelayMs));
        return f;
    }

    @AfterEach
    void close() {
        if (f != null) {
            f.close();
        }
    }

    @Test
    void firstJoinAsksForAMemberIdThenTheMemberLeadsGenerationOne() {
        fixture(0);
        JoinGroupResult first = f.coordinator.joinGroup(f.joinRequest("g", "", null, "client-1", RANGE)).join();
        assertThat(first.error()).isEqualTo(ErrorCode.MEMBER_ID_REQUIRED);
        assertThat(first.memberId()).matches("client-1-[0-9a-f-]{36}");

        CompletableFuture<JoinGroupResult> rejoin = f.join("g", first.memberId(), RANGE);
        assertThat(rejoin).isNotDone(); // the initial delay is a timer, even at 0 ms
        f.clock.advance(0);
        JoinGroupResult joined = rejoin.join();
        assertThat(joined.error()).isEqualTo(ErrorCode.NONE);
        assertThat(joined.generationId()).isEqualTo(1);
        assertThat(joined.protocolType()).isEqualTo("consumer");
        assertThat(joined.protocolName()).isEqualTo("range");
        assertThat(joined.leader()).isEqualTo(first.memberId());
        assertThat(joined.members()).extracting(JoinGroupResult.Member::memberId).containsExactly(first.memberId());
        assertThat(joined.members().get(0).metadata()).isEqualTo(RANGE.get(0).metadata());
    }

    @Test
    void aV0MembersSessionTimeoutIsAlsoItsRebalanceTimeout() {
        fixture(0);
        // JoinGroup v0 has no rebalance timeout (-1 from the codec): A's session timeout of 20 s serves.
        List<JoinGroupResult> a = f.stableGroup("g", List.of(f.coordinator.joinGroup(v0Join("g", "", 20_000))));
        CompletableFuture<JoinGroupResult> b = f.coordinator.joinGroup(v0Join("g", "", 6_000));
        for (int second = 0; second < 18; second += 3) {
            f.clock.advance(3_000); // A keeps its session alive but never rejoins
            assertThat(f.heartbeat("g", a.get(0))).as("at %d s", second + 3).isEqualTo(ErrorCode.REBALANCE_IN_PROGRESS);
        }
        f.clock.advance(1_500);
        assertThat(b).as("at 19.5 s the rebalance still waits for A: its 20 s, not B's 6 s").isNotDone();
        f.clock.advance(1_000);
        JoinGroupResult joined = b.join();
        assertThat(joined.error()).isEqualTo(ErrorCode.NONE);
        assertThat(joined.generationId()).isEqualTo(2);
        assertThat(joined.members()).extracting(JoinGroupResult.Member::memberId).containsExactly(joined.memberId());
    }

    private static JoinGroupRequest v0Join(String group, String memberId, int sessionTimeoutMs) {
        return new JoinGroupRequest(group, memberId, null, "old-client", "/127.0.0.1", sessionTimeoutMs, -1, "consumer",
                RANGE, null, (short) 0);
    }

    @Test
    void membersJoiningWithinTheInitialDelayShareOneGenerationAndFollowersWaitForTheLeadersAssignment() {
        fixture(3000);
        CompletableFuture<JoinGroupResult> a = f.joinNew("g", "a", RANGE);
        f.clock.advance(1000);
        CompletableFuture<JoinGroupResult> b = f.joinNew("g", "b", RANGE);
        CompletableFuture<JoinGroupResult> c = f.joinNew("g", "c", RANGE);
        f.clock.advance(2999);
        assertThat(a).isNotDone(); // b and c joined during the delay: it is extended once more
        f.clock.advance(3000);
        List<JoinGroupResult> joined = List.of(a.join(), b.join(), c.join());
        assertThat(joined).extracting(JoinGroupResult::generationId).containsOnly(1);
        assertThat(joined).extracting(JoinGroupResult::leader).containsOnly(a.join().memberId());
        assertThat(a.join().members()).hasSize(3);
        assertThat(b.join().members()).isEmpty();

        CompletableFuture<SyncGroupResult> syncB = f.sync("g", b.join(), Map.of());
        CompletableFuture<SyncGroupResult> syncC = f.sync("g", c.join(), Map.of());
        assertThat(syncB).isNotDone();
        assertThat(f.heartbeat("g", b.join())).isEqualTo(ErrorCode.NONE); // followers heartbeat while they wait
        SyncGroupResult syncA = f.sync("g", a.join(), Map.of(
                a.join().memberId(), bytes("p0,p1"),
                b.join().memberId(), bytes("p2,p3"))).join();
        assertThat(text(syncA.assignment())).isEqualTo("p0,p1");
        assertThat(text(syncB.join().assignment())).isEqualTo("p2,p3");
        assertThat(syncC.join().error()).isEqualTo(ErrorCode.NONE);
        assertThat(syncC.join().assignment()).isEmpty(); // the leader left c out: an empty assignment
        assertThat(syncB.join().protocolName()).isEqualTo("range");
        assertThat(f.coordinator.stateOf("g").join()).isEqualTo(GroupState.STABLE);
    }

    @Test
    void theProtocolIsTheOneAllMembersSupportThatMostPrefer() {
        fixture(0);
        CompletableFuture<JoinGroupResult> a = f.joinNew("g", "a",
                List.of(protocol("cooperative-sticky", "t"), protocol("range", "t")));
        CompletableFuture<JoinGroupResult> b = f.joinNew("g", "b", List.of(protocol("range", "t")));
        f.clock.advance(0);
        assertThat(a.join().protocolName()).isEqualTo("range");
        assertThat(b.join().protocolName()).isEqualTo("range");

        JoinGroupResult c = f.coordinator.joinGroup(f.joinRequest("g", "", null, "c",
                List.of(protocol("roundrobin", "t")))).join();
        assertThat(c.error()).isEqualTo(ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
    }

    @Test
    void sessionTimeoutsOutsideTheBrokersBoundsAreRejected() {
        fixture(0);
        JoinGroupRequest tooShort = new JoinGroupRequest("g", "", null, "c", "/127.0.0.1", 1000, 5000,
                "consumer", RANGE, null, (short) 9);
        assertThat(f.coordinator.joinGroup(tooShort).join().error()).isEqualTo(ErrorCode.INVALID_SESSION_TIMEOUT);
        JoinGroupRequest noGroup = new JoinGroupRequest("", "", null, "c", "/127.0.0.1", SESSION_TIMEOUT, 5000,
                "consumer", RANGE, null, (short) 9);
        assertThat(f.coordinator.joinGroup(noGroup).join().error()).isEqualTo(ErrorCode.INVALID_GROUP_ID);
    }

    @Test
    void heartbeatsReportUnknownMembersStaleGenerationsAndRebalances() {
        fixture(0);
        List<JoinGroupResult> g = f.stableGroup("g", List.of(f.joinNew("g", "a", RANGE)));
        JoinGroupResult a = g.get(0);
        assertThat(f.heartbeat("g", a)).isEqualTo(ErrorCode.NONE);
        assertThat(f.coordinator.heartbeat("g", "nobody", null, 1).join()).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
        assertThat(f.coordinator.heartbeat("g", a.memberId(), null, 7).join()).isEqualTo(ErrorCode.ILLEGAL_GENERATION);
        assertThat(f.coordinator.heartbeat("nogroup", a.memberId(), null, 1).join()).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);

        CompletableFuture<JoinGroupResult> b = f.joinNew("g", "b", RANGE); // a rebalance starts
        assertThat(f.heartbeat("g", a)).isEqualTo(ErrorCode.REBALANCE_IN_PROGRESS);
        assertThat(f.sync("g", a, Map.of()).join().error()).isEqualTo(ErrorCode.REBALANCE_IN_PROGRESS);
        JoinGroupResult a2 = f.join("g", a.memberId(), RANGE).join(); // everyone is in: completes at once
        assertThat(a2.generationId()).isEqualTo(2);
        assertThat(b.join().generationId()).isEqualTo(2);
    }

    @Test
    void aMemberThatStopsHeartbeatingIsEvictedAfterItsSessionTimeout() {
        fixture(0);
        List<JoinGroupResult> g = f.stableGroup("g", List.of(f.joinNew("g", "a", RANGE), f.joinNew("g", "b", RANGE)));
        JoinGroupResult a = g.get(0);
        JoinGroupResult b = g.get(1);
        for (int i = 0; i < 3; i++) {
            f.clock.advance(SESSION_TIMEOUT / 3);
            assertThat(f.heartbeat("g", a)).isEqualTo(ErrorCode.NONE);
        }
        // b last heartbeat at sync time, 10 s ago: it is gone and a rebalance has begun.
        f.clock.advance(1);
        assertThat(f.heartbeat("g", a)).isEqualTo(ErrorCode.REBALANCE_IN_PROGRESS);
        assertThat(f.heartbeat("g", b)).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
        JoinGroupResult again = f.join("g", a.memberId(), RANGE).join();
        assertThat(again.generationId()).isEqualTo(2);
        assertThat(again.members()).extracting(JoinGroupResult.Member::memberId).containsExactly(a.memberId());
    }

    @Test
    void membersThatDoNotRejoinWithinTheRebalanceTimeoutAreRemoved() {
        fixture(0);
        List<JoinGroupResult> g = f.stableGroup("g", List.of(f.joinNew("g", "a", RANGE), f.joinNew("g", "b", RANGE)));
        JoinGroupResult leader = g.get(0).memberId().equals(g.get(0).leader()) ? g.get(0) : g.get(1);
        JoinGroupResult follower = leader == g.get(0) ? g.get(1) : g.get(0);
        CompletableFuture<JoinGroupResult> rejoin = f.join("g", leader.memberId(), RANGE); // leader forces a rebalance
        for (int t = 0; t < REBALANCE_TIMEOUT - 5000; t += 5000) {
            f.clock.advance(5000);
            assertThat(f.heartbeat("g", follower)).isEqualTo(ErrorCode.REBALANCE_IN_PROGRESS); // alive, but never rejoins
        }
        assertThat(rejoin).isNotDone();
        f.clock.advance(5000);
        assertThat(rejoin.join().generationId()).isEqualTo(2);
        assertThat(rejoin.join().members()).extracting(JoinGroupResult.Member::memberId).containsExactly(leader.memberId());
        assertThat(f.heartbeat("g", follower)).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aMemberLeavingMakesTheOthersRebalanceAndTheLastOneLeavingEmptiesTheGroup() {
        fixture(0);
        List<JoinGroupResult> g = f.stableGroup("g", List.of(f.joinNew("g", "a", RANGE), f.joinNew("g", "b", RANGE)));
        LeaveGroupResult left = f.coordinator.leaveGroup("g", List.of(
                new LeaveGroupResult.Member(g.get(1).memberId(), null, ErrorCode.NONE),
                new LeaveGroupResult.Member("ghost", null, ErrorCode.NONE))).join();
        assertThat(left.error()).isEqualTo(ErrorCode.NONE);
        assertThat(left.members()).extracting(LeaveGroupResult.Member::error)
                .containsExactly(ErrorCode.NONE, ErrorCode.UNKNOWN_MEMBER_ID);
        assertThat(f.heartbeat("g", g.get(0))).isEqualTo(ErrorCode.REBALANCE_IN_PROGRESS);
        JoinGroupResult a2 = f.join("g", g.get(0).memberId(), RANGE).join();
        assertThat(a2.generationId()).isEqualTo(2);

        f.coordinator.leaveGroup("g", List.of(new LeaveGroupResult.Member(a2.memberId(), null, ErrorCode.NONE))).join();
        assertThat(f.coordinator.stateOf("g").join()).isEqualTo(GroupState.EMPTY);
    }

    @Test
    void backToBackRebalancesAnswerParkedSyncsAndSettleOnTheLatestGeneration() {
        fixture(0);
        List<Protocol> coop = List.of(protocol("cooperative-sticky", "orders"));
        List<JoinGroupResult> g = f.stableGroup("g", List.of(f.joinNew("g", "a", coop), f.joinNew("g", "b", coop)));
        JoinGroupResult a = g.get(0);
        JoinGroupResult b = g.get(1);

        // Generation 2: a third member; a and b rejoin (cooperative: they keep their partitions meanwhile).
        CompletableFuture<JoinGroupResult> c = f.joinNew("g", "c", coop);
        CompletableFuture<JoinGroupResult> a2 = f.join("g", a.memberId(), coop);
        JoinGroupResult b2 = f.join("g", b.memberId(), coop).join();
        assertThat(b2.generationId()).isEqualTo(2);
        CompletableFuture<SyncGroupResult> parkedSync = f.sync("g", b2, Map.of());

        // Before the leader syncs, a member rejoins with new metadata: generation 2 is abandoned.
        List<Protocol> changed = List.of(protocol("cooperative-sticky", "orders", "payments"));
        CompletableFuture<JoinGroupResult> c3 = f.join("g", c.join().memberId(), changed);
        assertThat(parkedSync.join().error()).isEqualTo(ErrorCode.REBALANCE_IN_PROGRESS);
        CompletableFuture<JoinGroupResult> a3 = f.join("g", a2.join().memberId(), coop);
        JoinGroupResult b3 = f.join("g", b.memberId(), coop).join();
        assertThat(List.of(a3.join(), b3, c3.join())).extracting(JoinGroupResult::generationId).containsOnly(3);

        // Generation 3 completes; the second round of a cooperative rebalance is just generation 4.
        JoinGroupResult leader = List.of(a3.join(), b3, c3.join()).stream()
                .filter(j -> j.memberId().equals(j.leader())).findFirst().orElseThrow();
        CompletableFuture<SyncGroupResult> syncB = f.sync("g", b3, Map.of());
        f.sync("g", leader, Map.of(b3.memberId(), bytes("orders-1"))).join();
        if (leader != c3.join()) {
            f.sync("g", c3.join(), Map.of()).join();
        }
        assertThat(text(syncB.join().assignment())).isEqualTo("orders-1");
        assertThat(f.coordinator.stateOf("g").join()).isEqualTo(GroupState.STABLE);
        JoinGroupResult b4 = f.join("g", b.memberId(), coop).join(); // a follower with unchanged metadata: no rebalance
        assertThat(b4.generationId()).isEqualTo(3);
    }

    @Test
    void aStaticMemberRestartingWithTheSameMetadataTakesItsPlaceWithoutARebalance() {
        fixture(0);
        CompletableFuture<JoinGroupResult> s = f.coordinator.joinGroup(f.joinRequest("g", "", "instance-1", "s", RANGE));
        CompletableFuture<JoinGroupResult> d = f.joinNew("g", "d", RANGE);
        List<JoinGroupResult> g = f.stableGroup("g", List.of(s, d));
        JoinGroupResult oldStatic = g.get(0);
        assertThat(oldStatic.memberId()).startsWith("instance-1-");
        byte[] assigned = f.sync("g", oldStatic, Map.of()).join().assignment();

        // The process restarts: same instance id, no member id, same subscription.
        JoinGroupResult restarted = f.coordinator.joinGroup(f.joinRequest("g", "", "instance-1", "s", RANGE)).join();
        assertThat(restarted.error()).isEqualTo(ErrorCode.NONE);
        assertThat(restarted.memberId()).isNotEqualTo(oldStatic.memberId()).startsWith("instance-1-");
        assertThat(restarted.generationId()).isEqualTo(1);
        assertThat(f.coordinator.stateOf("g").join()).isEqualTo(GroupState.STABLE);
        assertThat(f.heartbeat("g", g.get(1))).isEqualTo(ErrorCode.NONE); // the other member never noticed

        SyncGroupResult sync = f.coordinator.syncGroup(new SyncGroupRequest("g", 1, restarted.memberId(), "instance-1",
                "consumer", "range", Map.of())).join();
        assertThat(sync.assignment()).isEqualTo(assigned);
        assertThat(f.coordinator.heartbeat("g", oldStatic.memberId(), "instance-1", 1).join())
                .isEqualTo(ErrorCode.FENCED_INSTANCE_ID);
        assertThat(f.coordinator.heartbeat("g", restarted.memberId(), "instance-1", 1).join()).isEqualTo(ErrorCode.NONE);
    }

    @Test
    void anAdminCanRemoveAStaticMemberByInstanceId() {
        fixture(0);
        List<JoinGroupResult> g = f.stableGroup("g", List.of(
                f.coordinator.joinGroup(f.joinRequest("g", "", "instance-1", "s", RANGE))));
        LeaveGroupResult left = f.coordinator.leaveGroup("g",
                List.of(new LeaveGroupResult.Member("", "instance-1", ErrorCode.NONE))).join();
        assertThat(left.members()).extracting(LeaveGroupResult.Member::error).containsExactly(ErrorCode.NONE);
        assertThat(f.coordinator.heartbeat("g", g.get(0).memberId(), "instance-1", 1).join())
                .isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
        assertThat(f.coordinator.stateOf("g").join()).isEqualTo(GroupState.EMPTY);
    }

    @Test
    void aNewMemberWhoNeverRejoinsWithItsIdIsForgottenAfterTheSessionTimeout() {
        fixture(0);
        JoinGroupResult first = f.coordinator.joinGroup(f.joinRequest("g", "", null, "c", RANGE)).join();
        f.clock.advance(SESSION_TIMEOUT);
        JoinGroupResult late = f.join("g", first.memberId(), RANGE).join();
        assertThat(late.error()).isEqualTo(ErrorCode.UNKNOWN_MEMBER_ID);
    }
}
