package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real entry point in its own JVM: it logs when it listens and, on SIGTERM, that it stopped cleanly; a port it
 * cannot listen on ends it with exit code 1.
 */
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

    @Test
    void aControllerPortAlreadyInUseEndsTheProcessWithExitCode1() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int controllerPort = taken.getLocalPort();
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(),
                    "--override", "process.roles=broker,controller",
                    "--override", "node.id=1",
                    "--override", "listeners=PLAINTEXT://127.0.0.1:0,CONTROLLER://127.0.0.1:" + controllerPort,
                    "--override", "controller.listener.names=CONTROLLER",
                    "--override", "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                    "--override", "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                    "--override", "log.dirs=" + dir.resolve("data"))
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("out.log").toFile())
                    .start();
            try {
                // Before: Ratis's System.exit waited for the shutdown hook, which waited for the start: a hang.
                assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("exited").isTrue();
            } finally {
                process.destroyForcibly();
            }
            String output = Files.readString(dir.resolve("out.log"), StandardCharsets.UTF_8);
            assertThat(output).contains("Failed to bind to address /127.0.0.1:" + controllerPort)
                    .contains("Address already in use");
            assertThat(process.exitValue()).as(output).isEqualTo(1);
        }
    }
}
