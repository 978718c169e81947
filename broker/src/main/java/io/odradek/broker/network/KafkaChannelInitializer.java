package io.odradek.broker.network;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.odradek.broker.api.ApiRegistry;

/**
 * A connection's pipeline: length-prefixed frames (refused before buffering when the prefix exceeds
 * {@code socket.request.max.bytes}), then request handling.
 */
final class KafkaChannelInitializer extends ChannelInitializer<SocketChannel> {
    private final ApiRegistry registry;
    private final int maxRequestBytes;

    KafkaChannelInitializer(ApiRegistry registry, int maxRequestBytes) {
        this.registry = registry;
        this.maxRequestBytes = maxRequestBytes;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ch.pipeline()
                // failFast: the frame is refused as soon as its length prefix is read, nothing buffered.
                .addLast("frames", new LengthFieldBasedFrameDecoder(maxRequestBytes + 4, 0, 4, 0, 4, true))
                .addLast("requests", new RequestChannelHandler(registry));
    }
}
