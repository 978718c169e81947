package io.odradek.replication.quorum;

import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.ControllerSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;

/**
 * Three in-process voters on loopback (ids 1-3) with the real cluster model, each with its own channel; stoppable
 * and restartable.
 */
final class ThreeVoters implements AutoCloseable {
    final Map<Integer, InetSocketAddress> voters = new TreeMap<>();
    final Map<Integer, RatisControllerChannel> nodes = new TreeMap<>();
    private final Path dir;
    private final long sessionTimeoutMs;
    private final long snapshotEveryEntries;
    private final long requestTimeoutMs;
    final MetadataModel model = MetadataModel.of(ControllerSettings.DEFAULTS);

    ThreeVoters(Path dir, long sessionTimeoutMs, long snapshotEveryEntries, long requestTimeoutMs) throws IOException {
        this.dir = dir;
        this.requestTimeoutMs = requestTimeoutMs;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.snapshotEveryEntries = snapshotEveryEntries;
        for (int id = 1; id <= 3; id++) {
            voters.put(id, new InetSocketAddress("127.0.0.1", freePort()));
        }
        for (int id = 1; id <= 3; id++) {
            start(id);
        }
        awaitLeader();
    }

    QuorumConfig config(int id, boolean controller) {
        return new QuorumConfig(id, controller, voters, dir.resolve("node-" + id), ControllerSettings.DEFAULTS,
                sessionTimeoutMs, 1000, 2000, requestTimeoutMs, snapshotEveryEntries);
    }

    void start(int id) throws IOException {
        // Small log segments, so a purge up to a snapshot happens after a few dozen entries.
        RatisQuorum voter = RatisQuorum.start(config(id, true), model, p -> {
            RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf("4KB"));
            RaftServerConfigKeys.Log.setPreallocatedSize(p, SizeInBytes.valueOf("1KB"));
        });
        nodes.put(id, new RatisControllerChannel(config(id, true), voter, true, model));
    }

    RatisControllerChannel node(int id) {
        return nodes.get(id);
    }

    void stop(int id) {
        nodes.remove(id).close();
    }

    /** The current leader's id, waiting for an election if needed. */
    int awaitLeader() {
        int[] leader = {-1};
        await("a leader", () -> {
            for (Map.Entry<Integer, RatisControllerChannel> e : nodes.entrySet()) {
                if (e.getValue().localVoter().isLeader()) {
                    leader[0] = e.getKey();
                    return true;
                }
            }
            return false;
        });
        return leader[0];
    }

    /** Waits until every running voter's image is at least at {@code offset}. */
    void awaitApplied(long offset) {
        await("every voter at offset " + offset,
                () -> nodes.values().stream().allMatch(n -> n.image().offset() >= offset));
    }

    ClusterImage image(int id) {
        return nodes.get(id).image();
    }

    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        nodes.values().forEach(RatisControllerChannel::close);
        nodes.clear();
    }
}
