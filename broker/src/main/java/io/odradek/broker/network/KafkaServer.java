package io.odradek.broker.network;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.quota.ClientQuotas;
import io.odradek.broker.quota.QuotaWindows;
import io.odradek.broker.quota.RequestThrottler;
import io.odradek.broker.security.ListenerSecurity;
import io.odradek.security.acl.Authorizer;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The client listener: a Netty server whose connections serve the APIs of an {@link ApiRegistry}. */
public final class KafkaServer implements AutoCloseable {
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel channel;
    private final boolean epoll;
    private final RequestMemoryPool pool;
    private final ConnectionQuotas quotas;
    private final AtomicInteger muted;

    private KafkaServer(EventLoopGroup boss, EventLoopGroup workers, Channel channel, boolean epoll,
            RequestMemoryPool pool, ConnectionQuotas quotas, AtomicInteger muted) {
        this.muted = muted;
        this.boss = boss;
        this.workers = workers;
        this.channel = channel;
        this.epoll = epoll;
        this.pool = pool;
        this.quotas = quotas;
    }

    /**
     * Binds the listener. Netty's native epoll transport, where available, sends file regions with
     * sendfile(2); NIO falls back to {@code FileChannel.transferTo}. {@code settings} are the backpressure and
     * connection limits (one request memory pool and one set of connection counts for this listener).
     */
    public static KafkaServer bind(SocketAddress address, ApiRegistry registry, NetworkSettings settings)
            throws InterruptedException {
        return bind(address, registry, settings, new RequestThrottler(new ClientQuotas(QuotaWindows.KAFKA_DEFAULTS),
                System::currentTimeMillis));
    }

    /** As above, with client quotas applied to every response by {@code throttler}. */
    public static KafkaServer bind(SocketAddress address, ApiRegistry registry, NetworkSettings settings,
            RequestThrottler throttler) throws InterruptedException {
        return bind(address, registry, settings, throttler, ListenerSecurity.plaintext("PLAINTEXT"), Authorizer.ALLOW_ALL);
    }

    /** As above, for a listener secured by {@code security}, its requests authorized by {@code authorizer}. */
    public static KafkaServer bind(SocketAddress address, ApiRegistry registry, NetworkSettings settings,
            RequestThrottler throttler, ListenerSecurity security, Authorizer authorizer) throws InterruptedException {
        RequestMemoryPool pool = new RequestMemoryPool(settings.queuedMaxRequestBytes(), settings.queuedMaxRequests());
        ConnectionQuotas quotas = new ConnectionQuotas(settings);
        AtomicInteger muted = new AtomicInteger();
        // One line per kind of rejection per second for this listener, under the class that rejects.
        RateLimitedLog connectionLog = new RateLimitedLog(System.getLogger(ConnectionAcceptor.class.getName()), 1000);
        RateLimitedLog requestLog = new RateLimitedLog(System.getLogger(RequestChannelHandler.class.getName()), 1000);
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
                    .handler(new ConnectionAcceptor(quotas, connectionLog))
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    // Past the high mark the client is not reading its responses: its connection is muted.
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(64 * 1024, 256 * 1024))
                    .childHandler(new KafkaChannelInitializer(registry, settings, pool, muted, requestLog, throttler,
                            security, authorizer))
                    .bind(address)
                    .sync()
                    .channel();
            return new KafkaServer(boss, workers, channel, epoll, pool, quotas, muted);
        } catch (InterruptedException | RuntimeException e) {
            boss.shutdownGracefully();
            workers.shutdownGracefully();
            throw e;
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** The broker-wide request memory ({@code queued.max.request.bytes}, {@code queued.max.requests}). */
    public RequestMemoryPool requestMemory() {
        return pool;
    }

    /** Open connections, broker-wide and per address. */
    public ConnectionQuotas connections() {
        return quotas;
    }

    /** Connections not being read right now (too many requests in flight, not reading responses, no memory). */
    public int mutedConnections() {
        return muted.get();
    }

    public String transport() {
        return epoll ? "epoll" : "nio";
    }

    /** Stops accepting, then closes every connection; returns once no handler runs any more. */
    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        workers.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        boss.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
