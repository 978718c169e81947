package io.odradek.replication.quorum;

import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.wire.ErrorCode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.ratis.server.DivisionInfo;

/**
 * Kafka's active-controller duties that depend on time, run by whichever voter is the Raft leader (the only one
 * that hears heartbeats): every tick it fences the brokers silent for the session timeout, unfences a fenced broker
 * whose heartbeat shows it applied the metadata up to its registration, and starts the controlled shutdown a
 * heartbeat asks for. One command in flight at a time (bounded by the session timeout); each is an ordinary log
 * entry, applied by every voter.
 *
 * <p>Only a fresh heartbeat (at most a session old) unfences or starts a controlled shutdown: a fenced broker's last
 * heartbeat stays in {@link BrokerLiveness} and must not unfence it again. At most one broker is fenced per tick
 * (the one silent longest), and a tick that comes much later than scheduled (this JVM stalled: GC, VM pause) first
 * gives every broker a fresh session, as the heartbeats they sent meanwhile may not have been processed yet.
 */
final class ActiveController {
    private static final Logger LOG = Logger.getLogger(ActiveController.class.getName());

    private final Supplier<ClusterImage> image;
    private final BrokerLiveness liveness;
    private final long sessionTimeoutMs;
    private final Function<ControllerCommand, CompletableFuture<CommandResult>> submitHere;
    private long ledTerm = -1;
    private long lastTickMs = -1;
    private volatile boolean inFlight;

    ActiveController(MetadataStateMachine stateMachine, long sessionTimeoutMs,
            Function<ControllerCommand, CompletableFuture<CommandResult>> submitHere) {
        this(stateMachine::image, stateMachine.liveness(), sessionTimeoutMs, submitHere);
    }

    ActiveController(Supplier<ClusterImage> image, BrokerLiveness liveness, long sessionTimeoutMs,
            Function<ControllerCommand, CompletableFuture<CommandResult>> submitHere) {
        this.image = image;
        this.liveness = liveness;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.submitHere = submitHere;
    }

    /** One pass; called on the quorum's timer thread. */
    void tick(DivisionInfo division) {
        tick(division.isLeader() && division.isLeaderReady(), division.getCurrentTerm(), BrokerLiveness.nowMs());
    }

    /** One pass at {@code nowMs} (monotonic), as the ready leader of {@code term} or not. */
    void tick(boolean readyLeader, long term, long nowMs) {
        long sinceLastTick = lastTickMs < 0 ? 0 : nowMs - lastTickMs;
        lastTickMs = nowMs;
        if (!readyLeader) {
            ledTerm = -1;
            return;
        }
        if (term != ledTerm) {
            // Heartbeats went to the old leader: every broker gets a full session from now.
            liveness.clear();
            ledTerm = term;
        } else if (sinceLastTick > lateTickMs()) {
            // This JVM stalled: the brokers' heartbeats from the stall may be unprocessed yet, so their silence
            // says nothing; every broker gets a full session from now (unfencing waits for a new heartbeat).
            LOG.warning("active controller tick " + sinceLastTick + " ms after the previous one (a pause of this"
                    + " JVM?): every broker gets a fresh session");
            liveness.clear();
        }
        if (inFlight) {
            return;
        }
        ControllerCommand next = nextCommand(image.get(), liveness, nowMs);
        if (next == null) {
            return;
        }
        inFlight = true;
        CompletableFuture<CommandResult> submitted;
        try {
            submitted = submitHere.apply(next).orTimeout(sessionTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            inFlight = false;
            LOG.log(Level.FINE, "active controller command " + next + " failed", e);
            return;
        }
        submitted.whenComplete((result, error) -> {
            inFlight = false;
            if (error != null) {
                LOG.log(Level.FINE, "active controller command " + next + " failed", error);
            } else if (result.error() != ErrorCode.NONE) {
                LOG.fine("active controller command " + next + " refused: " + result.error() + " " + result.message());
            } else {
                LOG.info("active controller: " + next + " at offset " + result.offset());
            }
        });
    }

    /** A tick this much later than the previous one means this JVM stalled (the timer runs every tick interval). */
    private long lateTickMs() {
        return Math.max(4 * RatisQuorum.ACTIVE_CONTROLLER_TICK_MS, sessionTimeoutMs / 2);
    }

    private ControllerCommand nextCommand(ClusterImage image, BrokerLiveness liveness, long now) {
        // Kafka fences one broker at a time, the one silent longest; with the epoch whose session expired, so a
        // broker that registers again before this commits stays in.
        Map<Integer, Long> expired = new LinkedHashMap<>();
        long stalest = Long.MAX_VALUE;
        for (BrokerRegistration b : image.brokers().values()) {
            long lastSeen = liveness.lastSeenMs(b.id(), now);
            if (!b.fenced() && now - lastSeen > sessionTimeoutMs && lastSeen < stalest) {
                stalest = lastSeen;
                expired.clear();
                expired.put(b.id(), b.epoch());
            }
        }
        if (!expired.isEmpty()) {
            return new ControllerCommand.FenceBrokers(expired);
        }
        for (BrokerRegistration b : image.brokers().values()) {
            BrokerLiveness.Seen hb = liveness.heartbeatOf(b.id());
            // Only a fresh heartbeat counts: a fenced broker's last one is kept, and would unfence it again.
            if (hb == null || hb.brokerEpoch() != b.epoch() || now - hb.atMs() > sessionTimeoutMs) {
                continue;
            }
            if (b.fenced() && !hb.wantShutDown() && hb.appliedOffset() >= b.epoch()) {
                return new ControllerCommand.UnfenceBroker(b.id(), b.epoch());
            }
            if (!b.fenced() && hb.wantShutDown() && !b.inControlledShutdown()) {
                return new ControllerCommand.ControlledShutdown(b.id(), b.epoch());
            }
        }
        return null;
    }
}
