package io.odradek.broker.network;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * On the listening channel, before Netty registers an accepted connection: applies {@link ConnectionQuotas}.
 * An address over its per-IP cap has the new connection closed at once (one rate-limited line, as Kafka's
 * TooManyConnectionsException). At {@code max.connections} the listener stops accepting (autoRead off on the
 * server channel, so clients wait in the accept backlog as with Kafka's blocked acceptor) until one closes.
 */
@ChannelHandler.Sharable
final class ConnectionAcceptor extends ChannelInboundHandlerAdapter {
    private final ConnectionQuotas quotas;
    private final RateLimitedLog rejections;

    ConnectionAcceptor(ConnectionQuotas quotas, RateLimitedLog rejections) {
        this.quotas = quotas;
        this.rejections = rejections;
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
        Channel server = ctx.channel();
        child.closeFuture().addListener(f -> {
            quotas.closed(address);
            server.eventLoop().execute(() -> resumeAccepting(server));
        });
        if (quotas.atBrokerCap() && server.config().isAutoRead()) {
            rejections.info("broker-cap-reached", "not accepting connections while " + quotas.limits().maxConnections()
                    + " are open (max.connections)");
            server.config().setAutoRead(false);
        }
        ctx.fireChannelRead(child);
    }

    private void resumeAccepting(Channel server) {
        if (!quotas.atBrokerCap() && !server.config().isAutoRead()) {
            server.config().setAutoRead(true);
        }
    }
}
