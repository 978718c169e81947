package io.odradek.compat.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Ports for the cluster nodes' listeners, chosen below the kernel's ephemeral range. A port from
 * {@code new ServerSocket(0)} is an ephemeral one: between the test closing it and the node binding it (seconds
 * under load) any outgoing connection on the machine, this test's own clients included, may be given it as its
 * local port, and the node fails with "Address already in use". Below the range the kernel never hands a port out
 * by itself; only a process binding that very port explicitly can take it. Ports are handed out in turn from a
 * start that depends on the process id (two test JVMs side by side start far apart), never twice in one JVM, and
 * each is checked free on loopback when handed out.
 */
final class ListenPorts {
    /** The lowest port used; the range ends where the ephemeral one starts. */
    private static final int LOWEST = 10_000;
    private static final int END = ephemeralRangeStart();
    private static int next = LOWEST + (int) (ProcessHandle.current().pid() * 997 % (END - LOWEST));

    private ListenPorts() {
    }

    /** A port no one listens on now, and that no outgoing connection will be given. */
    static synchronized int next() throws IOException {
        for (int tries = 0; tries < END - LOWEST; tries++) {
            int port = next;
            next = next + 1 < END ? next + 1 : LOWEST;
            if (free(port)) {
                return port;
            }
        }
        throw new IOException("no free port in " + LOWEST + "-" + (END - 1));
    }

    /** Whether {@code port} can be listened on at loopback now (as the node would, with SO_REUSEADDR). */
    static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The first port of Linux's ip_local_port_range (32768 by default, and where it cannot be read). */
    private static int ephemeralRangeStart() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range"), StandardCharsets.US_ASCII);
            int start = Integer.parseInt(range.trim().split("\\s+")[0]);
            return start > LOWEST + 1_000 ? start : 32_768;
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}
