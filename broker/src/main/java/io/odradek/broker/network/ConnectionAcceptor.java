package io.odradek.broker.network;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * On every listening channel (one instance for the broker), before Netty registers an accepted connection:
 * applies {@link ConnectionQuotas}. An address over its per-IP cap has the new connection closed at once (one
 * rate-limited line, as Kafka's TooManyConnectionsException). At {@code max.connections} every listener stops
 * accepting (autoRead off on the server channels, so clients wait in the accept backlog as with Kafka's blocked
 * acceptors); as soon as a connection on any listener closes, every listener accepts again, as in Kafka, where
 * all acceptors wait on the one broker-wide count.
 *
 * <p>Until {@link #startServing} nothing is accepted at all: a cluster broker binds its listeners (their ports go
 * into its registration) but serves only once its first metadata image, with the ACLs and SCRAM credentials, is
 * applied (Kafka enables request processing once the broker caught up).
 */
@ChannelHandler.Sharable
final class ConnectionAcceptor extends ChannelInboundHandlerAdapter {
    private final ConnectionQuotas quotas;
    private final RateLimitedLog rejections;
    /** The listening channels, each bound with autoRead off. */
    private final List<Channel> servers = new CopyOnWriteArrayList<>();
    private volatile boolean serving;

    ConnectionAcceptor(ConnectionQuotas quotas, RateLimitedLog rejections) {
        this.quotas = quotas;
        this.rejections = rejections;
    }

    /** A listening channel, bound with autoRead off; it accepts once serving (and under the cap). */
    void add(Channel server) {
        servers.add(server);
        if (serving) {
            resumeAccepting();
        }
    }

    /** From now on every listener accepts (under the cap). */
    void startServing() {
        serving = true;
        resumeAccepting();
    }

    boolean serving() {
        return serving;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel child = (Channel) msg;
        if (!(child.remoteAddress() instanceof InetSocketAddress remote)) {
            child.unsafe().closeForcibly(); // reset before we saw it
            return;
        }
        InetAddress address = remote.getAddress();
        switch (quotas.tryOpen(address)) {
            case OVER_IP_CAP -> {
                rejections.info("per-ip-cap", "rejected connection from " + address.getHostAddress()
                        + ": it already has the configured maximum of " + quotas.limits().maxConnectionsFor(address)
                        + " connections (max.connections.per.ip)");
                child.unsafe().closeForcibly();
                return;
            }
            case OVER_BROKER_CAP -> {
                rejections.info("broker-cap", "rejected connection from " + address.getHostAddress() + ": "
                        + quotas.limits().maxConnections() + " connections are open (max.connections)");
                child.unsafe().closeForcibly();
                return;
            }
            case ADMITTED -> {
            }
        }
        child.closeFuture().addListener(f -> {
            quotas.closed(address);
            resumeAccepting();
        });
        if (quotas.atBrokerCap()) {
            rejections.info("broker-cap-reached", "not accepting connections while " + quotas.limits().maxConnections()
                    + " are open (max.connections)");
            for (Channel server : servers) {
                server.eventLoop().execute(() -> server.config().setAutoRead(false));
            }
        }
        ctx.fireChannelRead(child);
    }

    /** Every listener accepts again, if serving and under the cap (checked on each listener's event loop). */
    private void resumeAccepting() {
        for (Channel server : servers) {
            server.eventLoop().execute(() -> {
                if (serving && !quotas.atBrokerCap() && server.isOpen() && !server.config().isAutoRead()) {
                    server.config().setAutoRead(true);
                }
            });
        }
    }
}
