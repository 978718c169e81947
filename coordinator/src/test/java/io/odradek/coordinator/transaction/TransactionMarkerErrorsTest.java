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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the coordinator treats each marker answer, as Kafka's TransactionMarkerRequestCompletionHandler does. */
class TransactionMarkerErrorsTest {
    private static final TopicPartition ORDERS_0 = tp("orders", 0);
    private static final TopicPartition ORDERS_1 = tp("orders", 1);

    @TempDir
    Path dir;
    private TransactionFixture f;
    private final Logger shardLog = Logger.getLogger(TransactionShard.class.getName());
    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                logged.add(record.getLevel() + " " + record.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureLog() {
        shardLog.addHandler(capture);
    }

    @AfterEach
    void close() {
        shardLog.removeHandler(capture);
        if (f != null) {
            f.close();
        }
    }

    @Test
    void anUnexpectedMarkerErrorStopsTheSendingWithOneErrorLineAndAReloadCompletesTheTransaction() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0, ORDERS_1);
        f.markers.answerNext(Map.of(ORDERS_0, ErrorCode.UNKNOWN_SERVER_ERROR));

        f.end("tx", p, true);
        f.clock.advance(60_000);

        assertThat(f.markers.calls).hasSize(1); // not retried every 100 ms for ever
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.PREPARE_COMMIT);
        assertThat(logged).hasSize(1);
        assertThat(logged.get(0)).startsWith("SEVERE stopped writing the markers of tx (producer id 0, epoch 0): "
                + "orders-0 answered UNKNOWN_SERVER_ERROR, which is not retriable");

        // What Kafka's next coordinator does: load the prepared transaction and send every marker again.
        f.restart();
        assertThat(f.markers.calls).hasSize(2);
        assertThat(f.markers.last()).isEqualTo(new MarkerCall(0L, (short) 0, 0, true, Set.of(ORDERS_0, ORDERS_1)));
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
    }

    @Test
    void aMessageTooLargeAnswerIsFatalToo() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0);
        f.markers.answerNext(Map.of(ORDERS_0, ErrorCode.MESSAGE_TOO_LARGE));

        f.end("tx", p, false);
        f.clock.advance(60_000);

        assertThat(f.markers.calls).hasSize(1);
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.PREPARE_ABORT);
        assertThat(logged).singleElement().asString().contains("orders-0 answered MESSAGE_TOO_LARGE")
                .contains("stays PrepareAbort");
    }

    @Test
    void markersRetriedForAMinuteAndAHalfAreLoggedTwiceNotAtEveryBackoff() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0, ORDERS_1);
        long backoff = f.config.markerRetryBackoffMs();
        int failing = (int) (90_000 / backoff);
        for (int i = 0; i < failing; i++) {
            f.markers.answerNext(Map.of(ORDERS_1, ErrorCode.NOT_LEADER_OR_FOLLOWER));
        }

        f.end("tx", p, true);
        f.clock.advance(90_000 + backoff);

        assertThat(f.markers.calls).hasSize(failing + 1);
        assertThat(f.markers.last()).isEqualTo(new MarkerCall(0L, (short) 0, 0, true, Set.of(ORDERS_1)));
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(logged).hasSize(2);
        assertThat(logged.get(0)).isEqualTo("WARNING markers of tx not written yet (1 attempt), retrying every "
                + backoff + " ms: {orders-1=NOT_LEADER_OR_FOLLOWER}");
        assertThat(logged.get(1)).startsWith("WARNING markers of tx not written yet (" + (60_000 / backoff + 1) + " attempts)");
    }

    @Test
    void aFencedCoordinatorEpochOnOnePartitionDoesNotKeepTheTransactionPrepared() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0, ORDERS_1);
        f.markers.answerNext(Map.of(ORDERS_0, ErrorCode.TRANSACTION_COORDINATOR_FENCED));

        f.end("tx", p, false);

        assertThat(f.markers.calls).hasSize(1);
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_ABORT);
        assertThat(logged).singleElement().asString().isEqualTo("WARNING the marker of tx (producer id 0, epoch 0, "
                + "coordinator epoch 0) cannot be written to orders-0: TRANSACTION_COORDINATOR_FENCED (it has a newer "
                + "epoch); the transaction completes without it");
        assertThat(f.init("tx")).isEqualTo(new InitProducerIdResult(ErrorCode.NONE, 0L, (short) 1));
    }

    @Test
    void aMarkerWriteNeverAnsweredTimesOutAfterThirtySecondsAndIsRetried() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0);
        f.markers.hold();

        f.end("tx", p, true);
        f.clock.advance(TransactionCoordinatorConfig.defaults().requestTimeoutMs() - 1);
        assertThat(f.markers.calls).hasSize(1);
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.PREPARE_COMMIT);

        f.clock.advance(1 + f.config.markerRetryBackoffMs());

        assertThat(f.markers.calls).hasSize(2);
        assertThat(f.markers.last()).isEqualTo(new MarkerCall(0L, (short) 0, 0, true, Set.of(ORDERS_0)));
        assertThat(logged).containsExactly("WARNING markers of tx not written yet (1 attempt), retrying every "
                + f.config.markerRetryBackoffMs() + " ms: {orders-0=REQUEST_TIMED_OUT}");
        // The late answer of the first write is ignored; the retry's completes the transaction, once.
        f.markers.release();
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        f.clock.advance(TransactionCoordinatorConfig.defaults().requestTimeoutMs());
        assertThat(f.markers.calls).hasSize(2);
        assertThat(f.records("tx")).extracting(r -> r.metadata().state()).containsExactly(TransactionState.EMPTY, TransactionState.ONGOING,
                TransactionState.PREPARE_COMMIT, TransactionState.COMPLETE_COMMIT);
    }
}
