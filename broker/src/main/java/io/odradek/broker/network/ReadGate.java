package io.odradek.broker.network;

import io.netty.channel.Channel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether one connection is read, as Kafka mutes a channel: reading stops (Netty's autoRead off, so the
 * socket's receive buffer fills and TCP pushes back on the client) while any reason holds, and resumes, with
 * the frames already buffered handed on first, once none does. Used on the connection's event loop only.
 */
final class ReadGate {
    /** Why a connection is muted; each is set and cleared by whoever sees it change. */
    enum Reason {
        /** Too many requests whose responses are not yet written. */
        IN_FLIGHT,
        /** The outbound buffer is over its high water mark: the client is not reading its responses. */
        UNWRITABLE,
        /** The broker-wide request memory pool is spent. */
        MEMORY,
        /** The client went over a quota: muted for its throttle time after the response (KIP-219). */
        THROTTLE
    }

    private final Channel channel;
    private final Runnable onOpen;
    private final AtomicInteger mutedConnections;
    private int reasons;

    /**
     * {@code onOpen} runs each time the last reason clears (the decoder hands on the frames it holds);
     * {@code mutedConnections} counts the listener's connections muted now.
     */
    ReadGate(Channel channel, Runnable onOpen, AtomicInteger mutedConnections) {
        this.channel = channel;
        this.onOpen = onOpen;
        this.mutedConnections = mutedConnections;
    }

    /** The connection closed: it no longer counts as muted, and nothing reopens it. */
    void closed() {
        if (reasons != 0) {
            reasons = 0;
            mutedConnections.decrementAndGet();
        }
    }

    boolean isOpen() {
        return reasons == 0;
    }

    boolean isMuted(Reason reason) {
        return (reasons & (1 << reason.ordinal())) != 0;
    }

    void set(Reason reason, boolean holds) {
        int before = reasons;
        int bit = 1 << reason.ordinal();
        reasons = holds ? reasons | bit : reasons & ~bit;
        if (before == 0 && reasons != 0) {
            mutedConnections.incrementAndGet();
            channel.config().setAutoRead(false);
        } else if (before != 0 && reasons == 0) {
            mutedConnections.decrementAndGet();
            channel.config().setAutoRead(true);
            onOpen.run();
        }
    }
}
