package io.odradek.compat.external;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a client program to completion within a deadline. Its stdout and stderr go to files
 * ({@code <name>.out}, {@code <name>.err}) that stay under target/ for a look after a failure, and are read
 * back whole; stdin gets the given text, then end of file.
 */
final class Subprocess {
    private Subprocess() {
    }

    record Result(List<String> command, int exitCode, boolean timedOut, String stdout, String stderr, Path stderrFile) {
        List<String> stdoutLines() {
            return stdout.isEmpty() ? List.of() : Arrays.asList(stdout.split("\n"));
        }

        /** The last lines of a text, for a failure message that fits on a screen. */
        String tail(String text, int lines) {
            List<String> all = Arrays.asList(text.split("\n"));
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        }

        String describe() {
            return String.join(" ", command) + "\n-> " + (timedOut ? "timed out" : "exit " + exitCode)
                    + "\nstdout:\n" + tail(stdout, 20) + "\nstderr (" + stderrFile + "):\n" + tail(stderr, 40);
        }
    }

    /** @param outputBase path prefix of the .out/.err files */
    static Result run(List<String> command, String stdin, Map<String, String> env, Duration timeout, Path outputBase)
            throws IOException, InterruptedException {
        Path out = outputBase.resolveSibling(outputBase.getFileName() + ".out");
        Path err = outputBase.resolveSibling(outputBase.getFileName() + ".err");
        Files.createDirectories(out.getParent());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().putAll(env);
        if (stdin == null) {
            builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        }
        Process process = builder.start();
        if (stdin != null) {
            try (var in = process.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
        return new Result(command, finished ? process.exitValue() : -1, !finished,
                Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8), err);
    }
}
