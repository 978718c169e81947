package io.odradek.broker;

import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.cluster.QuorumChannels;
import io.odradek.broker.network.KafkaServer;
import io.odradek.broker.quota.ClientQuotas;
import io.odradek.broker.quota.RequestThrottler;
import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.replication.security.SecurityMetadataStore;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/** A running broker: its services, the handlers that use them and the listener they are served on. */
public final class Broker implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Broker.class.getName());

    private final BrokerConfig config;
    private final BrokerServices services;
    private final KafkaServer server;

    private Broker(BrokerConfig config, BrokerServices services, KafkaServer server) {
        this.config = config;
        this.services = services;
        this.server = server;
    }

    public static Broker start(BrokerConfig config) throws InterruptedException {
        return start(config, QuorumChannels::open);
    }

    /** As {@link #start(BrokerConfig)}, a cluster node getting its quorum channel from {@code quorum} (tests). */
    public static Broker start(BrokerConfig config, QuorumChannels.Factory quorum) throws InterruptedException {
        // Handlers are built before the bind, so the advertised port of a port-0 listener is read lazily.
        AtomicInteger boundPort = new AtomicInteger();
        LocalNode node = new LocalNode(config.nodeId(), config.advertisedHost(),
                () -> config.advertisedPort() != 0 ? config.advertisedPort() : boundPort.get(),
                config.get("broker.rack"));
        BrokerServices services = BrokerServices.open(config, node, quorum);
        try {
            // Client quotas (issue 9, quotas): they follow the dynamic configs and apply to every response.
            RequestThrottler throttler = new RequestThrottler(
                    ClientQuotas.following(services.dynamicConfigs, config.quotaWindows()), System::currentTimeMillis);
            ApiRegistry registry = Handlers.registry(config, services, throttler);
            // issue 10 (authorizer, interim until the listeners part lands): the broker's authorizer on its listener.
            KafkaServer server = KafkaServer.bind(config.listenerAddress(), registry, config.networkSettings(), throttler,
                    io.odradek.broker.security.ListenerSecurity.plaintext(config.listener().name()),
                    io.odradek.broker.security.Authorizers.create(config, services.security));
            boundPort.set(server.address().getPort());
            // configs: connection limits follow the dynamic broker configs (stored ones from the start).
            server.connections().updateLimits(services.dynamicBrokerConfig.current().networkSettings());
            services.dynamicBrokerConfig.addListener(c -> server.connections().updateLimits(c.networkSettings()));
            if (services.clusterNode != null) {
                services.clusterNode.start(); // registers with the bound port, then heartbeats
            }
            LOG.log(System.Logger.Level.INFO, "listening on " + server.address() + " (" + server.transport()
                    + ", node " + config.nodeId() + ")");
            return new Broker(config, services, server);
        } catch (InterruptedException | RuntimeException e) {
            services.close();
            throw e;
        }
    }

    public InetSocketAddress address() {
        return server.address();
    }

    public int port() {
        return address().getPort();
    }

    /** The client listener (its request memory pool and connection counts). */
    public KafkaServer network() {
        return server;
    }

    public BrokerConfig config() {
        return config;
    }

    /** The consumer group coordinator (classic and consumer protocols). */
    public GroupCoordinator groupCoordinator() {
        return services.groups;
    }

    /** The transaction coordinator ({@code __transaction_state}). */
    public TransactionCoordinator transactionCoordinator() {
        return services.transactions;
    }

    /** The cluster as this broker's handlers see it (its image, the controller quorum in cluster mode). */
    public ClusterView cluster() {
        return services.cluster;
    }

    /** Topics, their ids and partition logs. */
    public TopicService topics() {
        return services.topics;
    }

    /** ACLs and SCRAM credentials (issue 10, store): the single node's file or the cluster image's section. */
    public SecurityMetadataStore security() {
        return services.security;
    }

    /**
     * In a cluster, a controlled shutdown first (leaderships move away while clients and followers can still
     * reach us; bounded); then the listener, so no handler appends while the services flush and close.
     */
    @Override
    public void close() {
        if (services.clusterNode != null) {
            services.clusterNode.controlledShutdown();
        }
        server.close();
        services.close();
    }
}
