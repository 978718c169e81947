package io.odradek.broker.cluster;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Three combined broker+controller nodes in one JVM on the real Ratis quorum, each with its own log dir under a
 * test's temp dir: Kafka listeners as the test gives them (port 0), controllers on free loopback ports.
 */
final class ThreeNodeCluster {
    private ThreeNodeCluster() {
    }

    /**
     * The configs of nodes 1..3 (list index 0..2); {@code brokerListeners} precede the CONTROLLER listener, and
     * {@code extra} settings are added to every node.
     */
    static List<BrokerConfig> configs(Path root, String brokerListeners, Map<String, String> extra)
            throws IOException {
        int[] controllerPorts = {freePort(), freePort(), freePort()};
        String voters = "1@127.0.0.1:" + controllerPorts[0] + ",2@127.0.0.1:" + controllerPorts[1]
                + ",3@127.0.0.1:" + controllerPorts[2];
        List<BrokerConfig> configs = new ArrayList<>();
        for (int id = 1; id <= 3; id++) {
            Map<String, String> settings = new HashMap<>(extra);
            settings.put("process.roles", "broker,controller");
            settings.put("node.id", Integer.toString(id));
            settings.put("controller.quorum.voters", voters);
            settings.put("controller.listener.names", "CONTROLLER");
            settings.put("listeners", brokerListeners + ",CONTROLLER://127.0.0.1:" + controllerPorts[id - 1]);
            settings.put("log.dirs", root.resolve("node-" + id).toString());
            settings.put("broker.heartbeat.interval.ms", "200");
            settings.put("controller.quorum.election.timeout.ms", "300");
            configs.add(BrokerConfig.of(settings));
        }
        return configs;
    }

    /** The plain cluster: one PLAINTEXT listener per node. */
    static List<BrokerConfig> configs(Path root) throws IOException {
        return configs(root, "PLAINTEXT://127.0.0.1:0", Map.of());
    }

    /**
     * Starts every node, adding each to {@code brokers} as it starts (so the test's tear-down closes those started
     * before a failure), then waits until every broker sees all three registered and unfenced.
     */
    static void start(List<BrokerConfig> configs, List<Broker> brokers) throws InterruptedException {
        for (BrokerConfig config : configs) {
            brokers.add(Broker.start(config));
        }
        for (Broker b : brokers) {
            ImageWaits.await(b, 60, image -> ImageWaits.allUnfenced(image, 3));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
