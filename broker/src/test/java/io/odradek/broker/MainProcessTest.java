package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real entry point in its own JVM: it logs when it listens and, on SIGTERM, that it stopped cleanly. */
class MainProcessTest {
    @TempDir
    Path dir;

    @Test
    void sigtermClosesTheBrokerAndTheLogSaysSo() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "--override", "listeners=PLAINTEXT://127.0.0.1:0",
                "--override", "log.dirs=" + dir.resolve("data"))
                .redirectErrorStream(true)
                .start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader output = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = output.readLine()) != null) {
                lines.add(line);
                if (line.contains("listening on")) {
                    process.toHandle().destroy(); // SIGTERM; Process.destroy() would also close our end of its output
                }
            }
        } finally {
            process.destroyForcibly();
        }
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(lines).anySatisfy(l -> assertThat(l)
                .matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[main] Broker: listening on .*"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("INFO  [shutdown] Main: shutting down"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("INFO  [shutdown] Main: stopped cleanly in"));
        assertThat(lines).noneSatisfy(l -> assertThat(l).containsAnyOf("WARN", "ERROR", "Exception"));
        assertThat(process.exitValue()).isEqualTo(143); // 128 + SIGTERM
    }
}
