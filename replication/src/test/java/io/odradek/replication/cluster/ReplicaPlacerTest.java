package io.odradek.replication.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ReplicaPlacerTest {
    private static final UUID TOPIC = new UUID(0x1234_5678_9abcL, 0xfeed_beefL);

    private static BrokerRegistration broker(int id, String rack) {
        return new BrokerRegistration(id, 10 + id, new UUID(1, id), List.of(), rack, false, false);
    }

    private static List<BrokerRegistration> brokers(int n) {
        List<BrokerRegistration> list = new ArrayList<>();
        for (int id = 1; id <= n; id++) {
            list.add(broker(id, null));
        }
        return list;
    }

    private static Map<Integer, Integer> count(List<List<Integer>> placements, boolean leadersOnly) {
        Map<Integer, Integer> counts = new HashMap<>();
        for (List<Integer> replicas : placements) {
            for (int b : leadersOnly ? replicas.subList(0, 1) : replicas) {
                counts.merge(b, 1, Integer::sum);
            }
        }
        return counts;
    }

    @Test
    void rf3OverThreeBrokersPutsEveryPartitionOnAllThreeAndSpreadsLeaders() {
        List<List<Integer>> placements = ReplicaPlacer.place(brokers(3), ReplicaPlacer.seed(TOPIC, 0), 6, 3);

        assertThat(placements).hasSize(6)
                .allSatisfy(replicas -> assertThat(replicas).containsExactlyInAnyOrder(1, 2, 3));
        assertThat(count(placements, true)).containsOnly(Map.entry(1, 2), Map.entry(2, 2), Map.entry(3, 2));
    }

    @Test
    void rf3OverFiveBrokersGivesEachBrokerEqualReplicasAndLeaderships() {
        List<List<Integer>> placements = ReplicaPlacer.place(brokers(5), ReplicaPlacer.seed(TOPIC, 0), 10, 3);

        assertThat(placements).allSatisfy(replicas -> assertThat(new HashSet<>(replicas)).hasSize(3));
        assertThat(count(placements, true)).hasSize(5).allSatisfy((broker, leads) -> assertThat(leads).isEqualTo(2));
        assertThat(count(placements, false)).hasSize(5)
                .allSatisfy((broker, replicas) -> assertThat(replicas).isEqualTo(6));
    }

    @Test
    void withThreeRacksEveryPartitionHasOneReplicaPerRack() {
        List<BrokerRegistration> brokers = List.of(broker(1, "a"), broker(2, "a"), broker(3, "b"), broker(4, "b"),
                broker(5, "c"), broker(6, "c"));
        Map<Integer, String> rackOf = new HashMap<>();
        brokers.forEach(b -> rackOf.put(b.id(), b.rack()));

        List<List<Integer>> placements = ReplicaPlacer.place(brokers, ReplicaPlacer.seed(TOPIC, 0), 12, 3);

        assertThat(placements).allSatisfy(replicas -> assertThat(replicas.stream().map(rackOf::get))
                .containsExactlyInAnyOrder("a", "b", "c"));
        assertThat(count(placements, true)).hasSize(6).allSatisfy((broker, leads) -> assertThat(leads).isEqualTo(2));
    }

    @Test
    void withTwoRacksAndRf2ReplicasNeverShareARack() {
        List<BrokerRegistration> brokers = List.of(broker(1, "east"), broker(2, "east"), broker(3, "west"),
                broker(4, "west"));
        List<List<Integer>> placements = ReplicaPlacer.place(brokers, ReplicaPlacer.seed(TOPIC, 0), 8, 2);

        assertThat(placements).allSatisfy(replicas -> assertThat((replicas.get(0) <= 2) != (replicas.get(1) <= 2))
                .isTrue());
    }

    @Test
    void placementIsTheSameForTheSameTopicIdAndStartsElsewhereForOthers() {
        List<List<Integer>> once = ReplicaPlacer.place(brokers(5), ReplicaPlacer.seed(TOPIC, 0), 4, 3);
        List<List<Integer>> again = ReplicaPlacer.place(brokers(5), ReplicaPlacer.seed(TOPIC, 0), 4, 3);
        assertThat(again).isEqualTo(once);

        Set<Integer> firstLeaders = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            UUID id = new UUID(i * 31L + 5, i * 977L + 11);
            firstLeaders.add(ReplicaPlacer.place(brokers(5), ReplicaPlacer.seed(id, 0), 1, 3).get(0).get(0));
        }
        assertThat(firstLeaders).hasSizeGreaterThan(2);
    }

    @Test
    void fencedAndShuttingDownBrokersGetNoReplicas() {
        List<BrokerRegistration> brokers = List.of(broker(1, null), broker(2, null).withFenced(true),
                broker(3, null), broker(4, null).withControlledShutdown(true));
        List<List<Integer>> placements = ReplicaPlacer.place(brokers, 42, 6, 2);

        assertThat(placements).allSatisfy(replicas -> assertThat(replicas).containsExactlyInAnyOrder(1, 3));
    }

    @Test
    void moreReplicasThanUsableBrokersIsRefusedWithKafkasMessage() {
        List<BrokerRegistration> brokers = List.of(broker(1, null), broker(2, null), broker(3, null).withFenced(true));

        assertThatThrownBy(() -> ReplicaPlacer.place(brokers, 1, 1, 3))
                .isInstanceOf(MetadataException.class)
                .hasMessage("The target replication factor of 3 cannot be reached because only 2 broker(s) are "
                        + "registered or some brokers have all their log directories cordoned.")
                .extracting(e -> ((MetadataException) e).error()).isEqualTo(ErrorCode.INVALID_REPLICATION_FACTOR);
        assertThatThrownBy(() -> ReplicaPlacer.place(brokers, 1, 1, 0))
                .hasMessage("Invalid replication factor 0: the replication factor must be positive.");
        assertThatThrownBy(() -> ReplicaPlacer.place(List.of(broker(1, null).withFenced(true)), 1, 1, 1))
                .hasMessage("All brokers are currently fenced, or have all their log directories cordoned.");
    }
}
