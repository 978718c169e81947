package io.odradek.compat.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A cluster of Odradek brokers, each a separate JVM (so a test can SIGKILL, SIGSTOP or SIGTERM one), on
 * loopback ports, every node a broker and a controller ({@code process.roles=broker,controller}) with the
 * Ratis quorum on its CONTROLLER listener. Each node keeps its data dir across {@link #kill} and
 * {@link #start}, as a real machine's disk would; its output goes to {@code node-<id>.log} in the
 * cluster's directory, whose tail {@link #describe()} shows when a test fails.
 *
 * <p>The JVMs run this test JVM's class path (the broker's classes and dependencies are on it), so the
 * harness needs no packaged jar.
 */
public final class OdradekCluster implements AutoCloseable {
    private final Path dir;
    private final int size;
    private final int[] clientPorts;
    private final int[] controllerPorts;
    private final Process[] processes;
    /** Where each node's log stood when it was last spawned: what it wrote since is this run's. */
    private final long[] logStart;
    private final boolean[] paused;
    private final boolean[] disconnected;
    private final Map<String, String> overrides;
    /** Null: every node on loopback. */
    private final Namespaces namespaces;
    private final Deque<AutoCloseable> clients = new ArrayDeque<>();
    private Admin admin;

    private OdradekCluster(int size, Map<String, String> overrides, Namespaces namespaces) throws IOException {
        this.namespaces = namespaces;
        this.dir = Files.createTempDirectory("odradek-cluster-");
        this.size = size;
        this.clientPorts = new int[size + 1];
        this.controllerPorts = new int[size + 1];
        this.processes = new Process[size + 1];
        this.logStart = new long[size + 1];
        this.paused = new boolean[size + 1];
        this.disconnected = new boolean[size + 1];
        Map<String, String> all = new LinkedHashMap<>(FAST);
        all.putAll(overrides);
        this.overrides = Map.copyOf(all);
        for (int id = 1; id <= size; id++) {
            clientPorts[id] = ListenPorts.next();
            controllerPorts[id] = ListenPorts.next();
        }
    }

    /** How many times a launch or a restart is tried when a node finds a port taken. */
    private static final int BIND_ATTEMPTS = 3;

    /** A node that exited at start because one of its ports was taken (its log says "Address already in use"). */
    private static final class PortTaken extends IllegalStateException {
        PortTaken(String message) {
            super(message);
        }
    }

    /** Makes a cluster (not yet started), for each attempt of a launch. */
    private interface Setup {
        OdradekCluster create() throws IOException;
    }

    /**
     * What every test cluster runs with unless overridden: failures noticed within seconds (Kafka's defaults are
     * 9 s and 30 s), internal topics replicated to all three nodes and small, the first group join not delayed.
     */
    public static final Map<String, String> FAST = Map.of(
            "broker.session.timeout.ms", "3000",
            "broker.heartbeat.interval.ms", "500",
            "replica.lag.time.max.ms", "5000",
            "offsets.topic.replication.factor", "3",
            "offsets.topic.num.partitions", "3",
            "transaction.state.log.replication.factor", "3",
            "transaction.state.log.min.isr", "2",
            "transaction.state.log.num.partitions", "3",
            "group.initial.rebalance.delay.ms", "0");

    /** Starts {@code size} nodes with {@link #FAST} and waits until every one is registered and unfenced. */
    public static OdradekCluster launch(int size) throws IOException {
        return launch(size, Map.of());
    }

    /** Starts {@code size} nodes and waits until every one is registered and unfenced. */
    public static OdradekCluster launch(int size, Map<String, String> overrides) throws IOException {
        return launch(() -> new OdradekCluster(size, overrides, null));
    }

    /**
     * Starts {@code size} nodes each in its own network namespace (see {@link Namespaces}; needs root), so that
     * {@link #disconnect} can cut one off from the others while it runs.
     */
    public static OdradekCluster launchInNamespaces(int size, Map<String, String> overrides) throws IOException {
        return launch(() -> {
            Namespaces namespaces = Namespaces.create(size);
            try {
                return new OdradekCluster(size, overrides, namespaces);
            } catch (IOException | RuntimeException e) {
                namespaces.close();
                throw e;
            }
        });
    }

    /**
     * Launches a cluster; if a node finds one of its ports taken by another process (chosen free, it can still be
     * bound by someone else before the node starts), the whole cluster is closed and launched again on fresh ports
     * and a fresh directory: the quorum's voters and their ports are fixed once the nodes have started.
     */
    private static OdradekCluster launch(Setup setup) throws IOException {
        for (int attempt = 1; ; attempt++) {
            OdradekCluster cluster = setup.create();
            try {
                return launch(cluster);
            } catch (PortTaken e) {
                if (attempt == BIND_ATTEMPTS) {
                    throw new IllegalStateException("a port was taken at each of " + attempt + " launches", e);
                }
                System.err.println("OdradekCluster: relaunching on fresh ports: " + e.getMessage().lines().findFirst()
                        .orElse(""));
            }
        }
    }

    /** Starts every node of a new cluster and waits for them all; closes the cluster if that fails. */
    private static OdradekCluster launch(OdradekCluster cluster) throws IOException {
        int size = cluster.size;
        try {
            // All processes first: a node may wait for the controller quorum (a majority of them) before it
            // listens for clients.
            for (int id = 1; id <= size; id++) {
                cluster.spawn(id);
            }
            cluster.awaitListening(IntStream.rangeClosed(1, size).toArray());
            cluster.awaitBrokers(size, Duration.ofSeconds(120));
            return cluster;
        } catch (RuntimeException | IOException e) {
            cluster.close();
            throw e;
        }
    }

    public int size() {
        return size;
    }

    public Path dir() {
        return dir;
    }

    /** Every node's client address. */
    public String bootstrap() {
        List<String> all = new ArrayList<>();
        for (int id = 1; id <= size; id++) {
            all.add(host(id) + ":" + clientPorts[id]);
        }
        return String.join(",", all);
    }

    /** These nodes' client addresses only (a client that must not talk to the others, e.g. a paused one). */
    public String bootstrap(int... ids) {
        return Arrays.stream(ids).mapToObj(id -> host(id) + ":" + clientPorts[id]).collect(Collectors.joining(","));
    }

    /** The nodes other than these, in id order. */
    public int[] others(int... ids) {
        return IntStream.rangeClosed(1, size).filter(id -> Arrays.stream(ids).noneMatch(x -> x == id)).toArray();
    }

    public int clientPort(int id) {
        return clientPorts[id];
    }

    public int controllerPort(int id) {
        return controllerPorts[id];
    }

    /** The address node {@code id} listens on: 127.0.0.1, or its namespace's address. */
    public String host(int id) {
        return namespaces == null ? "127.0.0.1" : namespaces.address(id);
    }

    /** Whether the nodes run in network namespaces ({@link #launchInNamespaces}). */
    public boolean inNamespaces() {
        return namespaces != null;
    }

    /** The command prefix that runs a program inside node {@code id}'s network namespace. */
    public List<String> inNamespaceOf(int id) {
        return namespaces.exec(id);
    }

    /** Cuts node {@code id} off the network (namespaces only): it keeps running, unreachable. */
    public void disconnect(int id) throws IOException {
        namespaces.disconnect(id);
        disconnected[id] = true;
    }

    public void reconnect(int id) throws IOException {
        namespaces.reconnect(id);
        disconnected[id] = false;
    }

    public boolean isRunning(int id) {
        return processes[id] != null && processes[id].isAlive();
    }

    public Process process(int id) {
        return processes[id];
    }

    /** The node's log directory ({@code log.dirs}); a partition's files are in {@code <topic>-<partition>}. */
    public Path logDir(int id) {
        return dir.resolve("node-" + id);
    }

    /** Stands for the node's own log dir in an override's value (see {@link #config}). */
    public static final String NODE_DIR = "{node.dir}";

    /** The broker config of node {@code id}: Kafka's KRaft keys, as a user would write them. */
    public Map<String, String> config(int id) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("process.roles", "broker,controller");
        config.put("node.id", Integer.toString(id));
        config.put("listeners", "PLAINTEXT://" + host(id) + ":" + clientPorts[id] + ",CONTROLLER://" + host(id) + ":"
                + controllerPorts[id]);
        config.put("advertised.listeners", "PLAINTEXT://" + host(id) + ":" + clientPorts[id]);
        config.put("controller.listener.names", "CONTROLLER");
        config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        StringBuilder voters = new StringBuilder();
        for (int v = 1; v <= size; v++) {
            voters.append(v == 1 ? "" : ",").append(v).append('@').append(host(v)).append(':')
                    .append(controllerPorts[v]);
        }
        config.put("controller.quorum.voters", voters.toString());
        config.put("log.dirs", dir.resolve("node-" + id).toString());
        config.putAll(overrides);
        // records (issue 9): "{node.dir}" in an override is this node's default log dir (e.g. two log.dirs per node).
        config.replaceAll((k, v) -> v.replace(NODE_DIR, dir.resolve("node-" + id).toString()));
        return config;
    }

    /**
     * Starts node {@code id} (again) on its data dir and ports; returns once its client port accepts. A client port
     * someone else took while the node was down is replaced by a fresh one (the node registers its new address with
     * the controller, as a moved broker would); its controller port cannot move (it is the quorum's membership), so
     * a start that finds it taken is tried again a few times, a second apart, in case the holder was passing by.
     */
    public void start(int id) throws IOException {
        for (int attempt = 1; ; attempt++) {
            if (namespaces == null && !ListenPorts.free(clientPorts[id])) {
                clientPorts[id] = ListenPorts.next();
            }
            spawn(id);
            try {
                awaitListening(id);
                return;
            } catch (PortTaken e) {
                if (attempt == BIND_ATTEMPTS) {
                    throw e;
                }
                System.err.println("OdradekCluster: starting node " + id + " again: " + e.getMessage().lines()
                        .findFirst().orElse(""));
                pauseBeforeRetry();
            }
        }
    }

    private static void pauseBeforeRetry() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private void spawn(int id) throws IOException {
        if (isRunning(id)) {
            throw new IllegalStateException("node " + id + " is already running");
        }
        List<String> command = new ArrayList<>();
        if (namespaces != null) {
            command.addAll(namespaces.exec(id));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx384m");
        command.add("-XX:+UseSerialGC");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("io.odradek.broker.Main");
        config(id).forEach((k, v) -> {
            command.add("--override");
            command.add(k + "=" + v);
        });
        Path log = dir.resolve("node-" + id + ".log");
        logStart[id] = Files.exists(log) ? Files.size(log) : 0;
        processes[id] = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    /**
     * Waits until each of these nodes accepts on its client port, or one of them has exited (a node that cannot
     * bind a port exits; the others may wait for it forever).
     */
    private void awaitListening(int... ids) {
        awaitCondition("node(s) " + Arrays.toString(ids) + " listening", Duration.ofSeconds(120),
                () -> Arrays.stream(ids).anyMatch(id -> !processes[id].isAlive())
                        || Arrays.stream(ids).allMatch(id -> accepts(host(id), clientPorts[id])));
        for (int id : ids) {
            if (!processes[id].isAlive()) {
                String why = "node " + id + " exited at start (client port " + clientPorts[id] + ", controller port "
                        + controllerPorts[id] + "):\n" + tail(id, 40);
                throw writtenSinceSpawn(id).contains("Address already in use") ? new PortTaken(why)
                        : new IllegalStateException(why);
            }
        }
    }

    /** What node {@code id} wrote to its log since it was last spawned. */
    private String writtenSinceSpawn(int id) {
        Path log = dir.resolve("node-" + id + ".log");
        try {
            byte[] all = Files.readAllBytes(log);
            int from = (int) Math.min(logStart[id], all.length);
            return new String(all, from, all.length - from, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** SIGKILL: the node dies at once, as in a power cut of its process (its page cache survives). */
    public void kill(int id) throws InterruptedException {
        Process p = processes[id];
        if (p != null) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** SIGTERM: a clean, controlled shutdown; waits for the process to exit. */
    public void stop(int id) throws InterruptedException {
        Process p = processes[id];
        if (p != null && p.isAlive()) {
            p.destroy();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /** SIGSTOP: the node freezes with its sockets open, as a host cut off from the network would look. */
    public void pause(int id) throws IOException, InterruptedException {
        signal(id, "STOP");
        paused[id] = true;
    }

    /** SIGCONT after {@link #pause}. */
    public void resume(int id) throws IOException, InterruptedException {
        signal(id, "CONT");
        paused[id] = false;
    }

    /**
     * Brings the cluster back to full health after a test that broke it (or failed half way): resumes paused
     * nodes, starts stopped ones, and waits until every broker is registered and unfenced.
     */
    public void heal() throws IOException, InterruptedException {
        for (int id = 1; id <= size; id++) {
            if (paused[id] && isRunning(id)) {
                resume(id);
            }
            paused[id] = false;
            if (disconnected[id]) {
                reconnect(id);
            }
            if (!isRunning(id)) {
                start(id);
            }
        }
        awaitBrokers(size, Duration.ofSeconds(60));
    }

    private void signal(int id, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(processes[id].pid())).start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + processes[id].pid() + " failed");
        }
    }

    /** One Admin client over every node (it finds the live ones), closed with the cluster. */
    public Admin admin() {
        if (admin == null) {
            admin = track(Admin.create(Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000",
                    AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000")));
        }
        return admin;
    }

    /** Waits until {@code count} brokers are registered, unfenced and listed by DescribeCluster. */
    public void awaitBrokers(int count, Duration timeout) {
        awaitCondition(count + " brokers in the cluster", timeout, () -> {
            try {
                return admin().describeCluster().nodes().get(5, TimeUnit.SECONDS).size() == count;
            } catch (Exception e) {
                return false;
            }
        });
    }

    public <T extends AutoCloseable> T track(T client) {
        clients.push(client);
        return client;
    }

    /** The last lines each node wrote, for a failing test's message. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (int id = 1; id <= size; id++) {
            sb.append("---- node ").append(id).append(isRunning(id) ? " (running)" : " (stopped)").append('\n')
                    .append(tail(id, 30));
        }
        return sb.toString();
    }

    public String tail(int id, int lines) {
        Path log = dir.resolve("node-" + id + ".log");
        try {
            if (!Files.exists(log)) {
                return "";
            }
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return all.subList(Math.max(0, all.size() - lines), all.size()).stream()
                    .collect(Collectors.joining("\n", "", "\n"));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")\n";
        }
    }

    /**
     * Polls {@code condition} every 100 ms until it holds; a condition that throws counts as not holding yet (a
     * client asking a node that just died), and its last exception is in the failure.
     */
    public static void awaitCondition(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Throwable last = null;
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException | AssertionError e) {
                last = e;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what, last);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }

    @Override
    public void close() {
        while (!clients.isEmpty()) {
            try {
                clients.pop().close();
            } catch (Exception e) {
                // a client that fails to close must not hide the test's outcome
            }
        }
        admin = null;
        for (int id = 1; id <= size; id++) {
            if (processes[id] != null) {
                processes[id].destroyForcibly();
                try {
                    processes[id].waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        if (namespaces != null) {
            namespaces.close();
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean accepts(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
