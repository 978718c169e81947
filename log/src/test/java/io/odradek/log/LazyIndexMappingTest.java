package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.Batches.offsetsAndValues;
import static io.odradek.log.LogFixture.readSlice;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Indexes are mapped when used and unmapped when idle, so the mappings a broker holds follow the partitions
 * in use. Counted the way the kernel sees them: lines of /proc/self/maps naming an index file of this test.
 */
class LazyIndexMappingTest {
    private static final int PARTITIONS = 2_000;
    /** An index entry for every batch after the first, so every index is written. */
    private static final Map<String, String> INDEX_EVERY_BATCH = Map.of(LogConfig.INDEX_INTERVAL_BYTES, "0");

    /** In memory where possible: creating 2,000 partitions costs ~20,000 fsyncs, which tmpfs skips. */
    @TempDir(factory = ShmTempDir.class)
    Path dir;

    static final class ShmTempDir implements TempDirFactory {
        @Override
        public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
            Path shm = Path.of("/dev/shm");
            return Files.isDirectory(shm) && Files.isWritable(shm)
                    ? Files.createTempDirectory(shm, "odradek-lazy-index")
                    : Files.createTempDirectory("odradek-lazy-index");
        }
    }

    private LogManager open() {
        return LogManager.open(List.of(dir), LogConfig.defaults(), topic -> INDEX_EVERY_BATCH, 300_000L,
                3_600_000L, Clock.systemUTC(), LogManager.Background.DEFAULTS);
    }

    @Test
    void twoThousandPartitionsReleaseTheirIndexMappingsWhenIdleAndMapOnlyWhatIsReadAgain() throws Exception {
        try (LogManager manager = open()) {
            for (int p = 0; p < PARTITIONS; p++) {
                PartitionLog log = manager.create("wide", p, null, INDEX_EVERY_BATCH);
                for (int i = 0; i < 3; i++) {
                    log.append(batch(1_000L + i, "p" + p + "-" + i), 0);
                }
            }
            assertThat(mappedIndexFiles()).isBetween(1, 2 * PARTITIONS);

            int released = manager.unmapIdleIndexes(0);

            assertThat(released).isEqualTo(2 * PARTITIONS);
            assertThat(mappedIndexFiles()).isZero();

            // Reading a few partitions maps only their offset indexes, and reads are unchanged.
            for (int p = 0; p < 10; p++) {
                PartitionLog log = manager.get("wide", p).orElseThrow();
                assertThat(offsetsAndValues(readSlice(log.read(2L, 1_000))))
                        .containsExactly("2:p" + p + "-2");
            }
            assertThat(mappedIndexFiles()).isEqualTo(10);

            // Appending after an unmap maps the active index again and keeps indexing from where it was.
            PartitionLog last = manager.get("wide", PARTITIONS - 1).orElseThrow();
            last.append(batch(2_000L, "again"), 0);
            assertThat(offsetsAndValues(readSlice(last.read(3L, 1_000)))).containsExactly("3:again");
        }
        assertThat(mappedIndexFiles()).isZero();
    }

    @Test
    void indexesReopenedAtStartStayUnmappedUntilUsed() throws Exception {
        try (LogManager manager = open()) {
            for (int p = 0; p < 50; p++) {
                PartitionLog log = manager.create("t", p, null, INDEX_EVERY_BATCH);
                log.append(batch(1L, "a"), 0);
                log.append(batch(2L, "b"), 0);
            }
        }
        try (LogManager manager = open()) {
            assertThat(mappedIndexFiles()).isZero();
            assertThat(offsetsAndValues(readSlice(manager.get("t", 7).orElseThrow().read(1L, 1_000))))
                    .containsExactly("1:b");
            assertThat(mappedIndexFiles()).isEqualTo(1);
        }
    }

    @Test
    void readersRacingTheUnmapperAlwaysReadTheRightRecords() throws Exception {
        try (LogManager manager = open()) {
            PartitionLog log = manager.create("race", 0, null, Map.of(LogConfig.INDEX_INTERVAL_BYTES, "0",
                    LogConfig.SEGMENT_BYTES, "2000"));
            for (int i = 0; i < 200; i++) {
                log.append(batch(1_000L + i, "v" + i), 0);
            }
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                Thread t = new Thread(() -> {
                    try {
                        int n = 0;
                        for (int i = 0; i < 5_000 && failure.get() == null; i++, n = (n + 37) % 200) {
                            assertThat(offsetsAndValues(readSlice(log.read(n, 1))).get(0)).isEqualTo(n + ":v" + n);
                            assertThat(log.offsetForTimestamp(1_000L + n).orElseThrow().offset()).isEqualTo(n);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                t.start();
                readers.add(t);
            }
            int released = 0;
            while (readers.stream().anyMatch(Thread::isAlive)) {
                released += manager.unmapIdleIndexes(0);
            }
            for (Thread t : readers) {
                t.join();
            }
            assertThat(failure.get()).isNull();
            assertThat(log.numberOfSegments()).isGreaterThan(3);
            assertThat(released).isPositive();
        }
    }

    /** Lines of /proc/self/maps for a .index or .timeindex file under this test's directory. */
    private long mappedIndexFilesLong() throws IOException {
        String prefix = dir.toRealPath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .filter(l -> l.contains(prefix) && (l.endsWith(".index") || l.endsWith(".timeindex")))
                .count();
    }

    private int mappedIndexFiles() {
        try {
            return (int) mappedIndexFilesLong();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
