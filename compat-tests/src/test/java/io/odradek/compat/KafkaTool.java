package io.odradek.compat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.internals.Exit;

/** Runs one of Kafka's command-line tools in this JVM, capturing what it prints and refusing to let it exit. */
final class KafkaTool {
    private KafkaTool() {
    }

    record Output(String stdout, String stderr) {
    }

    /** A tool's main method. */
    interface Main {
        void run(String[] args) throws Exception;
    }

    static synchronized Output run(Main main, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        Exit.setExitProcedure((status, message) -> {
            throw new AssertionError("the tool exited with status " + status + ": " + message + "\nstdout:\n" + out
                    + "\nstderr:\n" + err);
        });
        try (PrintStream capturedOut = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream capturedErr = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setOut(capturedOut);
            System.setErr(capturedErr);
            main.run(args);
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
            Exit.resetExitProcedure();
        }
        return new Output(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
