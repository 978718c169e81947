package io.odradek.replication.quorum;

import io.odradek.replication.cluster.ControllerSettings;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * How this node takes part in the metadata quorum. {@code voters} is {@code controller.quorum.voters} (node id ->
 * CONTROLLER listener address); {@code controller} says whether this node is one of them (it then runs a Ratis
 * server on its own voter address, keeping the Raft log and snapshots under {@code storageDir}). Brokers without
 * the controller role only talk to the voters (storageDir unused).
 *
 * <p>{@code sessionTimeoutMs} is {@code broker.session.timeout.ms}: the active controller fences a broker silent
 * that long. Election timeouts are Raft's (a follower that hears no leader for a random time in [min, max]
 * stands for election). {@code requestTimeoutMs} bounds a submit, including its retries while there is no leader.
 * {@code snapshotEveryEntries}: a snapshot of the image is taken (and the Raft log purged up to it) every that many
 * entries, so the log stays bounded.
 */
public record QuorumConfig(int nodeId, boolean controller, Map<Integer, InetSocketAddress> voters, Path storageDir,
        ControllerSettings settings, long sessionTimeoutMs, long electionTimeoutMinMs, long electionTimeoutMaxMs,
        long requestTimeoutMs, long snapshotEveryEntries) {
    public static final long DEFAULT_SESSION_TIMEOUT_MS = 9000;
    public static final long DEFAULT_ELECTION_TIMEOUT_MIN_MS = 1000;
    public static final long DEFAULT_ELECTION_TIMEOUT_MAX_MS = 2000;
    public static final long DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
    public static final long DEFAULT_SNAPSHOT_EVERY_ENTRIES = 1000;

    public QuorumConfig {
        if (voters.isEmpty()) {
            throw new IllegalArgumentException("controller.quorum.voters is empty");
        }
        if (controller && !voters.containsKey(nodeId)) {
            throw new IllegalArgumentException("node " + nodeId + " has the controller role but is not in "
                    + "controller.quorum.voters " + voters.keySet());
        }
        if (electionTimeoutMinMs <= 0 || electionTimeoutMaxMs < electionTimeoutMinMs) {
            throw new IllegalArgumentException("election timeouts must satisfy 0 < min <= max");
        }
        voters = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(voters));
    }

    /** A node with the default timeouts (session timeout {@code broker.session.timeout.ms}, 9000 in Kafka). */
    public static QuorumConfig of(int nodeId, boolean controller, Map<Integer, InetSocketAddress> voters,
            Path storageDir, ControllerSettings settings, long sessionTimeoutMs) {
        return new QuorumConfig(nodeId, controller, voters, storageDir, settings, sessionTimeoutMs,
                DEFAULT_ELECTION_TIMEOUT_MIN_MS, DEFAULT_ELECTION_TIMEOUT_MAX_MS, DEFAULT_REQUEST_TIMEOUT_MS,
                DEFAULT_SNAPSHOT_EVERY_ENTRIES);
    }

    /** Parses {@code controller.quorum.voters}: {@code 1@host:port,2@host:port,...}. */
    public static Map<Integer, InetSocketAddress> parseVoters(String value) {
        Map<Integer, InetSocketAddress> voters = new TreeMap<>();
        for (String entry : value.split(",")) {
            String e = entry.trim();
            if (e.isEmpty()) {
                continue;
            }
            int at = e.indexOf('@');
            int colon = e.lastIndexOf(':');
            if (at <= 0 || colon < at) {
                throw new IllegalArgumentException("controller.quorum.voters entry '" + e + "' is not id@host:port");
            }
            String host = e.substring(at + 1, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int id = Integer.parseInt(e.substring(0, at));
            int port = Integer.parseInt(e.substring(colon + 1));
            if (voters.put(id, InetSocketAddress.createUnresolved(host, port)) != null) {
                throw new IllegalArgumentException("controller.quorum.voters names node " + id + " twice");
            }
        }
        return voters;
    }

    public InetSocketAddress localAddress() {
        return voters.get(nodeId);
    }
}
