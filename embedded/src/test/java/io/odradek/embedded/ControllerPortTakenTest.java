package io.odradek.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.Broker;
import io.odradek.broker.faults.Faults;
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
            Launcher.Started started = Launcher.start(2, dir, Map.of(), new Faults(), count -> {
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
}
