package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.Batches.offsetsAndValues;
import static io.odradek.log.LogFixture.readSlice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.odradek.wire.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log dir on a 1 MiB tmpfs (mounted by the test as root; skipped otherwise) filled with small segments:
 * appends and the segment rolls they trigger fail with KAFKA_STORAGE_ERROR, without taking the dir
 * offline, leaking descriptors or crashing on an index page that cannot be allocated; deleting a topic
 * frees the space and appends work again.
 */
class FullDiskLogTest {
    private static final Map<String, String> SMALL_SEGMENTS = Map.of(LogConfig.SEGMENT_BYTES, "16384",
            LogConfig.INDEX_INTERVAL_BYTES, "0");

    @TempDir
    Path dir;

    @Test
    void aFullDiskFailsWritesAndRollsUntilADeletionFreesSpace() throws Exception {
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir.toString()),
                "mounting a tmpfs needs root (mount -t tmpfs): the full-disk log test is skipped here");
        try (LogManager manager = LogManager.open(List.of(dir), LogConfig.defaults(), topic -> SMALL_SEGMENTS,
                300_000L, Clock.systemUTC())) {
            PartitionLog filler = manager.create("filler", 0, null, SMALL_SEGMENTS);
            PartitionLog kept = manager.create("kept", 0, null, SMALL_SEGMENTS);
            kept.append(batch(1L, "before"), 0);
            String value = "x".repeat(1_000);
            LogException full = null;
            for (int i = 0; i < 5_000 && full == null; i++) {
                try {
                    filler.append(batch(i, value), 0);
                } catch (LogException e) {
                    full = e;
                }
            }
            assertThat(full).as("1 MiB must fill up").isNotNull();
            assertThat(full.errorCode()).isEqualTo(ErrorCode.KAFKA_STORAGE_ERROR);
            assertThat(full.getMessage()).contains("No space left on device");

            long fds = openDescriptors();
            for (int i = 0; i < 200; i++) {
                PartitionLog target = i % 2 == 0 ? filler : kept;
                assertThatThrownBy(() -> target.append(batch(9L, value, value, value), 0))
                        .isInstanceOfSatisfying(LogException.class,
                                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.KAFKA_STORAGE_ERROR));
            }
            assertThat(openDescriptors()).isLessThanOrEqualTo(fds + 2);
            assertThat(manager.offlineDirs()).isEmpty();

            manager.deleteTopic("filler");

            long next = kept.append(batch(2L, "after"), 0).baseOffset();
            assertThat(offsetsAndValues(readSlice(kept.read(0L, 100_000)))).containsExactly("0:before", "1:after");
            assertThat(next).isEqualTo(1L);
        } finally {
            run("umount", dir.toString());
        }
    }

    private static long openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    private static boolean run(String... command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
