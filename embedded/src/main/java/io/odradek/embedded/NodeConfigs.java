package io.odradek.embedded;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The broker config of each node of an embedded broker or cluster: defaults that start fast and fit the broker
 * count, then the user's keys over them, then what must differ per node (node id, log dir, controller port).
 */
final class NodeConfigs {
    /** Keys the embedded broker sets per node; a user giving them would make every node share one value. */
    static final Set<String> RESERVED = Set.of("node.id", "broker.id", "log.dir", "log.dirs", "metadata.log.dir",
            "controller.quorum.voters", "controller.quorum.bootstrap.servers");

    /** Keys naming a port each node would bind: in a cluster, one value for all collides unless it is 0. */
    static final Set<String> PORT_KEYS = Set.of("odradek.admin.port", "odradek.metrics.port");

    /** The listener clients use: loopback, a port the OS picks. */
    static final String CLIENT_LISTENER = "PLAINTEXT://127.0.0.1:0";

    private NodeConfigs() {
    }

    /** Refuses user keys the embedded broker owns, naming the builder method to use instead. */
    static void checkUserKeys(Map<String, String> user) {
        for (String key : user.keySet()) {
            if (RESERVED.contains(key)) {
                throw new IllegalArgumentException("'" + key + "' is set by the embedded broker for each node"
                        + (key.contains("log.dir") ? "; use Odradek.builder().dataDir(...) to choose where data goes"
                        : ""));
            }
        }
    }

    /**
     * In a cluster every node gets the user's keys: a fixed port in one (admin, metrics, a listener) would be
     * bound by every node, and all but the first would fail. Port 0 (each node its own free port) is fine.
     */
    static void checkClusterPorts(int brokers, Map<String, String> user) {
        if (brokers == 1) {
            return;
        }
        for (String key : PORT_KEYS) {
            String port = user.get(key);
            if (port != null && !port.trim().equals("0")) {
                throw new IllegalArgumentException("'" + key + "=" + port + "' would be bound by each of the "
                        + brokers + " brokers: use " + key + "=0 (each broker its own free port, see"
                        + " Broker.adminAddress() / operations().httpPort()) or one broker");
            }
        }
        for (String key : List.of("listeners", "advertised.listeners")) {
            String value = user.get(key);
            if (value != null && java.util.regex.Pattern.compile(":(?!0(,|$))\\d+(,|$)").matcher(value.trim()).find()) {
                throw new IllegalArgumentException("'" + key + "=" + value + "' has a fixed port, which each of the "
                        + brokers + " brokers would bind or advertise: use port 0 in a cluster (each broker its own)");
            }
        }
    }

    /**
     * What every node starts with unless the user says otherwise. The first group join is not delayed (Kafka's 3 s
     * wait for more members only slows a test), and the internal topics' replication fits the broker count (Kafka's
     * default of 3 could never be met by one or two brokers) and they have 5 partitions rather than 50: a test's
     * first group or transaction creates one of them, and fifty partition logs take seconds on a slow machine
     * (Kafka's own test harness uses 5 as well). Cluster nodes heartbeat and elect quickly, so they
     * register, get unfenced and find a quorum leader within a fraction of a second.
     */
    static Map<String, String> defaults(int brokers) {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("listeners", CLIENT_LISTENER);
        d.put("group.initial.rebalance.delay.ms", "0");
        d.put("offsets.topic.replication.factor", Integer.toString(Math.min(3, brokers)));
        d.put("transaction.state.log.replication.factor", Integer.toString(Math.min(3, brokers)));
        d.put("transaction.state.log.min.isr", Integer.toString(Math.min(2, brokers)));
        // JMX off unless asked for: a test JVM's MBean server is shared, and nothing reads the broker's there.
        d.put("odradek.metrics.jmx.enable", "false");
        d.put("offsets.topic.num.partitions", "5");
        d.put("transaction.state.log.num.partitions", "5");
        if (brokers > 1) {
            d.put("listeners", CLIENT_LISTENER + ",CONTROLLER://127.0.0.1:{controller.port}");
            d.put("process.roles", "broker,controller");
            d.put("controller.listener.names", "CONTROLLER");
            d.put("broker.heartbeat.interval.ms", "200");
            d.put("controller.quorum.election.timeout.ms", "500");
        }
        return d;
    }

    /**
     * Node {@code id}'s config (ids 1..n): the defaults, the user's keys, its log dir under {@code dataDir}; in a
     * cluster ({@code controllerPorts} not empty, index id-1) the voters and its own controller port.
     */
    static Map<String, String> node(int id, int brokers, Path dataDir, List<Integer> controllerPorts,
            Map<String, String> user) {
        Map<String, String> config = defaults(brokers);
        config.putAll(user);
        config.put("node.id", Integer.toString(id));
        config.put("log.dirs", logDir(dataDir, id).toString());
        if (!controllerPorts.isEmpty()) {
            StringBuilder voters = new StringBuilder();
            for (int v = 1; v <= controllerPorts.size(); v++) {
                voters.append(v == 1 ? "" : ",").append(v).append("@127.0.0.1:").append(controllerPorts.get(v - 1));
            }
            config.put("controller.quorum.voters", voters.toString());
            String port = Integer.toString(controllerPorts.get(id - 1));
            config.replaceAll((key, value) -> value.replace("{controller.port}", port));
        }
        return config;
    }

    /** Where node {@code id} keeps its logs. */
    static Path logDir(Path dataDir, int id) {
        return dataDir.resolve("node-" + id);
    }
}
