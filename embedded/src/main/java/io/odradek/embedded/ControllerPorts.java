package io.odradek.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Loopback ports for a cluster's controller (Ratis) listeners, which must be named in every node's
 * {@code controller.quorum.voters} before any node binds, so they cannot be port 0. A port found free can still be
 * taken before Ratis binds it (by anything on the machine): the cluster start retries with new ports then. Within
 * this JVM, ports held by a running embedded cluster are never handed out twice, so parallel tests do not race
 * each other for them.
 */
final class ControllerPorts implements AutoCloseable {
    /** Ports handed to embedded clusters of this JVM that are still running. */
    private static final Set<Integer> IN_USE = ConcurrentHashMap.newKeySet();
    /** In a cluster's data dir: the controller ports it ran on. */
    static final String FILE = "controller-ports.properties";

    private final List<Integer> ports;

    private ControllerPorts(List<Integer> ports) {
        this.ports = List.copyOf(ports);
    }

    /** Given ports, held like reserved ones (tests: a port known to be taken). */
    static ControllerPorts of(List<Integer> ports) {
        IN_USE.addAll(ports);
        return new ControllerPorts(ports);
    }

    /** {@code count} distinct ports free now, none held by another embedded cluster of this JVM. */
    static ControllerPorts reserve(int count) {
        List<ServerSocket> open = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        try {
            // All open at once: the OS cannot hand one port out twice while they are.
            while (ports.size() < count) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                open.add(socket);
                int port = socket.getLocalPort();
                if (IN_USE.add(port)) {
                    ports.add(port);
                }
            }
            return new ControllerPorts(ports);
        } catch (IOException e) {
            ports.forEach(IN_USE::remove);
            throw new UncheckedIOException("cannot find a free loopback port for the controller quorum", e);
        } finally {
            for (ServerSocket socket : open) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // closing a listening socket that never accepted: nothing to lose
                }
            }
        }
    }

    /**
     * The ports a cluster last ran on in {@code dataDir} ({@link #FILE}), or null when none were saved for
     * {@code count} nodes. A cluster's quorum keeps its voters' addresses: started again on that data, each node
     * must listen where it did before.
     */
    static List<Integer> saved(Path dataDir, int count) {
        Path file = dataDir.resolve(FILE);
        if (!Files.exists(file)) {
            return null;
        }
        Properties saved = new Properties();
        try (var in = Files.newBufferedReader(file)) {
            saved.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the controller ports saved in " + file, e);
        }
        List<Integer> ports = new ArrayList<>();
        for (int id = 1; id <= count; id++) {
            String port = saved.getProperty("node." + id + ".controller.port");
            if (port == null) {
                return null;
            }
            ports.add(Integer.parseInt(port.trim()));
        }
        return saved.size() == count ? ports : null;
    }

    /** Saves the ports in {@code dataDir}, for a later start on it ({@link #saved}). */
    static void save(Path dataDir, List<Integer> ports) {
        Properties saved = new Properties();
        for (int id = 1; id <= ports.size(); id++) {
            saved.setProperty("node." + id + ".controller.port", Integer.toString(ports.get(id - 1)));
        }
        try (var out = Files.newBufferedWriter(dataDir.resolve(FILE))) {
            saved.store(out, "controller (Ratis) ports of this embedded Odradek cluster: a restart on this data"
                    + " binds them again");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the controller ports in " + dataDir, e);
        }
    }

    /**
     * Whether something else holds one of these ports now (after the cluster that tried them has stopped): then a
     * failed bind was on a controller port, and new ones help.
     */
    boolean anyTaken() {
        for (int port : ports) {
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                probe.getLocalPort();
            } catch (IOException e) {
                return true;
            }
        }
        return false;
    }

    /** Node i's port at index i-1. */
    List<Integer> ports() {
        return ports;
    }

    /** Hands the ports back (the cluster has stopped, or failed to start on them). */
    @Override
    public void close() {
        ports.forEach(IN_USE::remove);
    }
}
