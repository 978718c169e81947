package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.Batches.offsetsAndValues;
import static io.odradek.log.LogFixture.readSlice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogManagerTest {
    @TempDir
    Path dirA;
    @TempDir
    Path dirB;

    private LogManager open(Map<String, Map<String, String>> overrides) {
        return LogManager.open(List.of(dirA, dirB), LogConfig.defaults(),
                topic -> overrides.getOrDefault(topic, Map.of()), 300_000L, Clock.systemUTC());
    }

    @Test
    void logsComeBackAfterACleanRestartWithTheirConfigs() throws Exception {
        UUID id = UUID.randomUUID();
        try (LogManager manager = open(Map.of())) {
            manager.create("my-topic.v2", 0, id, Map.of(LogConfig.SEGMENT_BYTES, "200")).append(batch(1L, "a"), 0);
            manager.create("my-topic.v2", 1, id, Map.of(LogConfig.SEGMENT_BYTES, "200")).append(batch(1L, "b", "c"), 0);
        }
        assertThat(Files.exists(dirA.resolve(LogManager.CLEAN_SHUTDOWN_FILE))).isTrue();
        assertThat(Files.readString(dirA.resolve("recovery-point-offset-checkpoint")))
                .isEqualTo("0\n1\nmy-topic.v2 0 1\n");
        assertThat(Files.readString(dirB.resolve("recovery-point-offset-checkpoint")))
                .isEqualTo("0\n1\nmy-topic.v2 1 2\n");

        try (LogManager manager = open(Map.of("my-topic.v2", Map.of(LogConfig.SEGMENT_BYTES, "200")))) {
            assertThat(Files.exists(dirA.resolve(LogManager.CLEAN_SHUTDOWN_FILE))).isFalse();
            PartitionLog p1 = manager.get("my-topic.v2", 1).orElseThrow();
            assertThat(p1.topicId()).isEqualTo(id);
            assertThat(p1.config().segmentBytes()).isEqualTo(200);
            assertThat(offsetsAndValues(readSlice(p1.read(0L, 1000)))).containsExactly("0:b", "1:c");
            assertThat(manager.get("my-topic.v2", 0).orElseThrow().logEndOffset()).isEqualTo(1L);
            assertThat(manager.get("my-topic.v2", 2)).isEmpty();
        }
    }

    @Test
    void newPartitionsGoToTheLeastLoadedDir() {
        try (LogManager manager = open(Map.of())) {
            manager.create("t", 0, null, Map.of());
            manager.create("t", 1, null, Map.of());
            manager.create("t", 2, null, Map.of());

            assertThat(dirA.resolve("t-0")).isDirectory();
            assertThat(dirB.resolve("t-1")).isDirectory();
            assertThat(dirA.resolve("t-2")).isDirectory();
        }
    }

    @Test
    void deleteTopicRemovesItsFiles() {
        try (LogManager manager = open(Map.of())) {
            manager.create("gone", 0, null, Map.of()).append(batch(1L, "a"), 0);
            manager.create("gone", 1, null, Map.of());
            manager.create("kept", 0, null, Map.of());

            manager.deleteTopic("gone");

            assertThat(dirA.resolve("gone-0")).doesNotExist();
            assertThat(dirB.resolve("gone-1")).doesNotExist();
            assertThat(manager.get("gone", 0)).isEmpty();
            assertThat(manager.get("kept", 0)).isPresent();
        }
    }

    @Test
    void badTopicConfigIsRejectedWithItsKey() {
        try (LogManager manager = open(Map.of())) {
            assertThatThrownBy(() -> manager.create("t", 0, null, Map.of(LogConfig.RETENTION_MS, "soon")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("retention.ms");
            manager.create("t", 0, null, Map.of());
            manager.updateConfig("t", Map.of(LogConfig.RETENTION_BYTES, "1234"));
            assertThat(manager.get("t", 0).orElseThrow().config().retentionBytes()).isEqualTo(1234L);
        }
    }

    @Test
    void aStartThatCannotOpenOnePartitionLeavesNoFileOfTheOthersOpen() throws Exception {
        Path fds = Path.of("/proc/self/fd");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(fds), "needs /proc/self/fd");
        try (LogManager manager = LogManager.open(List.of(dirA), LogConfig.defaults(), topic -> Map.of(), 300_000L,
                Clock.systemUTC())) {
            for (int p = 0; p < 30; p++) {
                manager.create("a", p, null, Map.of()).append(batch(1L, "v" + p), 0);
            }
            manager.create("z", 0, null, Map.of());
        }
        // z-0 is loaded last (dirs load in name order): its segment file is a directory, so it cannot open.
        Path segment = dirA.resolve("z-0").resolve("00000000000000000000.log");
        Files.delete(segment);
        Files.createDirectory(segment);

        assertThatThrownBy(() -> LogManager.open(List.of(dirA), LogConfig.defaults(), topic -> Map.of(), 300_000L,
                Clock.systemUTC())).isInstanceOf(LogException.class)
                .hasMessageStartingWith("cannot open partition 0 of topic z in " + dirA);

        // The 30 partitions opened before the failure were closed: a start that failed at the open-file limit gets
        // its descriptors back before it reports (and loads the classes to report with).
        assertThat(openFilesUnder(fds, dirA)).isEmpty();
    }

    private static List<Path> openFilesUnder(Path fds, Path dir) throws java.io.IOException {
        try (java.util.stream.Stream<Path> list = Files.list(fds)) {
            return list.map(fd -> {
                try {
                    return Files.readSymbolicLink(fd);
                } catch (java.io.IOException closedMeanwhile) {
                    return null;
                }
            }).filter(target -> target != null && target.startsWith(dir)).toList();
        }
    }
}
