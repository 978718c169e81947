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
import io.odradek.broker.fetch.DelayedFetches;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.broker.handlers.ApiVersionsHandler;
import io.odradek.broker.handlers.CreateTopicsHandler;
import io.odradek.broker.handlers.ConsumerGroupDescribeHandler;
import io.odradek.broker.handlers.ConsumerGroupHeartbeatHandler;
import io.odradek.broker.handlers.DeleteGroupsHandler;
import io.odradek.broker.handlers.DeleteTopicsHandler;
import io.odradek.broker.handlers.DescribeGroupsHandler;
import io.odradek.broker.handlers.FindCoordinatorHandler;
import io.odradek.broker.handlers.HeartbeatHandler;
import io.odradek.broker.handlers.JoinGroupHandler;
import io.odradek.broker.handlers.LeaveGroupHandler;
import io.odradek.broker.handlers.ListGroupsHandler;
import io.odradek.broker.handlers.OffsetCommitHandler;
import io.odradek.broker.handlers.OffsetDeleteHandler;
import io.odradek.broker.handlers.OffsetFetchHandler;
import io.odradek.broker.handlers.SyncGroupHandler;
import io.odradek.broker.handlers.DescribeClusterHandler;
import io.odradek.broker.handlers.DescribeConfigsHandler;
import io.odradek.broker.handlers.FetchHandler;
import io.odradek.broker.handlers.InitProducerIdHandler;
import io.odradek.broker.handlers.ListOffsetsHandler;
import io.odradek.broker.handlers.MetadataHandler;
import io.odradek.broker.handlers.ProduceHandler;
import io.odradek.broker.network.KafkaChannelInitializer;
import io.odradek.broker.topics.ConfigDescriber;
import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.topics.TopicService;
import io.odradek.broker.topics.TopicServiceCatalog;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.replication.metadata.TopicInfo;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A running broker: its services, its handlers and the listener they are served on. */
public final class Broker implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Broker.class.getName());

    private final BrokerConfig config;
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final Channel serverChannel;
    private final TopicService topics;
    private ProducerIdManager producerIds;
    private GroupCoordinator groups;

    private Broker(BrokerConfig config, TopicService topics, EventLoopGroup bossGroup, EventLoopGroup workerGroup,
                   Channel serverChannel) {
        this.config = config;
        this.topics = topics;
        this.bossGroup = bossGroup;
        this.workerGroup = workerGroup;
        this.serverChannel = serverChannel;
    }

    public static Broker start(BrokerConfig config) throws InterruptedException {
        TopicService topics = TopicService.open(config);
        ApiRegistry registry = new ApiRegistry();
        ApiVersionsHandler apiVersions = new ApiVersionsHandler(registry);
        registry.register(apiVersions);
        // Handlers are built before the bind, so the advertised port of a port-0 listener is read lazily.
        AtomicInteger boundPort = new AtomicInteger();
        LocalNode node = new LocalNode(config.nodeId(), config.advertisedHost(),
                () -> config.advertisedPort() != 0 ? config.advertisedPort() : boundPort.get(), config.get("broker.rack"));
        ConfigDescriber configs = new ConfigDescriber(config);
        registry.register(new MetadataHandler(topics, node))
                .register(new CreateTopicsHandler(topics, configs))
                .register(new DeleteTopicsHandler(topics))
                .register(new DescribeClusterHandler(topics, node))
                .register(new DescribeConfigsHandler(topics, configs));
        // The data path: produce wakes the fetches parked on a partition; producer ids live in the first log dir.
        PartitionLogs logs = PartitionLogs.of(topics);
        DelayedFetches delayedFetches = new DelayedFetches();
        ProducerIdManager producerIds;
        try {
            producerIds = ProducerIdManager.open(config.logDirs().get(0));
        } catch (RuntimeException e) {
            topics.close();
            throw e;
        }
        registry.register(new ProduceHandler(logs, delayedFetches))
                .register(new FetchHandler(logs, delayedFetches))
                .register(new ListOffsetsHandler(logs))
                .register(new InitProducerIdHandler(producerIds));
        // Consumer groups: the classic group coordinator over __consumer_offsets.
        GroupCoordinator groups;
        try {
            groups = startGroupCoordinator(config, topics);
        } catch (RuntimeException e) {
            producerIds.close();
            topics.close();
            throw e;
        }
        registry.register(new FindCoordinatorHandler(node))
                .register(new JoinGroupHandler(groups))
                .register(new SyncGroupHandler(groups))
                .register(new HeartbeatHandler(groups))
                .register(new LeaveGroupHandler(groups))
                .register(new OffsetCommitHandler(groups, topics))
                .register(new OffsetFetchHandler(groups, topics))
                .register(new ListGroupsHandler(groups))
                .register(new DescribeGroupsHandler(groups))
                .register(new DeleteGroupsHandler(groups))
                .register(new OffsetDeleteHandler(groups, topics))
                .register(new ConsumerGroupHeartbeatHandler(groups))
                .register(new ConsumerGroupDescribeHandler(groups, topics));

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
                    .bind(config.listenerAddress())
                    .sync()
                    .channel();
            boundPort.set(((InetSocketAddress) channel.localAddress()).getPort());
            Broker broker = new Broker(config, topics, boss, workers, channel);
            broker.producerIds = producerIds;
            broker.groups = groups;
            LOG.log(System.Logger.Level.INFO, "listening on " + broker.address() + " (" + (epoll ? "epoll" : "nio")
                    + ", node " + config.nodeId() + ")");
            return broker;
        } catch (InterruptedException | RuntimeException e) {
            boss.shutdownGracefully();
            workers.shutdownGracefully();
            groups.close();
            producerIds.close();
            topics.close();
            throw e;
        }
    }

    /**
     * Creates {@code __consumer_offsets} on first start (its partition count is fixed from then on, as in
     * Kafka) and starts the group coordinator loading it.
     */
    private static GroupCoordinator startGroupCoordinator(BrokerConfig config, TopicService topics) {
        GroupCoordinatorConfig groupConfig = GroupCoordinatorConfig.from(config.effectiveConfigs());
        TopicInfo offsets = topics.topic(OffsetsTopic.NAME).orElseGet(() -> topics.createTopic(OffsetsTopic.NAME,
                groupConfig.offsetsTopicPartitions(), groupConfig.offsetsTopicConfigs(), false));
        GroupCoordinator groups = GroupCoordinator.create(groupConfig.withOffsetsTopicPartitions(offsets.partitions()),
                p -> topics.partitionLog(OffsetsTopic.NAME, p).orElseThrow(), new TopicServiceCatalog(topics));
        groups.startup();
        topics.onTopicDeleted(topic -> groups.onTopicsDeleted(List.of(topic)));
        return groups;
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

    /** The classic consumer group coordinator. */
    public GroupCoordinator groupCoordinator() {
        return groups;
    }

    /** Topics, their ids and partition logs; handlers get them from here. */
    public TopicService topics() {
        return topics;
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        workerGroup.shutdownGracefully(0, 5, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        bossGroup.shutdownGracefully(0, 5, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        if (groups != null) {
            groups.close(); // before the logs it writes to
        }
        if (producerIds != null) {
            producerIds.close();
        }
        topics.close(); // after the event loops: no handler appends while the logs flush
    }
}
