package io.odradek.broker.network;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Open connections, counted broker-wide and per client address, against {@code max.connections},
 * {@code max.connections.per.ip} and its overrides (Kafka's ConnectionQuotas). The limits change live with the
 * dynamic broker configs ({@link #updateLimits}); connections already open above a lowered limit stay open, as
 * in Kafka, and only new ones are refused.
 */
public final class ConnectionQuotas {
    private volatile NetworkSettings settings;
    private final AtomicInteger total = new AtomicInteger();
    private final ConcurrentMap<InetAddress, Integer> perIp = new ConcurrentHashMap<>();

    ConnectionQuotas(NetworkSettings settings) {
        this.settings = settings;
    }

    /** The limits in force now. */
    public NetworkSettings limits() {
        return settings;
    }

    /** New limits (max.connections, max.connections.per.ip and overrides) from the next connection on. */
    public void updateLimits(NetworkSettings next) {
        settings = next;
    }

    /** What became of a new connection. */
    enum Admission { ADMITTED, OVER_IP_CAP, OVER_BROKER_CAP }

    /**
     * Counts a new connection from {@code address}, unless that address is at its cap or the broker is at
     * {@code max.connections} (the listener stops accepting at the cap, but a batch accepted at once can
     * overshoot it).
     */
    Admission tryOpen(InetAddress address) {
        if (total.incrementAndGet() > settings.maxConnections()) {
            total.decrementAndGet();
            return Admission.OVER_BROKER_CAP;
        }
        int cap = settings.maxConnectionsFor(address);
        boolean[] admitted = {false};
        perIp.compute(address, (a, count) -> {
            int now = count == null ? 0 : count;
            if (now >= cap) {
                return count;
            }
            admitted[0] = true;
            return now + 1;
        });
        if (!admitted[0]) {
            total.decrementAndGet();
            return Admission.OVER_IP_CAP;
        }
        return Admission.ADMITTED;
    }

    /** A connection counted by {@link #tryOpen} closed. */
    void closed(InetAddress address) {
        perIp.computeIfPresent(address, (a, count) -> count <= 1 ? null : count - 1);
        total.decrementAndGet();
    }

    /** True while the listener must not accept: {@code max.connections} are open. */
    boolean atBrokerCap() {
        return total.get() >= settings.maxConnections();
    }

    public int open() {
        return total.get();
    }

    public int open(InetAddress address) {
        return perIp.getOrDefault(address, 0);
    }
}
