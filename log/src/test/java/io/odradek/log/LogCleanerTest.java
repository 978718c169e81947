package io.odradek.log;

import static io.odradek.log.LogFixture.config;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogCleanerTest {
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path logDir;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final LogFixture.ManualClock clock = new LogFixture.ManualClock(T0);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private PartitionLog open(Path dir, boolean cleanShutdown) {
        return PartitionLog.open(dir, "t", 0, config(Map.of(LogConfig.CLEANUP_POLICY, "compact",
                        LogConfig.SEGMENT_BYTES, "1024", LogConfig.INDEX_INTERVAL_BYTES, "100",
                        LogConfig.FILE_DELETE_DELAY_MS, "0", LogConfig.RETENTION_MS, "1")),
                PartitionLog.Options.defaults().withScheduler(scheduler).withClock(clock).withCleanShutdown(cleanShutdown));
    }

    /** A batch of key=value records (value null: a tombstone), built by Kafka's MemoryRecordsBuilder. */
    private static ByteBuffer keyed(Compression compression, long ts, String... keyValues) {
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(4096), RecordBatch.MAGIC_VALUE_V2,
                compression, TimestampType.CREATE_TIME, 0L, ts, -1L, (short) -1, -1, false,
                RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (int i = 0; i < keyValues.length; i += 2) {
            String v = keyValues[i + 1];
            b.append(new SimpleRecord(ts + i, keyValues[i].getBytes(StandardCharsets.UTF_8),
                    v == null ? null : v.getBytes(StandardCharsets.UTF_8)));
        }
        return b.build().buffer();
    }

    /** k0..k9 updated 20 times, five records a batch, across several segments; returns offset -> "key=value". */
    private static TreeMap<Long, String> fill(PartitionLog log, Compression compression) {
        TreeMap<Long, String> written = new TreeMap<>();
        for (int round = 0; round < 40; round++) {
            List<String> kv = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                int n = round * 5 + i;
                kv.add("k" + (n % 10));
                kv.add("v" + n);
            }
            AppendResult r = log.append(keyed(compression, T0 + round, kv.toArray(String[]::new)), 0);
            for (int i = 0; i < 5; i++) {
                written.put(r.baseOffset() + i, kv.get(2 * i) + "=" + kv.get(2 * i + 1));
            }
        }
        return written;
    }

    /** offset:key=value of every record from the log start on, in log order, every batch CRC-checked. */
    private static List<String> readAll(PartitionLog log) throws Exception {
        List<String> out = new ArrayList<>();
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            ByteBuffer buf = LogFixture.readSlice(log.read(offset, 300));
            for (RecordBatch batch : MemoryRecords.readableRecords(buf).batches()) {
                batch.ensureValid();
                for (Record r : batch) {
                    if (r.offset() >= offset) {
                        out.add(r.offset() + ":" + str(r.key()) + "=" + (r.hasValue() ? str(r.value()) : "null"));
                    }
                }
                offset = batch.lastOffset() + 1;
            }
        }
        return out;
    }

    private static String str(ByteBuffer b) {
        return StandardCharsets.UTF_8.decode(b.duplicate()).toString();
    }

    /**
     * What a correct clean leaves: below {@code activeBase} the latest record per key among those below it
     * (as Kafka, records of the active segment supersede nothing yet), everything from it on.
     */
    private static List<String> expectedAfterClean(TreeMap<Long, String> written, long activeBase) {
        Map<String, Long> latest = new HashMap<>();
        written.headMap(activeBase).forEach((o, kv) -> latest.put(kv.substring(0, kv.indexOf('=')), o));
        List<String> out = new ArrayList<>();
        written.forEach((o, kv) -> {
            if (o >= activeBase || latest.get(kv.substring(0, kv.indexOf('='))).equals(o)) {
                out.add(o + ":" + kv);
            }
        });
        return out;
    }

    private static long activeBase(PartitionLog log) {
        List<Long> bases = log.segmentBaseOffsets();
        return bases.get(bases.size() - 1);
    }

    @Test
    void cleaningKeepsOnlyTheLatestValuePerKeyAtItsOriginalOffset() throws Exception {
        List<String> afterAppend;
        try (PartitionLog log = open(logDir, false)) {
            TreeMap<Long, String> written = fill(log, Compression.NONE);
            long leo = log.logEndOffset();
            long sizeBefore = log.sizeInBytes();
            assertThat(log.numberOfSegments()).isGreaterThan(3);
            long activeBase = activeBase(log);

            assertThat(log.clean(clock.millis())).isPositive();

            List<String> expected = expectedAfterClean(written, activeBase);
            assertThat(readAll(log)).containsExactlyElementsOf(expected);
            assertThat(log.logEndOffset()).isEqualTo(leo);
            assertThat(log.logStartOffset()).isZero();
            assertThat(log.sizeInBytes()).isLessThan(sizeBefore);
            // every offset, gaps included, fetches the first retained batch at or after it
            for (long o = 0; o < leo; o++) {
                ByteBuffer b = LogFixture.readSlice(log.read(o, 1));
                RecordBatch first = MemoryRecords.readableRecords(b).batches().iterator().next();
                assertThat(first.lastOffset()).isGreaterThanOrEqualTo(o);
            }
            // a second pass finds nothing more to remove
            assertThat(log.clean(clock.millis())).isZero();
            assertThat(readAll(log)).containsExactlyElementsOf(expected);
            log.append(keyed(Compression.NONE, T0, "k1", "after"), 0);
            expected = new ArrayList<>(expected);
            expected.add(leo + ":k1=after");
            assertThat(readAll(log)).containsExactlyElementsOf(expected);
            afterAppend = expected;
        }
        try (PartitionLog reopened = open(logDir, false)) { // unclean reload: every cleaned segment re-validated
            assertThat(readAll(reopened)).containsExactlyElementsOf(afterAppend);
        }
    }

    @Test
    void compressedBatchesStayWholeWhileAnyRecordIsLatestAndGoWhenNoneIs() throws Exception {
        for (Compression c : List.of(Compression.gzip().build(), Compression.lz4().build(), Compression.zstd().build(),
                Compression.snappy().build())) {
            Path dir = logDir.resolve(c.type().name);
            try (PartitionLog log = open(dir, false)) {
                Map<Long, String> written = fill(log, c);
                long leo = log.logEndOffset();
                long activeBase = activeBase(log);
                log.clean(clock.millis());

                List<String> read = readAll(log);
                Map<String, String> lastValue = new LinkedHashMap<>();
                for (String r : read) {
                    String kv = r.substring(r.indexOf(':') + 1);
                    lastValue.put(kv.substring(0, kv.indexOf('=')), r);
                }
                Map<String, String> expectedLast = new LinkedHashMap<>();
                written.forEach((o, kv) -> expectedLast.put(kv.substring(0, kv.indexOf('=')), o + ":" + kv));
                assertThat(lastValue).containsExactlyInAnyOrderEntriesOf(expectedLast);
                // 5-record batches of 10 rotating keys: a batch below the active segment is entirely stale
                // unless it is one of the last two batches before it
                List<String> allWritten = new ArrayList<>();
                written.forEach((o, kv) -> allWritten.add(o + ":" + kv));
                long keepFrom = activeBase - 10;
                assertThat(read).containsExactlyElementsOf(
                        allWritten.stream().filter(s -> Long.parseLong(s.substring(0, s.indexOf(':'))) >= keepFrom).toList());
                assertThat(log.logEndOffset()).isEqualTo(leo);
            }
        }
    }

    @Test
    void tombstonesAreKeptForDeleteRetentionMsAfterTheFirstCleanThenRemoved() throws Exception {
        try (PartitionLog log = open(logDir, false)) {
            fill(log, Compression.NONE);
            long tombstoneOffset = log.append(keyed(Compression.NONE, T0 + 100, "k3", null, "k4", "kept"), 0).baseOffset();
            for (int i = 0; i < 30; i++) { // push the tombstone out of the active segment
                log.append(keyed(Compression.NONE, T0 + 200, "other" + i, "x".repeat(40)), 0);
            }
            assertThat(activeBase(log)).isGreaterThan(tombstoneOffset + 1);

            log.clean(clock.millis());
            List<String> read = readAll(log);
            assertThat(read).contains(tombstoneOffset + ":k3=null", (tombstoneOffset + 1) + ":k4=kept");
            assertThat(read).noneMatch(r -> r.contains(":k3=v"));

            clock.set(T0 + 86_400_000L - 1);
            log.clean(clock.millis());
            assertThat(readAll(log)).contains(tombstoneOffset + ":k3=null");

            clock.set(T0 + 86_400_000L);
            assertThat(log.maybeClean(clock.millis())).isPositive(); // the expired horizon alone warrants a pass
            read = readAll(log);
            assertThat(read).noneMatch(r -> r.contains(":k3="));
            assertThat(read).contains((tombstoneOffset + 1) + ":k4=kept");
            // the kept record's timestamp survived the delete-horizon stamping and its removal
            ByteBuffer b = LogFixture.readSlice(log.read(tombstoneOffset, 1));
            Record k4 = MemoryRecords.readableRecords(b).batches().iterator().next().iterator().next();
            assertThat(k4.offset()).isEqualTo(tombstoneOffset + 1);
            assertThat(k4.timestamp()).isEqualTo(T0 + 102);
        }
    }

    @Test
    void leftoverCleanedAndSwapFilesRecoverToAConsistentLog() throws Exception {
        Path cleanDir = logDir.resolve("cleaned");
        Path crashDir = logDir.resolve("crashed");
        List<String> expected;
        long leo;
        List<Long> bases;
        try (PartitionLog a = open(cleanDir, false); PartitionLog b = open(crashDir, false)) {
            fill(a, Compression.NONE);
            fill(b, Compression.NONE);
            a.clean(clock.millis());
            expected = readAll(a);
            leo = a.logEndOffset();
            bases = a.segmentBaseOffsets();
        }
        // crash of b's clean: the first segment's cleaned file was committed (.swap) but not swapped in,
        // the second one's was still being written (.cleaned)
        String first = crashDir.resolve("t-0").resolve(name(bases.get(0))).toString();
        Files.copy(cleanDir.resolve("t-0").resolve(name(bases.get(0))), Path.of(first + ".swap"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.write(crashDir.resolve("t-0").resolve(name(bases.get(1)) + ".cleaned"), new byte[] {1, 2, 3});
        // index files of both: never trusted, the loader rebuilds the indexes (garbage here would misdirect reads)
        String firstIndexes = crashDir.resolve("t-0").resolve(name(bases.get(0)).replace(".log", "")).toString();
        Files.write(Path.of(firstIndexes + ".index.swap"), new byte[] {0, 0, 0, 9, 0, 0, 0x7f, 0});
        Files.write(Path.of(firstIndexes + ".timeindex.swap"), new byte[12]);
        Files.write(crashDir.resolve("t-0").resolve(name(bases.get(1)).replace(".log", ".index.cleaned")), new byte[8]);
        try (PartitionLog b = open(crashDir, true)) {
            assertThat(b.logEndOffset()).isEqualTo(leo);
            List<String> read = readAll(b);
            assertThat(read).containsAll(expected);
            try (Stream<Path> files = Files.list(crashDir.resolve("t-0"))) {
                assertThat(files.map(p -> p.getFileName().toString()))
                        .noneMatch(n -> n.endsWith(".swap") || n.endsWith(".cleaned"));
            }
            b.clean(clock.millis());
            assertThat(readAll(b)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aCrashInTheMiddleOfASwapInLeavesAnIndexlessSegmentThatIsRebuilt() throws Exception {
        List<String> expected;
        long leo;
        List<Long> bases;
        try (PartitionLog log = open(logDir, false)) {
            fill(log, Compression.NONE);
            log.clean(clock.millis());
            expected = readAll(log);
            leo = log.logEndOffset();
            bases = log.segmentBaseOffsets();
        }
        // the cleaned .log was renamed into place, its indexes were still .swap
        Path dir = logDir.resolve("t-0");
        for (long base : bases.subList(0, 2)) {
            String prefix = name(base).replace(".log", "");
            Files.move(dir.resolve(prefix + ".index"), dir.resolve(prefix + ".index.swap"));
            Files.move(dir.resolve(prefix + ".timeindex"), dir.resolve(prefix + ".timeindex.swap"));
        }
        try (PartitionLog log = open(logDir, true)) {
            assertThat(log.logEndOffset()).isEqualTo(leo);
            assertThat(readAll(log)).containsExactlyElementsOf(expected);
            for (long base : bases.subList(0, 2)) {
                String prefix = name(base).replace(".log", "");
                assertThat(dir.resolve(prefix + ".index")).exists();
                assertThat(dir.resolve(prefix + ".timeindex")).exists();
                assertThat(dir.resolve(prefix + ".index.swap")).doesNotExist();
            }
        }
    }

    /**
     * The cleaner writes, indexes and forces each cleaned segment before it takes the log lock: the hook
     * runs at that point (on the cleaner thread) and an append from another thread completes within it.
     * Were the lock held there, the append would block until the hook gave up, failing the test.
     */
    @Test
    void appendsProceedWhileACleanedSegmentIsIndexedAndForced() throws Exception {
        ExecutorService appender = Executors.newSingleThreadExecutor();
        List<String> expected = new ArrayList<>();
        try (PartitionLog log = open(logDir, false)) {
            TreeMap<Long, String> written = new TreeMap<>();
            for (int i = 0; i < 12; i++) { // keys never updated: cleaned segments keep them, with index entries
                String value = "u" + i + "-".repeat(60);
                written.put(log.append(keyed(Compression.NONE, T0, "u" + i, value), 0).baseOffset(), "u" + i + "=" + value);
            }
            written.putAll(fill(log, Compression.NONE));
            long activeBase = activeBase(log);
            List<String> appendedMeanwhile = new ArrayList<>();
            int[] sealedNonEmpty = {0};
            log.beforeSwapIn = cleaned -> {
                String prefix = name(cleaned.baseOffset()).replace(".log", "");
                assertThat(cleaned.logFile()).hasFileName(prefix + ".log.swap").exists();
                assertThat(cleaned.offsetIndex().file()).hasFileName(prefix + ".index.swap").exists();
                assertThat(cleaned.timeIndex().file()).hasFileName(prefix + ".timeindex.swap").exists();
                // indexed and sealed: trimmed indexes, the final time-index entry, offsets known
                assertThat(cleaned.offsetIndex().file().toFile()).hasSize(cleaned.offsetIndex().sizeInBytes());
                assertThat(cleaned.timeIndex().file().toFile()).hasSize(cleaned.timeIndex().sizeInBytes());
                if (cleaned.size() > 0) {
                    assertThat(cleaned.offsetIndex().entries()).isPositive();
                    assertThat(cleaned.timeIndex().entries()).isPositive();
                    assertThat(cleaned.nextOffset()).isGreaterThan(cleaned.baseOffset());
                    sealedNonEmpty[0]++;
                }
                // the original is still live and readable
                assertThat(log.segmentBaseOffsets()).contains(cleaned.baseOffset());
                String key = "during" + appendedMeanwhile.size();
                long offset = CompletableFuture.supplyAsync(
                                () -> log.append(keyed(Compression.NONE, T0 + 500, key, "x"), 0).baseOffset(), appender)
                        .orTimeout(30, TimeUnit.SECONDS).join();
                appendedMeanwhile.add(offset + ":" + key + "=x");
            };

            assertThat(log.clean(clock.millis())).isPositive();

            assertThat(appendedMeanwhile).hasSize(log.segmentBaseOffsets().indexOf(activeBase));
            assertThat(sealedNonEmpty[0]).isPositive();
            expected.addAll(expectedAfterClean(written, activeBase));
            expected.addAll(appendedMeanwhile);
            assertThat(readAll(log)).containsExactlyElementsOf(expected);
            try (Stream<Path> files = Files.list(log.dir())) {
                assertThat(files.map(p -> p.getFileName().toString()))
                        .noneMatch(n -> n.endsWith(".swap") || n.endsWith(".cleaned"));
            }
        } finally {
            appender.shutdownNow();
        }
        try (PartitionLog reopened = open(logDir, true)) { // trusts the indexes the cleaner wrote
            assertThat(readAll(reopened)).containsExactlyElementsOf(expected);
            for (long o = 0; o < reopened.logEndOffset(); o++) {
                ByteBuffer b = LogFixture.readSlice(reopened.read(o, 1));
                assertThat(MemoryRecords.readableRecords(b).batches().iterator().next().lastOffset())
                        .isGreaterThanOrEqualTo(o);
            }
        }
    }

    private static String name(long base) {
        return String.format("%020d.log", base);
    }

    @Test
    void deletePolicyLogsAreNeverCleanedAndCompactOnlyLogsIgnoreRetention() {
        try (PartitionLog log = PartitionLog.open(logDir, "d", 0, config(Map.of(LogConfig.SEGMENT_BYTES, "1024")),
                PartitionLog.Options.defaults().withScheduler(scheduler).withClock(clock))) {
            fill(log, Compression.NONE);
            assertThat(log.maybeClean(clock.millis())).isZero();
        }
        try (PartitionLog log = open(logDir, false)) {
            fill(log, Compression.NONE);
            int segments = log.numberOfSegments();
            assertThat(log.deleteOldSegments(T0 + 1_000_000L)).isZero(); // retention.ms=1 would delete all
            assertThat(log.numberOfSegments()).isEqualTo(segments);
        }
    }
}
