package io.odradek.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;

/**
 * The harness when another process holds a port of a node that is down: a taken client port moves (the node
 * registers its new address and clients follow it), a taken controller port cannot (it is the quorum's
 * membership), so that start fails saying so, and works once the port is free.
 */
class ClusterPortsTest extends WithThreeNodeCluster {
    private static ServerSocket squat(int port) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true); // as the node's own listeners: a TIME_WAIT left by the node does not stop it
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return s;
    }

    @Test
    void aNodeWhoseClientPortWasTakenWhileItWasDownComesBackOnAnotherOne() throws Exception {
        int old = cluster.clientPort(3);
        cluster.stop(3);
        try (ServerSocket squatter = squat(old)) {
            assertThat(squatter.getLocalPort()).isEqualTo(old);
            cluster.start(3);
        }
        int moved = cluster.clientPort(3);
        assertThat(moved).isNotEqualTo(old);
        cluster.awaitBrokers(3, Duration.ofSeconds(60));
        OdradekCluster.awaitCondition("node 3 listed on port " + moved, Duration.ofSeconds(60), () -> {
            try {
                return cluster.admin().describeCluster().nodes().get(5, TimeUnit.SECONDS).stream()
                        .anyMatch(n -> n.id() == 3 && n.port() == moved);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(cluster.admin().describeCluster().nodes().get(30, TimeUnit.SECONDS)).extracting(Node::port)
                .containsExactlyInAnyOrder(cluster.clientPort(1), cluster.clientPort(2), moved);
    }

    @Test
    void aStartWhoseControllerPortIsTakenFailsSayingSoAndWorksOnceItIsFree() throws Exception {
        cluster.stop(2);
        try (ServerSocket squatter = squat(cluster.controllerPort(2))) {
            assertThat(squatter.isBound()).isTrue();
            assertThatThrownBy(() -> cluster.start(2)).hasMessageContaining("node 2 exited at start")
                    .hasMessageContaining("Address already in use");
        }
        cluster.start(2);
        cluster.awaitBrokers(3, Duration.ofSeconds(60));
        assertThat(cluster.isRunning(2)).isTrue();
    }
}
