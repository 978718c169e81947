package io.odradek.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.Broker;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A controller port found free can be taken before Ratis binds it: the cluster start notices the bind failure,
 * stops what it started and starts again on new ports.
 */
class ControllerPortTakenTest {
    @Test
    void aClusterWhoseControllerPortWasTakenStartsAgainOnNewPorts(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<List<Integer>> attempts = new ArrayList<>();
            Launcher.Started started = Launcher.start(2, dir, Map.of(), count -> {
                ControllerPorts ports = attempts.isEmpty()
                        ? ControllerPorts.of(List.of(ControllerPorts.reserve(1).ports().get(0), taken.getLocalPort()))
                        : ControllerPorts.reserve(count);
                attempts.add(ports.ports());
                return ports;
            });
            try {
                assertThat(attempts).hasSize(2);
                assertThat(attempts.get(1)).doesNotContain(taken.getLocalPort());
                assertThat(started.brokers()).extracting(b -> b.config().nodeId()).containsExactly(1, 2);
                for (Broker broker : started.brokers()) {
                    assertThat(broker.config().get("controller.quorum.voters"))
                            .isEqualTo("1@127.0.0.1:" + attempts.get(1).get(0) + ",2@127.0.0.1:" + attempts.get(1).get(1));
                    assertThat(broker.cluster().image().brokers()).containsOnlyKeys(1, 2);
                }
            } finally {
                Launcher.closeAll(started.brokers());
                started.ports().close();
            }
        }
    }

    @Test
    void aBindFailureIsToldApartFromOtherStartFailures() {
        assertThat(Launcher.isBindFailure(new IllegalStateException("cannot start",
                new java.io.IOException("x", new java.net.BindException("Address already in use"))))).isTrue();
        assertThat(Launcher.isBindFailure(new java.io.UncheckedIOException(
                new java.io.IOException("bind(..) failed: Address already in use")))).isTrue();
        assertThat(Launcher.isBindFailure(new IllegalStateException("no space left on device"))).isFalse();
    }

    @Test
    void aTakenPortThatIsNotAControllerPortFailsTheStartWithoutRetrying(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<List<Integer>> attempts = new ArrayList<>();
            Map<String, String> user = Map.of("odradek.metrics.port", Integer.toString(taken.getLocalPort()));
            assertThatThrownBy(() -> Launcher.start(2, dir, user, count -> {
                ControllerPorts ports = ControllerPorts.reserve(count);
                attempts.add(ports.ports());
                return ports;
            })).satisfies(e -> assertThat(Launcher.isBindFailure(e)).isTrue());
            assertThat(attempts).hasSize(1);
        }
    }

    @Test
    void fixedPortsEveryBrokerOfAClusterWouldBindAreRefusedUpFrontAndPortZeroIsAllowed() {
        assertThatThrownBy(() -> Odradek.builder().brokers(2).config("odradek.admin.port", "9999").start())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("odradek.admin.port=9999").hasMessageContaining("each of the 2 brokers");
        assertThatThrownBy(() -> Odradek.builder().brokers(3).config("odradek.metrics.port", "9404").start())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("odradek.metrics.port=9404");
        assertThatThrownBy(() -> Odradek.builder().brokers(2)
                .config("listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:0").start())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fixed port");
        assertThatNoException().isThrownBy(() -> NodeConfigs.checkClusterPorts(3,
                Map.of("odradek.admin.port", "0", "odradek.metrics.port", "0", "listeners", "PLAINTEXT://127.0.0.1:0")));
        assertThatNoException().isThrownBy(() -> NodeConfigs.checkClusterPorts(1, Map.of("odradek.admin.port", "9999")));
        assertThatThrownBy(() -> Odradek.builder().config("metadata.log.dir", "/tmp/meta"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dataDir(");
    }
}
