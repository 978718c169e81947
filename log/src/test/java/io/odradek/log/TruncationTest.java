package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.Batches.idempotent;
import static io.odradek.log.Batches.transactional;
import static io.odradek.log.LogFixture.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.checkpoint.LeaderEpochFile.EpochEntry;
import io.odradek.log.producer.ProducerSnapshotFile;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.FileLogInputStream;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A follower cutting its divergent tail (truncateTo) or starting over (truncateFullyAndStartAt), then going on. */
class TruncationTest {
    private static final long NOW = 1_000_000L;
    /** A few batches per segment, so histories cross rolls (each roll also writes a producer snapshot). */
    private static final Map<String, String> SMALL_SEGMENTS = Map.of(LogConfig.SEGMENT_BYTES, "300");
    /** As SMALL_SEGMENTS, with an index entry for nearly every batch, so the cut goes through index entries. */
    private static final Map<String, String> DENSE_INDEXES = Map.of(LogConfig.SEGMENT_BYTES, "300",
            LogConfig.INDEX_INTERVAL_BYTES, "1");

    @TempDir
    Path tmp;

    private final LogFixture.ManualClock clock = new LogFixture.ManualClock(NOW);
    private final List<PartitionLog> opened = new ArrayList<>();

    private PartitionLog open(String dir, Map<String, String> overrides) {
        return open(dir, overrides, PartitionLog.Options.defaults());
    }

    private PartitionLog open(String dir, Map<String, String> overrides, PartitionLog.Options options) {
        PartitionLog log = PartitionLog.open(tmp.resolve(dir), "t", 0, config(overrides), options.withClock(clock));
        opened.add(log);
        return log;
    }

    @AfterEach
    void closeLogs() {
        for (PartitionLog log : opened) {
            log.close();
        }
    }

    /** "offset:value" of every record from the log start to the log end, read segment by segment. */
    private static List<String> records(PartitionLog log) throws IOException {
        List<String> out = new ArrayList<>();
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            ByteBuffer slice = LogFixture.readSlice(log.read(offset, 1 << 20));
            List<String> batch = Batches.offsetsAndValues(slice);
            if (batch.isEmpty()) {
                break;
            }
            out.addAll(batch);
            String last = batch.get(batch.size() - 1);
            offset = Long.parseLong(last.substring(0, last.indexOf(':'))) + 1;
        }
        return out;
    }

    /** "base-last@epoch" of every batch in the live segment files (LogFixture.segmentFileBatches checks them). */
    private static List<String> segmentFileBatches(PartitionLog log) throws IOException {
        return LogFixture.segmentFileBatches(log).stream()
                .map(b -> b.baseOffset() + "-" + b.lastOffset() + "@" + b.partitionLeaderEpoch()).toList();
    }

    /**
     * What {@code kafka-dump-log --index-sanity-check} verifies, with Kafka's own index classes on a closed
     * log's files: each .index entry points at a batch starting there whose last offset it names, each
     * .timeindex entry names a batch carrying that largest timestamp, and Kafka's sanity checks pass.
     */
    private static void assertKafkaAcceptsTheIndexes(Path dir) throws IOException {
        for (Path logFile : LogFixture.segmentFiles(dir)) {
            String prefix = logFile.getFileName().toString().substring(0, 20);
            long base = Long.parseLong(prefix);
            Map<Integer, Long> lastOffsetAt = new java.util.HashMap<>();
            Map<Long, Long> maxTimestampOfBatchEndingAt = new java.util.HashMap<>();
            try (FileRecords records = FileRecords.open(new File(logFile.toString()), false)) {
                for (FileLogInputStream.FileChannelRecordBatch b : records.batches()) {
                    lastOffsetAt.put(b.position(), b.lastOffset());
                    maxTimestampOfBatchEndingAt.put(b.lastOffset(), b.maxTimestamp());
                }
            }
            var offsetIndex = new org.apache.kafka.storage.internals.log.OffsetIndex(
                    dir.resolve(prefix + ".index").toFile(), base, 10 << 20, false);
            try {
                offsetIndex.sanityCheck();
                for (int i = 0; i < offsetIndex.entries(); i++) {
                    var e = offsetIndex.entry(i);
                    assertThat(lastOffsetAt.get(e.position())).as(prefix + ".index " + e).isEqualTo(e.offset());
                }
            } finally {
                offsetIndex.close();
            }
            var timeIndex = new org.apache.kafka.storage.internals.log.TimeIndex(
                    dir.resolve(prefix + ".timeindex").toFile(), base, 10 << 20, false);
            try {
                timeIndex.sanityCheck();
                for (int i = 0; i < timeIndex.entries(); i++) {
                    var e = timeIndex.entry(i);
                    assertThat(maxTimestampOfBatchEndingAt.get(e.offset())).as(prefix + ".timeindex " + e)
                            .isEqualTo(e.timestamp());
                }
            } finally {
                timeIndex.close();
            }
        }
    }

    /** Batches of 2 records at offsets 0-1, 2-3, ...; batch i under leader epoch epochOf(i). */
    private static void appendPairs(PartitionLog log, int batches, java.util.function.IntUnaryOperator epochOf) {
        for (int i = 0; i < batches; i++) {
            log.append(batch(NOW + i, "v" + (2 * i), "v" + (2 * i + 1)), epochOf.applyAsInt(i));
        }
    }

    @Test
    void truncationInTheMiddleOfASegmentDropsTheTailAndNewAppendsFollowOn() throws IOException {
        PartitionLog log = open("p", Map.of(LogConfig.INDEX_INTERVAL_BYTES, "1"));
        appendPairs(log, 4, i -> i < 2 ? 0 : 1);   // 0-1, 2-3 under epoch 0; 4-5, 6-7 under epoch 1

        log.truncateTo(4);

        assertThat(log.logEndOffset()).isEqualTo(4L);
        assertThat(records(log)).containsExactly("0:v0", "1:v1", "2:v2", "3:v3");
        assertThat(log.read(4, 1 << 20).isEmpty()).isTrue();
        assertThatThrownBy(() -> log.read(5, 1 << 20)).isInstanceOf(OffsetOutOfRangeException.class);
        assertThat(log.leaderEpochs()).containsExactly(new EpochEntry(0, 0));
        assertThat(log.endOffsetForEpoch(0)).isEqualTo(new EpochEndOffset(0, 4));
        assertThat(log.endOffsetForEpoch(1)).isEqualTo(EpochEndOffset.UNDEFINED);

        log.append(batch(NOW, "new"), 2);

        assertThat(records(log)).containsExactly("0:v0", "1:v1", "2:v2", "3:v3", "4:new");
        assertThat(log.leaderEpochs()).containsExactly(new EpochEntry(0, 0), new EpochEntry(2, 4));
        assertThat(segmentFileBatches(log)).containsExactly("0-1@0", "2-3@0", "4-4@2");
        // the time index lost the cut batches' entries: nothing is as new as NOW + 2 any more
        assertThat(log.offsetForTimestamp(NOW + 2)).isEmpty();
        assertThat(log.offsetForTimestamp(NOW + 1)).contains(new OffsetAndTimestamp(2, NOW + 1));
        log.close();
        assertKafkaAcceptsTheIndexes(log.dir());
    }

    @Test
    void truncationInsideABatchDropsTheWholeBatch() throws IOException {
        PartitionLog log = open("p", Map.of());
        log.append(batch(NOW, "a", "b"), 0);
        log.append(batch(NOW + 5, "c", "d", "e"), 0);   // 2-4

        log.truncateTo(3);

        assertThat(log.logEndOffset()).isEqualTo(2L);
        assertThat(records(log)).containsExactly("0:a", "1:b");
        // the cut batch held the largest timestamp: ListOffsets -3 answers from what is left
        assertThat(log.maxTimestampOffset()).contains(new OffsetAndTimestamp(0, NOW));
    }

    @Test
    void truncationAcrossSegmentRollsRemovesLaterSegmentsAndTheLogGoesOnFromTheCut() throws IOException {
        PartitionLog log = open("p", SMALL_SEGMENTS);
        appendPairs(log, 12, i -> i / 4);   // epochs 0, 1, 2 from offsets 0, 8, 16
        List<Long> before = log.segmentBaseOffsets();
        assertThat(before.size()).isGreaterThan(3);
        long cut = 10;   // inside epoch 1, in a middle segment

        log.truncateTo(cut);

        assertThat(log.logEndOffset()).isEqualTo(cut);
        assertThat(log.segmentBaseOffsets()).allMatch(base -> base <= cut).contains(cut);
        assertThat(log.segmentBaseOffsets()).containsAll(before.stream().filter(b -> b < cut).toList());
        assertThat(records(log)).hasSize(10).last().isEqualTo("9:v9");
        assertThat(log.leaderEpochs()).containsExactly(new EpochEntry(0, 0), new EpochEntry(1, 8));
        assertThat(ProducerSnapshotFile.list(log.dir())).allMatch(o -> o <= cut);
        // the removed segments are only renamed until file.delete.delay.ms: no live file past the cut
        try (Stream<Path> files = Files.list(log.dir())) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".log")))
                    .allMatch(n -> Long.parseLong(n.substring(0, 20)) <= cut);
        }

        appendPairs(log, 3, i -> 3);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            expected.add(i + ":v" + i);
        }
        for (int i = 0; i < 6; i++) {
            expected.add((10 + i) + ":v" + i);
        }
        assertThat(records(log)).isEqualTo(expected);
        assertThat(segmentFileBatches(log)).hasSize(8).last().isEqualTo("14-15@3");
        assertThat(log.endOffsetForEpoch(1)).isEqualTo(new EpochEndOffset(1, 10));
    }

    @Test
    void logReopenedAfterTruncationIsTheSameLog() throws IOException {
        for (boolean clean : new boolean[] {true, false}) {
            String dir = clean ? "clean" : "unclean";
            PartitionLog log = open(dir, DENSE_INDEXES);
            appendPairs(log, 10, i -> i / 3);
            log.append(idempotent(1000L, (short) 0, 0, NOW, "i0"), 3);
            log.append(transactional(2000L, (short) 0, 0, NOW, "t0"), 3);
            log.truncateTo(13);   // inside the pairs' epoch-2 batches: 12-13 goes
            log.append(batch(NOW, "after"), 4);
            List<String> records = records(log);
            List<EpochEntry> epochs = log.leaderEpochs();
            long end = log.logEndOffset();
            log.close();
            assertKafkaAcceptsTheIndexes(tmp.resolve(dir).resolve("t-0"));

            PartitionLog reopened = open(dir, DENSE_INDEXES, PartitionLog.Options.defaults().withCleanShutdown(clean));

            assertThat(reopened.logEndOffset()).as(dir).isEqualTo(end).isEqualTo(13L);
            assertThat(records(reopened)).as(dir).isEqualTo(records).endsWith("11:v11", "12:after");
            assertThat(reopened.leaderEpochs()).as(dir).isEqualTo(epochs);
            assertThat(reopened.activeProducers()).as(dir).isEmpty();
            assertThat(segmentFileBatches(reopened)).as(dir).hasSize(7);
        }
    }

    @Test
    void producerStateAfterTruncationIsTheStateOfTheLogUpToTheCut() throws IOException {
        PartitionLog log = open("cut", SMALL_SEGMENTS);
        PartitionLog reference = open("reference", SMALL_SEGMENTS);
        // History up to offset 9 on both; the cut log also gets a tail that the truncation removes.
        for (PartitionLog l : List.of(log, reference)) {
            l.append(idempotent(1000L, (short) 0, 0, NOW, "i0", "i1"), 0);        // 0-1
            l.append(transactional(2000L, (short) 1, 0, NOW, "t0"), 0);            // 2
            l.append(transactional(3000L, (short) 2, 0, NOW, "x0"), 0);            // 3
            l.appendMarker(3000L, (short) 2, 0, false, 0);                         // 4: abort
            l.append(idempotent(1000L, (short) 0, 2, NOW + 1, "i2"), 0);          // 5
            l.append(batch(NOW, "p6", "p7", "p8"), 0);                              // 6-8
        }
        log.append(idempotent(1000L, (short) 0, 3, NOW + 2, "gone"), 1);           // 9
        log.appendMarker(2000L, (short) 1, 0, true, 1);                             // 10: commit, goes
        log.append(transactional(4000L, (short) 0, 0, NOW, "y0"), 1);              // 11: opens, goes
        log.appendMarker(4000L, (short) 0, 0, false, 1);                            // 12: abort, goes
        log.append(idempotent(5000L, (short) 0, 0, NOW, "z"), 1);                  // 13: new producer, goes
        assertThat(log.abortedTransactions(0, Long.MAX_VALUE)).hasSize(2);
        assertThat(log.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);

        log.truncateTo(9);

        assertThat(log.activeProducers()).isEqualTo(reference.activeProducers());
        assertThat(log.firstUnstableOffset()).isEqualTo(reference.firstUnstableOffset()).isEqualTo(2L);
        assertThat(log.abortedTransactions(0, Long.MAX_VALUE)).isEqualTo(reference.abortedTransactions(0, Long.MAX_VALUE))
                .extracting(t -> t.producerId() + ":" + t.firstOffset() + "-" + t.lastOffset())
                .containsExactly("3000:3-4");
        assertThat(log.hasOngoingTransaction(2000L, (short) 1)).isTrue();
        assertThat(log.hasOngoingTransaction(4000L, (short) 0)).isFalse();
        // read_committed stops at the transaction the truncation reopened
        assertThat(Batches.offsetsAndValues(LogFixture.readSlice(log.read(0, 1 << 20, Long.MAX_VALUE, true))))
                .containsExactly("0:i0", "1:i1");

        // the producer goes on from its last sequence before the cut; the marker commits the reopened transaction
        log.append(idempotent(1000L, (short) 0, 3, NOW + 3, "again"), 1);
        log.appendMarker(2000L, (short) 1, 0, true, 1);
        assertThat(log.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);
        assertThat(log.activeProducers()).filteredOn(p -> p.producerId() == 1000L).singleElement()
                .satisfies(p -> assertThat(p.lastSequence()).isEqualTo(3));
    }

    @Test
    void fetchSentFromBeforeATruncationNeverCarriesDataWrittenAfterIt() throws IOException {
        PartitionLog log = open("p", Map.of());
        log.append(batch(NOW, "a", "b"), 0);
        log.append(batch(NOW, "c", "d"), 0);
        log.append(batch(NOW, "e", "f"), 0);
        FileSlice inFlight = log.read(0, 1 << 20);   // a fetch about to be sent: all three batches

        log.truncateTo(2);
        log.append(batch(NOW, "X", "Y", "Z"), 1);

        // The slice reads what is left at its position: whole batches up to the cut, never the new batch.
        assertThat(Batches.offsetsAndValues(LogFixture.readSlice(inFlight))).containsExactly("0:a", "1:b");
        assertThat(records(log)).containsExactly("0:a", "1:b", "2:X", "3:Y", "4:Z");
    }

    @Test
    void aRollsBackgroundFlushRunningAfterATruncationLeavesTheRecoveryPointWithinTheLog() throws Exception {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try {
            CountDownLatch gate = new CountDownLatch(1);
            scheduler.execute(() -> {
                try {
                    gate.await();   // holds back the flushes the rolls queue
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            PartitionLog log = open("p", SMALL_SEGMENTS, PartitionLog.Options.defaults().withScheduler(scheduler));
            appendPairs(log, 12, i -> 0);
            assertThat(log.segmentBaseOffsets()).hasSizeGreaterThan(2);   // each roll queued a flush
            long lastRoll = log.segmentBaseOffsets().get(log.segmentBaseOffsets().size() - 1);

            log.truncateTo(2);
            gate.countDown();
            scheduler.submit(() -> { }).get();   // the queued flushes have run

            assertThat(lastRoll).isGreaterThan(2L);
            assertThat(log.logEndOffset()).isEqualTo(2L);
            assertThat(log.recoveryPoint()).isLessThanOrEqualTo(2L);
            log.append(batch(NOW, "x"), 1);
            log.flush();
            assertThat(log.recoveryPoint()).isEqualTo(3L);
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void aReadStartingWhileATruncationIsUnderWayAnswersFromTheNewLogEnd() throws Exception {
        PartitionLog log = open("p", Map.of());
        log.append(batch(NOW, "a", "b"), 0);
        log.append(batch(NOW, "c", "d"), 0);
        log.append(batch(NOW, "e", "f"), 0);
        List<Object> answers = new CopyOnWriteArrayList<>();
        Thread[] reader = new Thread[1];
        log.beforeTruncationPublished = () -> {
            // the segments are cut already, the new end not yet published: a fetch at the new end arrives
            reader[0] = new Thread(() -> {
                try {
                    answers.add(log.read(2, 1 << 20));
                } catch (RuntimeException e) {
                    answers.add(e);
                }
            });
            reader[0].start();
            try {
                reader[0].join(500);   // gives a read that does not wait the time to answer from the old end
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };

        log.truncateTo(2);
        reader[0].join();

        assertThat(answers).singleElement().isInstanceOfSatisfying(FileSlice.class, slice -> {
            assertThat(slice.isEmpty()).isTrue();    // offset 2 is the new log end: nothing yet, not out of range
            assertThat(slice.firstOffset()).isEqualTo(2L);
        });
        log.append(batch(NOW, "X"), 1);
        assertThat(records(log)).containsExactly("0:a", "1:b", "2:X");
    }

    @Test
    void truncationToTheFirstSegmentsBaseStartsTheLogOver() throws IOException {
        PartitionLog log = open("p", Map.of());
        appendPairs(log, 3, i -> 0);

        log.truncateTo(0);

        assertThat(log.logEndOffset()).isZero();
        assertThat(log.leaderEpochs()).isEmpty();
        assertThat(records(log)).isEmpty();
        log.append(batch(NOW, "fresh"), 1);
        assertThat(records(log)).containsExactly("0:fresh");
    }

    @Test
    void truncationAtOrPastTheLogEndChangesNothing() throws IOException {
        PartitionLog log = open("p", Map.of());
        appendPairs(log, 2, i -> 0);
        Map<String, byte[]> before = LogFixture.snapshotFiles(log.dir());

        log.truncateTo(4);
        log.truncateTo(100);

        assertThat(log.logEndOffset()).isEqualTo(4L);
        assertThat(LogFixture.snapshotFiles(log.dir()).keySet()).isEqualTo(before.keySet());
    }

    @Test
    void truncateFullyAndStartAtEmptiesTheLogAndFollowerAppendsContinueFromThere() throws IOException {
        PartitionLog leader = open("leader", Map.of());
        PartitionLog follower = open("follower", SMALL_SEGMENTS);
        appendPairs(follower, 6, i -> 0);
        follower.append(transactional(2000L, (short) 0, 0, NOW, "open"), 0);
        appendPairs(leader, 60, i -> 4);   // the leader is far ahead: offsets 0-119

        follower.truncateFullyAndStartAt(100);

        assertThat(follower.logStartOffset()).isEqualTo(100L);
        assertThat(follower.logEndOffset()).isEqualTo(100L);
        assertThat(follower.segmentBaseOffsets()).containsExactly(100L);
        assertThat(follower.leaderEpochs()).isEmpty();
        assertThat(follower.activeProducers()).isEmpty();
        assertThat(follower.firstUnstableOffset()).isEqualTo(Long.MAX_VALUE);
        assertThat(ProducerSnapshotFile.list(follower.dir())).isEmpty();
        assertThatThrownBy(() -> follower.read(0, 1 << 20)).isInstanceOf(OffsetOutOfRangeException.class);

        FollowerLogTest.replicate(leader, follower);

        assertThat(follower.logEndOffset()).isEqualTo(120L);
        assertThat(records(follower)).hasSize(20).first().isEqualTo("100:v100");
        assertThat(follower.leaderEpochs()).containsExactly(new EpochEntry(4, 100));
        follower.close();
        PartitionLog reopened = open("follower", SMALL_SEGMENTS,
                PartitionLog.Options.defaults().withCheckpoints(100, 100));
        assertThat(reopened.logStartOffset()).isEqualTo(100L);
        assertThat(records(reopened)).hasSize(20).last().isEqualTo("119:v119");
    }

    @Test
    void followerWithAnEmptyLogStartsAtTheLeadersBatchHoldingItsStart() throws IOException {
        PartitionLog leader = open("leader", Map.of());
        PartitionLog follower = open("follower", Map.of());
        leader.append(batch(NOW, "a", "b", "c", "d"), 0);   // 0-3
        follower.truncateFullyAndStartAt(2);                 // the leader's log start was 2 (DeleteRecords)

        follower.appendAsFollower(LogFixture.readSlice(leader.read(2, 1 << 20)));

        assertThat(follower.logStartOffset()).isZero();
        assertThat(follower.logEndOffset()).isEqualTo(4L);
        assertThat(records(follower)).containsExactly("0:a", "1:b", "2:c", "3:d");
    }

    @Test
    void divergentFollowerTruncatesToTheLeadersEpochEndAndThenMatchesTheLeader() throws IOException {
        PartitionLog leader = open("leader", Map.of());
        PartitionLog follower = open("follower", Map.of());
        leader.append(batch(NOW, "a", "b"), 1);
        FollowerLogTest.replicate(leader, follower);
        // the follower, briefly leader at epoch 2, wrote what nobody else has
        follower.append(batch(NOW, "lost1", "lost2"), 2);
        follower.append(batch(NOW, "lost3"), 2);
        // the leader moved on at epoch 3
        leader.append(batch(NOW, "c"), 3);
        leader.append(batch(NOW, "d", "e"), 3);

        // what the fetcher does with OffsetForLeaderEpoch / DivergingEpoch: the leader's end of the follower's epoch
        EpochEndOffset diverging = leader.endOffsetForEpoch(follower.latestEpoch());
        assertThat(diverging).isEqualTo(new EpochEndOffset(1, 2));
        follower.truncateTo(diverging.endOffset());
        FollowerLogTest.replicate(leader, follower);

        assertThat(records(follower)).isEqualTo(records(leader))
                .containsExactly("0:a", "1:b", "2:c", "3:d", "4:e");
        assertThat(follower.leaderEpochs()).isEqualTo(leader.leaderEpochs());
        assertThat(segmentFileBatches(follower)).isEqualTo(segmentFileBatches(leader));
    }

    @Test
    void readsRacingTruncationsAndAppendsOnlyEverSeeWholeBatchesOfTheOffsetsTheyAskFor() throws Exception {
        PartitionLog log = open("p", Map.of(LogConfig.SEGMENT_BYTES, "2000"));
        AtomicBoolean writing = new AtomicBoolean(true);
        List<String> problems = new CopyOnWriteArrayList<>();
        AtomicInteger slicesChecked = new AtomicInteger();
        Thread reader = new Thread(() -> {
            Random random = new Random(7);
            while (writing.get() || slicesChecked.get() == 0) {
                long from = (long) (random.nextDouble() * (log.logEndOffset() + 1));
                try {
                    // sent after the read returned, as a fetch response is, while the writer goes on
                    ByteBuffer bytes = LogFixture.readSlice(log.read(from, 300));
                    for (RecordBatch b : MemoryRecords.readableRecords(bytes).batches()) {
                        b.ensureValid();
                        for (Record r : b) {
                            String value = StandardCharsets.UTF_8.decode(r.value()).toString();
                            if (!value.startsWith("o" + r.offset() + ":")) {
                                problems.add("offset " + r.offset() + " holds " + value);
                            }
                        }
                    }
                    slicesChecked.incrementAndGet();
                } catch (OffsetOutOfRangeException truncatedMeanwhile) {
                    // asked for an offset a truncation removed: what a fetcher is told
                } catch (IOException | RuntimeException e) {
                    problems.add(from + ": " + e);
                }
            }
        });
        reader.start();
        Random random = new Random(11);
        try {
            for (int round = 0; round < 120; round++) {
                for (int i = 0; i < 4; i++) {
                    long next = log.logEndOffset();
                    log.append(batch(NOW, "o" + next + ":r" + round, "o" + (next + 1) + ":r" + round), round);
                }
                log.truncateTo(Math.max(0, log.logEndOffset() - 1 - random.nextInt(6)));
            }
        } finally {
            writing.set(false);
            reader.join();
        }

        assertThat(problems).isEmpty();
        assertThat(slicesChecked.get()).isPositive();
        List<String> all = records(log);
        for (String r : all) {
            String offset = r.substring(0, r.indexOf(':'));
            assertThat(r).startsWith(offset + ":o" + offset + ":");
        }
    }
}
