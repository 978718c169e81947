package io.odradek.coordinator.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.wire.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The runtime with a toy key-value coordinator: a manual scheduler and a log whose appends complete
 * when the test says, so every interleaving is exact.
 */
class CoordinatorRuntimeTest {
    /** A toy record: sets a key, or removes it (null value). */
    record Entry(String key, String value) {
    }

    static final RecordSerde<Entry> SERDE = new RecordSerde<>() {
        @Override
        public byte[] key(Entry record) {
            return record.key().getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public byte[] value(Entry record) {
            return record.value() == null ? null : record.value().getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public Entry decode(byte[] key, byte[] value) {
            return new Entry(new String(key, StandardCharsets.UTF_8), value == null ? null : new String(value, StandardCharsets.UTF_8));
        }
    };

    /** The toy coordinator's state: what its records say. */
    static final class KeyValueShard implements CoordinatorShard<Entry> {
        final CoordinatorContext<Entry> context;
        final Map<String, String> state = new TreeMap<>();
        final List<String> events = new ArrayList<>();

        KeyValueShard(CoordinatorContext<Entry> context) {
            this.context = context;
        }

        @Override
        public void replay(Entry record) {
            if (record.value() == null) {
                state.remove(record.key());
            } else {
                state.put(record.key(), record.value());
            }
        }

        @Override
        public void onLoaded() {
            events.add("loaded " + state);
        }

        @Override
        public void onUnloaded() {
            events.add("unloaded");
        }

        Map<String, String> snapshot() {
            return new TreeMap<>(state);
        }

        /** A write computed from the state: the counter's next value, answered with it. */
        CoordinatorResult<Integer, Entry> increment() {
            int next = Integer.parseInt(state.getOrDefault("counter", "0")) + 1;
            return CoordinatorResult.of(List.of(new Entry("counter", Integer.toString(next))), next);
        }
    }

    private final ManualScheduler clock = new ManualScheduler();
    private final FakeCoordinatorLog log = new FakeCoordinatorLog();
    private final List<KeyValueShard> shards = new ArrayList<>();
    private final CoordinatorRuntime<KeyValueShard, Entry> runtime = newRuntime(p -> clock);
    private CoordinatorThreads threads;

    private CoordinatorRuntime<KeyValueShard, Entry> newRuntime(java.util.function.IntFunction<Scheduler> schedulers) {
        return new CoordinatorRuntime<>("__toy", SERDE, schedulers, context -> {
            KeyValueShard shard = new KeyValueShard(context);
            shards.add(shard);
            return shard;
        });
    }

    @AfterEach
    void tearDown() {
        runtime.close();
        if (threads != null) {
            threads.close();
        }
    }

    private CompletableFuture<String> put(String key, String value) {
        return runtime.scheduleWrite(0, "put", shard -> CoordinatorResult.of(List.of(new Entry(key, value)), "put " + key));
    }

    private Map<String, String> committedState() {
        return runtime.scheduleRead(0, "read", KeyValueShard::snapshot).join();
    }

    private static ErrorCode errorOf(CompletableFuture<?> future) {
        assertThat(future).isCompletedExceptionally();
        try {
            future.join();
        } catch (CompletionException e) {
            return CoordinatorErrors.of(e);
        }
        throw new AssertionError("not failed");
    }

    @Test
    void aWriteIsAnsweredOnlyOnceItsRecordsAreCommitted() {
        runtime.load(0, log);
        CompletableFuture<String> written = put("a", "1");

        assertThat(written).isNotDone();
        assertThat(log.inFlight()).isEqualTo(1);
        assertThat(committedState()).isEmpty(); // not applied before the commit

        log.commitNext();
        assertThat(written).isCompletedWithValue("put a");
        assertThat(committedState()).containsExactly(Map.entry("a", "1"));
    }

    @Test
    void writesQueueBehindTheOneInFlightAndEachSeesTheStateTheEarlierOnesLeft() {
        runtime.load(0, log);
        CompletableFuture<Integer> first = runtime.scheduleWrite(0, "increment", KeyValueShard::increment);
        CompletableFuture<Integer> second = runtime.scheduleWrite(0, "increment", KeyValueShard::increment);
        CompletableFuture<String> nothingToWrite = runtime.scheduleWrite(0, "noop", shard -> CoordinatorResult.of("noop"));

        assertThat(log.inFlight()).isEqualTo(1); // the second waits: it must see the first's outcome
        assertThat(second).isNotDone();
        assertThat(nothingToWrite).isNotDone(); // answers stay in order

        log.commitNext();
        assertThat(first).isCompletedWithValue(1);
        assertThat(log.inFlight()).isEqualTo(1);
        log.commitNext();
        assertThat(second).isCompletedWithValue(2);
        assertThat(nothingToWrite).isCompletedWithValue("noop");
        assertThat(committedState()).containsExactly(Map.entry("counter", "2"));
    }

    @Test
    void aFailedAppendChangesNothingAndTheOperationFailsWithTheClientsError() {
        runtime.load(0, log);
        put("a", "1");
        log.commitNext();
        List<ErrorCode> heard = new ArrayList<>();
        CompletableFuture<String> failed = runtime.scheduleWrite(0, "put", shard -> new CoordinatorResult<>(
                List.of(new Entry("a", "2"), new Entry("b", "2")), "put", true, heard::add));
        CompletableFuture<Integer> next = runtime.scheduleWrite(0, "increment", KeyValueShard::increment);

        log.failNext(ErrorCode.NOT_LEADER_OR_FOLLOWER);

        assertThat(errorOf(failed)).isEqualTo(ErrorCode.NOT_COORDINATOR);
        assertThat(heard).containsExactly(ErrorCode.NOT_COORDINATOR);
        assertThat(committedState()).containsExactly(Map.entry("a", "1"));
        // The queue goes on: the next write runs on the state the failed one left alone.
        log.commitNext();
        assertThat(next).isCompletedWithValue(1);
        assertThat(committedState()).containsExactly(Map.entry("a", "1"), Map.entry("counter", "1"));
    }

    @Test
    void appendErrorsMapToWhatKafkasCoordinatorsAnswer() {
        runtime.load(0, log);
        CompletableFuture<String> timedOut = put("a", "1");
        log.failNext(ErrorCode.REQUEST_TIMED_OUT);
        CompletableFuture<String> storage = put("a", "1");
        log.failNext(ErrorCode.KAFKA_STORAGE_ERROR);
        CompletableFuture<String> tooLarge = put("a", "1");
        log.failNext(ErrorCode.RECORD_LIST_TOO_LARGE);

        assertThat(errorOf(timedOut)).isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE);
        assertThat(errorOf(storage)).isEqualTo(ErrorCode.NOT_COORDINATOR);
        assertThat(errorOf(tooLarge)).isEqualTo(ErrorCode.UNKNOWN_SERVER_ERROR);
    }

    @Test
    void aWriteWhoseCommitNeverComesFailsWithCoordinatorNotAvailableAfterTheWriteTimeout() {
        CoordinatorRuntime<KeyValueShard, Entry> bounded = new CoordinatorRuntime<>("__toy", SERDE, p -> clock, 5000,
                KeyValueShard::new);
        try {
            bounded.load(0, log);
            CompletableFuture<String> stuck = bounded.scheduleWrite(0, "put",
                    shard -> CoordinatorResult.of(List.of(new Entry("a", "1")), "put a"));
            clock.advance(1000);
            CompletableFuture<String> queued = bounded.scheduleWrite(0, "put",
                    shard -> CoordinatorResult.of(List.of(new Entry("b", "1")), "put b"));

            clock.advance(3999);
            assertThat(stuck).isNotDone();
            clock.advance(1); // offsets.commit.timeout.ms (5000) after it was scheduled
            assertThat(errorOf(stuck)).isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE);
            assertThat(queued).isNotDone();
            clock.advance(1000);
            assertThat(errorOf(queued)).isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE);

            // The timed-out append still commits later: its records are applied, so the state follows the
            // log; the write that timed out while queued never ran and wrote nothing.
            assertThat(log.inFlight()).isEqualTo(1);
            log.commitNext();
            assertThat(log.inFlight()).isZero();
            assertThat(bounded.scheduleRead(0, "read", KeyValueShard::snapshot).join()).containsExactly(Map.entry("a", "1"));

            // A write committed in time is answered as usual and its timer never fires.
            CompletableFuture<String> inTime = bounded.scheduleWrite(0, "put",
                    shard -> CoordinatorResult.of(List.of(new Entry("c", "1")), "put c"));
            log.commitNext();
            clock.advance(10_000);
            assertThat(inTime).isCompletedWithValue("put c");
        } finally {
            bounded.close();
        }
    }

    @Test
    void readsSeeTheCommittedStateWhileAWriteIsInFlight() {
        runtime.load(0, log);
        put("a", "1");
        log.commitNext();
        CompletableFuture<String> inFlight = put("a", "2");

        CompletableFuture<Map<String, String>> read = runtime.scheduleRead(0, "read", KeyValueShard::snapshot);

        assertThat(read).isCompletedWithValue(Map.of("a", "1"));
        assertThat(inFlight).isNotDone();
    }

    @Test
    void aResultThatDescribesMemoryIsNotReplayedButItsCallbackHearsTheCommit() {
        runtime.load(0, log);
        List<String> callbacks = new ArrayList<>();
        CompletableFuture<String> written = runtime.scheduleWrite(0, "describe", shard -> {
            shard.state.put("x", "in memory"); // changed first, as a classic group is
            return new CoordinatorResult<>(List.of(new Entry("x", "on disk")), "done", false,
                    error -> callbacks.add(error + " with " + shard.state.get("x")));
        });
        log.commitNext();

        assertThat(written).isCompletedWithValue("done");
        assertThat(callbacks).containsExactly("NONE with in memory");
        assertThat(committedState()).containsEntry("x", "in memory");
    }

    @Test
    void loadingReplaysTheCommittedLogIntoAFreshShard() {
        runtime.load(0, log);
        put("a", "1");
        put("b", "1");
        put("a", null);
        runtime.scheduleWrite(0, "increment", KeyValueShard::increment);
        for (int i = 0; i < 4; i++) {
            log.commitNext();
        }
        put("uncommitted", "1"); // still in flight: not part of what a load sees
        Map<String, String> before = committedState();

        runtime.unload(0).join();
        CoordinatorRuntime<KeyValueShard, Entry> restarted = newRuntime(p -> clock);
        restarted.load(0, log);

        assertThat(restarted.scheduleRead(0, "read", KeyValueShard::snapshot).join())
                .isEqualTo(before).containsExactly(Map.entry("b", "1"), Map.entry("counter", "1"));
        assertThat(shards.get(1).events).containsExactly("loaded {b=1, counter=1}");
        restarted.close();
    }

    @Test
    void aPartitionStillLoadingAnswersLoadInProgressAndOneNotServedHereNotCoordinator() {
        clock.hold(); // the shard's thread is busy: the load has not run yet
        runtime.load(0, log);

        assertThat(runtime.isLoading(0)).isTrue();
        assertThat(errorOf(put("a", "1"))).isEqualTo(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
        assertThat(errorOf(runtime.scheduleRead(0, "read", KeyValueShard::snapshot))).isEqualTo(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
        assertThat(errorOf(runtime.scheduleRead(1, "read", KeyValueShard::snapshot))).isEqualTo(ErrorCode.NOT_COORDINATOR);

        clock.release();
        assertThat(runtime.isActive(0)).isTrue();
        CompletableFuture<String> written = put("a", "1");
        log.commitNext();
        assertThat(written).isCompletedWithValue("put a");
    }

    @Test
    void unloadingFailsQueuedAndInFlightWritesWithNotCoordinatorAndStopsTheShard() {
        runtime.load(0, log);
        List<ErrorCode> heard = new ArrayList<>();
        CompletableFuture<String> inFlight = runtime.scheduleWrite(0, "put", shard ->
                new CoordinatorResult<>(List.of(new Entry("a", "1")), "put", true, heard::add));
        CompletableFuture<String> queued = put("b", "1");

        runtime.unload(0).join();

        assertThat(errorOf(inFlight)).isEqualTo(ErrorCode.NOT_COORDINATOR);
        assertThat(heard).containsExactly(ErrorCode.NOT_COORDINATOR);
        assertThat(errorOf(queued)).isEqualTo(ErrorCode.NOT_COORDINATOR);
        assertThat(shards.get(0).events).containsExactly("loaded {}", "unloaded");
        assertThat(errorOf(put("c", "1"))).isEqualTo(ErrorCode.NOT_COORDINATOR);
        log.commitNext(); // the append completes after all: nothing is applied to a shard that is gone
        assertThat(shards.get(0).state).isEmpty();
    }

    @Test
    void timersRunAsWritesInOrderAndACancelledOneNeverRuns() {
        runtime.load(0, log);
        KeyValueShard shard = shards.get(0);
        runtime.scheduleRead(0, "arm", s -> s.context.schedule(1_000, "expire", () ->
                CoordinatorResult.of(List.of(new Entry("expired", "yes")), null))).join();
        Scheduler.Timer cancelled = runtime.scheduleRead(0, "arm", s -> s.context.schedule(2_000, "never", () ->
                CoordinatorResult.of(List.of(new Entry("never", "ran")), null))).join();
        CompletableFuture<String> inFlight = put("a", "1");

        clock.advance(2_000); // both fire while a write is in flight: they wait in the queue
        assertThat(log.inFlight()).isEqualTo(1);
        runtime.scheduleRead(0, "cancel", s -> {
            cancelled.cancel();
            return null;
        }).join();
        log.commitNext();
        assertThat(inFlight).isCompletedWithValue("put a");
        log.commitNext();

        assertThat(log.inFlight()).isZero();
        assertThat(shard.state).containsExactly(Map.entry("a", "1"), Map.entry("expired", "yes"));
    }

    @Test
    void onRealThreadsAppendsCompletedElsewhereAndTimersBothRunOnTheShardsThread() throws Exception {
        threads = new CoordinatorThreads("toy-coordinator", 2);
        ExecutorService writer = Executors.newSingleThreadExecutor(); // the partition's writer thread
        try {
            CoordinatorLog asyncLog = new ForwardingCoordinatorLog(log) {
                @Override
                public CompletableFuture<Long> append(java.nio.ByteBuffer batch) {
                    CompletableFuture<Long> appended = log.append(batch);
                    writer.execute(log::commitNext);
                    return appended;
                }

                @Override
                public CompletableFuture<Long> appendMarker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit) {
                    CompletableFuture<Long> appended = log.appendMarker(producerId, producerEpoch, coordinatorEpoch, commit);
                    writer.execute(log::commitNext);
                    return appended;
                }
            };
            CoordinatorRuntime<KeyValueShard, Entry> threaded = newRuntime(threads::scheduler);
            threaded.load(1, asyncLog).get(10, TimeUnit.SECONDS);
            List<CompletableFuture<Integer>> increments = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                increments.add(threaded.scheduleWrite(1, "increment", KeyValueShard::increment));
            }
            CompletableFuture<String> timerThread = new CompletableFuture<>();
            threaded.scheduleRead(1, "arm", s -> s.context.schedule(1, "timer", () -> {
                timerThread.complete(Thread.currentThread().getName());
                return CoordinatorResult.of(List.of(new Entry("timer", "fired")), null);
            })).get(10, TimeUnit.SECONDS);

            List<Integer> answers = new ArrayList<>();
            for (CompletableFuture<Integer> f : increments) {
                answers.add(f.get(10, TimeUnit.SECONDS));
            }
            assertThat(answers).isEqualTo(java.util.stream.IntStream.rangeClosed(1, 50).boxed().toList());
            assertThat(timerThread.get(10, TimeUnit.SECONDS)).isEqualTo("toy-coordinator-1");
            Function<KeyValueShard, String> readThread = s -> Thread.currentThread().getName() + " " + s.state.get("counter");
            assertThat(threaded.scheduleRead(1, "read", readThread).get(10, TimeUnit.SECONDS)).isEqualTo("toy-coordinator-1 50");
            threaded.close();
        } finally {
            writer.shutdownNow();
        }
    }

    @Test
    void anOperationThatThrowsFailsAloneAndTheQueueGoesOn() {
        runtime.load(0, log);
        CompletableFuture<String> broken = runtime.scheduleWrite(0, "broken", shard -> {
            throw new IllegalStateException("a bug");
        });
        CompletableFuture<String> fine = put("a", "1");
        log.commitNext();

        assertThatThrownBy(broken::join).hasRootCauseMessage("a bug");
        assertThat(CoordinatorErrors.of(catchFailure(broken))).isNull(); // a bug, not a client error
        assertThat(fine).isCompletedWithValue("put a");
    }

    private static Throwable catchFailure(CompletableFuture<?> f) {
        try {
            f.join();
            return null;
        } catch (CompletionException e) {
            return e;
        }
    }
}
