package io.odradek.broker.network;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.quota.RequestThrottler;
import io.odradek.broker.security.ListenerSecurity;
import io.odradek.security.acl.Authorizer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A connection's pipeline: on TLS listeners the SslHandler and the file-region stage first, then length-prefixed frames (refused before buffering when the prefix exceeds
 * {@code socket.request.max.bytes}, drawn from the broker-wide request memory pool), then request handling
 * (client quotas applied to each response by the listener's {@link RequestThrottler}).
 */
final class KafkaChannelInitializer extends ChannelInitializer<SocketChannel> {
    private final ApiRegistry registry;
    private final NetworkSettings settings;
    private final RequestMemoryPool pool;
    private final AtomicInteger mutedConnections;
    private final RateLimitedLog rejections;
    private final RequestThrottler throttler;
    private final ListenerSecurity security;
    private final Authorizer authorizer;
    private final RequestHooks hooks;

    KafkaChannelInitializer(ApiRegistry registry, NetworkSettings settings, RequestMemoryPool pool,
            AtomicInteger mutedConnections, RateLimitedLog rejections, RequestThrottler throttler,
            ListenerSecurity security, Authorizer authorizer, RequestHooks hooks) {
        this.hooks = hooks;
        this.security = security;
        this.authorizer = authorizer;
        this.throttler = throttler;
        this.registry = registry;
        this.settings = settings;
        this.pool = pool;
        this.mutedConnections = mutedConnections;
        this.rejections = rejections;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        // issue 10 (tls): SSL and SASL_SSL connections decrypt first, and send fetched file regions as buffers
        // (sendfile cannot encrypt); PLAINTEXT ones have neither stage and keep the zero-copy path.
        if (security.tls() != null) {
            ch.pipeline().addLast("tls", security.tls().newHandler(ch.alloc()));
            ch.pipeline().addLast("tls-file-regions", new TlsFileRegionWriter());
        }
        RequestFrameDecoder frames = new RequestFrameDecoder(settings.maxRequestBytes(), pool, mutedConnections);
        ch.pipeline().addLast("frames", frames);
        ch.pipeline().addLast("requests", new RequestChannelHandler(registry, pool, frames.gate(),
                settings.maxInFlightPerConnection(), settings.connectionsMaxIdleMs(), rejections, throttler,
                security, authorizer, hooks));
    }
}
