package io.odradek.coordinator.group.assignor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The server-side assignors on their own: balance, stickiness, co-partitioning. */
class AssignorsTest {
    static final UUID A = new UUID(0, 1);
    static final UUID B = new UUID(0, 2);

    static AssignmentSpec.Member member(Set<UUID> topics, Map<UUID, Set<Integer>> current) {
        return new AssignmentSpec.Member(null, topics, current);
    }

    @Test
    void uniformKeepsWhatMembersHadAndOnlyMovesWhatBalanceNeeds() {
        Map<String, AssignmentSpec.Member> members = new HashMap<>();
        members.put("m1", member(Set.of(A), Map.of(A, Set.of(0, 1, 2, 3))));
        members.put("m2", member(Set.of(A), Map.of(A, Set.of(4, 5, 6))));
        members.put("m3", member(Set.of(A), Map.of()));
        Map<String, Map<UUID, Set<Integer>>> out = new UniformAssignor().assign(new AssignmentSpec(members, Map.of(A, 7)));
        // 7 over 3: m1 (held most) keeps 3 with the extra one, m2 keeps 2, the newcomer gets the freed two.
        assertThat(out.get("m1")).isEqualTo(Map.of(A, Set.of(0, 1, 2)));
        assertThat(out.get("m2")).isEqualTo(Map.of(A, Set.of(4, 5)));
        assertThat(out.get("m3")).isEqualTo(Map.of(A, Set.of(3, 6)));
    }

    @Test
    void uniformBalancesMembersWithDifferentSubscriptions() {
        Map<String, AssignmentSpec.Member> members = new HashMap<>();
        members.put("both", member(Set.of(A, B), Map.of()));
        members.put("onlyA", member(Set.of(A), Map.of()));
        members.put("onlyB", member(Set.of(B), Map.of()));
        Map<String, Map<UUID, Set<Integer>>> out = new UniformAssignor().assign(new AssignmentSpec(members, Map.of(A, 3, B, 3)));
        assertThat(out.values()).allSatisfy(a -> assertThat(a.values().stream().mapToInt(Set::size).sum()).isEqualTo(2));
        assertThat(out.get("onlyA")).containsOnlyKeys(A);
        assertThat(out.get("onlyB")).containsOnlyKeys(B);
    }

    @Test
    void rangeGivesContiguousRangesAndStaticMembersGoFirst() {
        Map<String, AssignmentSpec.Member> members = new HashMap<>();
        members.put("a-dynamic", member(Set.of(A, B), Map.of()));
        members.put("z-static", new AssignmentSpec.Member("instance-1", Set.of(A, B), Map.of()));
        Map<String, Map<UUID, Set<Integer>>> out = new RangeAssignor().assign(new AssignmentSpec(members, Map.of(A, 3, B, 3)));
        assertThat(out.get("z-static")).isEqualTo(Map.of(A, Set.of(0, 1), B, Set.of(0, 1)));
        assertThat(out.get("a-dynamic")).isEqualTo(Map.of(A, Set.of(2), B, Set.of(2)));
    }
}
