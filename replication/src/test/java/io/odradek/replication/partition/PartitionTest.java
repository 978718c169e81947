package io.odradek.replication.partition;

import static io.odradek.replication.partition.PartitionTestData.await;
import static io.odradek.replication.partition.PartitionTestData.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.AppendResult;
import io.odradek.log.FileSlice;
import io.odradek.log.LogConfig;
import io.odradek.log.LogException;
import io.odradek.log.PartitionLog;
import io.odradek.wire.batch.RecordBatchHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionTest {
    private static final int LEADER_EPOCH = 3;
    private static final int FOLLOWER = 2;

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

    private Partition leaderAlone() {
        return new Partition(log, LEADER_EPOCH, Set.of(), writers.writerFor("orders", 0), waiting);
    }

    private Partition leaderWithFollower() {
        return new Partition(log, LEADER_EPOCH, Set.of(FOLLOWER), writers.writerFor("orders", 0), waiting);
    }

    /** Base offset and leader epoch of every batch in the slice, as "offset@epoch". */
    private static List<String> batches(FileSlice slice) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(slice.size());
        slice.channel().read(bytes, slice.position());
        bytes.flip();
        List<String> out = new ArrayList<>();
        for (int p = 0; p + RecordBatchHeader.LOG_OVERHEAD <= bytes.limit(); ) {
            RecordBatchHeader h = new RecordBatchHeader(bytes, p);
            out.add(h.baseOffset() + "@" + h.partitionLeaderEpoch());
            p += h.totalSize();
        }
        return out;
    }

    @Test
    void appendFuturesCompleteWithTheOffsetsTheRecordsGot() throws IOException {
        Partition partition = leaderAlone();
        AppendResult first = await(partition.appendAsLeader(batch("a", "b", "c"), (short) 1));
        AppendResult second = await(partition.appendAsLeader(batch("d", "e"), (short) -1));

        assertThat(first.baseOffset()).isZero();
        assertThat(first.lastOffset()).isEqualTo(2L);
        assertThat(second.baseOffset()).isEqualTo(3L);
        assertThat(second.lastOffset()).isEqualTo(4L);
        // One node: the high watermark is the log end as soon as the append is in the log.
        assertThat(partition.logEndOffset()).isEqualTo(5L);
        assertThat(partition.highWatermark()).isEqualTo(5L);
        assertThat(partition.lastStableOffset()).isEqualTo(5L);
        // Batches carry the leader epoch the partition was given by the metadata.
        assertThat(batches(partition.read(0, 1 << 20, FetchIsolation.HIGH_WATERMARK))).containsExactly("0@3", "3@3");
    }

    @Test
    void aRefusedAppendFailsItsFutureWithTheLogsError() {
        Partition partition = leaderAlone();
        ByteBuffer corrupt = batch("x");
        corrupt.put(corrupt.limit() - 1, (byte) (corrupt.get(corrupt.limit() - 1) ^ 0x5a));
        assertThatThrownBy(() -> await(partition.appendAsLeader(corrupt, (short) 1)))
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(LogException.class);
        assertThat(partition.logEndOffset()).isZero();
    }

    @Test
    void readsStopAtTheHighWatermarkWhileAFollowerLags() throws IOException {
        Partition partition = leaderWithFollower();
        await(partition.appendAsLeader(batch("a", "b"), (short) -1));
        await(partition.appendAsLeader(batch("c", "d"), (short) -1));
        assertThat(partition.logEndOffset()).isEqualTo(4L);
        assertThat(partition.highWatermark()).isZero();

        assertThat(partition.read(0, 1 << 20, FetchIsolation.HIGH_WATERMARK).size()).isZero();
        assertThat(partition.read(0, 1 << 20, FetchIsolation.TXN_COMMITTED).size()).isZero();
        assertThat(batches(partition.read(0, 1 << 20, FetchIsolation.LOG_END))).containsExactly("0@3", "2@3");

        partition.recordFollowerLogEnd(FOLLOWER, 2L);

        assertThat(partition.highWatermark()).isEqualTo(2L);
        assertThat(batches(partition.read(0, 1 << 20, FetchIsolation.HIGH_WATERMARK))).containsExactly("0@3");
        assertThat(partition.read(2, 1 << 20, FetchIsolation.HIGH_WATERMARK).size()).isZero();
        assertThat(batches(partition.read(2, 1 << 20, FetchIsolation.LOG_END))).containsExactly("2@3");
    }

    @Test
    void aCoordinatorAppendCompletesOnceCommitted() {
        Partition partition = leaderWithFollower();
        CompletableFuture<AppendResult> committed = partition.appendRecordsAsCoordinator(batch("offset-commit"));
        await(partition.appendAsLeader(batch("after"), (short) 1)); // the writer has run the first append
        assertThat(committed).isNotDone();
        assertThat(waiting.watching(partition)).isEqualTo(1);

        partition.recordFollowerLogEnd(FOLLOWER, 1L);

        assertThat(await(committed).baseOffset()).isZero();
        assertThat(waiting.watching(partition)).isZero();
    }

    @Test
    void aCoordinatorAppendOnOneNodeIsCommittedAtOnce() {
        Partition partition = leaderAlone();
        AppendResult result = await(partition.appendRecordsAsCoordinator(batch("a", "b")));
        assertThat(result.lastOffset()).isEqualTo(1L);
        assertThat(partition.highWatermark()).isEqualTo(2L);
    }

    @Test
    void anyAppendWakesTheOperationsParkedOnThePartitionCoordinatorOnesToo() {
        Partition partition = leaderAlone();
        CompletableFuture<Long> woken = new CompletableFuture<>();
        waiting.watch(new DelayedOperation(60_000, DelayedOperation.INLINE) {
            @Override
            protected boolean canComplete() {
                return partition.highWatermark() > 0;
            }

            @Override
            protected void onComplete(Outcome outcome) {
                woken.complete(partition.highWatermark());
            }
        }, List.of(partition));
        assertThat(woken).isNotDone();

        partition.appendRecordsAsCoordinator(batch("group-metadata"));

        assertThat(await(woken)).isEqualTo(1L);
        assertThat(waiting.watching(partition)).isZero();
    }

    @Test
    void aCoordinatorWaitEndsWhenTheSetCloses() {
        Partition partition = leaderWithFollower();
        CompletableFuture<AppendResult> committed = partition.appendRecordsAsCoordinator(batch("x"));
        await(partition.appendAsLeader(batch("y"), (short) 1));
        waiting.close();
        assertThatThrownBy(() -> await(committed)).isInstanceOf(CompletionException.class)
                .hasMessageContaining("CANCELLED");
    }

    @Test
    void aReplicaReadBeyondTheLogEndIsOutOfRange() {
        Partition partition = leaderAlone();
        assertThatThrownBy(() -> partition.read(5, 1024, FetchIsolation.LOG_END)).isInstanceOf(LogException.class);
    }
}
