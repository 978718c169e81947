package io.odradek.broker.network;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.odradek.broker.api.ApiRegistry;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A connection's pipeline: length-prefixed frames (refused before buffering when the prefix exceeds
 * {@code socket.request.max.bytes}, drawn from the broker-wide request memory pool), then request handling.
 */
final class KafkaChannelInitializer extends ChannelInitializer<SocketChannel> {
    private final ApiRegistry registry;
    private final NetworkSettings settings;
    private final RequestMemoryPool pool;
    private final AtomicInteger mutedConnections;
    private final RateLimitedLog rejections;

    KafkaChannelInitializer(ApiRegistry registry, NetworkSettings settings, RequestMemoryPool pool,
            AtomicInteger mutedConnections, RateLimitedLog rejections) {
        this.registry = registry;
        this.settings = settings;
        this.pool = pool;
        this.mutedConnections = mutedConnections;
        this.rejections = rejections;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        RequestFrameDecoder frames = new RequestFrameDecoder(settings.maxRequestBytes(), pool, mutedConnections);
        ch.pipeline().addLast("frames", frames);
        ch.pipeline().addLast("requests", new RequestChannelHandler(registry, pool, frames.gate(),
                settings.maxInFlightPerConnection(), settings.connectionsMaxIdleMs(), rejections));
    }
}
