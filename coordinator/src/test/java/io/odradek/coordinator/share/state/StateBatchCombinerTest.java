package io.odradek.coordinator.share.state;

import static io.odradek.coordinator.share.StateBatch.ACKNOWLEDGED;
import static io.odradek.coordinator.share.StateBatch.ARCHIVED;
import static io.odradek.coordinator.share.StateBatch.AVAILABLE;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.share.StateBatch;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How written batches merge into the persisted ones (Kafka 4.4's PersisterStateBatchCombiner rules). */
class StateBatchCombinerTest {
    private static StateBatch b(long first, long last, byte state, int count) {
        return new StateBatch(first, last, state, (short) count);
    }

    @Test
    void anAcknowledgedRangeInsideAnAvailableOneSplitsIt() {
        List<StateBatch> merged = StateBatchCombiner.combine(List.of(b(100, 199, AVAILABLE, 1)),
                List.of(b(120, 129, ACKNOWLEDGED, 1)), 100);
        assertThat(merged).containsExactly(b(100, 119, AVAILABLE, 1), b(120, 129, ACKNOWLEDGED, 1), b(130, 199, AVAILABLE, 1));
    }

    @Test
    void aHigherDeliveryCountWinsWhateverItsState() {
        List<StateBatch> merged = StateBatchCombiner.combine(List.of(b(10, 19, ACKNOWLEDGED, 1)),
                List.of(b(15, 24, AVAILABLE, 2)), 10);
        assertThat(merged).containsExactly(b(10, 14, ACKNOWLEDGED, 1), b(15, 24, AVAILABLE, 2));
    }

    @Test
    void aStateNeverMovesBackAtTheSameDeliveryCount() {
        // An old write arriving with AVAILABLE for offsets already archived leaves them archived.
        List<StateBatch> merged = StateBatchCombiner.combine(List.of(b(0, 9, ARCHIVED, 3)), List.of(b(0, 9, AVAILABLE, 3)), 0);
        assertThat(merged).containsExactly(b(0, 9, ARCHIVED, 3));
    }

    @Test
    void adjacentRangesOfTheSameStateAndCountAreJoined() {
        List<StateBatch> merged = StateBatchCombiner.combine(List.of(b(0, 4, ACKNOWLEDGED, 1), b(10, 14, ACKNOWLEDGED, 1)),
                List.of(b(5, 9, ACKNOWLEDGED, 1)), 0);
        assertThat(merged).containsExactly(b(0, 14, ACKNOWLEDGED, 1));
    }

    @Test
    void rangesBelowTheStartOffsetAreDroppedAndOneStraddlingItIsCut() {
        List<StateBatch> merged = StateBatchCombiner.combine(List.of(b(0, 9, ACKNOWLEDGED, 1), b(10, 29, AVAILABLE, 1)),
                List.of(), 15);
        assertThat(merged).containsExactly(b(15, 29, AVAILABLE, 1));
    }

    @Test
    void anUnknownStartOffsetPrunesNothing() {
        assertThat(StateBatchCombiner.combine(List.of(b(0, 9, ARCHIVED, 1)), List.of(), -1)).containsExactly(b(0, 9, ARCHIVED, 1));
    }

    @Test
    void theOutputIsSortedAndNonOverlappingWhateverTheInputOrder() {
        List<StateBatch> merged = StateBatchCombiner.combine(List.of(b(50, 59, AVAILABLE, 1), b(0, 9, AVAILABLE, 1)),
                List.of(b(5, 54, ARCHIVED, 1)), 0);
        assertThat(merged).containsExactly(b(0, 4, AVAILABLE, 1), b(5, 54, ARCHIVED, 1), b(55, 59, AVAILABLE, 1));
    }

    /** Random histories merged by ours and by Kafka 4.4's own combiner give the same ranges. */
    @Test
    void mergesExactlyAsKafkasCombinerOnRandomBatches() {
        java.util.Random random = new java.util.Random(12);
        byte[] states = {AVAILABLE, ACKNOWLEDGED, ARCHIVED};
        for (int round = 0; round < 2000; round++) {
            List<StateBatch> soFar = new java.util.ArrayList<>();
            List<StateBatch> added = new java.util.ArrayList<>();
            for (List<StateBatch> list : List.of(soFar, added)) {
                int n = random.nextInt(5);
                for (int i = 0; i < n; i++) {
                    long first = random.nextInt(60);
                    list.add(b(first, first + random.nextInt(15), states[random.nextInt(3)], 1 + random.nextInt(3)));
                }
            }
            long start = random.nextInt(4) == 0 ? -1 : random.nextInt(30);
            List<StateBatch> ours = StateBatchCombiner.combine(soFar, added, start);
            List<StateBatch> kafka = new org.apache.kafka.coordinator.share.PersisterStateBatchCombiner(kafka(soFar), kafka(added), start)
                    .combineStateBatches().stream()
                    .map(k -> new StateBatch(k.firstOffset(), k.lastOffset(), k.deliveryState(), k.deliveryCount()))
                    .toList();
            assertThat(ours).as("round %d: %s + %s from %d", round, soFar, added, start).isEqualTo(kafka);
        }
    }

    private static List<org.apache.kafka.server.share.persister.PersisterStateBatch> kafka(List<StateBatch> batches) {
        return batches.stream().map(x -> new org.apache.kafka.server.share.persister.PersisterStateBatch(x.firstOffset(),
                x.lastOffset(), x.deliveryState(), x.deliveryCount())).toList();
    }
}
