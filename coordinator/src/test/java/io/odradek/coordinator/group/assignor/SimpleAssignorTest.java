package io.odradek.coordinator.group.assignor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The share group assignor: every assignable partition assigned, shared when members outnumber partitions. */
class SimpleAssignorTest {
    private static final UUID ORDERS = new UUID(0, 1);
    private static final UUID AUDIT = new UUID(0, 2);
    private final SimpleAssignor assignor = new SimpleAssignor();

    private static Map<UUID, Set<Integer>> partitions(UUID topic, int count) {
        Set<Integer> p = new HashSet<>();
        for (int i = 0; i < count; i++) {
            p.add(i);
        }
        return Map.of(topic, p);
    }

    @Test
    void threeMembersOnOnePartitionAllGetIt() {
        Map<String, Map<UUID, Set<Integer>>> out = assignor.assign(
                Map.of("a", Set.of(ORDERS), "b", Set.of(ORDERS), "c", Set.of(ORDERS)), partitions(ORDERS, 1), Map.of());
        assertThat(out).isEqualTo(Map.of("a", Map.of(ORDERS, Set.of(0)), "b", Map.of(ORDERS, Set.of(0)),
                "c", Map.of(ORDERS, Set.of(0))));
    }

    @Test
    void partitionsAreSplitEvenlyWithoutSharingWhenTheyOutnumberMembers() {
        Map<String, Map<UUID, Set<Integer>>> out = assignor.assign(Map.of("a", Set.of(ORDERS), "b", Set.of(ORDERS)),
                partitions(ORDERS, 6), Map.of());
        assertThat(out.get("a").get(ORDERS)).hasSize(3);
        assertThat(out.get("b").get(ORDERS)).hasSize(3);
        Set<Integer> all = new HashSet<>(out.get("a").get(ORDERS));
        all.addAll(out.get("b").get(ORDERS));
        assertThat(all).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
    }

    @Test
    void threeMembersOnTwoPartitionsShareEachPartitionTwice() {
        Map<String, Map<UUID, Set<Integer>>> out = assignor.assign(
                Map.of("a", Set.of(ORDERS), "b", Set.of(ORDERS), "c", Set.of(ORDERS)), partitions(ORDERS, 2), Map.of());
        Map<Integer, Integer> holders = new HashMap<>();
        out.values().forEach(m -> m.get(ORDERS).forEach(p -> holders.merge(p, 1, Integer::sum)));
        assertThat(holders).isEqualTo(Map.of(0, 2, 1, 2));
        assertThat(out.values()).allSatisfy(m -> assertThat(m.get(ORDERS)).isNotEmpty());
    }

    @Test
    void membersKeepWhatTheyHadWhenBalanceAllows() {
        Map<String, Map<UUID, Set<Integer>>> current = Map.of("a", Map.of(ORDERS, Set.of(3, 4)), "b", Map.of(ORDERS, Set.of(0, 1)));
        Map<String, Map<UUID, Set<Integer>>> out = assignor.assign(Map.of("a", Set.of(ORDERS), "b", Set.of(ORDERS)),
                partitions(ORDERS, 4), current);
        assertThat(out.get("a").get(ORDERS)).contains(3);
        assertThat(out.get("b").get(ORDERS)).containsExactlyInAnyOrder(0, 1);
        assertThat(out.get("a").get(ORDERS)).containsExactlyInAnyOrder(2, 3);
    }

    @Test
    void onlyAssignablePartitionsAreAssignedAndEachTopicGoesToItsSubscribers() {
        Map<String, Map<UUID, Set<Integer>>> out = assignor.assign(Map.of("a", Set.of(ORDERS), "b", Set.of(ORDERS, AUDIT)),
                Map.of(ORDERS, Set.of(0), AUDIT, Set.of(0, 1)), Map.of());
        assertThat(out.get("a")).isEqualTo(Map.of(ORDERS, Set.of(0)));
        assertThat(out.get("b")).isEqualTo(Map.of(ORDERS, Set.of(0), AUDIT, Set.of(0, 1)));
    }
}
