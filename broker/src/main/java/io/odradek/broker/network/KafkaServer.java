package io.odradek.broker.network;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The broker's listeners: a Netty server whose connections serve the APIs of an {@link ApiRegistry}, with one
 * bound channel per listener (issue 10), each securing its connections as its {@link ListenerSecurity} says. The
 * event loops, the request memory pool, the connection counts and limits are the broker's, shared by every listener.
 */
public final class KafkaServer implements AutoCloseable {
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    /** Bound channels by listener name, in the order the listeners were given. */
    private final Map<String, Channel> channels;
    private final boolean epoll;
    private final RequestMemoryPool pool;
    private final ConnectionQuotas quotas;
    private final AtomicInteger muted;
    private final ConnectionAcceptor acceptor;

    /** One listener to serve: the address to bind and how its connections are secured (its name too). */
    public record Binding(SocketAddress address, ListenerSecurity security) {
    }

    private KafkaServer(EventLoopGroup boss, EventLoopGroup workers, Map<String, Channel> channels, boolean epoll,
            RequestMemoryPool pool, ConnectionQuotas quotas, AtomicInteger muted, ConnectionAcceptor acceptor) {
        this.muted = muted;
        this.acceptor = acceptor;
        this.boss = boss;
        this.workers = workers;
        this.channels = channels;
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
        return bind(List.of(new Binding(address, security)), registry, settings, throttler, authorizer);
    }

    /**
     * Binds every listener of {@code listeners} (names unique), in order; if one cannot bind, those bound
     * already are closed and the failure is thrown. Requests on any of them are authorized by {@code authorizer}.
     */
    public static KafkaServer bind(List<Binding> listeners, ApiRegistry registry, NetworkSettings settings,
            RequestThrottler throttler, Authorizer authorizer) throws InterruptedException {
        return bind(listeners, registry, settings, throttler, authorizer, true);
    }

    /**
     * As above; unless {@code acceptAtOnce}, the listeners are bound (their ports known) but accept no connection
     * until {@link #startAccepting()}: clients wait in the accept backlog (a cluster broker before its first image).
     */
    public static KafkaServer bind(List<Binding> listeners, ApiRegistry registry, NetworkSettings settings,
            RequestThrottler throttler, Authorizer authorizer, boolean acceptAtOnce) throws InterruptedException {
        return bind(listeners, registry, settings, throttler, authorizer, acceptAtOnce, RequestHooks.NONE);
    }

    /** As above, every request reported to and checked by {@code hooks} (issue 11: request metrics, fault injection). */
    public static KafkaServer bind(List<Binding> listeners, ApiRegistry registry, NetworkSettings settings,
            RequestThrottler throttler, Authorizer authorizer, boolean acceptAtOnce, RequestHooks hooks)
            throws InterruptedException {
        if (listeners.isEmpty()) {
            throw new IllegalArgumentException("no listener to bind");
        }
        RequestMemoryPool pool = new RequestMemoryPool(settings.queuedMaxRequestBytes(), settings.queuedMaxRequests());
        ConnectionQuotas quotas = new ConnectionQuotas(settings);
        AtomicInteger muted = new AtomicInteger();
        // One line per kind of rejection per second for the broker, under the class that rejects.
        RateLimitedLog connectionLog = new RateLimitedLog(System.getLogger(ConnectionAcceptor.class.getName()), 1000);
        RateLimitedLog requestLog = new RateLimitedLog(System.getLogger(RequestChannelHandler.class.getName()), 1000);
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, io);
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(io);
        Map<String, Channel> channels = new LinkedHashMap<>();
        // One acceptor for every listener: max.connections is the broker's, so all pause and resume together.
        ConnectionAcceptor acceptor = new ConnectionAcceptor(quotas, connectionLog);
        try {
            for (Binding listener : listeners) {
                if (channels.containsKey(listener.security().listenerName())) {
                    throw new IllegalArgumentException("listener " + listener.security().listenerName() + " given twice");
                }
                ChannelFuture bound = new ServerBootstrap()
                        .group(boss, workers)
                        .channel(channelType)
                        .option(ChannelOption.SO_BACKLOG, 1024)
                        .option(ChannelOption.AUTO_READ, false) // the acceptor turns accepting on
                        .handler(acceptor)
                        .childOption(ChannelOption.TCP_NODELAY, true)
                        // Past the high mark the client is not reading its responses: its connection is muted.
                        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(64 * 1024, 256 * 1024))
                        .childHandler(new KafkaChannelInitializer(registry, settings, pool, muted, requestLog, throttler,
                                listener.security(), authorizer, hooks))
                        .bind(listener.address())
                        .await();
                if (!bound.isSuccess()) {
                    throw new ListenerBindException(listener.security().listenerName(), bound.cause());
                }
                Channel channel = bound.channel();
                channels.put(listener.security().listenerName(), channel);
                acceptor.add(channel);
            }
            if (acceptAtOnce) {
                acceptor.startServing();
            }
            return new KafkaServer(boss, workers, channels, epoll, pool, quotas, muted, acceptor);
        } catch (InterruptedException | RuntimeException e) {
            channels.values().forEach(c -> c.close().syncUninterruptibly());
            boss.shutdownGracefully();
            workers.shutdownGracefully();
            throw e;
        }
    }

    /** Every listener accepts connections from now on (a no-op when they do already). */
    public void startAccepting() {
        acceptor.startServing();
    }

    /** Whether the listeners accept connections (false while a cluster broker awaits its first image). */
    public boolean accepting() {
        return acceptor.serving();
    }

    /** The bound address of the first listener. */
    public InetSocketAddress address() {
        return (InetSocketAddress) channels.values().iterator().next().localAddress();
    }

    /** The bound address of the listener named {@code listenerName}, or null when there is none. */
    public InetSocketAddress address(String listenerName) {
        Channel channel = channels.get(listenerName);
        return channel == null ? null : (InetSocketAddress) channel.localAddress();
    }

    /** Every listener's bound address, by name, in the order given. */
    public Map<String, InetSocketAddress> addresses() {
        Map<String, InetSocketAddress> out = new LinkedHashMap<>();
        channels.forEach((name, channel) -> out.put(name, (InetSocketAddress) channel.localAddress()));
        return out;
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

    /** The connections' event loops (issue 11, health: the liveness probe runs a task on each). */
    public EventLoopGroup eventLoops() {
        return workers;
    }

    public String transport() {
        return epoll ? "epoll" : "nio";
    }

    /** Stops accepting on every listener, then closes every connection; returns once no handler runs any more. */
    @Override
    public void close() {
        channels.values().forEach(c -> c.close().syncUninterruptibly());
        workers.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        boss.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
