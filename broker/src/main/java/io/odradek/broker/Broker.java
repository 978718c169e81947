package io.odradek.broker;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.handlers.ApiVersionsHandler;
import io.odradek.broker.network.KafkaChannelInitializer;
import java.net.InetSocketAddress;

/** A running broker: its services, its handlers and the listener they are served on. */
public final class Broker implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Broker.class.getName());

    private final BrokerConfig config;
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final Channel serverChannel;

    private Broker(BrokerConfig config, EventLoopGroup bossGroup, EventLoopGroup workerGroup, Channel serverChannel) {
        this.config = config;
        this.bossGroup = bossGroup;
        this.workerGroup = workerGroup;
        this.serverChannel = serverChannel;
    }

    public static Broker start(BrokerConfig config) throws InterruptedException {
        ApiRegistry registry = new ApiRegistry();
        ApiVersionsHandler apiVersions = new ApiVersionsHandler(registry);
        registry.register(apiVersions);

        // Netty's native epoll transport sends file regions with sendfile(2); NIO falls back to transferTo.
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, io);
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(io);
        try {
            Channel channel = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(channelType)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new KafkaChannelInitializer(registry, apiVersions, config.socketRequestMaxBytes()))
                    .bind(config.listenerHost(), config.listenerPort())
                    .sync()
                    .channel();
            Broker broker = new Broker(config, boss, workers, channel);
            LOG.log(System.Logger.Level.INFO, "listening on " + broker.address() + " (" + (epoll ? "epoll" : "nio")
                    + ", node " + config.nodeId() + ")");
            return broker;
        } catch (InterruptedException | RuntimeException e) {
            boss.shutdownGracefully();
            workers.shutdownGracefully();
            throw e;
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    public int port() {
        return address().getPort();
    }

    public BrokerConfig config() {
        return config;
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        workerGroup.shutdownGracefully(0, 5, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        bossGroup.shutdownGracefully(0, 5, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }
}
