package io.odradek.coordinator.group.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.coordinator.group.streams.TaskAssignor.GroupAssignment;
import io.odradek.coordinator.group.streams.TaskAssignor.GroupSpec;
import io.odradek.coordinator.group.streams.TaskAssignor.MemberAssignment;
import io.odradek.coordinator.group.streams.TaskAssignor.MemberSpec;
import io.odradek.coordinator.group.streams.TaskAssignor.TopologyDescriber;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IntSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Kafka 4.4's sticky task assignor on its own: stickiness, balance, process spreading, standby placement. */
class StickyTaskAssignorTest {
    private final StickyTaskAssignor assignor = new StickyTaskAssignor();

    /** A topology: subtopology id to partition count, and which subtopologies are stateful. */
    record Topology(Map<String, Integer> partitions, Set<String> stateful) implements TopologyDescriber {
        static Topology stateless(String subtopology, int partitions) {
            return new Topology(Map.of(subtopology, partitions), Set.of());
        }

        static Topology stateful(String subtopology, int partitions) {
            return new Topology(Map.of(subtopology, partitions), Set.of(subtopology));
        }

        @Override
        public List<String> subtopologies() {
            return partitions.keySet().stream().sorted().toList();
        }

        @Override
        public int maxNumInputPartitions(String subtopologyId) {
            return partitions.get(subtopologyId);
        }

        @Override
        public boolean isStateful(String subtopologyId) {
            return stateful.contains(subtopologyId);
        }
    }

    /** Builds a group spec member by member, keeping insertion order. */
    static final class Group {
        final Map<String, MemberSpec> members = new LinkedHashMap<>();
        final Map<String, String> configs = new HashMap<>();

        Group member(String memberId, String processId) {
            return member(memberId, processId, Map.of(), Map.of());
        }

        Group member(String memberId, String processId, Map<String, Set<Integer>> active) {
            return member(memberId, processId, active, Map.of());
        }

        Group member(String memberId, String processId, Map<String, Set<Integer>> active,
                Map<String, Set<Integer>> standby) {
            members.put(memberId, new MemberSpec(null, null, processId, Map.of(), active, standby, Map.of()));
            return this;
        }

        Group standbys(int replicas) {
            configs.put("num.standby.replicas", Integer.toString(replicas));
            return this;
        }

        GroupSpec spec() {
            return new GroupSpec(members, configs);
        }
    }

    static Group group() {
        return new Group();
    }

    /** Feeds an assignment back as the members' current tasks, as the coordinator does after reconciliation. */
    static Group fromAssignment(GroupAssignment previous, Map<String, String> processOf) {
        Group g = group();
        previous.members().forEach((memberId, a) -> g.member(memberId, processOf.get(memberId), a.activeTasks(),
                a.standbyTasks()));
        return g;
    }

    static int activeCount(MemberAssignment a) {
        return a.activeTasks().values().stream().mapToInt(Set::size).sum();
    }

    static int standbyCount(MemberAssignment a) {
        return a.standbyTasks().values().stream().mapToInt(Set::size).sum();
    }

    static Set<String> taskNames(Map<String, Set<Integer>> tasks) {
        Set<String> out = new HashSet<>();
        tasks.forEach((s, ps) -> ps.forEach(p -> out.add(s + "_" + p)));
        return out;
    }

    /** Every task active exactly once. */
    static void assertEveryTaskActiveOnce(GroupAssignment out, Topology topology) {
        List<String> all = new ArrayList<>();
        out.members().values().forEach(a -> all.addAll(taskNames(a.activeTasks())));
        Set<String> expected = new HashSet<>();
        topology.partitions().forEach((s, n) -> {
            for (int p = 0; p < n; p++) {
                expected.add(s + "_" + p);
            }
        });
        assertThat(all).hasSize(expected.size()).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void nameIsSticky() {
        assertThat(assignor.name()).isEqualTo("sticky");
    }

    @Test
    void aSingleMemberGetsEveryTask() {
        Topology topology = new Topology(Map.of("0", 3, "1", 2), Set.of("1"));
        GroupAssignment out = assignor.assign(group().member("m1", "p1").standbys(1).spec(), topology);

        assertThat(out.members()).containsOnlyKeys("m1");
        MemberAssignment m1 = out.members().get("m1");
        assertThat(m1.activeTasks()).isEqualTo(Map.of("0", Set.of(0, 1, 2), "1", Set.of(0, 1)));
        // the only process holds every active, so no standby can be placed anywhere
        assertThat(m1.standbyTasks()).isEmpty();
        assertThat(m1.warmupTasks()).isEmpty();
    }

    @Test
    void twoMembersSplitFourTasksTwoAndTwo() {
        Topology topology = Topology.stateless("0", 4);
        GroupAssignment out = assignor.assign(group().member("m1", "p1").member("m2", "p2").spec(), topology);

        assertThat(out.members().get("m1").activeTasks()).isEqualTo(Map.of("0", Set.of(0, 2)));
        assertThat(out.members().get("m2").activeTasks()).isEqualTo(Map.of("0", Set.of(1, 3)));
    }

    @Test
    void previousOwnersKeepTheirTasks() {
        Topology topology = new Topology(Map.of("0", 4, "1", 4), Set.of());
        GroupSpec spec = group()
                .member("m1", "p1", Map.of("0", Set.of(3), "1", Set.of(0, 2)))
                .member("m2", "p2", Map.of("0", Set.of(0, 1), "1", Set.of(1)))
                .member("m3", "p3", Map.of("0", Set.of(2), "1", Set.of(3)))
                .spec();
        GroupAssignment out = assignor.assign(spec, topology);

        // 8 tasks over 3 members: quotas 3/3/2, exactly what they hold, so nothing moves
        assertThat(out.members().get("m1").activeTasks()).isEqualTo(Map.of("0", Set.of(3), "1", Set.of(0, 2)));
        assertThat(out.members().get("m2").activeTasks()).isEqualTo(Map.of("0", Set.of(0, 1), "1", Set.of(1)));
        assertThat(out.members().get("m3").activeTasks()).isEqualTo(Map.of("0", Set.of(2), "1", Set.of(3)));
    }

    @Test
    void aJoiningMemberTakesTasksOnlyFromTheOverloadedOne() {
        Topology topology = Topology.stateless("0", 5);
        GroupSpec spec = group()
                .member("m1", "p1", Map.of("0", Set.of(0, 1, 2)))
                .member("m2", "p2", Map.of("0", Set.of(3, 4)))
                .member("m3", "p3")
                .spec();
        GroupAssignment out = assignor.assign(spec, topology);

        // 5 over 3: m2 already has its 2 and stays put; m1 gives up one; the newcomer gets it
        assertThat(out.members().get("m2").activeTasks()).isEqualTo(Map.of("0", Set.of(3, 4)));
        assertThat(out.members().get("m1").activeTasks()).isEqualTo(Map.of("0", Set.of(0, 1)));
        assertThat(out.members().get("m3").activeTasks()).isEqualTo(Map.of("0", Set.of(2)));
    }

    @Test
    void aLeavingMembersTasksGoToTheRestAndNobodyElseMoves() {
        Topology topology = Topology.stateless("0", 6);
        GroupAssignment before = assignor.assign(
                group().member("m1", "p1").member("m2", "p2").member("m3", "p3").spec(), topology);
        assertThat(before.members().values()).allSatisfy(a -> assertThat(activeCount(a)).isEqualTo(2));

        Map<String, MemberAssignment> remaining = new LinkedHashMap<>(before.members());
        MemberAssignment left = remaining.remove("m2");
        GroupAssignment after = assignor.assign(
                fromAssignment(new GroupAssignment(remaining), Map.of("m1", "p1", "m3", "p3")).spec(), topology);

        assertThat(after.members()).containsOnlyKeys("m1", "m3");
        for (String m : List.of("m1", "m3")) {
            Set<String> had = taskNames(before.members().get(m).activeTasks());
            Set<String> has = taskNames(after.members().get(m).activeTasks());
            assertThat(has).containsAll(had).hasSize(3);
        }
        Set<String> moved = new HashSet<>(taskNames(after.members().get("m1").activeTasks()));
        moved.addAll(taskNames(after.members().get("m3").activeTasks()));
        moved.removeAll(taskNames(before.members().get("m1").activeTasks()));
        moved.removeAll(taskNames(before.members().get("m3").activeTasks()));
        assertThat(moved).isEqualTo(taskNames(left.activeTasks()));
        assertEveryTaskActiveOnce(after, topology);
    }

    @Test
    void moreMembersThanTasksLeavesTheExtraMembersEmptyButListed() {
        Topology topology = Topology.stateless("0", 3);
        Group g = group();
        for (int i = 1; i <= 5; i++) {
            g.member("m" + i, "p" + i);
        }
        GroupAssignment out = assignor.assign(g.spec(), topology);

        assertThat(out.members()).containsOnlyKeys("m1", "m2", "m3", "m4", "m5");
        assertThat(out.members().values().stream().mapToInt(StickyTaskAssignorTest::activeCount))
                .containsExactly(1, 1, 1, 0, 0);
        assertThat(out.members().get("m4")).isEqualTo(new MemberAssignment(Map.of(), Map.of(), Map.of()));
        assertEveryTaskActiveOnce(out, topology);
    }

    @Test
    void aPreviousStandbyOwnerGetsTheActiveWhenItsOwnerLeft() {
        Topology topology = Topology.stateful("0", 2);
        // m1 owned 0_0 and left; m3 had it as standby, m2 had nothing of it
        GroupSpec spec = group()
                .member("m2", "p2", Map.of("0", Set.of(1)))
                .member("m3", "p3", Map.of(), Map.of("0", Set.of(0)))
                .spec();
        GroupAssignment out = assignor.assign(spec, topology);

        assertThat(out.members().get("m2").activeTasks()).isEqualTo(Map.of("0", Set.of(1)));
        assertThat(out.members().get("m3").activeTasks()).isEqualTo(Map.of("0", Set.of(0)));
    }

    @Test
    void statelessSubtopologiesGetNoStandbys() {
        Topology topology = new Topology(Map.of("stateless", 4, "stateful", 2), Set.of("stateful"));
        GroupAssignment out = assignor.assign(
                group().member("m1", "p1").member("m2", "p2").member("m3", "p3").standbys(2).spec(), topology);

        out.members().values().forEach(a -> assertThat(a.standbyTasks()).doesNotContainKey("stateless"));
        // each stateful task: one active and two standbys on the two other processes
        for (int p = 0; p < 2; p++) {
            int partition = p;
            long standbys = out.members().values().stream()
                    .filter(a -> a.standbyTasks().getOrDefault("stateful", Set.of()).contains(partition)).count();
            assertThat(standbys).isEqualTo(2);
        }
        assertEveryTaskActiveOnce(out, topology);
    }

    @Test
    void noStandbysWithoutTheConfigAndNoWarmupsEver() {
        Topology topology = Topology.stateful("0", 4);
        GroupAssignment out = assignor.assign(group().member("m1", "p1").member("m2", "p2").spec(), topology);

        assertThat(out.members().values()).allSatisfy(a -> {
            assertThat(a.standbyTasks()).isEmpty();
            assertThat(a.warmupTasks()).isEmpty();
        });
    }

    @Test
    void standbysNeverShareAProcessWithTheirActive() {
        // two processes with two threads each, one with a single thread
        Topology topology = new Topology(Map.of("a", 6, "b", 6), Set.of("a", "b"));
        GroupSpec spec = group()
                .member("p1-t1", "p1").member("p1-t2", "p1")
                .member("p2-t1", "p2").member("p2-t2", "p2")
                .member("p3-t1", "p3")
                .standbys(2).spec();
        Map<String, String> processOf = new HashMap<>();
        spec.members().forEach((m, s) -> processOf.put(m, s.processId()));
        GroupAssignment out = assignor.assign(spec, topology);

        Map<String, Set<String>> tasksPerProcess = new HashMap<>();
        int standbys = 0;
        for (Map.Entry<String, MemberAssignment> e : out.members().entrySet()) {
            Set<String> held = tasksPerProcess.computeIfAbsent(processOf.get(e.getKey()), p -> new HashSet<>());
            for (String t : taskNames(e.getValue().activeTasks())) {
                assertThat(held.add(t)).as("%s twice on %s", t, processOf.get(e.getKey())).isTrue();
            }
            for (String t : taskNames(e.getValue().standbyTasks())) {
                assertThat(held.add(t)).as("%s twice on %s", t, processOf.get(e.getKey())).isTrue();
            }
            standbys += standbyCount(e.getValue());
        }
        // three processes, two replicas: every task is on all three processes, once as active
        assertThat(standbys).isEqualTo(24);
        assertThat(tasksPerProcess.values()).allSatisfy(held -> assertThat(held).hasSize(12));
        assertEveryTaskActiveOnce(out, topology);
    }

    @Test
    void standbyReplicasBeyondTheProcessCountAreNotPlaced() {
        Topology topology = Topology.stateful("0", 2);
        GroupAssignment out = assignor.assign(
                group().member("m1", "p1").member("m2", "p2").standbys(3).spec(), topology);

        assertThat(out.members().get("m1").activeTasks()).isEqualTo(Map.of("0", Set.of(0)));
        assertThat(out.members().get("m1").standbyTasks()).isEqualTo(Map.of("0", Set.of(1)));
        assertThat(out.members().get("m2").activeTasks()).isEqualTo(Map.of("0", Set.of(1)));
        assertThat(out.members().get("m2").standbyTasks()).isEqualTo(Map.of("0", Set.of(0)));
    }

    @Test
    void previousStandbyOwnersKeepTheirStandbys() {
        Topology topology = Topology.stateful("0", 2);
        GroupSpec spec = group()
                .member("m1", "p1", Map.of("0", Set.of(0)))
                .member("m2", "p2", Map.of("0", Set.of(1)))
                .member("m3", "p3", Map.of(), Map.of("0", Set.of(0)))
                .member("m4", "p4", Map.of(), Map.of("0", Set.of(1)))
                .standbys(1).spec();
        GroupAssignment out = assignor.assign(spec, topology);

        assertThat(out.members().get("m1").activeTasks()).isEqualTo(Map.of("0", Set.of(0)));
        assertThat(out.members().get("m2").activeTasks()).isEqualTo(Map.of("0", Set.of(1)));
        assertThat(out.members().get("m3").standbyTasks()).isEqualTo(Map.of("0", Set.of(0)));
        assertThat(out.members().get("m4").standbyTasks()).isEqualTo(Map.of("0", Set.of(1)));
        assertThat(out.members().get("m1").standbyTasks()).isEmpty();
        assertThat(out.members().get("m2").standbyTasks()).isEmpty();
    }

    @Test
    void theFormerActiveOwnerKeepsTheStateAsStandbyWhenItsActiveMoves() {
        Topology topology = Topology.stateful("0", 2);
        // m1 held both; the newcomer m2 takes one, m1 keeps that one's state as its standby
        GroupSpec spec = group()
                .member("m1", "p1", Map.of("0", Set.of(0, 1)))
                .member("m2", "p2")
                .standbys(1).spec();
        GroupAssignment out = assignor.assign(spec, topology);

        assertThat(out.members().get("m1").activeTasks()).isEqualTo(Map.of("0", Set.of(0)));
        assertThat(out.members().get("m1").standbyTasks()).isEqualTo(Map.of("0", Set.of(1)));
        assertThat(out.members().get("m2").activeTasks()).isEqualTo(Map.of("0", Set.of(1)));
        assertThat(out.members().get("m2").standbyTasks()).isEqualTo(Map.of("0", Set.of(0)));
    }

    @Test
    void freshTasksSpreadAcrossProcessesBeforeDoublingUpOnOne() {
        Topology topology = Topology.stateless("0", 2);
        GroupSpec spec = group()
                .member("a1", "pa").member("a2", "pa")
                .member("b1", "pb").member("b2", "pb")
                .spec();
        GroupAssignment out = assignor.assign(spec, topology);

        assertThat(out.members().get("a1").activeTasks()).isEqualTo(Map.of("0", Set.of(0)));
        assertThat(out.members().get("b1").activeTasks()).isEqualTo(Map.of("0", Set.of(1)));
        assertThat(out.members().get("a2").activeTasks()).isEmpty();
        assertThat(out.members().get("b2").activeTasks()).isEmpty();
    }

    @Test
    void threadsOfOneInstanceEndWithinOneTaskOfEachOther() {
        // a1 held three, b1 one; quotas shrink as members fill, and the rest fills the emptiest thread first
        Topology topology = Topology.stateless("0", 7);
        GroupSpec spec = group()
                .member("a1", "pa", Map.of("0", Set.of(0, 1, 2)))
                .member("a2", "pa")
                .member("b1", "pb", Map.of("0", Set.of(3)))
                .spec();
        GroupAssignment out = assignor.assign(spec, topology);

        assertThat(out.members().get("a1").activeTasks()).isEqualTo(Map.of("0", Set.of(0, 1, 2)));
        assertThat(out.members().get("b1").activeTasks().get("0")).contains(3).hasSize(2);
        assertThat(activeCount(out.members().get("a2"))).isEqualTo(2);
        assertEveryTaskActiveOnce(out, topology);
    }

    @Test
    void sameInputGivesTheSameOutputWhateverTheMemberOrder() {
        Topology topology = new Topology(Map.of("0", 7, "1", 5, "2", 3), Set.of("0", "2"));
        Group forward = group().standbys(1);
        Group backward = group().standbys(1);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            ids.add("member-" + i);
        }
        Map<String, Set<Integer>> prev = Map.of("0", Set.of(1, 4), "1", Set.of(2));
        for (int i = 0; i < ids.size(); i++) {
            forward.member(ids.get(i), "proc-" + i % 3, i == 2 ? prev : Map.of());
        }
        for (int i = ids.size() - 1; i >= 0; i--) {
            backward.member(ids.get(i), "proc-" + i % 3, i == 2 ? prev : Map.of());
        }
        GroupAssignment first = assignor.assign(forward.spec(), topology);

        assertThat(assignor.assign(forward.spec(), topology)).isEqualTo(first);
        assertThat(assignor.assign(backward.spec(), topology)).isEqualTo(first);
        assertThat(new ArrayList<>(first.members().keySet())).isEqualTo(ids);
    }

    @Test
    void reassigningAStableGroupMovesNothing() {
        Topology topology = new Topology(Map.of("0", 8, "1", 8), Set.of("1"));
        Map<String, String> processOf = Map.of("m1", "p1", "m2", "p1", "m3", "p2", "m4", "p3");
        Group g = group().standbys(1);
        processOf.keySet().stream().sorted().forEach(m -> g.member(m, processOf.get(m)));
        GroupAssignment first = assignor.assign(g.spec(), topology);

        GroupAssignment second = assignor.assign(fromAssignment(first, processOf).standbys(1).spec(), topology);

        assertThat(second).isEqualTo(first);
    }

    @Test
    void aLargeGroupIsAssignedCompletelyAndBalanced() {
        Map<String, Integer> partitions = new HashMap<>();
        Set<String> stateful = new HashSet<>();
        for (int s = 0; s < 10; s++) {
            partitions.put("sub-" + s, 100);
            if (s % 2 == 0) {
                stateful.add("sub-" + s);
            }
        }
        Topology topology = new Topology(partitions, stateful);
        Group g = group().standbys(1);
        for (int m = 0; m < 100; m++) {
            g.member("member-" + m, "process-" + (m / 4)); // 25 processes, 4 threads each
        }
        GroupAssignment out = assignor.assign(g.spec(), topology);

        assertEveryTaskActiveOnce(out, topology);
        IntSummaryStatistics active = out.members().values().stream()
                .mapToInt(StickyTaskAssignorTest::activeCount).summaryStatistics();
        assertThat(active.getMin()).isEqualTo(10);
        assertThat(active.getMax()).isEqualTo(10);
        assertThat(out.members().values().stream().mapToInt(StickyTaskAssignorTest::standbyCount).sum())
                .isEqualTo(500);

        // one member leaves: its 10 tasks spread over others, and still within one of each other
        Map<String, String> processOf = new HashMap<>();
        g.members.forEach((m, s) -> processOf.put(m, s.processId()));
        Map<String, MemberAssignment> remaining = new LinkedHashMap<>(out.members());
        remaining.remove("member-42");
        GroupAssignment after = assignor.assign(
                fromAssignment(new GroupAssignment(remaining), processOf).standbys(1).spec(), topology);
        assertEveryTaskActiveOnce(after, topology);
        IntSummaryStatistics activeAfter = after.members().values().stream()
                .mapToInt(StickyTaskAssignorTest::activeCount).summaryStatistics();
        assertThat(activeAfter.getMax() - activeAfter.getMin()).isLessThanOrEqualTo(1);
        for (String m : remaining.keySet()) {
            assertThat(taskNames(after.members().get(m).activeTasks()))
                    .containsAll(taskNames(out.members().get(m).activeTasks()));
        }
    }

    @Test
    void aTaskWhoseThreadIsFullStaysOnItsInstanceWhenASiblingThreadHasRoom() {
        Topology topology = Topology.stateful("0", 4);
        // t1 ran all four; its instance gained thread t2 and a new instance (u1) joined at the same time
        GroupSpec spec = group()
                .member("t1", "p1", Map.of("0", Set.of(0, 1, 2, 3)))
                .member("t2", "p1")
                .member("u1", "p2")
                .spec();
        GroupAssignment out = assignor.assign(spec, topology);

        assertThat(out.members().get("t1").activeTasks()).isEqualTo(Map.of("0", Set.of(0, 1)));
        assertThat(out.members().get("t2").activeTasks()).isEqualTo(Map.of("0", Set.of(2)));
        assertThat(out.members().get("u1").activeTasks()).isEqualTo(Map.of("0", Set.of(3)));
    }

    @Test
    void randomGroupsAlwaysGetEveryTaskOnceBalancedActivesAndAllStandbysThatFit() {
        Random random = new Random(12);
        for (int round = 0; round < 300; round++) {
            Map<String, Integer> partitions = new HashMap<>();
            Set<String> stateful = new HashSet<>();
            int subtopologies = 1 + random.nextInt(4);
            for (int s = 0; s < subtopologies; s++) {
                partitions.put("s" + s, random.nextInt(9));
                if (random.nextBoolean()) {
                    stateful.add("s" + s);
                }
            }
            Topology topology = new Topology(partitions, stateful);
            int replicas = random.nextInt(3);
            int processes = 1 + random.nextInt(4);
            Group g = group().standbys(replicas);
            Map<String, String> processOf = new HashMap<>();
            for (int m = 0, members = 1 + random.nextInt(8); m < members; m++) {
                String memberId = "m" + m;
                processOf.put(memberId, "p" + random.nextInt(processes));
                // previous tasks at random, including ones that no longer exist and ones held twice
                Map<String, Set<Integer>> active = new HashMap<>();
                Map<String, Set<Integer>> standby = new HashMap<>();
                for (int k = random.nextInt(5); k > 0; k--) {
                    (random.nextBoolean() ? active : standby)
                            .computeIfAbsent("s" + random.nextInt(5), x -> new HashSet<>()).add(random.nextInt(10));
                }
                g.member(memberId, processOf.get(memberId), active, standby);
            }
            GroupAssignment out = assignor.assign(g.spec(), topology);

            String context = "round " + round;
            assertThat(out.members().keySet()).as(context).isEqualTo(g.members.keySet());
            assertEveryTaskActiveOnce(out, topology);
            IntSummaryStatistics active = out.members().values().stream()
                    .mapToInt(StickyTaskAssignorTest::activeCount).summaryStatistics();
            assertThat(active.getMax() - active.getMin()).as(context).isLessThanOrEqualTo(1);
            long distinctProcesses = processOf.values().stream().distinct().count();
            Map<String, Set<String>> heldByProcess = new HashMap<>();
            Map<String, Integer> standbysPerTask = new HashMap<>();
            out.members().forEach((memberId, a) -> {
                Set<String> held = heldByProcess.computeIfAbsent(processOf.get(memberId), p -> new HashSet<>());
                taskNames(a.activeTasks()).forEach(t -> assertThat(held.add(t)).as(context).isTrue());
                taskNames(a.standbyTasks()).forEach(t -> {
                    assertThat(held.add(t)).as(context + ": " + t + " twice on a process").isTrue();
                    standbysPerTask.merge(t, 1, Integer::sum);
                });
                assertThat(a.standbyTasks().keySet()).as(context).isSubsetOf(stateful);
                assertThat(a.warmupTasks()).isEmpty();
            });
            for (String s : stateful) {
                for (int p = 0; p < partitions.get(s); p++) {
                    assertThat(standbysPerTask.getOrDefault(s + "_" + p, 0)).as(context + " standbys of " + s + "_" + p)
                            .isEqualTo((int) Math.min(replicas, distinctProcesses - 1));
                }
            }
            assertThat(assignor.assign(g.spec(), topology)).as(context).isEqualTo(out);
        }
    }

    @Test
    void anEmptyGroupGetsAnEmptyAssignment() {
        assertThat(assignor.assign(group().spec(), Topology.stateless("0", 3)).members()).isEmpty();
    }

    @Test
    void tasksOfSubtopologiesOrPartitionsThatNoLongerExistAreDropped() {
        Topology topology = Topology.stateful("0", 2);
        GroupSpec spec = group()
                .member("m1", "p1", Map.of("0", Set.of(0, 5), "gone", Set.of(0)), Map.of("gone", Set.of(1)))
                .member("m2", "p2", Map.of("0", Set.of(1)))
                .standbys(1).spec();
        GroupAssignment out = assignor.assign(spec, topology);

        assertThat(out.members().get("m1"))
                .isEqualTo(new MemberAssignment(Map.of("0", Set.of(0)), Map.of("0", Set.of(1)), Map.of()));
        assertThat(out.members().get("m2"))
                .isEqualTo(new MemberAssignment(Map.of("0", Set.of(1)), Map.of("0", Set.of(0)), Map.of()));
    }

    @Test
    void aWarmStandbyTakesAFreedActiveAndStandbysStopAtTheTotalQuota() {
        Topology topology = Topology.stateful("0", 4);
        // m3 held standbys of all four tasks; 4 actives + 4 standbys over 3 members: at most 3 tasks each
        GroupSpec spec = group()
                .member("m1", "p1", Map.of("0", Set.of(0, 2)))
                .member("m2", "p2", Map.of("0", Set.of(1, 3)))
                .member("m3", "p3", Map.of(), Map.of("0", Set.of(0, 1, 2, 3)))
                .standbys(1).spec();
        GroupAssignment out = assignor.assign(spec, topology);

        // active quota 2 then 1: m2 gives up 0_3, which goes to its warm standby m3; m2 keeps 0_3's state as
        // standby; m3 keeps standbys 0_2 and 0_1, is then full, so 0_0's standby goes to the least loaded m2
        assertThat(out.members().get("m1"))
                .isEqualTo(new MemberAssignment(Map.of("0", Set.of(0, 2)), Map.of(), Map.of()));
        assertThat(out.members().get("m2"))
                .isEqualTo(new MemberAssignment(Map.of("0", Set.of(1)), Map.of("0", Set.of(0, 3)), Map.of()));
        assertThat(out.members().get("m3"))
                .isEqualTo(new MemberAssignment(Map.of("0", Set.of(3)), Map.of("0", Set.of(1, 2)), Map.of()));
    }

    @Test
    void aStandbyReplicaCountThatIsNotANumberIsRejected() {
        GroupSpec spec = new GroupSpec(group().member("m1", "p1").members, Map.of("num.standby.replicas", "two"));
        assertThatThrownBy(() -> assignor.assign(spec, Topology.stateful("0", 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("num.standby.replicas");
    }
}
