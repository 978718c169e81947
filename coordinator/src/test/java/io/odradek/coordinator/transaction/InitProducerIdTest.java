package io.odradek.coordinator.transaction;

import static io.odradek.coordinator.transaction.TransactionFixture.tp;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionFixture.MarkerCall;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** InitProducerId with a transactional id: epochs, fencing of the previous producer, KIP-360, overflow. */
class InitProducerIdTest {
    private static final TopicPartition ORDERS_0 = tp("orders", 0);

    @TempDir
    Path dir;
    private TransactionFixture f;

    @AfterEach
    void close() {
        if (f != null) {
            f.close();
        }
    }

    private InitProducerIdResult init(String id, long expectedProducerId, int expectedEpoch) {
        return f.coordinator.initProducerId(id, TransactionFixture.TIMEOUT_MS, expectedProducerId, (short) expectedEpoch,
                false, false).join();
    }

    @Test
    void eachInitProducerIdBumpsTheEpochOfTheSameProducerId() {
        f = new TransactionFixture(dir);
        assertThat(f.init("tx")).isEqualTo(new InitProducerIdResult(ErrorCode.NONE, 0L, (short) 0));
        assertThat(f.init("tx")).isEqualTo(new InitProducerIdResult(ErrorCode.NONE, 0L, (short) 1));
        assertThat(f.init("other")).isEqualTo(new InitProducerIdResult(ErrorCode.NONE, 1L, (short) 0));
        TransactionMetadata m = f.state("tx");
        assertThat(m.state()).isEqualTo(TransactionState.EMPTY);
        assertThat(m.timeoutMs()).isEqualTo(TransactionFixture.TIMEOUT_MS);
    }

    @Test
    void aSecondProducerAbortsTheFirstOnesOpenTransactionAndFencesIt() {
        f = new TransactionFixture(dir);
        InitProducerIdResult first = f.init("tx");
        f.add("tx", first, ORDERS_0);

        // The new producer waits while the old transaction is aborted under a bumped epoch.
        assertThat(f.init("tx").error()).isEqualTo(ErrorCode.CONCURRENT_TRANSACTIONS);
        assertThat(f.markers.calls).containsExactly(new MarkerCall(0L, (short) 1, 0, false, Set.of(ORDERS_0)));
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_ABORT);

        InitProducerIdResult second = f.init("tx");
        assertThat(second).isEqualTo(new InitProducerIdResult(ErrorCode.NONE, 0L, (short) 2));
        // The zombie can neither add nor commit.
        assertThat(f.add("tx", first, ORDERS_0)).isEqualTo(ErrorCode.PRODUCER_FENCED);
        assertThat(f.end("tx", first, true).error()).isEqualTo(ErrorCode.PRODUCER_FENCED);
        assertThat(f.coordinator.addOffsets("tx", 0L, (short) 0, "g").join()).isEqualTo(ErrorCode.PRODUCER_FENCED);
        assertThat(f.add("tx", second, ORDERS_0)).isEqualTo(ErrorCode.NONE);
    }

    @Test
    void underProtocolV1TheFenceBumpsTheEpochBeforeTheAbort() {
        f = new TransactionFixture(dir, TransactionFixture.config(Map.of()).withTransactionVersionLevel((short) 0));
        InitProducerIdResult first = f.init("tx");
        f.add("tx", first, ORDERS_0);

        assertThat(f.init("tx").error()).isEqualTo(ErrorCode.CONCURRENT_TRANSACTIONS);

        assertThat(f.markers.calls).containsExactly(new MarkerCall(0L, (short) 1, 0, false, Set.of(ORDERS_0)));
        TransactionMetadata aborted = f.state("tx");
        assertThat(aborted.clientTransactionVersion()).isEqualTo((short) 0);
        assertThat(f.init("tx")).isEqualTo(new InitProducerIdResult(ErrorCode.NONE, 0L, (short) 2));
    }

    @Test
    void aProducerNamingItsCurrentIdAndEpochGetsTheNextEpochAndItsRetryTheSameOne() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");

        assertThat(init("tx", p.producerId(), 0)).isEqualTo(new InitProducerIdResult(ErrorCode.NONE, 0L, (short) 1));
        // The answer was lost; the producer asks again with its old epoch: same answer, no second bump.
        assertThat(init("tx", p.producerId(), 0)).isEqualTo(new InitProducerIdResult(ErrorCode.NONE, 0L, (short) 1));
        assertThat(init("tx", p.producerId(), 7).error()).isEqualTo(ErrorCode.PRODUCER_FENCED);
        assertThat(init("tx", 42L, 0).error()).isEqualTo(ErrorCode.PRODUCER_FENCED);
    }

    @Test
    void anExhaustedEpochMovesToANewProducerIdAndARetryWithTheOldOneIsAccepted() {
        f = new TransactionFixture(dir);
        f.seed("tx", new TransactionMetadata(500L, 500L, -1L, (short) (Short.MAX_VALUE - 1), (short) -1, 60_000,
                TransactionState.COMPLETE_COMMIT, Set.of(), 1L, f.clock.nowMs(), (short) 0));
        f.restart();

        InitProducerIdResult rotated = init("tx", 500L, Short.MAX_VALUE - 1);

        assertThat(rotated.error()).isEqualTo(ErrorCode.NONE);
        assertThat(rotated.producerId()).isNotEqualTo(500L);
        assertThat(rotated.producerEpoch()).isEqualTo((short) 0);
        assertThat(f.state("tx").prevProducerId()).isEqualTo(500L);
        // The rotation's answer was lost: the retry names the previous id with its exhausted epoch.
        assertThat(init("tx", 500L, Short.MAX_VALUE - 1)).isEqualTo(new InitProducerIdResult(ErrorCode.NONE,
                rotated.producerId(), (short) 0));
    }

    @Test
    void aTimeoutAboveTheMaximumIsRefused() {
        f = new TransactionFixture(dir);
        assertThat(f.coordinator.initProducerId("tx", 900_001, -1, (short) -1, false, false).join())
                .isEqualTo(InitProducerIdResult.error(ErrorCode.INVALID_TRANSACTION_TIMEOUT));
        assertThat(f.coordinator.initProducerId("tx", 0, -1, (short) -1, false, false).join().error())
                .isEqualTo(ErrorCode.INVALID_TRANSACTION_TIMEOUT);
        assertThat(f.coordinator.initProducerId("tx", 900_000, -1, (short) -1, false, false).join().error())
                .isEqualTo(ErrorCode.NONE);
    }

    @Test
    void twoPhaseCommitIsRefusedAsKafkaDoesWhenItIsOff() {
        f = new TransactionFixture(dir);
        assertThat(f.coordinator.initProducerId("tx", 60_000, -1, (short) -1, true, false).join().error())
                .isEqualTo(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(f.coordinator.initProducerId("tx", 60_000, -1, (short) -1, false, true).join().error())
                .isEqualTo(ErrorCode.UNSUPPORTED_VERSION);
        assertThat(f.coordinator.initProducerId("", 60_000, -1, (short) -1, false, false).join().error())
                .isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(f.state("tx")).isNull();
    }
}
