package io.odradek.coordinator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.runtime.CoordinatorRuntimeTest.Entry;
import io.odradek.coordinator.runtime.CoordinatorRuntimeTest.KeyValueShard;
import io.odradek.wire.batch.EndTxnMarker;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.batch.RecordBatchReader;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The runtime's transactional writes, transaction completions, and load of a log holding both. */
class TransactionalWritesTest {
    /** A toy coordinator that keeps a producer's records pending until its marker, as the group coordinator does. */
    static final class PendingShard implements CoordinatorShard<Entry> {
        final Map<String, String> state = new TreeMap<>();
        final Map<Long, List<Entry>> pending = new HashMap<>();
        final List<String> events = new ArrayList<>();

        @Override
        public void replay(Entry record) {
            state.put(record.key(), record.value());
        }

        @Override
        public void replay(long offset, long producerId, short producerEpoch, Entry record) {
            events.add(record.key() + "@" + offset + (producerId < 0 ? "" : " pending for " + producerId + "/" + producerEpoch));
            if (producerId < 0) {
                replay(record);
            } else {
                pending.computeIfAbsent(producerId, k -> new ArrayList<>()).add(record);
            }
        }

        @Override
        public void replayEndTransaction(long producerId, short producerEpoch, boolean commit) {
            events.add((commit ? "commit " : "abort ") + producerId + "/" + producerEpoch);
            List<Entry> records = pending.remove(producerId);
            if (commit && records != null) {
                records.forEach(this::replay);
            }
        }
    }

    private final ManualScheduler clock = new ManualScheduler();
    private final FakeCoordinatorLog log = new FakeCoordinatorLog();
    private final List<PendingShard> shards = new ArrayList<>();
    private final CoordinatorRuntime<PendingShard, Entry> runtime = new CoordinatorRuntime<>("__toy",
            CoordinatorRuntimeTest.SERDE, p -> clock, context -> {
                PendingShard shard = new PendingShard();
                shards.add(shard);
                return shard;
            });

    @AfterEach
    void tearDown() {
        runtime.close();
    }

    private CompletableFuture<String> txnPut(long producerId, String key, String value) {
        return runtime.scheduleTransactionalWrite(0, "txn-put", producerId, (short) 5,
                shard -> CoordinatorResult.of(List.of(new Entry(key, value)), "put " + key));
    }

    private CompletableFuture<Void> end(long producerId, boolean commit) {
        return runtime.scheduleTransactionCompletion(0, "end-txn", producerId, (short) 5, 9, commit);
    }

    private void commitAll() {
        while (log.inFlight() > 0) {
            log.commitNext();
        }
    }

    private Map<String, String> state(CoordinatorRuntime<PendingShard, Entry> r) {
        return r.scheduleRead(0, "read", s -> new TreeMap<>(s.state)).join();
    }

    @Test
    void aTransactionalWriteIsPendingUntilItsCommitMarkerIsCommitted() {
        runtime.load(0, log);
        runtime.scheduleWrite(0, "put", s -> CoordinatorResult.of(List.of(new Entry("plain", "1")), "ok"));
        CompletableFuture<String> written = txnPut(7, "a", "1");
        commitAll();
        assertThat(written).isCompletedWithValue("put a");
        assertThat(state(runtime)).containsOnlyKeys("plain");

        CompletableFuture<Void> marker = end(7, true);
        assertThat(marker).isNotDone(); // applied only once the marker is committed
        assertThat(state(runtime)).containsOnlyKeys("plain");
        commitAll();
        assertThat(marker).isCompleted();
        assertThat(state(runtime)).containsEntry("a", "1");
        assertThat(shards.get(0).events).containsExactly("plain@0", "a@1 pending for 7/5", "commit 7/5");
    }

    @Test
    void theLogHoldsATransactionalBatchOfTheProducerThenAControlBatchWithItsMarker() {
        runtime.load(0, log);
        txnPut(7, "a", "1");
        end(7, false);
        commitAll();
        ByteBuffer all = log.read(0, 1 << 16);
        RecordBatchHeader first = new RecordBatchHeader(all, 0);
        assertThat(first.isTransactional()).isTrue();
        assertThat(first.isControlBatch()).isFalse();
        assertThat(first.producerId()).isEqualTo(7L);
        assertThat(first.producerEpoch()).isEqualTo((short) 5);
        RecordBatchHeader second = new RecordBatchHeader(all, first.totalSize());
        assertThat(second.isControlBatch()).isTrue();
        assertThat(second.producerId()).isEqualTo(7L);
        assertThat(second.baseOffset()).isEqualTo(1L);
        RecordBatchReader.Record marker = RecordBatchReader.records(second).get(0);
        assertThat(EndTxnMarker.parse(ByteBuffer.wrap(marker.key()), ByteBuffer.wrap(marker.value())))
                .isEqualTo(new EndTxnMarker(false, 9));
        assertThat(state(runtime)).isEmpty();
    }

    @Test
    void loadCommitsWhatItsMarkerCommitsDropsTheAbortedAndKeepsTheOpenPending() {
        runtime.load(0, log);
        txnPut(7, "committed", "1");
        txnPut(8, "aborted", "1");
        txnPut(9, "open", "1");
        runtime.scheduleWrite(0, "put", s -> CoordinatorResult.of(List.of(new Entry("plain", "1")), "ok"));
        end(8, false);
        end(7, true);
        commitAll();

        CoordinatorRuntime<PendingShard, Entry> reloaded = new CoordinatorRuntime<>("__toy", CoordinatorRuntimeTest.SERDE,
                p -> clock, context -> new PendingShard());
        try {
            reloaded.load(0, log).join();
            assertThat(state(reloaded)).containsOnlyKeys("committed", "plain");
            assertThat(reloaded.scheduleRead(0, "pending", s -> s.pending.keySet()).join()).containsExactly(9L);
            end(9, true); // on the old runtime's log; the reloaded one hears it at its next load
            commitAll();
        } finally {
            reloaded.close();
        }
        List<Entry> committedView = new ArrayList<>();
        assertThat(CoordinatorLoader.replay(log, CoordinatorRuntimeTest.SERDE, committedView::add, "toy-0")).isEqualTo(3);
        assertThat(committedView).extracting(Entry::key).containsExactly("plain", "committed", "open");
    }

    @Test
    void aShardThatKnowsNoTransactionsAppliesATransactionalWriteAtOnce() {
        CoordinatorRuntime<KeyValueShard, Entry> plain = new CoordinatorRuntime<>("__toy", CoordinatorRuntimeTest.SERDE,
                p -> clock, KeyValueShard::new);
        try {
            plain.load(0, log);
            CompletableFuture<String> written = plain.scheduleTransactionalWrite(0, "txn-put", 7, (short) 5,
                    shard -> CoordinatorResult.of(List.of(new Entry("a", "1")), "ok"));
            commitAll();
            assertThat(written).isCompletedWithValue("ok");
            assertThat(plain.scheduleRead(0, "read", KeyValueShard::snapshot).join()).containsEntry("a", "1");
            CompletableFuture<Void> marker = plain.scheduleTransactionCompletion(0, "end", 7, (short) 5, 0, true);
            commitAll();
            assertThat(marker).isCompleted();
        } finally {
            plain.close();
        }
    }

    @Test
    void aRefusedMarkerFailsWithTheLogsOwnErrorAndAppliesNothing() {
        runtime.load(0, log);
        txnPut(7, "a", "1");
        commitAll();
        CompletableFuture<Void> marker = end(7, true);
        log.failNext(io.odradek.wire.ErrorCode.INVALID_PRODUCER_EPOCH);
        assertThat(marker).isCompletedExceptionally();
        assertThat(CoordinatorErrors.of(marker.handle((v, e) -> e).join())).isEqualTo(io.odradek.wire.ErrorCode.INVALID_PRODUCER_EPOCH);
        assertThat(state(runtime)).isEmpty();
        assertThat(shards.get(0).pending).containsOnlyKeys(7L);
    }

    @Test
    void aMarkerWhoseCommitNeverComesFailsWithRequestTimedOutAndIsAppliedIfItCommitsLater() {
        PendingShard shard = new PendingShard();
        CoordinatorRuntime<PendingShard, Entry> bounded = new CoordinatorRuntime<>("__toy", CoordinatorRuntimeTest.SERDE,
                p -> clock, 5000, context -> shard);
        try {
            bounded.load(0, log);
            CompletableFuture<String> written = bounded.scheduleTransactionalWrite(0, "txn-put", 7, (short) 5,
                    s -> CoordinatorResult.of(List.of(new Entry("a", "1")), "put a"));
            clock.advance(5000);
            // a transactional offset commit that timed out: the client hears COORDINATOR_NOT_AVAILABLE
            assertThat(CoordinatorErrors.of(written.handle((v, e) -> e).join()))
                    .isEqualTo(io.odradek.wire.ErrorCode.COORDINATOR_NOT_AVAILABLE);
            commitAll();
            assertThat(shard.pending).containsOnlyKeys(7L);

            CompletableFuture<Void> marker = bounded.scheduleTransactionCompletion(0, "end-txn", 7, (short) 5, 9, true);
            clock.advance(5000);
            // the marker writer hears REQUEST_TIMED_OUT, which it retries
            assertThat(CoordinatorErrors.of(marker.handle((v, e) -> e).join()))
                    .isEqualTo(io.odradek.wire.ErrorCode.REQUEST_TIMED_OUT);
            commitAll();
            assertThat(state(bounded)).containsExactly(Map.entry("a", "1"));
            assertThat(shard.events).containsExactly("a@0 pending for 7/5", "commit 7/5");
        } finally {
            bounded.close();
        }
    }
}
