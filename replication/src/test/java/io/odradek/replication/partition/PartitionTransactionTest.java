package io.odradek.replication.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.AppendResult;
import io.odradek.log.FileSlice;
import io.odradek.log.LogAppendException;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.log.producer.ActiveProducer;
import io.odradek.log.producer.VerificationGuard;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.RecordBatchBuilder;
import io.odradek.wire.batch.RecordBatchHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The last stable offset, markers and read_committed reads through a {@link Partition}. */
class PartitionTransactionTest {
    private static final int LEADER_EPOCH = 3;
    private static final int FOLLOWER = 2;
    private static final long PID = 77L;
    private static final short EPOCH = 1;

    @TempDir
    Path dir;
    PartitionLog log;
    PartitionWriters writers;
    WaitingOperations<Partition> waiting;

    @BeforeEach
    void setUp() {
        log = PartitionLog.open(dir, "orders", 0, LogConfig.defaults());
        writers = new PartitionWriters(2);
        waiting = new WaitingOperations<>("test");
    }

    @AfterEach
    void tearDown() {
        writers.close();
        waiting.close();
        log.close();
    }

    private Partition partition(Set<Integer> followers) {
        return new Partition(log, LEADER_EPOCH, followers, writers.writerFor("orders", 0), waiting);
    }

    private static ByteBuffer plain(String value) {
        return new RecordBatchBuilder(System.currentTimeMillis())
                .append(value.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)).build();
    }

    private static ByteBuffer txn(long pid, int seq, String value) {
        return new RecordBatchBuilder(System.currentTimeMillis()).producer(pid, EPOCH, seq).transactional()
                .append(value.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)).build();
    }

    private static <T> T await(CompletableFuture<T> future) {
        return future.orTimeout(5, TimeUnit.SECONDS).join();
    }

    /** Each batch in the slice as "offset" (plain data), "offset:t" (transactional data) or "offset:marker". */
    private static List<String> batches(FileSlice slice) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(slice.size());
        slice.channel().read(bytes, slice.position());
        bytes.flip();
        List<String> out = new ArrayList<>();
        for (int p = 0; p + RecordBatchHeader.LOG_OVERHEAD <= bytes.limit(); ) {
            RecordBatchHeader h = new RecordBatchHeader(bytes, p);
            out.add(h.baseOffset() + (h.isControlBatch() ? ":marker" : h.isTransactional() ? ":t" : ""));
            p += h.totalSize();
        }
        return out;
    }

    @Test
    void readCommittedStopsAtTheOpenTransactionUntilItsMarkerIsWritten() throws IOException {
        Partition partition = partition(Set.of());
        await(partition.appendAsLeader(plain("a"), (short) 1)); // 0
        await(partition.appendAsLeader(txn(PID, 0, "t0"), (short) 1)); // 1
        await(partition.appendAsLeader(plain("b"), (short) 1)); // 2
        assertThat(partition.highWatermark()).isEqualTo(3L);
        assertThat(partition.lastStableOffset()).isEqualTo(1L);
        assertThat(partition.fetchableEnd(FetchIsolation.TXN_COMMITTED)).isEqualTo(1L);
        assertThat(batches(partition.read(0, 1 << 20, FetchIsolation.TXN_COMMITTED))).containsExactly("0");
        assertThat(partition.read(1, 1 << 20, FetchIsolation.TXN_COMMITTED).size()).isZero();
        assertThat(batches(partition.read(0, 1 << 20, FetchIsolation.HIGH_WATERMARK))).containsExactly("0", "1:t", "2");

        AppendResult marker = await(partition.appendMarker(PID, EPOCH, 0, false));

        assertThat(marker.baseOffset()).isEqualTo(3L);
        assertThat(partition.lastStableOffset()).isEqualTo(4L);
        assertThat(batches(partition.read(0, 1 << 20, FetchIsolation.TXN_COMMITTED)))
                .containsExactly("0", "1:t", "2", "3:marker");
        assertThat(partition.abortedTransactions(0, 4)).containsExactly(new AbortedTxn(PID, 1, 3, 4));
        assertThat(partition.activeProducers()).extracting(ActiveProducer::producerId, ActiveProducer::coordinatorEpoch,
                ActiveProducer::currentTxnStartOffset).containsExactly(org.assertj.core.groups.Tuple.tuple(PID, 0, -1L));
    }

    @Test
    void aMarkerIsStampedWithTheLeaderEpochAndWakesWhoWaitsForTheLastStableOffset() {
        Partition partition = partition(Set.of());
        await(partition.appendAsLeader(txn(PID, 0, "t0"), (short) 1));
        CompletableFuture<Long> woken = new CompletableFuture<>();
        waiting.watch(new DelayedOperation(60_000, DelayedOperation.INLINE) {
            @Override
            protected boolean canComplete() {
                return partition.lastStableOffset() > 0;
            }

            @Override
            protected void onComplete(Outcome outcome) {
                woken.complete(partition.lastStableOffset());
            }
        }, List.of(partition));
        assertThat(woken).isNotDone();

        await(partition.appendMarker(PID, EPOCH, 0, true));

        assertThat(await(woken)).isEqualTo(2L);
        assertThat(log.leaderEpochs()).extracting(e -> e.epoch()).containsExactly(LEADER_EPOCH);
    }

    @Test
    void withALaggingFollowerTheTransactionStaysUnstableUntilItsMarkerIsReplicated()
            throws IOException {
        Partition partition = partition(Set.of(FOLLOWER));
        await(partition.appendAsLeader(plain("a"), (short) -1)); // 0
        await(partition.appendAsLeader(txn(PID, 0, "t0"), (short) -1)); // 1
        assertThat(partition.lastStableOffset()).isZero(); // the high watermark is still 0
        partition.recordFollowerLogEnd(FOLLOWER, 2L);
        assertThat(partition.lastStableOffset()).isEqualTo(1L);
        assertThat(batches(partition.read(0, 1 << 20, FetchIsolation.TXN_COMMITTED))).containsExactly("0");

        CompletableFuture<AppendResult> marker = partition.appendMarker(PID, EPOCH, 0, true);
        await(partition.appendAsLeader(plain("after"), (short) -1)); // the writer has run the marker
        assertThat(marker).isNotDone();
        // decided, but as in Kafka the transaction stays unstable until its marker is replicated
        assertThat(partition.highWatermark()).isEqualTo(2L);
        assertThat(partition.lastStableOffset()).isEqualTo(1L);
        assertThat(batches(partition.read(0, 1 << 20, FetchIsolation.TXN_COMMITTED))).containsExactly("0");

        partition.recordFollowerLogEnd(FOLLOWER, 3L);

        assertThat(await(marker).baseOffset()).isEqualTo(2L);
        assertThat(partition.lastStableOffset()).isEqualTo(3L);
        assertThat(batches(partition.read(0, 1 << 20, FetchIsolation.TXN_COMMITTED)))
                .containsExactly("0", "1:t", "2:marker");
    }

    @Test
    void aMarkerFromAnOlderEpochFailsWithInvalidProducerEpoch() {
        Partition partition = partition(Set.of());
        await(partition.appendAsLeader(txn(PID, 0, "t0"), (short) 1));
        assertThatThrownBy(() -> await(partition.appendMarker(PID, (short) 0, 0, true)))
                .isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH));
        assertThat(partition.logEndOffset()).isEqualTo(1L);
        assertThat(partition.lastStableOffset()).isZero();
    }

    @Test
    void readCommittedNeverSeesATransactionThatAnAppendOpensMeanwhile() throws Exception {
        Partition partition = partition(Set.of());
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            try {
                while (!done.get()) {
                    // every transactional batch a read_committed read returns must come with its marker
                    List<String> read = batches(partition.read(0, 1 << 24, FetchIsolation.TXN_COMMITTED));
                    Set<String> open = new HashSet<>();
                    for (String b : read) {
                        if (b.endsWith(":marker")) {
                            open.clear();
                        } else if (b.endsWith(":t")) {
                            open.add(b);
                        }
                    }
                    assertThat(open).isEmpty();
                }
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        });
        for (int i = 0; i < 300; i++) {
            await(partition.appendAsLeader(txn(PID, i, "t" + i), (short) 1));
            await(partition.appendAsLeader(plain("p" + i), (short) 1));
            await(partition.appendMarker(PID, EPOCH, 0, true));
        }
        done.set(true);
        await(reader);
        assertThat(partition.lastStableOffset()).isEqualTo(900L);
        assertThat(partition.read(0, 1 << 24, FetchIsolation.TXN_COMMITTED).size())
                .isEqualTo(partition.read(0, 1 << 24, FetchIsolation.HIGH_WATERMARK).size());
    }

    // ---------------------------------------------------------------- verification guard

    private static LogAppendException refusal(CompletableFuture<?> append) {
        Throwable error = org.assertj.core.api.Assertions.catchThrowable(() -> await(append));
        assertThat(error).isInstanceOf(CompletionException.class).hasCauseInstanceOf(LogAppendException.class);
        return (LogAppendException) error.getCause();
    }

    @Test
    void aTransactionIsOngoingOnlyFromItsFirstBatchUntilItsMarkerAndOnlyAtItsEpoch() {
        Partition partition = partition(Set.of());
        assertThat(partition.hasOngoingTransaction(PID, EPOCH)).isFalse();

        VerificationGuard guard = partition.startTransactionVerification(PID, EPOCH, false);
        await(partition.appendAsLeader(txn(PID, 0, "t0"), (short) 1, guard));
        assertThat(partition.hasOngoingTransaction(PID, EPOCH)).isTrue();
        assertThat(partition.hasOngoingTransaction(PID, (short) (EPOCH + 1))).isFalse();
        assertThat(partition.hasOngoingTransaction(PID + 1, EPOCH)).isFalse();
        assertThat(partition.startTransactionVerification(PID, EPOCH, false)).isSameAs(VerificationGuard.NONE);

        await(partition.appendMarker(PID, EPOCH, 0, true));
        assertThat(partition.hasOngoingTransaction(PID, EPOCH)).isFalse();
    }

    @Test
    void aVerifiedBatchWhoseTransactionEndedBeforeItsAppendIsRefusedAndNothingIsAppended() throws IOException {
        Partition partition = partition(Set.of());
        await(partition.appendAsLeader(txn(PID, 0, "t0"), (short) 1)); // 0, the transaction is open
        // A late batch of the same producer: verification starts while the transaction is still open ...
        VerificationGuard late = partition.startTransactionVerification(PID, EPOCH, false);
        assertThat(late).isSameAs(VerificationGuard.NONE);
        // ... then EndTxn's marker lands before the batch is appended.
        await(partition.appendMarker(PID, EPOCH, 0, true)); // 1

        LogAppendException refused = refusal(partition.appendAsLeader(txn(PID, 1, "late"), (short) 1, late));

        assertThat(refused.errorCode()).isEqualTo(ErrorCode.INVALID_TXN_STATE);
        assertThat(partition.logEndOffset()).isEqualTo(2L);
        assertThat(batches(partition.read(0, 1 << 20, FetchIsolation.LOG_END))).containsExactly("0:t", "1:marker");
        assertThat(partition.hasOngoingTransaction(PID, EPOCH)).isFalse();
    }

    @Test
    void aGuardDroppedByAMarkerNoLongerLetsTheBatchOpenATransaction() throws IOException {
        Partition partition = partition(Set.of());
        // Verification of the first batch starts (no transaction open yet) ...
        VerificationGuard guard = partition.startTransactionVerification(PID, EPOCH, false);
        assertThat(guard).isNotSameAs(VerificationGuard.NONE);
        // ... and the coordinator aborts the transaction (its marker drops the guard) before the append.
        await(partition.appendMarker(PID, EPOCH, 0, false)); // 0

        LogAppendException refused = refusal(partition.appendAsLeader(txn(PID, 0, "late"), (short) 1, guard));

        assertThat(refused.errorCode()).isEqualTo(ErrorCode.INVALID_TXN_STATE);
        assertThat(batches(partition.read(0, 1 << 20, FetchIsolation.LOG_END))).containsExactly("0:marker");
        assertThat(partition.lastStableOffset()).isEqualTo(1L);
    }

    @Test
    void aNewVerificationAfterTheMarkerGetsANewGuardAndItsBatchOpensTheNextTransaction() throws IOException {
        Partition partition = partition(Set.of());
        VerificationGuard first = partition.startTransactionVerification(PID, EPOCH, false);
        assertThat(partition.startTransactionVerification(PID, EPOCH, false)).as("shared while under way")
                .isSameAs(first);
        await(partition.appendAsLeader(txn(PID, 0, "t0"), (short) 1, first)); // 0
        await(partition.appendMarker(PID, EPOCH, 0, true)); // 1

        VerificationGuard second = partition.startTransactionVerification(PID, EPOCH, false);
        assertThat(second).isNotSameAs(first).isNotSameAs(VerificationGuard.NONE);
        assertThat(refusal(partition.appendAsLeader(txn(PID, 1, "stale"), (short) 1, first)).errorCode())
                .isEqualTo(ErrorCode.INVALID_TXN_STATE);
        AppendResult appended = await(partition.appendAsLeader(txn(PID, 1, "t1"), (short) 1, second));

        assertThat(appended.baseOffset()).isEqualTo(2L);
        assertThat(partition.hasOngoingTransaction(PID, EPOCH)).isTrue();
        assertThat(batches(partition.read(0, 1 << 20, FetchIsolation.LOG_END))).containsExactly("0:t", "1:marker", "2:t");
    }
}
