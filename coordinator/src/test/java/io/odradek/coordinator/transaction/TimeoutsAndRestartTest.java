package io.odradek.coordinator.transaction;

import static io.odradek.coordinator.transaction.TransactionFixture.tp;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionFixture.MarkerCall;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transaction timeouts, transactional id expiry, and what a restart (a reload of the log) completes. */
class TimeoutsAndRestartTest {
    private static final TopicPartition ORDERS_0 = tp("orders", 0);
    private static final long ABORT_CHECK_MS = 10_000;
    private static final long EXPIRY_CHECK_MS = 3_600_000;
    private static final long EXPIRATION_MS = 604_800_000;

    @TempDir
    Path dir;
    private TransactionFixture f;

    @AfterEach
    void close() {
        if (f != null) {
            f.close();
        }
    }

    @Test
    void aTransactionOlderThanItsTimeoutIsAbortedUnderABumpedEpochAtTheNextCheck() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0);

        f.clock.advance(TransactionFixture.TIMEOUT_MS); // not older than its timeout yet at this check
        assertThat(f.markers.calls).isEmpty();
        f.clock.advance(ABORT_CHECK_MS);

        assertThat(f.markers.calls).containsExactly(new MarkerCall(0L, (short) 1, 0, false, Set.of(ORDERS_0)));
        TransactionMetadata m = f.state("tx");
        assertThat(m.state()).isEqualTo(TransactionState.COMPLETE_ABORT);
        assertThat(m.producerEpoch()).isEqualTo((short) 1);
        assertThat(f.end("tx", p, true).error()).isEqualTo(ErrorCode.PRODUCER_FENCED);
        assertThat(f.add("tx", p, ORDERS_0)).isEqualTo(ErrorCode.PRODUCER_FENCED);
    }

    @Test
    void aTransactionPreparedBeforeARestartIsCompletedAfterIt() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0);
        f.markers.hold(); // the broker stops before any marker is written
        f.end("tx", p, true);
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.PREPARE_COMMIT);

        f.coordinatorEpoch = 3;
        f.restart();
        f.markers.release(); // the old coordinator's answers arrive late: they are ignored

        assertThat(f.markers.calls).containsExactly(new MarkerCall(0L, (short) 0, 0, true, Set.of(ORDERS_0)),
                new MarkerCall(0L, (short) 0, 3, true, Set.of(ORDERS_0)));
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(f.records("tx")).extracting(r -> r.metadata().state()).containsExactly(TransactionState.EMPTY,
                TransactionState.ONGOING, TransactionState.PREPARE_COMMIT, TransactionState.COMPLETE_COMMIT);
    }

    @Test
    void aPreparedAbortFoundAtLoadIsCompletedWhenTheMarkersAnswerAtOnce() {
        f = new TransactionFixture(dir);
        f.seed("tx", new TransactionMetadata(7L, 7L, -1L, (short) 4, (short) -1, 60_000, TransactionState.PREPARE_ABORT,
                Set.of(ORDERS_0), f.clock.nowMs(), f.clock.nowMs(), (short) 0));

        f.restart();

        assertThat(f.markers.calls).containsExactly(new MarkerCall(7L, (short) 4, 0, false, Set.of(ORDERS_0)));
        TransactionMetadata m = f.state("tx");
        assertThat(m.state()).isEqualTo(TransactionState.COMPLETE_ABORT);
        assertThat(m.partitions()).isEmpty();
        assertThat(m.producerEpoch()).isEqualTo((short) 4);
    }

    @Test
    void anOpenTransactionKeepsItsTimeoutAcrossARestart() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0);
        f.clock.advance(30_000);

        f.restart();
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.ONGOING);
        f.clock.advance(30_000 + ABORT_CHECK_MS);

        assertThat(f.markers.calls).containsExactly(new MarkerCall(0L, (short) 1, 0, false, Set.of(ORDERS_0)));
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_ABORT);
    }

    @Test
    void anIdleTransactionalIdExpiresWithATombstoneThatSurvivesARestart() {
        f = new TransactionFixture(dir);
        InitProducerIdResult idle = f.init("idle");
        f.add("idle", idle, ORDERS_0);
        f.end("idle", idle, true);
        f.init("fresh");

        f.clock.advance(EXPIRATION_MS - EXPIRY_CHECK_MS);
        f.init("fresh"); // used again: its expiry starts over
        f.clock.advance(2 * EXPIRY_CHECK_MS);

        assertThat(f.state("idle")).isNull();
        assertThat(f.records("idle")).last().isEqualTo(new TransactionRecord("idle", null));
        assertThat(f.coordinator.describeTransactions(List.of("idle")).join())
                .containsExactly(TransactionDescription.error("idle", ErrorCode.TRANSACTIONAL_ID_NOT_FOUND));
        assertThat(f.state("fresh")).isNotNull();

        f.restart();
        assertThat(f.state("idle")).isNull();
        // A new producer with the id starts from a new producer id.
        InitProducerIdResult again = f.init("idle");
        assertThat(again.error()).isEqualTo(ErrorCode.NONE);
        assertThat(again.producerId()).isNotEqualTo(idle.producerId());
        assertThat(again.producerEpoch()).isEqualTo((short) 0);
    }

    @Test
    void anOpenTransactionIsNeverExpired() {
        f = new TransactionFixture(dir, TransactionFixture.config(java.util.Map.of("transactional.id.expiration.ms", "1000",
                "transaction.remove.expired.transaction.cleanup.interval.ms", "1000")));
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0);

        f.clock.advance(5_000);

        assertThat(f.state("tx").state()).isEqualTo(TransactionState.ONGOING);
    }
}
