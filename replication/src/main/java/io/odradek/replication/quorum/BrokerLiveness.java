package io.odradek.replication.quorum;

import io.odradek.replication.cluster.BrokerHeartbeat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the active controller last heard from each broker (Kafka's BrokerHeartbeatManager): leader-local, never in
 * the metadata log, so a new leader starts from nothing and gives every broker a fresh session. Times are
 * monotonic milliseconds.
 */
final class BrokerLiveness {
    /** A broker's last sign of life; epoch and offset -1 when it has only registered, not heartbeated. */
    record Seen(long atMs, long brokerEpoch, long appliedOffset, boolean wantShutDown) {
    }

    private final Map<Integer, Seen> seen = new ConcurrentHashMap<>();

    static long nowMs() {
        return System.nanoTime() / 1_000_000;
    }

    void heartbeat(BrokerHeartbeat h, long nowMs) {
        seen.put(h.brokerId(), new Seen(nowMs, h.brokerEpoch(), h.appliedOffset(), h.wantShutDown()));
    }

    /** A (re)registration starts a new session. */
    void registered(int brokerId, long nowMs) {
        seen.put(brokerId, new Seen(nowMs, -1, -1, false));
    }

    /** A new term of leadership: every broker's session starts now. */
    void clear() {
        seen.clear();
    }

    /** The broker's last heartbeat, or null if none since this controller became active or it registered. */
    Seen heartbeatOf(int brokerId) {
        Seen s = seen.get(brokerId);
        return s == null || s.brokerEpoch() < 0 ? null : s;
    }

    /** Every broker's last heartbeat, by id (registrations without a heartbeat left out). */
    Map<Integer, Seen> heartbeats() {
        Map<Integer, Seen> copy = new java.util.TreeMap<>();
        seen.forEach((id, s) -> {
            if (s.brokerEpoch() >= 0) {
                copy.put(id, s);
            }
        });
        return copy;
    }

    /** When the broker was last heard of; a broker never heard of starts its grace period now. */
    long lastSeenMs(int brokerId, long nowMs) {
        return seen.computeIfAbsent(brokerId, id -> new Seen(nowMs, -1, -1, false)).atMs();
    }
}
