package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker that cannot start gives back everything it had opened, so a retry (or another process) can have it; close is idempotent. */
class BrokerStartFailureTest {
    @TempDir
    Path logDir;

    @Test
    void anAdminPortAlreadyTakenFailsTheStartAndFreesTheMetricsPort() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        int metricsPort;
        try (ServerSocket probe = new ServerSocket(0, 50, loopback)) {
            metricsPort = probe.getLocalPort();
        }
        try (ServerSocket taken = new ServerSocket(0, 50, loopback)) {
            assertThatThrownBy(() -> Broker.start(BrokerConfig.of(Map.of("node.id", "1",
                    "listeners", "PLAINTEXT://127.0.0.1:0", "log.dirs", logDir.toString(),
                    "odradek.metrics.port", String.valueOf(metricsPort), "odradek.metrics.host", "127.0.0.1",
                    "odradek.admin.port", String.valueOf(taken.getLocalPort())))))
                    .isInstanceOf(RuntimeException.class);
        }
        try (ServerSocket again = new ServerSocket(metricsPort, 50, loopback)) {
            again.getLocalPort(); // bound: the failed broker's metrics server is gone
        }
    }

    @Test
    void closingABrokerTwiceIsNoError() throws Exception {
        Broker broker = Broker.start(BrokerConfig.of(Map.of("node.id", "1",
                "listeners", "PLAINTEXT://127.0.0.1:0", "log.dirs", logDir.toString())));
        assertThat(broker.isClosed()).isFalse();

        broker.close();
        broker.close(); // before: RejectedExecutionException from the stopped event loops

        assertThat(broker.isClosed()).isTrue();
    }
}
