package io.odradek.log;

import static io.odradek.log.LogFixture.config;
import static io.odradek.log.LogFixture.segmentFileBatches;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.producer.ActiveProducer;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.RecordBatchBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction of logs holding transactions, as Kafka's cleaner does it: aborted data goes, open transactions
 * stop the cleaner, markers stay until their transaction has no data left and their delete horizon passed.
 * Batches are written with our RecordBatchBuilder/EndTxnMarker through PartitionLog.append/appendMarker and
 * read back with Kafka's own MemoryRecords and FileRecords.
 */
class TransactionalCleaningTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final long DAY = 86_400_000L; // delete.retention.ms default
    private static final long P1 = 1000L;
    private static final long P2 = 2000L;
    private static final long IDEMPOTENT = 3000L;

    @TempDir
    Path logDir;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final LogFixture.ManualClock clock = new LogFixture.ManualClock(T0);
    private final Map<Long, Integer> nextSequence = new HashMap<>();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private PartitionLog open(boolean cleanShutdown) {
        return PartitionLog.open(logDir, "t", 0, config(Map.of(LogConfig.CLEANUP_POLICY, "compact",
                        LogConfig.SEGMENT_BYTES, "600", LogConfig.INDEX_INTERVAL_BYTES, "100",
                        LogConfig.FILE_DELETE_DELAY_MS, "0")),
                PartitionLog.Options.defaults().withScheduler(scheduler).withClock(clock).withCleanShutdown(cleanShutdown));
    }

    // ---------------------------------------------------------------- writing

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    /** A batch of plain (non-idempotent) key=value records; returns its base offset. */
    private long plain(PartitionLog log, String... kv) {
        RecordBatchBuilder b = new RecordBatchBuilder(clock.millis());
        for (int i = 0; i < kv.length; i += 2) {
            b.append(utf8(kv[i]), utf8(kv[i + 1]));
        }
        return log.append(b.build(), 0).baseOffset();
    }

    /** A batch of {@code pid} (epoch 0, next sequence), transactional or merely idempotent. */
    private long produce(PartitionLog log, long pid, boolean transactional, String... kv) {
        int seq = nextSequence.getOrDefault(pid, 0);
        RecordBatchBuilder b = new RecordBatchBuilder(clock.millis()).producer(pid, (short) 0, seq);
        if (transactional) {
            b.transactional();
        }
        for (int i = 0; i < kv.length; i += 2) {
            b.append(utf8(kv[i]), utf8(kv[i + 1]));
        }
        nextSequence.put(pid, seq + kv.length / 2);
        return log.append(b.build(), 0).baseOffset();
    }

    private long txn(PartitionLog log, long pid, String... kv) {
        return produce(log, pid, true, kv);
    }

    private long commit(PartitionLog log, long pid) {
        return log.appendMarker(pid, (short) 0, 0, true, 0).baseOffset();
    }

    private long abort(PartitionLog log, long pid) {
        return log.appendMarker(pid, (short) 0, 0, false, 0).baseOffset();
    }

    /** Plain records of unique keys until the log has rolled {@code rolls} more times. */
    private void fillerUntilRolled(PartitionLog log, int rolls, String tag) {
        int target = log.numberOfSegments() + rolls;
        for (int i = 0; log.numberOfSegments() < target; i++) {
            plain(log, tag + i, "x".repeat(40));
        }
    }

    // ---------------------------------------------------------------- reading (Kafka's classes)

    /**
     * Every batch from the log start on, through PartitionLog.read and Kafka's MemoryRecords, each CRC-checked:
     * "offset:key=value" per data record, "offset:COMMIT@pid"/"offset:ABORT@pid" per marker,
     * "base-last:empty@pid" for a batch kept without records.
     */
    private static List<String> dump(PartitionLog log) throws Exception {
        List<String> out = new ArrayList<>();
        for (RecordBatch batch : batches(log)) {
            if (batch.countOrNull() == 0) {
                out.add(batch.baseOffset() + "-" + batch.lastOffset() + ":empty@" + batch.producerId());
                continue;
            }
            for (Record r : batch) {
                if (batch.isControlBatch()) {
                    out.add(r.offset() + ":" + ControlRecordType.parse(r.key()) + "@" + batch.producerId());
                } else {
                    out.add(r.offset() + ":" + str(r.key()) + "=" + (r.hasValue() ? str(r.value()) : "null"));
                }
            }
        }
        return out;
    }

    private static List<RecordBatch> batches(PartitionLog log) throws Exception {
        List<RecordBatch> out = new ArrayList<>();
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            ByteBuffer buf = LogFixture.readSlice(log.read(offset, 1));
            RecordBatch batch = MemoryRecords.readableRecords(buf).batches().iterator().next();
            batch.ensureValid();
            out.add(batch);
            offset = batch.lastOffset() + 1;
        }
        return out;
    }

    /**
     * "offset:key=value" of each data record a read_committed consumer fetching from {@code offset} hands to
     * the application: the log read up to the last stable offset, with the aborted transactions the log
     * reports for that range filtered out as Kafka's consumer does (a transactional batch of a producer
     * whose aborted transaction started at or before it is skipped until that producer's abort marker).
     */
    private static List<String> readCommittedConsumer(PartitionLog log, long offset) throws Exception {
        long lso = Math.min(log.firstUnstableOffset(), log.logEndOffset());
        PriorityQueue<AbortedTxn> aborted = new PriorityQueue<>(Comparator.comparingLong(AbortedTxn::firstOffset));
        aborted.addAll(log.abortedTransactions(offset, lso));
        Set<Long> abortedProducers = new HashSet<>();
        List<String> out = new ArrayList<>();
        long next = offset;
        while (next < lso) {
            ByteBuffer buf = LogFixture.readSlice(log.read(next, 1 << 20, Long.MAX_VALUE, true));
            for (RecordBatch batch : MemoryRecords.readableRecords(buf).batches()) {
                batch.ensureValid();
                next = batch.lastOffset() + 1;
                while (!aborted.isEmpty() && aborted.peek().firstOffset() <= batch.lastOffset()) {
                    abortedProducers.add(aborted.poll().producerId());
                }
                if (batch.isControlBatch()) {
                    Record marker = batch.iterator().next();
                    if (ControlRecordType.parse(marker.key()) == ControlRecordType.ABORT) {
                        abortedProducers.remove(batch.producerId());
                    }
                    continue;
                }
                if (batch.isTransactional() && abortedProducers.contains(batch.producerId())) {
                    continue;
                }
                for (Record r : batch) {
                    out.add(r.offset() + ":" + str(r.key()) + "=" + (r.hasValue() ? str(r.value()) : "null"));
                }
            }
        }
        return out;
    }

    private static String str(ByteBuffer b) {
        return StandardCharsets.UTF_8.decode(b.duplicate()).toString();
    }

    private static List<String> from(List<String> dump, long offset) {
        return dump.stream().filter(s -> firstOffset(s) >= offset).toList();
    }

    private static long firstOffset(String entry) {
        int end = entry.indexOf(':');
        int dash = entry.indexOf('-');
        return Long.parseLong(entry.substring(0, dash > 0 && dash < end ? dash : end));
    }

    // ---------------------------------------------------------------- tests

    @Test
    void cleaningInterleavedTransactionsKeepsCommittedLatestValuesAndDropsAbortedData() throws Exception {
        try (PartitionLog log = open(false)) {
            long a0 = plain(log, "k1", "a0", "k2", "b0");                // plain values
            long t1 = txn(log, P1, "k1", "t1", "k3", "c1");              // P1 commits
            long i1 = produce(log, IDEMPOTENT, false, "k6", "i1");       // idempotent, superseded below
            long x1 = txn(log, P2, "k2", "x1", "k4", "x1");              // P2 aborts
            long c1 = commit(log, P1);
            long ab1 = abort(log, P2);
            fillerUntilRolled(log, 1, "f");
            long x2 = txn(log, P2, "k1", "x2");                          // aborted, after the committed k1=t1
            long t2 = txn(log, P1, "k3", "c2", "k5", "e2");              // committed, supersedes k3=c1
            long ab2 = abort(log, P2);
            long c2 = commit(log, P1);
            long k6 = plain(log, "k6", "p6");
            fillerUntilRolled(log, 2, "g");
            assertThat(log.numberOfSegments()).isGreaterThanOrEqualTo(4);
            long leo = log.logEndOffset();
            List<String> before = dump(log);

            assertThat(log.clean(clock.millis())).isPositive();

            List<String> after = dump(log);
            List<String> expected = new ArrayList<>();
            expected.add((a0 + 1) + ":k2=b0");           // k2=x1 was aborted: the plain value stays
            expected.add(t1 + ":k1=t1");                 // committed, and the aborted k1=x2 supersedes nothing
            expected.add(i1 + "-" + i1 + ":empty@" + IDEMPOTENT); // superseded, but its producer's last batch
            expected.add(c1 + ":COMMIT@" + P1);          // its transaction had data in this pass
            expected.add(ab1 + ":ABORT@" + P2);          // likewise: marker kept, aborted data gone
            expected.addAll(before.stream().filter(s -> s.startsWith(firstOffset(s) + ":f")).toList());
            expected.add(x2 + "-" + x2 + ":empty@" + P2); // P2's last data batch: emptied, kept for its sequence
            expected.add(t2 + ":k3=c2");
            expected.add((t2 + 1) + ":k5=e2");
            expected.add(ab2 + ":ABORT@" + P2);
            expected.add(c2 + ":COMMIT@" + P1);
            expected.add(k6 + ":k6=p6");
            expected.addAll(before.stream().filter(s -> s.startsWith(firstOffset(s) + ":g")).toList());
            assertThat(after).containsExactlyElementsOf(expected);
            assertThat(after).noneMatch(s -> s.contains("=x1") || s.contains("=x2") || s.contains("k3=c1")
                    || s.contains("k1=a0") || s.contains(":k6=i1"));
            assertThat(log.logEndOffset()).isEqualTo(leo);

            // every retained batch keeps its producer, epoch, sequence and transactional flag
            Map<Long, RecordBatch> byBase = new HashMap<>();
            for (RecordBatch b : segmentFileBatches(log)) {
                byBase.put(b.baseOffset(), b);
            }
            assertThat(byBase.get(t1).producerId()).isEqualTo(P1);
            assertThat(byBase.get(t1).isTransactional()).isTrue();
            assertThat(byBase.get(t1).baseSequence()).isZero();
            assertThat(byBase.get(t1).countOrNull()).isEqualTo(1); // k3=c1 went, k3=c2 supersedes it
            assertThat(byBase.get(t1).lastSequence()).isEqualTo(1); // the header still spans both records
            assertThat(byBase.get(t1).lastOffset()).isEqualTo(t1 + 1);
            assertThat(byBase.get(t2).baseSequence()).isEqualTo(2);
            assertThat(byBase.get(x2).isTransactional()).isTrue();
            assertThat(byBase.get(x2).producerId()).isEqualTo(P2);
            assertThat(byBase.get(x2).baseSequence()).isEqualTo(2);
            assertThat(byBase.get(x2).lastSequence()).isEqualTo(2);
            assertThat(byBase.get(c1).isControlBatch()).isTrue();
            assertThat(byBase.get(c1).isTransactional()).isTrue();
            assertThat(byBase).doesNotContainKey(x1);
            // the idempotent producer's only batch is its last: superseded, yet kept without records
            assertThat(byBase.get(i1).countOrNull()).isZero();
            assertThat(byBase.get(i1).producerId()).isEqualTo(IDEMPOTENT);
            assertThat(byBase.get(i1).baseSequence()).isZero();
        }
    }

    @Test
    void anAbortedRecordNeverSupersedesAnEarlierCommittedValueOfTheSameKey() throws Exception {
        try (PartitionLog log = open(false)) {
            long committed = txn(log, P1, "k", "committed");
            commit(log, P1);
            long aborted = txn(log, P2, "k", "aborted");
            abort(log, P2);
            long p2Next = txn(log, P2, "other", "o"); // so the aborted batch is not P2's last
            commit(log, P2);
            fillerUntilRolled(log, 2, "f");

            log.clean(clock.millis());

            List<String> after = dump(log);
            assertThat(after).contains(committed + ":k=committed", p2Next + ":other=o");
            assertThat(after).noneMatch(s -> s.startsWith(aborted + ":") || s.contains("k=aborted"));
            // a second pass over the cleaned log changes nothing about it
            log.clean(clock.millis());
            assertThat(dump(log)).contains(committed + ":k=committed");
        }
    }

    @Test
    void nothingAtOrAfterAnOpenTransactionIsCleanedUntilItCompletes() throws Exception {
        try (PartitionLog log = open(false)) {
            long old = plain(log, "k1", "old", "k2", "old");
            long mid = plain(log, "k1", "mid");
            long open = txn(log, P1, "k2", "txn"); // never completed in this phase
            fillerUntilRolled(log, 1, "f");
            long after = plain(log, "k1", "new"); // after the open transaction: supersedes nothing yet
            fillerUntilRolled(log, 2, "g");
            List<String> before = dump(log);
            List<long[]> batchesFromOpen = crcsFrom(log, open);

            log.clean(clock.millis());

            List<String> cleaned = dump(log);
            // below the open transaction: k1=old superseded by k1=mid; k2=old still latest there
            assertThat(cleaned).doesNotContain(old + ":k1=old");
            assertThat(cleaned).contains((old + 1) + ":k2=old", mid + ":k1=mid");
            // from it on: every batch byte for byte as written
            assertThat(from(cleaned, open)).containsExactlyElementsOf(from(before, open));
            assertThat(crcsFrom(log, open)).usingRecursiveComparison().isEqualTo(batchesFromOpen);
            assertThat(cleaned).contains(open + ":k2=txn", after + ":k1=new");

            long marker = commit(log, P1);
            fillerUntilRolled(log, 1, "h");
            log.clean(clock.millis());

            cleaned = dump(log);
            assertThat(cleaned).noneMatch(s -> s.contains("k1=old") || s.contains("k1=mid") || s.contains("k2=old"));
            assertThat(cleaned).contains(open + ":k2=txn", after + ":k1=new", marker + ":COMMIT@" + P1);
        }
    }

    @Test
    void markersStayUntilTheirTransactionHasNoDataLeftAndTheDeleteHorizonPassed() throws Exception {
        try (PartitionLog log = open(false)) {
            txn(log, P1, "k1", "a");
            long commitA = commit(log, P1);
            long dataB = txn(log, P1, "k2", "b");
            long commitB = commit(log, P1);
            long abortedC = txn(log, P2, "k3", "c");
            long abortC = abort(log, P2);
            long dataD = txn(log, P2, "k4", "d");
            long commitD = commit(log, P2);
            plain(log, "k1", "x"); // supersedes transaction A's only record
            fillerUntilRolled(log, 2, "f");

            // pass 1: A's record and C's aborted record go; their markers stay (their data was met)
            log.clean(clock.millis());
            List<String> pass1 = dump(log);
            assertThat(pass1).noneMatch(s -> s.contains("k1=a") || s.contains("k3=c"));
            assertThat(pass1).contains(commitA + ":COMMIT@" + P1, abortC + ":ABORT@" + P2,
                    dataB + ":k2=b", commitB + ":COMMIT@" + P1, dataD + ":k4=d", commitD + ":COMMIT@" + P2);
            assertThat(pass1).noneMatch(s -> s.startsWith(abortedC + ":") || s.startsWith(abortedC + "-"));
            assertThat(markerBatch(log, commitA).deleteHorizonMs()).isEmpty();

            // pass 2: no data left for A and C: their markers get a delete horizon, nothing else does
            clock.set(T0 + 1);
            log.clean(clock.millis());
            assertThat(dump(log)).contains(commitA + ":COMMIT@" + P1, abortC + ":ABORT@" + P2);
            assertThat(markerBatch(log, commitA).deleteHorizonMs()).hasValue(T0 + 1 + DAY);
            assertThat(markerBatch(log, abortC).deleteHorizonMs()).hasValue(T0 + 1 + DAY);
            assertThat(markerBatch(log, commitB).deleteHorizonMs()).isEmpty();
            assertThat(markerBatch(log, commitD).deleteHorizonMs()).isEmpty();

            clock.set(T0 + DAY);
            log.clean(clock.millis());
            assertThat(dump(log)).contains(commitA + ":COMMIT@" + P1, abortC + ":ABORT@" + P2);

            // the horizon alone warrants a pass, which removes both markers and nothing else
            clock.set(T0 + 1 + DAY);
            assertThat(log.maybeClean(clock.millis())).isPositive();
            List<String> last = dump(log);
            assertThat(last).noneMatch(s -> s.startsWith(commitA + ":") || s.startsWith(abortC + ":"));
            assertThat(last).contains(dataB + ":k2=b", commitB + ":COMMIT@" + P1, dataD + ":k4=d",
                    commitD + ":COMMIT@" + P2);
            segmentFileBatches(log);
        }
    }

    @Test
    void tombstonesInsideTransactionsFollowTheDeleteHorizonAndAbortedOnesDeleteNothing() throws Exception {
        try (PartitionLog log = open(false)) {
            long kept = txn(log, P1, "k", "v1");
            commit(log, P1);
            long abortedTombstone = txn(log, P2, "k", null);
            abort(log, P2);
            txn(log, P2, "o", "o");
            commit(log, P2);
            long dv = txn(log, P1, "d", "dv");
            commit(log, P1);
            long tomb = txn(log, P1, "d", null, "e", "ev");
            long lastCommit = commit(log, P1);
            fillerUntilRolled(log, 2, "f");

            log.clean(clock.millis());

            List<String> pass1 = dump(log);
            assertThat(pass1).contains(kept + ":k=v1", tomb + ":d=null", (tomb + 1) + ":e=ev", lastCommit + ":COMMIT@" + P1);
            assertThat(pass1).noneMatch(s -> s.startsWith(abortedTombstone + ":") || s.startsWith(dv + ":"));
            RecordBatch stamped = markerBatch(log, tomb);
            assertThat(stamped.isTransactional()).isTrue();
            assertThat(stamped.producerId()).isEqualTo(P1);
            assertThat(stamped.deleteHorizonMs()).hasValue(T0 + DAY);

            clock.set(T0 + DAY);
            log.clean(clock.millis());

            List<String> pass2 = dump(log);
            assertThat(pass2).noneMatch(s -> s.contains(":d="));
            assertThat(pass2).contains(kept + ":k=v1", (tomb + 1) + ":e=ev", lastCommit + ":COMMIT@" + P1);
            RecordBatch rest = markerBatch(log, tomb);
            assertThat(rest.isTransactional()).isTrue();
            assertThat(rest.countOrNull()).isEqualTo(1);
            assertThat(rest.lastOffset()).isEqualTo(tomb + 1);
            assertThat(rest.iterator().next().timestamp()).isEqualTo(T0);
            segmentFileBatches(log);
        }
    }

    @Test
    void anAbortedTransactionAfterTheFirstUnstableOffsetOfACleanedSegmentStaysHiddenFromReadCommitted() throws Exception {
        try (PartitionLog log = open(false)) {
            long plain = plain(log, "k0", "v0");
            long open = txn(log, P1, "k1", "t1");          // open while the log is cleaned
            long aborted = txn(log, P2, "k2", "aborted");  // after it, in the same segment
            long marker = abort(log, P2);
            fillerUntilRolled(log, 1, "f");
            AbortedTxn entry = new AbortedTxn(P2, aborted, marker, open);
            assertThat(log.abortedTransactions(0, Long.MAX_VALUE)).containsExactly(entry);
            List<String> before = dump(log);

            log.clean(clock.millis());

            // the segment holding the first unstable offset was rewritten: from that offset on, batches and
            // the index entry of the abort among them stay as they were
            assertThat(dump(log)).containsExactlyElementsOf(before);
            assertThat(log.abortedTransactions(0, Long.MAX_VALUE)).containsExactly(entry);
            long committed = commit(log, P1);
            List<String> seen = readCommittedConsumer(log, 0);
            assertThat(seen).startsWith(plain + ":k0=v0", open + ":k1=t1");
            assertThat(seen).noneMatch(s -> s.contains("k2="));
            assertThat(readCommittedConsumer(log, aborted)).isEqualTo(from(seen, aborted)).allMatch(s -> s.contains(":f"));
            assertThat(log.abortedTransactions(aborted, committed)).containsExactly(entry);
        }
    }

    @Test
    void anAbortedTransactionStraddlingSegmentsKeepsItsIndexEntryWhenItsMarkerIsPastTheFirstUnstableOffset()
            throws Exception {
        try (PartitionLog log = open(false)) {
            plain(log, "k0", "v0");
            long firstAborted = txn(log, P2, "k2", "a1");  // P2's transaction starts in the first segment
            fillerUntilRolled(log, 1, "f");
            long open = txn(log, P1, "k1", "t1");          // second segment: the first unstable offset
            long lastAborted = txn(log, P2, "k2", "a2");
            long marker = abort(log, P2);
            fillerUntilRolled(log, 1, "g");
            AbortedTxn entry = new AbortedTxn(P2, firstAborted, marker, open);
            assertThat(log.abortedTransactions(0, Long.MAX_VALUE)).containsExactly(entry);

            log.clean(clock.millis());

            List<String> cleaned = dump(log);
            // below the first unstable offset the aborted batch went; after it, P2's last batch stays as written
            assertThat(cleaned).noneMatch(s -> s.startsWith(firstAborted + ":") || s.startsWith(firstAborted + "-"));
            assertThat(cleaned).contains(lastAborted + ":k2=a2", marker + ":ABORT@" + P2);
            assertThat(log.abortedTransactions(0, Long.MAX_VALUE)).containsExactly(entry);
            commit(log, P1);
            List<String> seen = readCommittedConsumer(log, 0);
            assertThat(seen).contains(open + ":k1=t1");
            assertThat(seen).noneMatch(s -> s.contains("k2="));
            assertThat(readCommittedConsumer(log, lastAborted)).noneMatch(s -> s.contains("k2="));
        }
    }

    @Test
    void nothingFromTheReportedHighWatermarkOnCountsForTheCleanerUntilItMovesPast() throws Exception {
        try (PartitionLog log = open(false)) {
            long old = plain(log, "k", "old");
            long aborted = txn(log, P2, "a", "aborted");
            long marker = abort(log, P2);
            long newer = plain(log, "k", "new");
            fillerUntilRolled(log, 2, "f");
            List<String> before = dump(log);
            // a partition with followers: the abort marker is not replicated yet, so P2's transaction is
            // not decided for the cleaner, and nothing from its first offset on may be cleaned
            log.updateHighWatermark(marker);

            log.clean(clock.millis());

            assertThat(dump(log)).containsExactlyElementsOf(before);
            assertThat(dump(log)).contains(old + ":k=old", aborted + ":a=aborted");

            log.updateHighWatermark(log.logEndOffset());
            log.clean(clock.millis());

            List<String> cleaned = dump(log);
            assertThat(cleaned).doesNotContain(old + ":k=old", aborted + ":a=aborted");
            assertThat(cleaned).contains(aborted + "-" + aborted + ":empty@" + P2, // P2's last data batch
                    marker + ":ABORT@" + P2, newer + ":k=new");
            assertThat(log.abortedTransactions(0, Long.MAX_VALUE)).containsExactly(new AbortedTxn(P2, aborted, marker, marker + 1));
        }
    }

    @Test
    void producerStateRebuiltFromTheCleanedLogKeepsTheLastSequence() throws Exception {
        long next;
        try (PartitionLog log = open(false)) {
            produce(log, IDEMPOTENT, false, "k", "1");
            long last = produce(log, IDEMPOTENT, false, "k", "2", "k", "3");
            plain(log, "k", "plain"); // supersedes every record of the producer
            fillerUntilRolled(log, 2, "f");
            log.clean(clock.millis());

            List<String> cleaned = dump(log);
            assertThat(cleaned).noneMatch(s -> s.contains(":k=1") || s.contains(":k=2") || s.contains(":k=3"));
            assertThat(cleaned).contains(last + "-" + (last + 1) + ":empty@" + IDEMPOTENT);
            RecordBatch empty = markerBatch(log, last);
            assertThat(empty.baseSequence()).isEqualTo(1);
            assertThat(empty.lastSequence()).isEqualTo(2);
            assertThat(empty.producerEpoch()).isZero();
            assertThat(empty.isTransactional()).isFalse();
            next = log.logEndOffset();
        }
        // forget the producer snapshots: the state comes from the cleaned log alone
        try (Stream<Path> files = Files.list(logDir.resolve("t-0"))) {
            for (Path p : files.filter(p -> p.toString().endsWith(".snapshot")).toList()) {
                Files.delete(p);
            }
        }
        try (PartitionLog log = open(false)) {
            ByteBuffer gap = new RecordBatchBuilder(T0).producer(IDEMPOTENT, (short) 0, 5).append(utf8("k"), utf8("gap")).build();
            assertThatThrownBy(() -> log.append(gap, 0))
                    .isInstanceOfSatisfying(LogAppendException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER));
            assertThat(produce(log, IDEMPOTENT, false, "k", "4")).isEqualTo(next);
        }
    }

    @Test
    void aLongOpenTransactionDoesNotMakeEveryCleanerTickRewriteTheSameSegments() throws Exception {
        try (PartitionLog log = open(false)) {
            List<Long> rewritten = new ArrayList<>();
            log.beforeSwapIn = cleaned -> rewritten.add(cleaned.baseOffset());
            long old = plain(log, "k1", "old");
            fillerUntilRolled(log, 1, "a");
            long mid = plain(log, "k1", "mid");
            long open = txn(log, P1, "k2", "txn"); // stays open through the next ticks
            fillerUntilRolled(log, 4, "f");
            plain(log, "k1", "new");
            fillerUntilRolled(log, 1, "g");

            assertThat(log.maybeClean(clock.millis())).isPositive(); // first tick after open: all is dirty
            assertThat(rewritten).isNotEmpty().allMatch(base -> base <= open);
            assertThat(dump(log)).doesNotContain(old + ":k1=old").contains(mid + ":k1=mid", open + ":k2=txn");

            // Segments past the open transaction are not cleanable, so they are not dirty either:
            // the next ticks find nothing to do, however many segments pile up behind it.
            rewritten.clear();
            fillerUntilRolled(log, 3, "h");
            assertThat(log.maybeClean(clock.millis())).isZero();
            assertThat(log.maybeClean(clock.millis())).isZero();
            assertThat(rewritten).isEmpty();

            long marker = commit(log, P1);
            fillerUntilRolled(log, 1, "i");
            assertThat(log.maybeClean(clock.millis())).isPositive();
            assertThat(rewritten).isNotEmpty();
            List<String> cleaned = dump(log);
            assertThat(cleaned).noneMatch(r -> r.contains("k1=mid"));
            assertThat(cleaned).contains(open + ":k2=txn", marker + ":COMMIT@" + P1);
        }
    }

    @Test
    void aProducerRemovedByProducerIdExpiryLosesItsLastBatchToTheCleaner() throws Exception {
        try (PartitionLog log = open(false)) {
            long expired = produce(log, IDEMPOTENT, false, "k", "1");
            clock.set(T0 + 10_000);
            long live = produce(log, IDEMPOTENT + 1, false, "j", "1");
            plain(log, "k", "plain", "j", "plain"); // supersedes both producers' records
            fillerUntilRolled(log, 2, "f");
            // producer.id.expiration.ms = 5000: only IDEMPOTENT has been idle that long
            assertThat(log.removeExpiredProducers(T0 + 12_000, 5_000)).isEqualTo(1);
            assertThat(log.activeProducers()).extracting(ActiveProducer::producerId).containsExactly(IDEMPOTENT + 1);

            log.clean(clock.millis());

            List<String> cleaned = dump(log);
            assertThat(cleaned).noneMatch(r -> r.contains(":k=1") || r.contains(":j=1"));
            // the live producer's last batch stays as an empty batch; the expired one's is gone entirely
            assertThat(cleaned).contains(live + "-" + live + ":empty@" + (IDEMPOTENT + 1));
            assertThat(cleaned).noneMatch(r -> r.startsWith(expired + "-") || r.endsWith("@" + IDEMPOTENT));
        }
    }

    /** The batch holding {@code offset}, read through the log with Kafka's classes. */
    private static RecordBatch markerBatch(PartitionLog log, long offset) throws Exception {
        ByteBuffer buf = LogFixture.readSlice(log.read(offset, 1));
        RecordBatch batch = MemoryRecords.readableRecords(buf).batches().iterator().next();
        batch.ensureValid();
        assertThat(batch.baseOffset()).isEqualTo(offset);
        return batch;
    }

    /** (base offset, CRC) of every batch from {@code offset} on. */
    private static List<long[]> crcsFrom(PartitionLog log, long offset) throws Exception {
        List<long[]> out = new ArrayList<>();
        for (RecordBatch b : batches(log)) {
            if (b.baseOffset() >= offset) {
                out.add(new long[] {b.baseOffset(), b.checksum()});
            }
        }
        return out;
    }
}
