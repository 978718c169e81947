package io.odradek.coordinator.transaction;

import static io.odradek.coordinator.transaction.TransactionFixture.tp;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionFixture.MarkerCall;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transaction protocol v2 (KIP-890): partitions added by the partition leader on produce, the epoch bumped
 * by every EndTxn and returned to the producer, retries recognised by that epoch.
 */
class TransactionV2Test {
    private static final TopicPartition ORDERS_0 = tp("orders", 0);
    private static final TopicPartition ORDERS_1 = tp("orders", 1);

    @TempDir
    Path dir;
    private TransactionFixture f;

    @AfterEach
    void close() {
        if (f != null) {
            f.close();
        }
    }

    private Map<TopicPartition, ErrorCode> produce(String id, long producerId, int epoch, TopicPartition... partitions) {
        return f.coordinator.verify(id, producerId, (short) epoch, List.of(partitions), true).join();
    }

    private EndTxnResult end(String id, long producerId, int epoch, boolean commit) {
        return f.coordinator.endTransaction(id, producerId, (short) epoch, commit, true).join();
    }

    @Test
    void everyEndTxnBumpsTheEpochAndTheMarkersCarryTheBumpedOne() {
        f = new TransactionFixture(dir);
        f.init("tx");

        assertThat(produce("tx", 0L, 0, ORDERS_0, ORDERS_1)).containsExactly(Map.entry(ORDERS_0, ErrorCode.NONE),
                Map.entry(ORDERS_1, ErrorCode.NONE));
        assertThat(f.state("tx").clientTransactionVersion()).isEqualTo((short) 2);
        assertThat(end("tx", 0L, 0, true)).isEqualTo(new EndTxnResult(ErrorCode.NONE, 0L, (short) 1));
        assertThat(f.markers.last()).isEqualTo(new MarkerCall(0L, (short) 1, 0, true, Set.of(ORDERS_0, ORDERS_1)));

        produce("tx", 0L, 1, ORDERS_0);
        assertThat(end("tx", 0L, 1, false)).isEqualTo(new EndTxnResult(ErrorCode.NONE, 0L, (short) 2));
        assertThat(f.markers.last()).isEqualTo(new MarkerCall(0L, (short) 2, 0, false, Set.of(ORDERS_0)));
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_ABORT);
        // The old epoch is fenced now.
        assertThat(produce("tx", 0L, 1, ORDERS_0)).containsExactly(Map.entry(ORDERS_0, ErrorCode.PRODUCER_FENCED));
    }

    @Test
    void aRetriedEndTxnIsRecognisedByTheBumpedEpochAndAnsweredWithoutNewMarkers() {
        f = new TransactionFixture(dir);
        f.init("tx");
        produce("tx", 0L, 0, ORDERS_0);
        end("tx", 0L, 0, true);

        assertThat(end("tx", 0L, 0, true)).isEqualTo(new EndTxnResult(ErrorCode.NONE, 0L, (short) 1));
        assertThat(end("tx", 0L, 0, false).error()).isEqualTo(ErrorCode.INVALID_TXN_STATE);
        assertThat(f.markers.calls).hasSize(1);
        // An epoch older than the retry's is fenced.
        produce("tx", 0L, 1, ORDERS_0);
        end("tx", 0L, 1, true);
        assertThat(end("tx", 0L, 0, true).error()).isEqualTo(ErrorCode.PRODUCER_FENCED);
    }

    @Test
    void anAbortWithNoTransactionOpenIsAllowedAndBumpsTheEpoch() {
        f = new TransactionFixture(dir);
        f.init("tx");

        assertThat(end("tx", 0L, 0, false)).isEqualTo(new EndTxnResult(ErrorCode.NONE, 0L, (short) 1));
        assertThat(f.markers.calls).isEmpty(); // no partition to mark
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_ABORT);
        assertThat(end("tx", 0L, 1, true).error()).isEqualTo(ErrorCode.INVALID_TXN_STATE);
    }

    @Test
    void anEpochOverflowMovesTheProducerToANewIdWhenTheTransactionCompletes() {
        f = new TransactionFixture(dir);
        short last = (short) (Short.MAX_VALUE - 1);
        f.seed("tx", new TransactionMetadata(500L, 499L, -1L, last, (short) -1, 60_000, TransactionState.ONGOING,
                Set.of(ORDERS_0), f.clock.nowMs(), f.clock.nowMs(), (short) 2));
        f.restart();

        EndTxnResult committed = end("tx", 500L, last, true);

        assertThat(committed.error()).isEqualTo(ErrorCode.NONE);
        assertThat(committed.producerId()).isNotEqualTo(500L);
        assertThat(committed.producerEpoch()).isEqualTo((short) 0);
        // The markers go out under the old id with its last epoch.
        assertThat(f.markers.last()).isEqualTo(new MarkerCall(500L, Short.MAX_VALUE, 0, true, Set.of(ORDERS_0)));
        TransactionMetadata m = f.state("tx");
        assertThat(m.producerId()).isEqualTo(committed.producerId());
        assertThat(m.prevProducerId()).isEqualTo(500L);
        // The retry names the old id and epoch.
        assertThat(end("tx", 500L, last, true)).isEqualTo(committed);
        assertThat(produce("tx", committed.producerId(), 0, ORDERS_1)).containsExactly(Map.entry(ORDERS_1, ErrorCode.NONE));
    }

    @Test
    void theTimeoutAbortOfAV2TransactionBumpsTheEpochOnce() {
        f = new TransactionFixture(dir);
        f.init("tx");
        produce("tx", 0L, 0, ORDERS_0);

        f.clock.advance(TransactionFixture.TIMEOUT_MS + f.config.abortTimedOutTransactionsIntervalMs());

        assertThat(f.markers.calls).containsExactly(new MarkerCall(0L, (short) 1, 0, false, Set.of(ORDERS_0)));
        assertThat(produce("tx", 0L, 0, ORDERS_0)).containsExactly(Map.entry(ORDERS_0, ErrorCode.PRODUCER_FENCED));
        // The commit in flight when the coordinator aborted looks like a retry (the epoch bumped by one): it is
        // fenced, which the producer recovers from, not INVALID_TXN_STATE, which is fatal (KAFKA-20785).
        assertThat(end("tx", 0L, 0, true).error()).isEqualTo(ErrorCode.PRODUCER_FENCED);
        // The abort's retry is still answered as done, and a commit at the current epoch is an invalid transition.
        assertThat(end("tx", 0L, 0, false)).isEqualTo(new EndTxnResult(ErrorCode.NONE, 0L, (short) 1));
        assertThat(end("tx", 0L, 1, true).error()).isEqualTo(ErrorCode.INVALID_TXN_STATE);
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_ABORT);
    }

    @Test
    void aCommitRacingATimeoutAbortThatMovedTheProducerToANewIdIsFenced() {
        f = new TransactionFixture(dir);
        short last = (short) (Short.MAX_VALUE - 1);
        f.seed("tx", new TransactionMetadata(500L, 499L, -1L, last, (short) -1, 60_000, TransactionState.ONGOING,
                Set.of(ORDERS_0), f.clock.nowMs(), f.clock.nowMs(), (short) 2));
        f.restart();

        f.clock.advance(60_000 + f.config.abortTimedOutTransactionsIntervalMs());

        assertThat(f.markers.last()).isEqualTo(new MarkerCall(500L, Short.MAX_VALUE, 0, false, Set.of(ORDERS_0)));
        TransactionMetadata aborted = f.state("tx");
        assertThat(aborted.state()).isEqualTo(TransactionState.COMPLETE_ABORT);
        assertThat(aborted.prevProducerId()).isEqualTo(500L);
        assertThat(aborted.producerEpoch()).isZero();
        // The commit names the old id and its last epoch: the overflow variant of a retry, fenced.
        assertThat(end("tx", 500L, last, true).error()).isEqualTo(ErrorCode.PRODUCER_FENCED);
        assertThat(end("tx", 500L, last, false)).isEqualTo(new EndTxnResult(ErrorCode.NONE, aborted.producerId(), (short) 0));
    }
}
