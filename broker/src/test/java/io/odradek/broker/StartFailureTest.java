package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.odradek.broker.topics.TopicService;
import io.odradek.log.LogConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.io.TempDirFactory;

/** A start that runs into an OS limit says which partition of which topic and which limit to raise. */
class StartFailureTest {
    private static final int PARTITIONS = 1_000;
    private static final int OPEN_FILES = 512;

    /** In memory where possible: 1,000 partitions cost ~4 fsyncs each to create on a disk. */
    @TempDir(factory = ShmTempDir.class)
    Path dir;

    static final class ShmTempDir implements TempDirFactory {
        @Override
        public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
            Path shm = Path.of("/dev/shm");
            return Files.isDirectory(shm) && Files.isWritable(shm)
                    ? Files.createTempDirectory(shm, "odradek-start-failure")
                    : Files.createTempDirectory("odradek-start-failure");
        }
    }

    @Test
    void tooManyOpenFilesAtStartNamesTheTopicPartitionAndUlimit() throws Exception {
        Path data = dir.resolve("data");
        try (TopicService topics = TopicService.open(new TopicService.Settings(List.of(data), 1,
                LogConfig.defaults(), 1, (short) 1, true, true, 300_000L))) {
            topics.createTopic("many", PARTITIONS, Map.of(), false);
        }
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs /bin/sh to lower ulimit -n");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder("/bin/sh", "-c", "ulimit -n " + OPEN_FILES + " && exec \"$@\"", "sh",
                java.toString(), "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "--override", "listeners=PLAINTEXT://127.0.0.1:0", "--override", "log.dirs=" + data)
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).as(output).isNotZero();
        assertThat(output).containsPattern("odradek: failed to start: .*cannot open partition \\d+ of topic many in "
                + Pattern.quote(data.toString()) + ": .*Too many open files")
                .contains("the open-file limit is reached (ulimit -n = " + OPEN_FILES + ";")
                .contains("raise it (ulimit -n, LimitNOFILE in systemd) or hold fewer partitions");
    }
}
