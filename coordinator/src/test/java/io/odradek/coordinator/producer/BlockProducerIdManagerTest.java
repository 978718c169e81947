package io.odradek.coordinator.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.coordinator.runtime.CoordinatorErrors;
import io.odradek.wire.ErrorCode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Producer ids from blocks the controller hands out (here a hand-driven source). */
class BlockProducerIdManagerTest {
    /** Block requests the test answers by hand, in order. */
    private final ArrayDeque<CompletableFuture<Long>> requests = new ArrayDeque<>();

    private BlockProducerIdManager manager(int blockSize) {
        return new BlockProducerIdManager(() -> {
            CompletableFuture<Long> block = new CompletableFuture<>();
            requests.add(block);
            return block;
        }, blockSize);
    }

    @Test
    void theFirstCallerWaitsForTheFirstBlockThenIdsComeFromIt() {
        try (BlockProducerIdManager ids = manager(10)) {
            CompletableFuture<Long> first = ids.nextProducerId();
            assertThat(first).isNotDone();
            assertThat(requests).hasSize(1);

            requests.poll().complete(5000L);

            assertThat(first).isCompletedWithValue(5000L);
            assertThat(ids.nextProducerId()).isCompletedWithValue(5001L);
            assertThat(requests).isEmpty();
        }
    }

    @Test
    void theNextBlockIsAskedForAtNinetyPercentSoTheSwitchDoesNotWait() {
        try (BlockProducerIdManager ids = manager(10)) {
            ids.nextProducerId();
            requests.poll().complete(100L); // 100 handed out
            List<Long> got = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                got.add(ids.nextProducerId().join()); // 101..107: 8 of 10 used
            }
            assertThat(requests).isEmpty();
            got.add(ids.nextProducerId().join()); // 108: 9 of 10 used, the next block is asked for
            assertThat(requests).hasSize(1);
            requests.poll().complete(500L);
            got.add(ids.nextProducerId().join());

            assertThat(got).containsExactly(101L, 102L, 103L, 104L, 105L, 106L, 107L, 108L, 109L);
            assertThat(ids.nextProducerId()).isCompletedWithValue(500L); // no wait at the switch
            assertThat(requests).isEmpty(); // 1 of 10 used
        }
    }

    @Test
    void withoutABlockCallersGetCoordinatorLoadInProgressAndTheNextCallAsksAgain() {
        try (BlockProducerIdManager ids = manager(10)) {
            CompletableFuture<Long> waiting = ids.nextProducerId();
            requests.poll().completeExceptionally(new IllegalStateException("STALE_BROKER_EPOCH"));

            assertThatThrownBy(waiting::join).satisfies(e ->
                    assertThat(CoordinatorErrors.of(e)).isEqualTo(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS));
            CompletableFuture<Long> again = ids.nextProducerId();
            assertThat(requests).hasSize(1);
            requests.poll().complete(20L);
            assertThat(again).isCompletedWithValue(20L);
        }
    }

    @Test
    void closingFailsWhoeverStillWaits() {
        BlockProducerIdManager ids = manager(10);
        CompletableFuture<Long> waiting = ids.nextProducerId();
        ids.close();
        assertThat(waiting).isCompletedExceptionally();
        assertThat(ids.nextProducerId()).isCompletedExceptionally();
    }
}
