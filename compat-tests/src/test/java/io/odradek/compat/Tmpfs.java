package io.odradek.compat;

import java.io.IOException;
import java.nio.file.Path;

/** A small tmpfs mounted over a test's directory (a full disk on demand, or fast fsyncs); needs root. */
final class Tmpfs {
    private Tmpfs() {
    }

    /** Mounts a tmpfs of {@code size} (e.g. "8m") on {@code dir}; false where mounting is not allowed. */
    static boolean mount(Path dir, String size) throws InterruptedException {
        return run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString());
    }

    static void unmount(Path dir) throws InterruptedException {
        run("umount", dir.toString());
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
