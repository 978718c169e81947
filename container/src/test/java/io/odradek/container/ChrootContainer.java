package io.odradek.container;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The image run without Docker: its layers extracted into a directory and a command run there under chroot,
 * in new mount and PID namespaces (unshare), with /dev and /proc mounted, a host directory mounted on the data
 * volume, as the image's user (1000:1000) and with exactly the environment given (the image's Env first). The
 * network is the host's: listeners must use free ports. Needs root and util-linux (unshare, chroot, mount).
 */
final class ChrootContainer implements AutoCloseable {
    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;

    private ChrootContainer(Process process) {
        this.process = process;
        this.reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    System.out.println("[container] " + line);
                    synchronized (lines) {
                        lines.add(line);
                        lines.notifyAll();
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "container-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Why this machine cannot run the image this way, or empty when it can. */
    static Optional<String> unavailableReason() {
        try {
            Process id = new ProcessBuilder("id", "-u").start();
            String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!uid.equals("0")) {
                return Optional.of("running the image under chroot needs root (uid " + uid + ")");
            }
        } catch (IOException e) {
            return Optional.of("cannot run id: " + e);
        }
        for (String tool : List.of("unshare", "chroot", "mount", "tar")) {
            if (tool(tool) == null) {
                return Optional.of(tool + " (util-linux / tar) is not installed");
            }
        }
        return Optional.empty();
    }

    /** Extracts every layer of {@code image}, in order, into {@code root} (modes kept). */
    static void extract(Path tarball, ImageArchive image, Path root) throws IOException, InterruptedException {
        Path layers = Files.createTempDirectory("odradek-layers");
        try {
            run(List.of(tool("tar"), "-xf", tarball.toString(), "-C", layers.toString()));
            for (String layer : image.layers) {
                run(List.of(tool("tar"), "--warning=no-unknown-keyword", "-xzpf", layers.resolve(layer).toString(),
                        "-C", root.toString()));
            }
            Files.createDirectories(root.resolve("dev"));
            Files.createDirectories(root.resolve("proc"));
        } finally {
            run(List.of("rm", "-rf", layers.toString()));
        }
    }

    /** Starts {@code command} in {@code root} with {@code env}, {@code data} mounted on /var/lib/kafka/data. */
    static ChrootContainer start(Path root, Path data, Map<String, String> env, List<String> command)
            throws IOException {
        Path launcher = root.getParent().resolve("launch.sh");
        Files.writeString(launcher, "#!/bin/sh\nset -e\n"
                + tool("mount") + " --rbind /dev '" + root + "/dev'\n"
                + tool("mount") + " -t proc proc '" + root + "/proc'\n"
                + tool("mount") + " --bind '" + data + "' '" + root + "/var/lib/kafka/data'\n"
                + "exec " + tool("chroot") + " --userspec=1000:1000 '" + root + "' \"$@\"\n");
        List<String> argv = new ArrayList<>(List.of(tool("unshare"), "--mount", "--pid", "--fork", "/bin/sh",
                launcher.toString()));
        argv.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(env);
        return new ChrootContainer(builder.start());
    }

    /** Waits for a line of the output matching {@code regex}, as Testcontainers' log wait strategy does. */
    String awaitLine(String regex, long timeoutMs) throws InterruptedException {
        return awaitLine(line -> line.matches(regex), regex, timeoutMs);
    }

    private String awaitLine(Predicate<String> test, String what, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        int seen = 0;
        synchronized (lines) {
            while (true) {
                for (; seen < lines.size(); seen++) {
                    if (test.test(lines.get(seen))) {
                        return lines.get(seen);
                    }
                }
                long left = deadline - System.currentTimeMillis();
                if (left <= 0 || !process.isAlive() && !reader.isAlive()) {
                    throw new AssertionError("no line matching " + what + " in the container's output:\n"
                            + String.join("\n", lines));
                }
                lines.wait(Math.min(left, 200));
            }
        }
    }

    List<String> output() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** The JVM inside (a descendant process running java). */
    ProcessHandle jvm() {
        return process.descendants().filter(p -> p.info().command().orElse("").endsWith("/java"))
                .findFirst().orElseThrow(() -> new AssertionError("no java process under " + process.pid()));
    }

    /** Sends SIGTERM to the JVM (as docker stop does to the container's process) and returns the exit status. */
    int terminate(long timeoutMs) throws InterruptedException {
        jvm().destroy(); // SIGTERM
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the container did not exit within " + timeoutMs + " ms of SIGTERM");
        }
        reader.join(5_000);
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    private static String tool(String name) {
        for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
            Path path = Path.of(dir, name);
            if (Files.isExecutable(path)) {
                return path.toString();
            }
        }
        return null;
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(command + " failed: " + out);
        }
    }
}
