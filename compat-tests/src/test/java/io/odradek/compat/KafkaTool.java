package io.odradek.compat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.internals.Exit;

/** Runs one of Kafka's command-line tools in this JVM, capturing what it prints and refusing to let it exit. */
public final class KafkaTool {
    private KafkaTool() {
    }

    public record Output(String stdout, String stderr) {
    }

    /** What a tool that ends by calling exit (as kafka-transactions does, even on success) printed, and its status. */
    public record Exited(int status, String stdout, String stderr) {
    }

    /** A tool's main method. */
    public interface Main {
        void run(String[] args) throws Exception;
    }

    /** Thrown by the exit procedure to unwind the tool's main method (an Error, so the tool's own catch blocks let it by). */
    private static final class ExitCalled extends Error {
        private final int status;

        ExitCalled(int status) {
            super(null, null, false, false);
            this.status = status;
        }
    }

    /** Runs a tool that must return from main without calling exit. */
    public static synchronized Output run(Main main, String... args) throws Exception {
        Exited exited = capture(main, args);
        if (exited.status() != Integer.MIN_VALUE) {
            throw new AssertionError("the tool exited with status " + exited.status() + "\nstdout:\n"
                    + exited.stdout() + "\nstderr:\n" + exited.stderr());
        }
        return new Output(exited.stdout(), exited.stderr());
    }

    /** Runs a tool that ends by calling exit; fails if it returns without. */
    public static synchronized Exited runToExit(Main main, String... args) throws Exception {
        Exited exited = capture(main, args);
        if (exited.status() == Integer.MIN_VALUE) {
            throw new AssertionError("the tool returned without calling exit\nstdout:\n" + exited.stdout());
        }
        return exited;
    }

    /** status Integer.MIN_VALUE: main returned without calling exit. */
    private static Exited capture(Main main, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        Exit.setExitProcedure((status, message) -> {
            throw new ExitCalled(status);
        });
        int status = Integer.MIN_VALUE;
        try (PrintStream capturedOut = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream capturedErr = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setOut(capturedOut);
            System.setErr(capturedErr);
            main.run(args);
        } catch (ExitCalled e) {
            status = e.status;
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
            Exit.resetExitProcedure();
        }
        return new Exited(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
