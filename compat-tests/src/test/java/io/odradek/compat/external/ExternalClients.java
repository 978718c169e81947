package io.odradek.compat.external;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Makes sure kcat, confluent-kafka-python, KafkaJS, kafka-python and Sarama are installed before a test class
 * that drives them: runs {@code compat-tests/clients/setup.sh} once per JVM (apt-get for kcat,
 * python3-confluent-kafka, python3-kafka and Sarama with Go, {@code npm ci} for KafkaJS, a build of the Sarama
 * program; fast when all are there). Where the script fails (a machine without apt or root) the tests are
 * skipped with the reason; under CI ({@code CI=true}) they fail instead, so a broken install cannot pass as a green run.
 */
public final class ExternalClients implements BeforeAllCallback {
    // A clean machine installs Go and Sarama as well (about 100 MB of packages) and builds cgo code.
    private static final Duration SETUP_TIMEOUT = Duration.ofMinutes(10);
    private static String failure; // null: set up; guarded by the class
    private static boolean done;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        String problem = setUpOnce();
        if (problem == null) {
            return;
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException("CI must run the external-client tests, but " + problem);
        }
        Assumptions.abort("skipping external-client tests: " + problem);
    }

    private static synchronized String setUpOnce() throws IOException, InterruptedException {
        if (!done) {
            failure = runSetup();
            done = true;
        }
        return failure;
    }

    private static String runSetup() throws IOException, InterruptedException {
        clearOldOutputs();
        Path script = clientsDir().resolve("setup.sh");
        Path log = outputDir().resolve("clients-setup.log");
        Subprocess.Result r = Subprocess.run(List.of("bash", script.toString(), log.toString()), null, Map.of(),
                SETUP_TIMEOUT, outputDir().resolve("setup"));
        if (r.exitCode() == 0) {
            return null;
        }
        return script + " failed (" + (r.timedOut() ? "timed out" : "exit " + r.exitCode()) + "); see " + log
                + ":\n" + r.tail(r.stdout(), 15);
    }

    /** The outputs of an earlier run would mix with this run's in the same directory. */
    private static void clearOldOutputs() throws IOException {
        try (Stream<Path> files = Files.list(outputDir())) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (name.startsWith("kcat-") || name.startsWith("kafkajs-") || name.startsWith("python-")
                        || name.startsWith("sarama-")) {
                    Files.delete(f);
                }
            }
        }
    }

    /** {@code compat-tests/clients}: the install script and the KafkaJS project. */
    static Path clientsDir() {
        return moduleDir().resolve("clients");
    }

    /** Where the tests leave each client's stdout, stderr (with protocol debug logs) and the setup log. */
    static Path outputDir() throws IOException {
        return Files.createDirectories(moduleDir().resolve("target").resolve("external-clients"));
    }

    private static Path moduleDir() {
        // Surefire runs in the module's directory; an IDE may run from the project root.
        Path cwd = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        return Files.isDirectory(cwd.resolve("clients")) ? cwd : cwd.resolve("compat-tests");
    }
}
