package io.odradek.compat.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One Linux network namespace per node, each joined to a bridge in the test's namespace by a veth pair, as
 * separate hosts on one switch would be: node {@code id} is 10.a.b.(10+id), the test reaches them all through the
 * bridge (10.a.b.1), and taking a node's cable out ({@link #disconnect}) cuts it off from everyone while it keeps
 * running. Needs root and iproute2's {@code ip}; {@link #available()} says whether this machine allows it.
 */
final class Namespaces implements AutoCloseable {
    private final String tag;
    private final String subnet;
    private final int size;
    private final List<String> created = new ArrayList<>();

    private Namespaces(int size) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        this.tag = Integer.toHexString(0x1000 + random.nextInt(0xefff));
        this.subnet = "10." + (200 + random.nextInt(50)) + "." + random.nextInt(256) + ".";
        this.size = size;
    }

    /** Whether namespaces can be made here: root and a working {@code ip netns}. */
    static boolean available() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return false;
        }
        String probe = "odr-probe-" + ProcessHandle.current().pid();
        try {
            if (run("ip", "netns", "add", probe) != 0) {
                return false;
            }
            return run("ip", "netns", "del", probe) == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Makes the bridge and one namespace per node; undone by {@link #close}. */
    static Namespaces create(int size) throws IOException {
        Namespaces n = new Namespaces(size);
        try {
            n.setUp();
            return n;
        } catch (IOException | RuntimeException e) {
            n.close();
            throw e;
        }
    }

    private void setUp() throws IOException {
        String bridge = bridge();
        must("ip", "link", "add", bridge, "type", "bridge");
        created.add("link:" + bridge);
        must("ip", "addr", "add", subnet + "1/24", "dev", bridge);
        must("ip", "link", "set", bridge, "up");
        for (int id = 1; id <= size; id++) {
            String ns = namespace(id);
            must("ip", "netns", "add", ns);
            created.add("netns:" + ns);
            must("ip", "link", "add", hostEnd(id), "type", "veth", "peer", "name", nodeEnd(id));
            created.add("link:" + hostEnd(id));
            must("ip", "link", "set", nodeEnd(id), "netns", ns);
            must("ip", "link", "set", hostEnd(id), "master", bridge);
            must("ip", "link", "set", hostEnd(id), "up");
            must("ip", "-n", ns, "addr", "add", address(id) + "/24", "dev", nodeEnd(id));
            must("ip", "-n", ns, "link", "set", nodeEnd(id), "up");
            must("ip", "-n", ns, "link", "set", "lo", "up");
        }
    }

    String address(int id) {
        return subnet + (10 + id);
    }

    String namespace(int id) {
        return "odr-" + tag + "-" + id;
    }

    /** The command prefix that runs a program inside node {@code id}'s namespace (same process, same pid). */
    List<String> exec(int id) {
        return List.of("ip", "netns", "exec", namespace(id));
    }

    /** The node's cable out: it keeps running but reaches no one and no one reaches it. */
    void disconnect(int id) throws IOException {
        must("ip", "link", "set", hostEnd(id), "down");
    }

    void reconnect(int id) throws IOException {
        must("ip", "link", "set", hostEnd(id), "up");
    }

    private String bridge() {
        return "odr" + tag + "br";
    }

    private String hostEnd(int id) {
        return "odr" + tag + "h" + id;
    }

    private String nodeEnd(int id) {
        return "odr" + tag + "n" + id;
    }

    @Override
    public void close() {
        for (int i = created.size() - 1; i >= 0; i--) {
            String[] what = created.get(i).split(":", 2);
            try {
                if (what[0].equals("netns")) {
                    run("ip", "netns", "del", what[1]);
                } else {
                    run("ip", "link", "del", what[1]); // a veth deleted with its namespace is already gone
                }
            } catch (IOException e) {
                // best effort: the next one may still go
            }
        }
        created.clear();
    }

    private static void must(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command));
        }
    }

    static int run(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
