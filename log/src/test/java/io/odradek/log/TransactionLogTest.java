package io.odradek.log;

import static io.odradek.log.Batches.idempotent;
import static io.odradek.log.Batches.transactional;
import static io.odradek.log.LogFixture.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.producer.ActiveProducer;
import io.odradek.log.producer.VerificationGuard;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.log.txn.TransactionIndex;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.EndTxnMarker;
import io.odradek.wire.batch.RecordBatchBuilder;
import io.odradek.wire.batch.RecordBatchHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transactions in one partition's log: open/commit/abort, the first unstable offset, the aborted list, markers. */
class TransactionLogTest {
    private static final long P1 = 1000L;
    private static final long P2 = 2000L;
    private static final short EPOCH = 3;
    private static final long NOW = 1_000_000L;
    /** Each append rolls: a segment holds one batch. */
    private static final Map<String, String> ONE_BATCH_PER_SEGMENT = Map.of(LogConfig.SEGMENT_BYTES, "61");

    @TempDir
    Path logDir;

    private final LogFixture.ManualClock clock = new LogFixture.ManualClock(NOW);

    private PartitionLog open() {
        return open(Map.of());
    }

    private PartitionLog open(Map<String, String> overrides) {
        return PartitionLog.open(logDir, "t", 0, config(overrides), PartitionLog.Options.defaults().withClock(clock));
    }

    private static AppendResult commit(PartitionLog log, long pid) {
        return log.appendMarker(pid, EPOCH, 0, true, 0);
    }

    private static AppendResult abort(PartitionLog log, long pid) {
        return log.appendMarker(pid, EPOCH, 0, false, 0);
    }

    /** "offset:value" of each data record read_committed sees from {@code offset}; markers as "offset:COMMIT/ABORT". */
    private static List<String> readCommitted(PartitionLog log, long offset) throws IOException {
        ByteBuffer read = LogFixture.readSlice(log.read(offset, 1 << 20, Long.MAX_VALUE, true));
        List<String> out = new ArrayList<>();
        for (RecordBatch batch : MemoryRecords.readableRecords(read).batches()) {
            batch.ensureValid();
            for (Record r : batch) {
                out.add(r.offset() + ":" + (batch.isControlBatch() ? ControlRecordType.parse(r.key()).name()
                        : StandardCharsets.UTF_8.decode(r.value()).toString()));
            }
        }
        return out;
    }

    @Test
    void twoInterleavedTransactionsMoveTheFirstUnstableOffsetAsEachEnds() throws IOException {
        try (PartitionLog log = open()) {
            assertThat(log.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);
            log.append(transactional(P1, EPOCH, 0, NOW, "a0", "a1"), 0); // 0-1
            assertThat(log.firstUnstableOffset()).isEqualTo(0L);
            log.append(transactional(P2, EPOCH, 0, NOW, "b0"), 0); // 2
            log.append(transactional(P1, EPOCH, 2, NOW, "a2"), 0); // 3
            assertThat(log.firstUnstableOffset()).isEqualTo(0L);
            assertThat(readCommitted(log, 0)).isEmpty();

            assertThat(commit(log, P1).baseOffset()).isEqualTo(4L);
            assertThat(log.firstUnstableOffset()).isEqualTo(2L);
            // read_committed stops before P2's open transaction: P1's first batch only
            assertThat(readCommitted(log, 0)).containsExactly("0:a0", "1:a1");

            assertThat(abort(log, P2).baseOffset()).isEqualTo(5L);
            assertThat(log.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);
            assertThat(readCommitted(log, 0)).containsExactly("0:a0", "1:a1", "2:b0", "3:a2", "4:COMMIT", "5:ABORT");
            // the abort leaves no transaction open: the LSO it recorded is the offset after its marker
            assertThat(log.abortedTransactions(0, 6)).containsExactly(new AbortedTxn(P2, 2, 5, 6));
        }
    }

    @Test
    void withAReportedHighWatermarkADecidedTransactionStaysUnstableUntilItsMarkerIsBelowIt() throws IOException {
        try (PartitionLog log = open()) {
            log.updateHighWatermark(0L); // a partition with followers reports its high watermark
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0); // 0
            commit(log, P1); // 1
            log.updateHighWatermark(1L);
            assertThat(log.firstUnstableOffset()).isZero();
            assertThat(readCommitted(log, 0)).isEmpty();
            log.updateHighWatermark(2L);
            assertThat(log.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);
            assertThat(readCommitted(log, 0)).containsExactly("0:a0", "1:COMMIT");
            log.updateHighWatermark(Long.MAX_VALUE); // alone again: every append is committed at once
            log.append(transactional(P1, EPOCH, 1, NOW, "a1"), 0); // 2
            commit(log, P1); // 3
            assertThat(log.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);
        }
    }

    @Test
    void anAbortWhileAnotherTransactionIsOpenRecordsThatTransactionsStartAsItsLastStableOffset() {
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0); // 0
            log.append(transactional(P2, EPOCH, 0, NOW, "b0"), 0); // 1
            abort(log, P2); // 2
            assertThat(log.firstUnstableOffset()).isEqualTo(0L);
            abort(log, P1); // 3
            assertThat(log.abortedTransactions(0, 4)).containsExactly(
                    new AbortedTxn(P2, 1, 2, 0), new AbortedTxn(P1, 0, 3, 4));
        }
    }

    @Test
    void theAbortedListHoldsTheTransactionsOverlappingTheFetchRange() {
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0", "a1"), 0); // 0-1
            abort(log, P1); // 2
            log.append(idempotent(P2, EPOCH, 0, NOW, "plain"), 0); // 3
            log.append(transactional(P1, EPOCH, 2, NOW, "a2"), 0); // 4
            abort(log, P1); // 5
            log.append(transactional(P1, EPOCH, 3, NOW, "a3"), 0); // 6
            commit(log, P1); // 7
            AbortedTxn first = new AbortedTxn(P1, 0, 2, 3);
            AbortedTxn second = new AbortedTxn(P1, 4, 5, 6);

            assertThat(log.abortedTransactions(0, 8)).containsExactly(first, second);
            assertThat(log.abortedTransactions(0, 1)).containsExactly(first);
            assertThat(log.abortedTransactions(2, 4)).containsExactly(first);
            // a fetch from 3 does not need the first (its marker is behind it), nor past the range's end
            assertThat(log.abortedTransactions(3, 4)).isEmpty();
            assertThat(log.abortedTransactions(3, 5)).containsExactly(second);
            assertThat(log.abortedTransactions(6, 8)).isEmpty();
        }
    }

    @Test
    void aTransactionSpanningSegmentsIsFoundFromTheSegmentHoldingTheFetchOffset() throws IOException {
        try (PartitionLog log = open(ONE_BATCH_PER_SEGMENT)) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a00"), 0); // 0
            log.append(transactional(P2, EPOCH, 0, NOW, "b00"), 0); // 1
            log.append(transactional(P1, EPOCH, 1, NOW, "a01"), 0); // 2
            commit(log, P2); // 3
            log.append(transactional(P1, EPOCH, 2, NOW, "a02"), 0); // 4
            abort(log, P1); // 5
            assertThat(log.segmentBaseOffsets()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);

            AbortedTxn aborted = new AbortedTxn(P1, 0, 5, 6);
            assertThat(log.abortedTransactions(0, 2)).containsExactly(aborted);
            assertThat(log.abortedTransactions(1, 3)).containsExactly(aborted);
            assertThat(log.abortedTransactions(4, 6)).containsExactly(aborted);
            // only the segment of the abort marker has an index file: Kafka creates it with its first entry
            assertThat(txnIndexFiles()).containsExactly("00000000000000000005.txnindex");
        }
    }

    @Test
    void theTxnIndexIsWhatKafkasTransactionIndexReads() throws IOException {
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0); // 0
            log.append(transactional(P2, EPOCH, 0, NOW, "b0", "b1"), 0); // 1-2
            abort(log, P1); // 3
            abort(log, P2); // 4
        }
        Path file = logDir.resolve("t-0/00000000000000000000.txnindex");
        assertThat(Files.size(file)).isEqualTo(2 * 34);
        try (org.apache.kafka.storage.internals.log.TransactionIndex kafka =
                     new org.apache.kafka.storage.internals.log.TransactionIndex(0L, file.toFile())) {
            kafka.sanityCheck();
            assertThat(kafka.allAbortedTxns()).extracting(t -> List.of(t.producerId(), t.firstOffset(),
                    t.lastOffset(), t.lastStableOffset())).containsExactly(List.of(P1, 0L, 3L, 1L), List.of(P2, 1L, 4L, 5L));
            var search = kafka.collectAbortedTxns(4L, 5L);
            assertThat(search.abortedTransactions()).extracting(t -> t.producerId()).containsExactly(P2);
            assertThat(search.isComplete()).isTrue();
        }
        // and the bytes, field by field
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
        assertThat(bytes.getShort()).isZero();
        assertThat(List.of(bytes.getLong(), bytes.getLong(), bytes.getLong(), bytes.getLong()))
                .containsExactly(P1, 0L, 3L, 1L);
    }

    @Test
    void anOpenTransactionSurvivesACleanRestartThroughTheProducerSnapshot() throws IOException {
        try (PartitionLog log = open()) {
            log.append(idempotent(P2, EPOCH, 0, NOW, "plain"), 0); // 0
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0); // 1
            log.append(transactional(P2 + 1, EPOCH, 0, NOW, "c0"), 0); // 2
            log.appendMarker(P2 + 1, EPOCH, 7, false, 0); // 3
        }
        // Kafka's own reader sees the open transaction and the coordinator epoch in the snapshot
        var entries = org.apache.kafka.storage.internals.log.ProducerStateManager.readSnapshot(
                logDir.resolve("t-0/00000000000000000004.snapshot").toFile());
        assertThat(entries).extracting(e -> e.producerId() + ":" + e.currentTxnFirstOffset() + ":" + e.coordinatorEpoch())
                .containsExactlyInAnyOrder(P2 + ":OptionalLong.empty:-1", P1 + ":OptionalLong[1]:-1",
                        (P2 + 1) + ":OptionalLong.empty:7");

        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, config(Map.of()),
                PartitionLog.Options.defaults().withClock(clock).withCleanShutdown(true))) {
            assertThat(log.firstUnstableOffset()).isEqualTo(1L);
            assertThat(log.hasOngoingTransaction(P1, EPOCH)).isTrue();
            assertThat(log.hasOngoingTransaction(P2 + 1, EPOCH)).isFalse();
            assertThat(readCommitted(log, 0)).containsExactly("0:plain");
            assertThat(commit(log, P1).baseOffset()).isEqualTo(4L);
            assertThat(log.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);
            assertThat(log.hasOngoingTransaction(P1, EPOCH)).isFalse();
            // the coordinator epoch came back too: an older coordinator is fenced
            assertThatThrownBy(() -> log.appendMarker(P2 + 1, EPOCH, 6, true, 0))
                    .isInstanceOfSatisfying(LogAppendException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TRANSACTION_COORDINATOR_FENCED));
        }
    }

    @Test
    void uncleanRecoveryReplaysOpenTransactionsAndRebuildsTheTxnIndexes() throws IOException {
        Map<String, String> small = ONE_BATCH_PER_SEGMENT;
        List<AbortedTxn> before;
        try (PartitionLog log = open(small)) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a00"), 0); // 0
            log.append(transactional(P2, EPOCH, 0, NOW, "b00"), 0); // 1
            abort(log, P2); // 2
            log.append(transactional(P1, EPOCH, 1, NOW, "a01"), 0); // 3
            abort(log, P1); // 4
            log.append(transactional(P2, EPOCH, 1, NOW, "b01"), 0); // 5, left open
            before = log.abortedTransactions(0, 6);
            assertThat(before).containsExactly(new AbortedTxn(P2, 1, 2, 0), new AbortedTxn(P1, 0, 4, 5));
        }
        // A crash: no usable snapshot, index files lost or torn
        try (Stream<Path> files = Files.list(logDir.resolve("t-0"))) {
            for (Path p : files.toList()) {
                String name = p.getFileName().toString();
                if (name.endsWith(".snapshot")) {
                    Files.delete(p);
                } else if (name.endsWith(".txnindex")) {
                    Files.write(p, new byte[] {1, 2, 3});
                }
            }
        }
        try (PartitionLog log = open(small)) { // unclean: every segment from the recovery point 0 is recovered
            assertThat(log.abortedTransactions(0, 6)).isEqualTo(before);
            assertThat(log.firstUnstableOffset()).isEqualTo(5L);
            assertThat(log.hasOngoingTransaction(P2, EPOCH)).isTrue();
            assertThat(log.hasOngoingTransaction(P1, EPOCH)).isFalse();
            assertThat(abort(log, P2).baseOffset()).isEqualTo(6L);
            assertThat(log.hasOngoingTransaction(P2, EPOCH)).isFalse();
            assertThat(log.abortedTransactions(5, 7)).containsExactly(new AbortedTxn(P2, 5, 6, 7));
        }
    }

    @Test
    void uncleanRecoveryRebuildsTxnIndexesEvenWhenTheLatestSnapshotIsPastTheRecoveredSegments() throws IOException {
        List<AbortedTxn> before;
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a00"), 0); // 0
            abort(log, P1); // 1
            log.append(transactional(P2, EPOCH, 0, NOW, "b00"), 0); // 2, left open
            before = log.abortedTransactions(0, 3);
        } // the clean close leaves a snapshot at 3
        Files.delete(logDir.resolve("t-0/00000000000000000000.txnindex"));
        try (PartitionLog log = open()) {
            assertThat(log.abortedTransactions(0, 3)).isEqualTo(before).containsExactly(new AbortedTxn(P1, 0, 1, 2));
            assertThat(log.firstUnstableOffset()).isEqualTo(2L);
        }
    }

    /**
     * One batch per segment, closed cleanly: 0 P1 a00, 1 P2 b00, 2 ABORT P2, 3 P1 a01, 4 ABORT P1, 5 plain.
     * The entries live in the txnindex of the segment holding each abort marker (2 and 4).
     */
    private List<AbortedTxn> twoAbortsClosedCleanly() {
        try (PartitionLog log = open(ONE_BATCH_PER_SEGMENT)) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a00"), 0);
            log.append(transactional(P2, EPOCH, 0, NOW, "b00"), 0);
            abort(log, P2);
            log.append(transactional(P1, EPOCH, 1, NOW, "a01"), 0);
            abort(log, P1);
            log.append(new RecordBatchBuilder(NOW).append(null, "plain".getBytes(StandardCharsets.UTF_8)).build(), 0);
            List<AbortedTxn> before = log.abortedTransactions(0, 6);
            assertThat(before).containsExactly(new AbortedTxn(P2, 1, 2, 0), new AbortedTxn(P1, 0, 4, 5));
            return before;
        }
    }

    private PartitionLog openAfterCleanShutdown() {
        return PartitionLog.open(logDir, "t", 0, config(ONE_BATCH_PER_SEGMENT),
                PartitionLog.Options.defaults().withClock(clock).withCleanShutdown(true));
    }

    @Test
    void aCleanRestartRecoversASegmentWhoseTxnIndexWasCutMidEntryAndRebuildsIt() throws IOException {
        List<AbortedTxn> before = twoAbortsClosedCleanly();
        Path index = logDir.resolve("t-0/00000000000000000002.txnindex");
        assertThat(Files.size(index)).isEqualTo(TransactionIndex.ENTRY_SIZE);
        try (FileChannel ch = FileChannel.open(index, StandardOpenOption.WRITE)) {
            ch.truncate(TransactionIndex.ENTRY_SIZE - 5);
        }
        try (PartitionLog log = openAfterCleanShutdown()) {
            assertThat(log.abortedTransactions(0, 6)).isEqualTo(before);
        }
        assertThat(Files.size(index)).isEqualTo(TransactionIndex.ENTRY_SIZE); // rebuilt whole
    }

    @Test
    void aCleanRestartRecoversASegmentWhoseTxnIndexHasAnEntryBeforeTheSegmentAsKafkasSanityCheck() throws IOException {
        List<AbortedTxn> before = twoAbortsClosedCleanly();
        Path index = logDir.resolve("t-0/00000000000000000004.txnindex");
        ByteBuffer bogus = ByteBuffer.allocate(TransactionIndex.ENTRY_SIZE)
                .putShort((short) 0).putLong(P1).putLong(0).putLong(1).putLong(2).flip(); // ends at 1 < base 4
        try (FileChannel ch = FileChannel.open(index, StandardOpenOption.WRITE)) {
            ch.write(bogus, 0);
        }
        try (PartitionLog log = openAfterCleanShutdown()) {
            assertThat(log.abortedTransactions(0, 6)).isEqualTo(before);
        }
    }

    @Test
    void aLostTxnIndexIsTrustedAsEmptyByACleanRestartAsKafkaDoesAndRebuiltByAnUncleanOne() throws IOException {
        List<AbortedTxn> before = twoAbortsClosedCleanly();
        Path index = logDir.resolve("t-0/00000000000000000002.txnindex");
        Files.delete(index);
        // Kafka's clean load checks only the offset index's presence and the txnindex entries it finds; a
        // segment without aborted transactions has no .txnindex, so a missing one reads as none.
        try (PartitionLog log = openAfterCleanShutdown()) {
            assertThat(log.abortedTransactions(0, 6)).containsExactly(new AbortedTxn(P1, 0, 4, 5));
        }
        assertThat(index).doesNotExist();
        // Recovery from offset 0 (an unclean restart with the recovery point there) rebuilds it.
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, config(ONE_BATCH_PER_SEGMENT),
                PartitionLog.Options.defaults().withClock(clock).withCleanShutdown(false).withCheckpoints(0, 0))) {
            assertThat(log.abortedTransactions(0, 6)).isEqualTo(before);
        }
        assertThat(Files.size(index)).isEqualTo(TransactionIndex.ENTRY_SIZE);
    }

    @Test
    void retentionDeletesASegmentsTxnIndexWithIt() throws Exception {
        try (PartitionLog log = open(Map.of(LogConfig.SEGMENT_BYTES, ONE_BATCH_PER_SEGMENT.get(LogConfig.SEGMENT_BYTES),
                LogConfig.RETENTION_MS, "1000", LogConfig.FILE_DELETE_DELAY_MS, "0"))) {
            log.append(transactional(P1, EPOCH, 0, NOW - 5_000, "a00"), 0); // 0
            abort(log, P1); // 1 (timestamp NOW)
            clock.set(NOW + 10_000);
            log.append(transactional(P1, EPOCH, 1, NOW + 10_000, "a01"), 0); // 2
            assertThat(txnIndexFiles()).containsExactly("00000000000000000001.txnindex");

            assertThat(log.deleteOldSegments(NOW + 10_000)).isEqualTo(2);
            assertThat(log.abortedTransactions(2, 3)).isEmpty();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!txnIndexFiles().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(txnIndexFiles()).isEmpty();
        }
    }

    @Test
    void aMarkerFromAnOlderProducerEpochIsRefusedAndNothingIsWritten() {
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0);
            assertThatThrownBy(() -> log.appendMarker(P1, (short) (EPOCH - 1), 0, false, 0))
                    .isInstanceOfSatisfying(LogAppendException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH));
            assertThat(log.logEndOffset()).isEqualTo(1L);
            assertThat(log.firstUnstableOffset()).isZero();
        }
    }

    @Test
    void aMarkerFromAnOlderCoordinatorEpochIsFenced() {
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0);
            log.appendMarker(P1, EPOCH, 5, true, 0);
            log.append(transactional(P1, EPOCH, 1, NOW, "a1"), 0);
            assertThatThrownBy(() -> log.appendMarker(P1, EPOCH, 4, false, 0))
                    .isInstanceOfSatisfying(LogAppendException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TRANSACTION_COORDINATOR_FENCED));
            assertThat(log.logEndOffset()).isEqualTo(3L);
            // the same or a newer coordinator epoch goes through
            assertThat(log.appendMarker(P1, EPOCH, 5, false, 0).baseOffset()).isEqualTo(3L);
        }
    }

    @Test
    void aMarkerWithABumpedEpochEndsTheTransactionAndFencesTheOldEpoch() {
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0);
            // transaction version 2: the coordinator writes the marker with the next epoch
            log.appendMarker(P1, (short) (EPOCH + 1), 0, true, 0);
            assertThat(log.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);
            assertThatThrownBy(() -> log.append(transactional(P1, EPOCH, 1, NOW, "late"), 0))
                    .isInstanceOfSatisfying(LogAppendException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH));
            assertThat(log.append(transactional(P1, (short) (EPOCH + 1), 0, NOW, "next"), 0).baseOffset()).isEqualTo(2L);
            assertThat(log.firstUnstableOffset()).isEqualTo(2L);
        }
    }

    @Test
    void aTransactionVersion2MarkerMustCarryTheBumpedEpochUnlessItRetriesOneAlreadyWritten() {
        short tv2 = 2;
        short bumped = (short) (EPOCH + 1);
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0); // 0
            assertThatThrownBy(() -> log.appendMarker(P1, EPOCH, 0, true, 0, tv2))
                    .isInstanceOfSatisfying(LogAppendException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH));
            assertThat(log.appendMarker(P1, bumped, 0, true, 0, tv2).baseOffset()).isEqualTo(1L);
            // the coordinator retries the marker it did not hear back about: written again, harmlessly
            assertThat(log.appendMarker(P1, bumped, 0, true, 0, tv2).baseOffset()).isEqualTo(2L);
            assertThat(log.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);
            // once the producer opened its next transaction, that epoch can no longer end it
            log.append(transactional(P1, bumped, 0, NOW, "a1"), 0); // 3
            assertThatThrownBy(() -> log.appendMarker(P1, bumped, 0, false, 0, tv2))
                    .isInstanceOfSatisfying(LogAppendException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH));
            assertThat(log.firstUnstableOffset()).isEqualTo(3L);
        }
    }

    @Test
    void aMarkerForAProducerWithoutAnOpenTransactionIsStillWritten() throws IOException {
        try (PartitionLog log = open()) {
            log.append(idempotent(P1, EPOCH, 0, NOW, "plain"), 0);
            assertThat(abort(log, P1).baseOffset()).isEqualTo(1L);
            assertThat(abort(log, P2).baseOffset()).isEqualTo(2L); // a producer this partition never saw
            assertThat(log.abortedTransactions(0, 3)).isEmpty();
            assertThat(txnIndexFiles()).isEmpty();
            assertThat(readCommitted(log, 0)).containsExactly("0:plain", "1:ABORT", "2:ABORT");
        }
    }

    @Test
    void aPlainBatchWhileTheProducersTransactionIsOpenIsAnInvalidTxnState() {
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0);
            assertThatThrownBy(() -> log.append(idempotent(P1, EPOCH, 1, NOW, "plain"), 0))
                    .isInstanceOfSatisfying(LogAppendException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_TXN_STATE));
            assertThat(log.logEndOffset()).isEqualTo(1L);
        }
    }

    @Test
    void clientsCannotWriteMarkersThemselves() {
        try (PartitionLog log = open()) {
            ByteBuffer marker = new EndTxnMarker(true, 0).toBatch(P1, EPOCH, NOW);
            assertThatThrownBy(() -> log.append(marker, 0))
                    .isInstanceOfSatisfying(LogAppendException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_RECORD));
            assertThat(log.logEndOffset()).isZero();
        }
    }

    @Test
    void theMarkerIsAControlBatchKafkaReadsStampedWithTheLeaderEpoch() throws IOException {
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 4);
            log.appendMarker(P1, EPOCH, 9, false, 4);
            ByteBuffer read = LogFixture.readSlice(log.read(1, 1000));
            RecordBatch batch = MemoryRecords.readableRecords(read).batches().iterator().next();
            batch.ensureValid();
            assertThat(batch.isControlBatch()).isTrue();
            assertThat(batch.isTransactional()).isTrue();
            assertThat(batch.baseOffset()).isEqualTo(1L);
            assertThat(batch.partitionLeaderEpoch()).isEqualTo(4);
            assertThat(batch.producerId()).isEqualTo(P1);
            EndTransactionMarker marker = EndTransactionMarker.deserialize(batch.iterator().next());
            assertThat(marker.controlType()).isEqualTo(ControlRecordType.ABORT);
            assertThat(marker.coordinatorEpoch()).isEqualTo(9);
        }
    }

    @Test
    void aCoordinatorsTransactionalBatchWithoutSequencesOpensATransaction() {
        try (PartitionLog log = open()) {
            ByteBuffer offsets = new RecordBatchBuilder(NOW).producer(P1, EPOCH, RecordBatchHeader.NO_SEQUENCE)
                    .transactional().append(new byte[] {1}, new byte[] {2}).build();
            assertThatThrownBy(() -> log.append(offsets.duplicate(), 0)).isInstanceOf(LogAppendException.class);
            assertThat(log.appendAsCoordinator(offsets, 0).baseOffset()).isZero();
            assertThat(log.firstUnstableOffset()).isZero();
            commit(log, P1);
            assertThat(log.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);
        }
    }

    @Test
    void aTransactionVersion2MarkerOfThePreviousTransactionKeepsTheGuardOfTheNextOnesVerification() {
        short tv2 = 2;
        short bumped = (short) (EPOCH + 1);
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0); // 0
            // The next transaction (bumped epoch) is verified before the previous one's marker lands here.
            VerificationGuard next = log.startTransactionVerification(P1, bumped, true);
            log.appendMarker(P1, bumped, 0, true, 0, tv2); // 1

            assertThat(log.append(transactional(P1, bumped, 0, NOW, "b0"), 0, next).baseOffset()).isEqualTo(2L);
            assertThat(log.hasOngoingTransaction(P1, bumped)).isTrue();
            assertThat(log.producerState().verificationGuard(P1)).as("dropped by the batch it let in").isNull();
        }
    }

    @Test
    void anOpenTransactionIsOngoingOnlyAtTheProducersCurrentEpoch() {
        short bumped = (short) (EPOCH + 1);
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0);
            assertThat(log.hasOngoingTransaction(P1, EPOCH)).isTrue();
            // a newer epoch's batch (Kafka lets it continue the open transaction) moves the producer's epoch
            log.append(transactional(P1, bumped, 0, NOW, "a1"), 0);
            assertThat(log.hasOngoingTransaction(P1, EPOCH)).isFalse();
            assertThat(log.hasOngoingTransaction(P1, bumped)).isTrue();
        }
    }

    @Test
    void aGuardWhoseBatchNeverCameExpiresWithTheProducers() {
        try (PartitionLog log = open()) {
            VerificationGuard guard = log.startTransactionVerification(P1, EPOCH, false);
            assertThat(log.producerState().verificationGuard(P1)).isSameAs(guard);
            log.removeExpiredProducers(NOW + 999, 1_000);
            assertThat(log.producerState().verificationGuard(P1)).isSameAs(guard);
            log.removeExpiredProducers(NOW + 1_000, 1_000);
            assertThat(log.producerState().verificationGuard(P1)).isNull();

            assertThatThrownBy(() -> log.append(transactional(P1, EPOCH, 0, NOW, "late"), 0, guard))
                    .isInstanceOfSatisfying(LogAppendException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_TXN_STATE));
            assertThat(log.logEndOffset()).isZero();
        }
    }

    @Test
    void anOlderEpochIsRefusedAsSuchBeforeItsGuardIsLookedAt() {
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0);
            assertThatThrownBy(() -> log.append(transactional(P1, (short) (EPOCH - 1), 0, NOW, "old"), 0,
                    VerificationGuard.NONE))
                    .isInstanceOfSatisfying(LogAppendException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH));
        }
    }

    @Test
    void expiryNeverForgetsAProducerWithAnOpenTransaction() {
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW, "a0"), 0);
            log.append(idempotent(P2, EPOCH, 0, NOW, "plain"), 0);
            assertThat(log.removeExpiredProducers(NOW + 1_000_000, 1_000)).isEqualTo(1);
            assertThat(log.activeProducers()).extracting(ActiveProducer::producerId).containsExactly(P1);
            commit(log, P1);
            assertThat(log.removeExpiredProducers(NOW + 1_000_000, 1_000)).isEqualTo(1);
            assertThat(log.activeProducers()).isEmpty();
        }
    }

    @Test
    void activeProducersReportEpochSequenceCoordinatorEpochAndOpenTransaction() {
        try (PartitionLog log = open()) {
            log.append(transactional(P1, EPOCH, 0, NOW - 5, "a0", "a1"), 0);
            log.append(idempotent(P2, EPOCH, 0, NOW - 3, "plain"), 0);
            log.appendMarker(P2, EPOCH, 2, true, 0);
            assertThat(log.activeProducers()).containsExactly(
                    new ActiveProducer(P1, EPOCH, 1, NOW - 5, -1, 0L),
                    new ActiveProducer(P2, EPOCH, 0, NOW, 2, -1L));
        }
    }

    private List<String> txnIndexFiles() throws IOException {
        try (Stream<Path> files = Files.list(logDir.resolve("t-0"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.contains(".txnindex")).sorted().toList();
        }
    }
}
