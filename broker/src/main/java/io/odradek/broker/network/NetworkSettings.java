package io.odradek.broker.network;

import java.net.InetAddress;
import java.util.Map;

/**
 * The listener's limits (Kafka's keys, see {@code BrokerConfigDef}'s network block).
 *
 * @param maxRequestBytes {@code socket.request.max.bytes}: a larger length prefix closes the connection
 * @param maxInFlightPerConnection requests a connection may have unanswered before we stop reading it
 * @param queuedMaxRequests {@code queued.max.requests}: requests read but not yet handled, broker-wide
 * @param queuedMaxRequestBytes bytes of requests held broker-wide (already resolved: never -1)
 * @param connectionsMaxIdleMs {@code connections.max.idle.ms}; -1 = never close idle connections
 * @param maxConnections {@code max.connections}: beyond this the listener stops accepting until one closes
 * @param maxConnectionsPerIp {@code max.connections.per.ip}
 * @param maxConnectionsPerIpOverrides {@code max.connections.per.ip.overrides}, resolved to addresses
 */
public record NetworkSettings(int maxRequestBytes, int maxInFlightPerConnection, int queuedMaxRequests,
        long queuedMaxRequestBytes, long connectionsMaxIdleMs, int maxConnections, int maxConnectionsPerIp,
        Map<InetAddress, Integer> maxConnectionsPerIpOverrides) {

    public NetworkSettings {
        maxConnectionsPerIpOverrides = Map.copyOf(maxConnectionsPerIpOverrides);
    }

    /** Kafka's defaults, with the request memory bounded as {@link #defaultQueuedMaxRequestBytes()} says. */
    public static NetworkSettings defaults(int maxRequestBytes) {
        return new NetworkSettings(maxRequestBytes, DEFAULT_MAX_IN_FLIGHT, 500, defaultQueuedMaxRequestBytes(),
                600_000L, Integer.MAX_VALUE, Integer.MAX_VALUE, Map.of());
    }

    public static final int DEFAULT_MAX_IN_FLIGHT = 8;

    /**
     * What {@code queued.max.request.bytes=-1} means here. Kafka leaves it unbounded; we bound it at half the
     * JVM's direct memory limit, because request frames and responses are Netty direct buffers and an
     * unbounded pool lets a few clients end in OutOfDirectMemoryError on every event loop; the other half
     * stays for responses in flight.
     */
    public static long defaultQueuedMaxRequestBytes() {
        return Math.max(1, io.netty.util.internal.PlatformDependent.maxDirectMemory() / 2);
    }

    public int maxConnectionsFor(InetAddress address) {
        return maxConnectionsPerIpOverrides.getOrDefault(address, maxConnectionsPerIp);
    }
}
