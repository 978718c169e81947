package io.odradek.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The read barrier an incremental config change takes before it resolves its ops against this broker's image: a
 * change committed through another broker just before must be in that image, or the new whole set would drop it.
 */
class ControllerTopicsTest {
    @Test
    void catchUpReturnsOnlyOnceThisBrokerAppliedAnEntryAfterEverythingCommittedBefore() throws Exception {
        try (FakeQuorum quorum = new FakeQuorum()) {
            ControllerChannel channel = quorum.channel();
            // This broker applies no image on its own (it lags): the test hands it one below.
            ImageClusterView view = new ImageClusterView(1, "PLAINTEXT", channel, null);
            // Another broker's change, committed but not applied here.
            long earlier = channel.submit(new ControllerCommand.AlterDynamicConfigs(
                    Map.of("", Map.of("log.retention.ms", "3600000")), Map.of())).get().offset();
            ControllerTopics topics = new ControllerTopics(channel, view, null, 30_000);

            CompletableFuture<Void> caughtUp = CompletableFuture.runAsync(topics::catchUp);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (quorum.log().size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }

            // The barrier changes nothing: an empty CreateAcls after the earlier change.
            assertThat(quorum.log().get(1)).isEqualTo(new ControllerCommand.CreateAcls(List.of()));
            assertThat(quorum.image().offset()).isGreaterThan(earlier);
            assertThat(quorum.image().security().acls()).isEmpty();
            assertThat(caughtUp).as("nothing applied here yet").isNotDone();

            view.applied(quorum.image());
            caughtUp.get(30, TimeUnit.SECONDS);
            assertThat(view.image().dynamicConfigs().brokers().get("")).containsEntry("log.retention.ms", "3600000");
        }
    }
}
