package io.odradek.replication.quorum;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerLogic;
import io.odradek.replication.cluster.ControllerSettings;
import io.odradek.replication.cluster.Endpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The active controller's fencing decisions on a simulated clock: commands are applied to the image at once, as
 * if committed, so each test reads which brokers ended up fenced.
 */
class ActiveControllerTest {
    private static final long SESSION_MS = 2000;
    private static final long TICK_MS = RatisQuorum.ACTIVE_CONTROLLER_TICK_MS;

    private final MetadataModel model = MetadataModel.of(ControllerSettings.DEFAULTS);
    private final BrokerLiveness liveness = new BrokerLiveness();
    private final List<ControllerCommand> submitted = new ArrayList<>();
    private ClusterImage image = ClusterImage.EMPTY;
    private long now = 1_000_000;

    private CompletableFuture<CommandResult> apply(ControllerCommand command) {
        submitted.add(command);
        ControllerLogic.Applied applied = model.apply(image, command, image.offset() + 1);
        image = applied.image();
        return CompletableFuture.completedFuture(applied.result());
    }

    private final ActiveController controller = new ActiveController(() -> image, liveness, SESSION_MS, this::apply);

    /** Registers the broker and lets it in; returns its epoch. */
    private long activeBroker(int id) {
        long epoch = apply(new ControllerCommand.RegisterBroker(id, UUID.randomUUID(),
                List.of(new Endpoint("PLAINTEXT", "127.0.0.1", 9000 + id)), null, "c")).join().value();
        apply(new ControllerCommand.UnfenceBroker(id, epoch));
        submitted.clear();
        return epoch;
    }

    private void heartbeat(int id, long epoch) {
        liveness.heartbeat(new BrokerHeartbeat(id, epoch, image.offset(), false), now);
    }

    /** Ticks on schedule for {@code ms}. */
    private void run(long ms) {
        for (long end = now + ms; now < end; ) {
            now += TICK_MS;
            controller.tick(true, 1, now);
        }
    }

    private boolean fenced(int id) {
        return image.broker(id).map(BrokerRegistration::fenced).orElseThrow();
    }

    @Test
    void aSilentBrokerIsFencedOnceAndNotUnfencedAgainByItsLastHeartbeat() {
        long epoch = activeBroker(2);
        controller.tick(true, 1, now);
        heartbeat(2, epoch);
        run(3 * SESSION_MS);
        assertThat(fenced(2)).isTrue();
        assertThat(submitted).as("one fence, no unfence from the old heartbeat")
                .singleElement().isInstanceOf(ControllerCommand.FenceBrokers.class);

        heartbeat(2, epoch);
        run(TICK_MS);
        assertThat(fenced(2)).as("a fresh heartbeat lets it in again").isFalse();
        assertThat(submitted.get(1)).isEqualTo(new ControllerCommand.UnfenceBroker(2, epoch));
    }

    @Test
    void afterAPauseLongerThanTheSessionNoBrokerIsFencedUntilItStaysSilentForAFreshSession() {
        long epoch2 = activeBroker(2);
        long epoch3 = activeBroker(3);
        controller.tick(true, 1, now);
        heartbeat(2, epoch2);
        heartbeat(3, epoch3);
        run(TICK_MS);

        now += 5 * SESSION_MS; // this JVM stalled
        controller.tick(true, 1, now);
        assertThat(submitted).as("nothing fenced right after the pause").isEmpty();
        heartbeat(2, epoch2);
        run(SESSION_MS - TICK_MS);
        assertThat(submitted).isEmpty();
        assertThat(fenced(2)).isFalse();
        assertThat(fenced(3)).isFalse();

        // Broker 3 stays silent for a whole session after the pause: fenced; broker 2 heartbeats on.
        for (int i = 0; i < 8; i++) {
            heartbeat(2, epoch2);
            run(TICK_MS);
        }
        assertThat(fenced(3)).isTrue();
        assertThat(fenced(2)).isFalse();
    }

    @Test
    void silentBrokersAreFencedOneATimeTheLongestSilentFirst() {
        long epoch2 = activeBroker(2);
        long epoch3 = activeBroker(3);
        controller.tick(true, 1, now);
        heartbeat(3, epoch3);
        run(TICK_MS);
        heartbeat(2, epoch2);
        run(SESSION_MS);
        assertThat(submitted).hasSize(1);
        assertThat(fenced(3)).isTrue();
        assertThat(fenced(2)).isFalse();
        run(TICK_MS);
        assertThat(submitted).hasSize(2);
        assertThat(fenced(2)).isTrue();
    }

    @Test
    void aSubmitThatThrowsDoesNotStopLaterTicksFromFencing() {
        long epoch = activeBroker(2);
        boolean[] thrown = {false};
        ActiveController throwingOnce = new ActiveController(() -> image, liveness, SESSION_MS, command -> {
            if (!thrown[0]) {
                thrown[0] = true;
                throw new IllegalStateException("server closing");
            }
            return apply(command);
        });
        throwingOnce.tick(true, 1, now);
        heartbeat(2, epoch);
        for (long end = now + SESSION_MS + 3 * TICK_MS; now < end; ) {
            now += TICK_MS;
            throwingOnce.tick(true, 1, now);
        }
        assertThat(thrown[0]).isTrue();
        assertThat(fenced(2)).isTrue();
    }

    @Test
    void aSubmitThatNeverCompletesIsGivenUpAfterTheSessionTimeout() throws Exception {
        long epoch = activeBroker(2);
        List<ControllerCommand> attempts = new ArrayList<>();
        ActiveController stuck = new ActiveController(() -> image, liveness, 200, command -> {
            attempts.add(command);
            return new CompletableFuture<>();
        });
        stuck.tick(true, 1, now);
        heartbeat(2, epoch);
        now += TICK_MS;
        stuck.tick(true, 1, now);
        assertThat(attempts).hasSize(1);
        now += TICK_MS;
        stuck.tick(true, 1, now);
        assertThat(attempts).as("one command in flight at a time").hasSize(1);
        Thread.sleep(400);
        now += TICK_MS;
        stuck.tick(true, 1, now);
        assertThat(attempts).as("tried again once the stuck one timed out").hasSize(2);
    }
}
