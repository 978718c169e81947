package io.odradek.coordinator.transaction;

import static io.odradek.coordinator.transaction.TransactionFixture.tp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.runtime.CoordinatorLoader;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.coordinator.runtime.RecordSerde;
import io.odradek.coordinator.transaction.TransactionFixture.MarkerCall;
import io.odradek.wire.ErrorCode;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.coordinator.transaction.TransactionLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transaction protocol v1 (KIP-98): a transaction from InitProducerId to its markers and completion. */
class TransactionLifecycleTest {
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

    @Test
    void aCommitWritesCommitMarkersToEveryPartitionAndTheGroupsOffsetsPartitionThenCompletes() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        assertThat(p).isEqualTo(new InitProducerIdResult(ErrorCode.NONE, 0L, (short) 0));

        assertThat(f.add("tx", p, ORDERS_0, ORDERS_1)).isEqualTo(ErrorCode.NONE);
        assertThat(f.coordinator.addOffsets("tx", p.producerId(), p.producerEpoch(), "my-group").join()).isEqualTo(ErrorCode.NONE);
        TopicPartition offsets = tp(OffsetsTopic.NAME, Math.abs("my-group".hashCode()) % 50);
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.ONGOING);
        assertThat(f.state("tx").partitions()).containsExactlyInAnyOrder(ORDERS_0, ORDERS_1, offsets);

        assertThat(f.end("tx", p, true)).isEqualTo(new EndTxnResult(ErrorCode.NONE, 0L, (short) 0));

        assertThat(f.markers.calls).containsExactly(new MarkerCall(0L, (short) 0, 0, true, Set.of(ORDERS_0, ORDERS_1, offsets)));
        TransactionMetadata done = f.state("tx");
        assertThat(done.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(done.partitions()).isEmpty();
        assertThat(done.producerEpoch()).isEqualTo((short) 0);
        // What __transaction_state holds, in Kafka's record format, step by step.
        assertThat(f.records("tx")).extracting(r -> r.metadata().state()).containsExactly(TransactionState.EMPTY,
                TransactionState.ONGOING, TransactionState.ONGOING, TransactionState.PREPARE_COMMIT, TransactionState.COMPLETE_COMMIT);
    }

    @Test
    void kafkasOwnTransactionLogReaderReadsEveryRecordWritten() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0, ORDERS_1);
        f.end("tx", p, true);

        List<String> read = new ArrayList<>();
        CoordinatorLoader.replay(new PartitionLogCoordinatorLog(f.logs.get(f.coordinator.partitionFor("tx"))),
                new RawSerde(), raw -> {
                    TransactionLog.ReadResult r = TransactionLog.read(ByteBuffer.wrap(raw[0]), ByteBuffer.wrap(raw[1]));
                    org.apache.kafka.coordinator.transaction.TransactionMetadata m = ((TransactionLog.TxnRecord) r).metadata();
                    read.add(m.transactionalId() + " " + m.producerId() + "/" + m.producerEpoch() + " " + m.state().stateName()
                            + " " + new TreeSet<>(m.topicPartitions().stream().map(Object::toString).toList()));
                }, "test");

        assertThat(read).containsExactly("tx 0/0 Empty []", "tx 0/0 Ongoing [orders-0, orders-1]",
                "tx 0/0 PrepareCommit [orders-0, orders-1]", "tx 0/0 CompleteCommit []");
    }

    /** The stored key and value bytes, for Kafka's own reader. */
    private static final class RawSerde implements RecordSerde<byte[][]> {
        @Override
        public byte[] key(byte[][] record) {
            return record[0];
        }

        @Override
        public byte[] value(byte[][] record) {
            return record[1];
        }

        @Override
        public byte[][] decode(byte[] key, byte[] value) {
            return new byte[][] {key, value};
        }
    }

    @Test
    void anAbortWritesAbortMarkersAndTheNextTransactionStartsClean() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0);

        assertThat(f.end("tx", p, false).error()).isEqualTo(ErrorCode.NONE);

        assertThat(f.markers.calls).containsExactly(new MarkerCall(0L, (short) 0, 0, false, Set.of(ORDERS_0)));
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_ABORT);
        f.clock.advance(5);
        assertThat(f.add("tx", p, ORDERS_1)).isEqualTo(ErrorCode.NONE);
        TransactionMetadata next = f.state("tx");
        assertThat(next.partitions()).containsExactly(ORDERS_1);
        assertThat(next.startTimestampMs()).isEqualTo(f.clock.nowMs());
    }

    @Test
    void endTxnIsAnsweredBeforeTheMarkersAndOtherRequestsWaitWithConcurrentTransactions() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0);
        f.markers.hold();

        assertThat(f.end("tx", p, true).error()).isEqualTo(ErrorCode.NONE);

        assertThat(f.state("tx").state()).isEqualTo(TransactionState.PREPARE_COMMIT);
        assertThat(f.init("tx").error()).isEqualTo(ErrorCode.CONCURRENT_TRANSACTIONS);
        assertThat(f.add("tx", p, ORDERS_1)).isEqualTo(ErrorCode.CONCURRENT_TRANSACTIONS);
        assertThat(f.end("tx", p, true).error()).isEqualTo(ErrorCode.CONCURRENT_TRANSACTIONS);
        assertThat(f.end("tx", p, false).error()).isEqualTo(ErrorCode.CONCURRENT_TRANSACTIONS);

        f.markers.release();
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(f.init("tx")).isEqualTo(new InitProducerIdResult(ErrorCode.NONE, 0L, (short) 1));
    }

    @Test
    void partitionsWhoseMarkerFailedRetriablyAreRetriedAloneAfterTheBackoff() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0, ORDERS_1);
        f.markers.answerNext(Map.of(ORDERS_1, ErrorCode.NOT_LEADER_OR_FOLLOWER));

        f.end("tx", p, true);

        assertThat(f.markers.calls).hasSize(1);
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.PREPARE_COMMIT);
        // Describe shows the partitions still waiting for their marker, as Kafka's does.
        TransactionDescription waiting = f.coordinator.describeTransactions(List.of("tx")).join().get(0);
        assertThat(waiting.state()).isEqualTo("PrepareCommit");
        assertThat(waiting.topics()).isEqualTo(Map.of("orders", List.of(1)));
        f.clock.advance(f.config.markerRetryBackoffMs());
        assertThat(f.markers.calls).hasSize(2);
        assertThat(f.markers.last()).isEqualTo(new MarkerCall(0L, (short) 0, 0, true, Set.of(ORDERS_1)));
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
    }

    @Test
    void aPartitionWithANewerProducerEpochIsLeftWithoutItsMarkerAndTheTransactionCompletes() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0, ORDERS_1);
        f.markers.answerNext(Map.of(ORDERS_0, ErrorCode.INVALID_PRODUCER_EPOCH, ORDERS_1, ErrorCode.NOT_LEADER_OR_FOLLOWER));

        f.end("tx", p, true);
        f.clock.advance(f.config.markerRetryBackoffMs());

        // Kafka stops and waits for another coordinator, which one node never has: the stale partition is
        // dropped, the retriable one retried alone, and the transaction completes.
        assertThat(f.markers.calls).hasSize(2);
        assertThat(f.markers.last()).isEqualTo(new MarkerCall(0L, (short) 0, 0, true, Set.of(ORDERS_1)));
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(f.init("tx")).isEqualTo(new InitProducerIdResult(ErrorCode.NONE, 0L, (short) 1));
    }

    @Test
    void aRetriedEndTxnAfterCompletionIsAnsweredAsDoneAndTheOppositeOneIsAnInvalidTransition() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0);
        f.end("tx", p, true);

        assertThat(f.end("tx", p, true)).isEqualTo(new EndTxnResult(ErrorCode.NONE, 0L, (short) 0));
        assertThat(f.end("tx", p, false).error()).isEqualTo(ErrorCode.INVALID_TXN_STATE);
        assertThat(f.markers.calls).hasSize(1);
    }

    @Test
    void endTxnWithNoTransactionOpenIsAnInvalidTransition() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");

        assertThat(f.end("tx", p, true).error()).isEqualTo(ErrorCode.INVALID_TXN_STATE);
        assertThat(f.end("tx", p, false).error()).isEqualTo(ErrorCode.INVALID_TXN_STATE);
    }

    @Test
    void requestsWithAnUnknownIdOrAnotherProducerIdGetInvalidProducerIdMapping() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        InitProducerIdResult other = new InitProducerIdResult(ErrorCode.NONE, 999L, (short) 0);

        assertThat(f.add("unknown", p, ORDERS_0)).isEqualTo(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
        assertThat(f.add("tx", other, ORDERS_0)).isEqualTo(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
        assertThat(f.end("tx", other, true).error()).isEqualTo(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
        assertThat(f.coordinator.addOffsets("unknown", 0L, (short) 0, "g").join()).isEqualTo(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
        assertThat(f.add("", p, ORDERS_0)).isEqualTo(ErrorCode.INVALID_REQUEST);
    }

    @Test
    void verifyOnlyAnswersNoneForTheTransactionsPartitionsAndAbortableForOthers() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0);

        assertThat(f.coordinator.verify("tx", 0L, (short) 0, List.of(ORDERS_0, ORDERS_1), false).join())
                .containsExactly(Map.entry(ORDERS_0, ErrorCode.NONE), Map.entry(ORDERS_1, ErrorCode.TRANSACTION_ABORTABLE));
        assertThat(f.coordinator.verify("tx", 0L, (short) 1, List.of(ORDERS_0), false).join())
                .containsExactly(Map.entry(ORDERS_0, ErrorCode.PRODUCER_FENCED));
        assertThat(f.coordinator.verify("nope", 0L, (short) 0, List.of(ORDERS_0), false).join())
                .containsExactly(Map.entry(ORDERS_0, ErrorCode.INVALID_PRODUCER_ID_MAPPING));
        // Verification never adds.
        assertThat(f.state("tx").partitions()).containsExactly(ORDERS_0);
    }

    @Test
    void addingPartitionsAlreadyInTheTransactionWritesNothing() {
        f = new TransactionFixture(dir);
        InitProducerIdResult p = f.init("tx");
        f.add("tx", p, ORDERS_0);
        int records = f.records("tx").size();

        assertThat(f.add("tx", p, ORDERS_0)).isEqualTo(ErrorCode.NONE);
        assertThat(f.records("tx")).hasSize(records);
    }

    @Test
    void aPartitionNotLedHereAnswersNotCoordinatorAndALoadingOneLoadInProgress() {
        f = new TransactionFixture(dir);
        int partition = f.coordinator.partitionFor("tx");
        f.coordinator.onResignation(partition).join();

        assertThat(f.init("tx").error()).isEqualTo(ErrorCode.NOT_COORDINATOR);
        assertThat(f.coordinator.describeTransactions(List.of("tx")).join().get(0).error()).isEqualTo(ErrorCode.NOT_COORDINATOR);

        f.clock.hold();
        CompletableFuture<Void> loading = f.coordinator.onElection(partition, 0);
        assertThat(f.coordinator.initProducerId("tx", 60_000, -1, (short) -1, false, false).join().error())
                .isEqualTo(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
        assertThat(f.coordinator.listTransactions(Set.of(), Set.of(), -1, null).join().error())
                .isEqualTo(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
        f.clock.release();
        loading.join();
        assertThat(f.init("tx").error()).isEqualTo(ErrorCode.NONE);
    }

    @Test
    void aPartitionLedAgainUnderANewerLeaderEpochWritesItsMarkersWithThatEpoch() {
        f = new TransactionFixture(dir);
        int partition = f.coordinator.partitionFor("tx");
        f.coordinator.onResignation(partition).join();
        f.coordinator.onElection(partition, 5).join();
        InitProducerIdResult producer = f.init("tx");
        assertThat(f.add("tx", producer, tp("orders", 0))).isEqualTo(ErrorCode.NONE);

        // Elected again with a newer epoch and no resignation seen between: the state is read back under it.
        f.coordinator.onElection(partition, 7).join();
        f.clock.advance(0);
        assertThat(f.end("tx", producer, true).error()).isEqualTo(ErrorCode.NONE);
        f.clock.advance(0);

        assertThat(f.markers.calls).extracting(MarkerCall::coordinatorEpoch, MarkerCall::partitions)
                .containsExactly(tuple(7, Set.of(tp("orders", 0))));
        assertThat(f.state("tx").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
    }
}
