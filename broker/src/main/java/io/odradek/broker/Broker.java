package io.odradek.broker;

import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.cluster.QuorumChannels;
import io.odradek.broker.config.ConfigException;
import io.odradek.broker.config.Listener;
import io.odradek.broker.config.ListenerConfig;
import io.odradek.broker.faults.AdminEndpoint;
import io.odradek.broker.faults.Faults;
import io.odradek.broker.metrics.BrokerMetrics;
import io.odradek.broker.metrics.http.BrokerOperations;
import io.odradek.broker.metrics.http.ObservedBroker;
import io.odradek.broker.network.KafkaServer;
import io.odradek.broker.network.RequestHooks;
import io.odradek.broker.quota.ClientQuotas;
import io.odradek.broker.quota.RequestThrottler;
import io.odradek.broker.security.Authorizers;
import io.odradek.broker.security.ListenerSecurity;
import io.odradek.broker.security.ReconfigurableSasl;
import io.odradek.broker.security.SaslServerSettings;
import io.odradek.broker.security.ServerTls;
import io.odradek.broker.security.TlsListeners;
import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.replication.security.SecurityMetadataStore;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.acl.Authorizer;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/** A running broker: its services, the handlers that use them and the listeners they are served on. */
public final class Broker implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Broker.class.getName());

    private final BrokerConfig config;
    private final BrokerServices services;
    private final KafkaServer server;
    /** The TLS listeners' contexts (they watch their store files until closed). */
    private final List<ServerTls> tlsContexts;
    /** issue 11: the broker's meters (JMX, Prometheus) and its injected faults (admin endpoint, embedded API). */
    private final BrokerMetrics metrics;
    private final Faults faults;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    /** issue 11 (metrics-http): the broker's gauges, and the /metrics and health HTTP server if configured. */
    private final BrokerOperations operations;
    /** issue 11 (faults): the admin HTTP endpoint; null unless odradek.admin.port is set. */
    private AdminEndpoint admin;

    private Broker(BrokerConfig config, BrokerServices services, KafkaServer server, List<ServerTls> tlsContexts,
            BrokerMetrics metrics, Faults faults, BrokerOperations operations) {
        this.operations = operations;
        this.metrics = metrics;
        this.faults = faults;
        this.tlsContexts = tlsContexts;
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
        Map<String, Integer> boundPorts = new ConcurrentHashMap<>();
        LocalNode node = localNode(config, name -> boundPorts.getOrDefault(name, 0));
        BrokerServices services = BrokerServices.open(config, node, quorum);
        List<ServerTls> tlsContexts = new ArrayList<>(); // their store-file watches stop with the broker
        KafkaServer bound = null;
        BrokerMetrics metrics = BrokerMetrics.create(config); // issue 11 (metrics)
        Faults faults = new Faults(); // issue 11 (faults): none until the admin endpoint or the embedded API adds some
        BrokerOperations operations = null; // issue 11: its metrics HTTP port goes back too if a later step fails
        try {
            // Client quotas (issue 9, quotas): they follow the dynamic configs and apply to every response.
            RequestThrottler throttler = new RequestThrottler(
                    ClientQuotas.following(services.dynamicConfigs, config.quotaWindows()), System::currentTimeMillis);
            ApiRegistry registry = Handlers.registry(config, services, throttler, metrics);
            // issue 10 (listeners): every listener at once, each secured as its protocol says, one authorizer.
            // Their TLS and SASL keys as the dynamic configs have them now (a keystore rotated through
            // IncrementalAlterConfigs holds after a restart), and from then on as they change.
            Authorizer authorizer = Authorizers.create(config, services.security);
            BrokerConfig current = services.dynamicBrokerConfig.current();
            List<KafkaServer.Binding> listeners = new ArrayList<>();
            List<Consumer<BrokerConfig>> reconfigurations = new ArrayList<>();
            for (ListenerConfig configured : config.listenerConfigs()) {
                ListenerConfig listener = withDynamicKeys(current, configured);
                ListenerSecurity security = listenerSecurity(listener, services.security);
                if (security.tls() instanceof AutoCloseable) {
                    tlsContexts.add(security.tls());
                }
                listeners.add(new KafkaServer.Binding(configured.listener().bindAddress(), security));
                if (security.tls() != null) { // tls: listener.name.<l>.ssl.* changed dynamically rebuilds its context
                    reconfigurations.add(c -> TlsListeners.reconfigure(security.tls(), withDynamicKeys(c, configured)));
                    // Unusable TLS keys are refused by (Incremental)AlterConfigs, not stored (Kafka's validateReconfiguration).
                    services.dynamicBrokerConfig.addValidator(
                            c -> TlsListeners.validateReconfiguration(security.tls(), withDynamicKeys(c, configured)));
                }
                if (security.sasl() instanceof ReconfigurableSasl sasl) { // new logins use changed SASL keys
                    reconfigurations.add(c -> sasl.reconfigure(withDynamicKeys(c, configured)));
                }
            }
            reconfigurations.forEach(services.dynamicBrokerConfig::addListener);
            BrokerConfig latest = services.dynamicBrokerConfig.current();
            if (latest != current) { // an image's dynamic configs applied while the listeners were being built
                reconfigurations.forEach(r -> r.accept(latest));
            }
            // A cluster broker binds now (its registration carries the ports) but accepts connections only once it
            // caught up with the metadata: before, it has no ACLs or SCRAM credentials (logins would fail, the
            // authorizer would deny or, with allow.everyone.if.no.acl.found, allow what a DENY forbids).
            KafkaServer server = KafkaServer.bind(listeners, registry, config.networkSettings(), throttler, authorizer,
                    services.clusterNode == null, new RequestHooks(faults, metrics.requests()));
            bound = server;
            server.addresses().forEach((name, address) -> boundPorts.put(name, address.getPort()));
            // configs: connection limits follow the dynamic broker configs (stored ones from the start).
            server.connections().updateLimits(services.dynamicBrokerConfig.current().networkSettings());
            services.dynamicBrokerConfig.addListener(c -> server.connections().updateLimits(c.networkSettings()));
            if (services.clusterNode != null) {
                services.clusterNode.caughtUp().thenRun(server::startAccepting);
                services.clusterNode.start(); // registers with the bound port, then heartbeats
            }
            LOG.log(System.Logger.Level.INFO, "listening on " + server.addresses() + " (" + server.transport()
                    + ", node " + config.nodeId() + ")");
            operations = BrokerOperations.start(metrics, new ObservedBroker(config, server,
                    services.topics, services.cluster, services.groups, services.partitions)); // issue 11 (metrics-http)
            Broker broker = new Broker(config, services, server, tlsContexts, metrics, faults, operations);
            broker.admin = AdminEndpoint.start(config, faults); // issue 11 (faults)
            return broker;
        } catch (InterruptedException | RuntimeException | Error e) { // an Error too (a missing class): nothing left running
            if (operations != null) { // the admin endpoint could not bind, say
                operations.close();
            }
            if (bound != null) {
                bound.close();
            }
            metrics.close();
            closeTls(tlsContexts);
            services.close();
            throw e;
        }
    }

    /**
     * This node as clients and brokers reach it: one endpoint per advertised listener; a port-0 one is given its
     * listener's bound port, read from {@code boundPort} when asked (0 until the listener is bound).
     */
    static LocalNode localNode(BrokerConfig config, ToIntFunction<String> boundPort) {
        List<LocalNode.Advertised> endpoints = new ArrayList<>();
        for (Listener a : config.advertisedListeners()) {
            endpoints.add(new LocalNode.Advertised(a.name(), a.host(),
                    () -> a.port() != 0 ? a.port() : boundPort.applyAsInt(a.name())));
        }
        return new LocalNode(config.nodeId(), endpoints, config.get("broker.rack"));
    }

    /**
     * {@code configured}'s keys as {@code dynamic} has them (listener.name.<l>.* stored through AlterConfigs over
     * the static ones); the static listener when a stored {@code listeners} no longer names it.
     */
    private static ListenerConfig withDynamicKeys(BrokerConfig dynamic, ListenerConfig configured) {
        try {
            return dynamic.listenerConfig(configured.name());
        } catch (ConfigException e) {
            return configured;
        }
    }

    /** TLS for SSL and SASL_SSL listeners, SASL for SASL_PLAINTEXT and SASL_SSL ones (their parts' factories). */
    private static ListenerSecurity listenerSecurity(ListenerConfig listener, SecurityMetadataStore store) {
        SecurityProtocol protocol = listener.protocol();
        if (protocol == SecurityProtocol.PLAINTEXT) {
            return ListenerSecurity.plaintext(listener.name());
        }
        ServerTls tls = protocol.usesTls() ? TlsListeners.serverTls(listener) : null;
        try {
            SaslServerSettings sasl = protocol.usesSasl() ? new ReconfigurableSasl(listener, store) : null;
            return new ListenerSecurity(listener.name(), protocol, tls, sasl);
        } catch (RuntimeException e) {
            closeTls(tls == null ? List.of() : List.of(tls));
            throw e;
        }
    }

    /** Stops the store-file watches of TLS contexts. */
    private static void closeTls(List<ServerTls> contexts) {
        for (ServerTls tls : contexts) {
            if (tls instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.WARNING, "cannot stop a TLS listener's store watch: " + e);
                }
            }
        }
    }

    /** The first listener's bound address. */
    public InetSocketAddress address() {
        return server.address();
    }

    /** The bound address of the listener named {@code listenerName} (upper case), or null when there is none. */
    public InetSocketAddress address(String listenerName) {
        return server.address(listenerName);
    }

    /** The first listener's bound port. */
    public int port() {
        return address().getPort();
    }

    /** The listeners (their shared request memory pool and connection counts). */
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

    /** issue 11 (metrics): the broker's meters, as JMX and the Prometheus endpoint show them. */
    public BrokerMetrics metrics() {
        return metrics;
    }

    /** issue 11 (metrics-http): the gauges, /metrics and the health probes (their HTTP port, if any). */
    public BrokerOperations operations() {
        return operations;
    }

    /** issue 11 (faults): the faults injected into this broker's request handling (none unless added). */
    public Faults faults() {
        return faults;
    }

    /** issue 11 (faults): the admin HTTP endpoint's address, or null when odradek.admin.port is not set. */
    public java.net.InetSocketAddress adminAddress() {
        return admin == null ? null : admin.address();
    }

    /**
     * In a cluster, a controlled shutdown first (leaderships move away while clients and followers can still
     * reach us; bounded); then the listener, so no handler appends while the services flush and close.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return; // closed already (an embedded cluster's owner may close a node the test closed itself)
        }
        operations.shuttingDown(); // issue 11 (metrics-http): readiness answers 503 from now on (liveness stays 200)
        if (admin != null) { // issue 11 (faults)
            admin.close();
        }
        if (services.clusterNode != null) {
            services.clusterNode.controlledShutdown();
        }
        server.close();
        closeTls(tlsContexts);
        operations.close(); // issue 11 (metrics-http): no scrape reaches closing services; none leaks if they throw
        try {
            services.close();
        } finally {
            metrics.close(); // the MBeans go even when a service fails to close
        }
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed.get();
    }
}
