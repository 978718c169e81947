package io.odradek.replication.quorum;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.Endpoint;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker that goes silent on a real three-voter quorum: fenced once, and stays fenced. */
class SilentBrokerFencingTest {
    @TempDir
    Path dir;

    @Test
    void aBrokerThatGoesSilentIsFencedOnceAndStaysFenced() throws Exception {
        try (ThreeVoters cluster = new ThreeVoters(dir, 2000, 1000, 20_000)) {
            RatisControllerChannel ch = cluster.node(1);
            CommandResult r = ch.submit(new ControllerCommand.RegisterBroker(2, UUID.randomUUID(),
                    List.of(new Endpoint("PLAINTEXT", "127.0.0.1", 9092)), null, "c")).get(30, TimeUnit.SECONDS);
            long epoch = r.value();
            ThreeVoters.await("unfenced", () -> !ch.heartbeat(new BrokerHeartbeat(2, epoch, epoch, false)).join().fenced());
            List<Boolean> states = new CopyOnWriteArrayList<>();
            ch.addListener(img -> {
                Boolean active = img.broker(2).map(b -> !b.fenced()).orElse(null);
                if (states.isEmpty() || !states.get(states.size() - 1).equals(active)) {
                    states.add(active);
                }
            });
            // Broker 2 is silent from now: fenced after the 2 s session, then (before the fix) unfenced by its last
            // heartbeat and fenced again every few ticks.
            Thread.sleep(4500);
            assertThat(states).as("fenced once, never unfenced without a new heartbeat").containsExactly(true, false);
        }
    }
}
