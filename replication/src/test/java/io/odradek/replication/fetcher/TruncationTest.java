package io.odradek.replication.fetcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.EpochEndOffset;
import org.junit.jupiter.api.Test;

/** Kafka's follower truncation rules for a DivergingEpoch answer. */
class TruncationTest {
    private static final long REPLICA_END = 20;
    private static final long HWM = 8;

    @Test
    void bothKnowTheEpochTruncatesToTheEarlierOfTheTwoEnds() {
        assertThat(Truncation.offsetFor(new EpochEndOffset(4, 12), new EpochEndOffset(4, 15), REPLICA_END, HWM))
                .isEqualTo(12L);
        assertThat(Truncation.offsetFor(new EpochEndOffset(4, 15), new EpochEndOffset(4, 12), REPLICA_END, HWM))
                .isEqualTo(12L);
    }

    @Test
    void aFollowerWithoutTheLeadersEpochCutsBackToItsLargestEpochBelowIt() {
        // The leader answers epoch 4 ending at 12; we only had epoch 2 up to 10 before our epoch 5.
        assertThat(Truncation.offsetFor(new EpochEndOffset(4, 12), new EpochEndOffset(2, 10), REPLICA_END, HWM))
                .isEqualTo(10L);
    }

    @Test
    void aFollowerWithNoEpochsTakesTheLeadersEnd() {
        assertThat(Truncation.offsetFor(new EpochEndOffset(4, 12), EpochEndOffset.UNDEFINED, REPLICA_END, HWM))
                .isEqualTo(12L);
    }

    @Test
    void aLeaderWithoutTheEpochLeavesOnlyTheCommittedPart() {
        assertThat(Truncation.offsetFor(EpochEndOffset.UNDEFINED, new EpochEndOffset(4, 15), REPLICA_END, HWM))
                .isEqualTo(HWM);
    }

    @Test
    void neverPastTheFollowersOwnLogEnd() {
        assertThat(Truncation.offsetFor(new EpochEndOffset(4, 30), new EpochEndOffset(4, 30), REPLICA_END, HWM))
                .isEqualTo(REPLICA_END);
    }
}
