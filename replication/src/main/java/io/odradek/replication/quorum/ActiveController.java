package io.odradek.replication.quorum;

import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.ratis.server.DivisionInfo;

/**
 * Kafka's active-controller duties that depend on time, run by whichever voter is the Raft leader (the only one
 * that hears heartbeats): every tick it fences the brokers silent for the session timeout, unfences a fenced broker
 * whose heartbeat shows it applied the metadata up to its registration, and starts the controlled shutdown a
 * heartbeat asks for. One command in flight at a time; each is an ordinary log entry, applied by every voter.
 */
final class ActiveController {
    private static final Logger LOG = Logger.getLogger(ActiveController.class.getName());

    private final MetadataStateMachine stateMachine;
    private final long sessionTimeoutMs;
    private final Function<ControllerCommand, CompletableFuture<CommandResult>> submitHere;
    private long ledTerm = -1;
    private volatile boolean inFlight;

    ActiveController(MetadataStateMachine stateMachine, long sessionTimeoutMs,
            Function<ControllerCommand, CompletableFuture<CommandResult>> submitHere) {
        this.stateMachine = stateMachine;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.submitHere = submitHere;
    }

    /** One pass; called on the quorum's timer thread. */
    void tick(DivisionInfo division) {
        if (!division.isLeader() || !division.isLeaderReady()) {
            ledTerm = -1;
            return;
        }
        BrokerLiveness liveness = stateMachine.liveness();
        long term = division.getCurrentTerm();
        if (term != ledTerm) {
            // Heartbeats went to the old leader: every broker gets a full session from now.
            liveness.clear();
            ledTerm = term;
        }
        if (inFlight) {
            return;
        }
        ControllerCommand next = nextCommand(stateMachine.image(), liveness, BrokerLiveness.nowMs());
        if (next == null) {
            return;
        }
        inFlight = true;
        submitHere.apply(next).whenComplete((result, error) -> {
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

    private ControllerCommand nextCommand(ClusterImage image, BrokerLiveness liveness, long now) {
        // Each with the epoch whose session expired: a broker that registers again before this commits stays in.
        java.util.Map<Integer, Long> expired = new java.util.LinkedHashMap<>();
        for (BrokerRegistration b : image.brokers().values()) {
            if (!b.fenced() && now - liveness.lastSeenMs(b.id(), now) > sessionTimeoutMs) {
                expired.put(b.id(), b.epoch());
            }
        }
        if (!expired.isEmpty()) {
            return new ControllerCommand.FenceBrokers(expired);
        }
        for (BrokerRegistration b : image.brokers().values()) {
            BrokerLiveness.Seen hb = liveness.heartbeatOf(b.id());
            if (hb == null || hb.brokerEpoch() != b.epoch()) {
                continue;
            }
            // Only a heartbeat within the session unfences (Kafka unfences on a heartbeat request): the last one
            // heard from a broker that has since died must not unfence it again right after it was fenced.
            if (b.fenced() && !hb.wantShutDown() && hb.appliedOffset() >= b.epoch()
                    && now - hb.atMs() <= sessionTimeoutMs) {
                return new ControllerCommand.UnfenceBroker(b.id(), b.epoch());
            }
            if (!b.fenced() && hb.wantShutDown() && !b.inControlledShutdown()) {
                return new ControllerCommand.ControlledShutdown(b.id(), b.epoch());
            }
        }
        return null;
    }
}
