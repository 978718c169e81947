package io.odradek.broker.cluster;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.topics.TopicService;
import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.wire.ErrorCode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * This broker as a member of a cluster (Kafka's BrokerLifecycleManager and metadata publishers in one small
 * place): it registers with the controller quorum once its listeners are bound (every advertised endpoint), heartbeats every
 * {@code broker.heartbeat.interval.ms} (registering again when the controller answers STALE_BROKER_EPOCH),
 * and applies every committed image in order on the channel's image thread: its ACLs and SCRAM credentials first
 * (they hold before any leadership it brings), then the topic catalog, then
 * the logs of the replicas assigned here, then the image listeners (the replica manager), and last the
 * {@link ImageClusterView} handlers read, so a handler never sees a topic whose logs are not made yet.
 * Closing asks for a controlled shutdown first (leaderships move away), bounded in time.
 */
public final class ClusterNode implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());
    /** How long a topic creation or deletion waits for the controller and for the local image. */
    public static final long TOPIC_CHANGE_TIMEOUT_MS = 30_000;
    /** The most a controlled shutdown waits for leaderships to move (Kafka retries for about as long). */
    public static final long CONTROLLED_SHUTDOWN_TIMEOUT_MS = 10_000;

    /** What the node needs from the broker config (a record so tests can build one). */
    public record Settings(int brokerId, String clientListener, String rack, long heartbeatIntervalMs,
            boolean controlledShutdownEnable, long controlledShutdownTimeoutMs) {
    }

    private final Settings settings;
    private final ControllerChannel channel;
    private final TopicService topics;
    private final LocalNode node;
    private final ImageClusterView view;
    private final UUID incarnationId = UUID.randomUUID();
    private final List<Consumer<ClusterImage>> imageListeners = new CopyOnWriteArrayList<>();
    /** Run with each image before the catalog follows it: the ACLs and SCRAM credentials. */
    private final List<Consumer<ClusterImage>> securityListeners = new CopyOnWriteArrayList<>();
    /** Completes once an image at or past our registration is applied: the broker may serve clients. */
    private final CompletableFuture<Void> caughtUp = new CompletableFuture<>();
    private final ScheduledExecutorService scheduler;
    private final AtomicBoolean heartbeatInFlight = new AtomicBoolean();
    private final AtomicBoolean registering = new AtomicBoolean();
    private volatile long brokerEpoch = -1;
    /** The metadata offset of our registration: an image at or past it knows every topic there was. */
    private volatile long registrationOffset = Long.MAX_VALUE;
    private volatile boolean wantShutDown;
    private volatile HeartbeatReply lastReply;
    private volatile boolean heartbeatsFailing;
    private volatile boolean closed;
    /** Guarded by this: the offset of the last image applied. */
    private long appliedOffset = -1;
    private ClusterImage appliedImage;

    public ClusterNode(Settings settings, ControllerChannel channel, TopicService topics, LocalNode node) {
        this.settings = settings;
        this.channel = channel;
        this.topics = topics;
        this.node = node;
        this.view = new ImageClusterView(settings.brokerId(), settings.clientListener(), channel, topics);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "odradek-broker-lifecycle");
            t.setDaemon(true);
            return t;
        });
        topics.useController(new ControllerTopics(channel, view, topics, TOPIC_CHANGE_TIMEOUT_MS));
        channel.addListener(this::apply);
        apply(channel.image()); // what the channel had before we listened, if anything
    }

    /**
     * Opens the quorum channel (and this node's voter) for a broker config with process.roles; the node
     * registers once {@link #start} is called.
     */
    public static ClusterNode open(BrokerConfig config, TopicService topics, LocalNode node,
            QuorumChannels.Factory quorum) {
        ControllerChannel channel;
        try {
            channel = quorum.open(config);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the metadata quorum on "
                    + config.clusterRoles().voters().get(config.nodeId()) + ": " + e.getMessage(), e);
        }
        Settings settings = new Settings(config.nodeId(), config.listener().name(), config.brokerRack(),
                config.brokerHeartbeatIntervalMs(), config.controlledShutdownEnable(), CONTROLLED_SHUTDOWN_TIMEOUT_MS);
        try {
            return new ClusterNode(settings, channel, topics, node);
        } catch (RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The cluster as handlers see it. */
    public ClusterView view() {
        return view;
    }

    public ControllerChannel channel() {
        return channel;
    }

    /** The epoch of this broker's current registration, -1 while it is not registered. */
    public long brokerEpoch() {
        return brokerEpoch;
    }

    /**
     * Runs {@code listener} with each image after the catalog and logs follow it (the replica manager),
     * starting with the image applied already, if any, so a late listener misses nothing.
     */
    public synchronized void addImageListener(Consumer<ClusterImage> listener) {
        imageListeners.add(listener);
        if (appliedImage != null) {
            listener.accept(appliedImage);
        }
    }

    /**
     * Runs {@code listener} with each image before the catalog, logs and leaderships follow it (and with the image
     * applied already, if any): the ACLs and SCRAM credentials of an image hold before the broker leads its partitions.
     */
    public synchronized void addSecurityImageListener(Consumer<ClusterImage> listener) {
        securityListeners.add(listener);
        if (appliedImage != null) {
            listener.accept(appliedImage);
        }
    }

    /**
     * Completes once the broker caught up: an image at or past its registration's offset is applied (ACLs and SCRAM
     * credentials included), as Kafka enables request processing only then. Until this completes the broker's
     * listeners are bound but accept no connection.
     */
    public CompletableFuture<Void> caughtUp() {
        return caughtUp;
    }

    /**
     * Registers (retrying until the quorum answers) and then heartbeats; call once the listeners are bound,
     * since the registration carries their ports.
     */
    public void start() {
        scheduler.execute(this::register);
        scheduler.scheduleWithFixedDelay(this::heartbeat, settings.heartbeatIntervalMs(),
                settings.heartbeatIntervalMs(), TimeUnit.MILLISECONDS);
    }

    // ---------------------------------------------------------------- images

    /** Applies images in offset order; synchronized and idempotent, as the first may race the channel's thread. */
    private synchronized void apply(ClusterImage image) {
        if (image.offset() <= appliedOffset) {
            return;
        }
        appliedOffset = image.offset();
        appliedImage = image;
        try {
            for (Consumer<ClusterImage> listener : securityListeners) {
                listener.accept(image);
            }
            topics.applyImage(image);
            topics.reconcileReplicas(image, settings.brokerId(), image.offset() >= registrationOffset);
            for (Consumer<ClusterImage> listener : imageListeners) {
                listener.accept(image);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "cannot fully apply the cluster metadata at offset " + image.offset(), e);
        }
        view.applied(image);
        completeCatchUp();
    }

    /** Completes {@link #caughtUp} once the applied image is at or past our registration. */
    private synchronized void completeCatchUp() {
        if (appliedImage != null && appliedOffset >= registrationOffset && !caughtUp.isDone()) {
            LOG.log(System.Logger.Level.INFO, "broker " + settings.brokerId() + " caught up with the cluster metadata"
                    + " at offset " + appliedOffset + "; serving clients");
            caughtUp.complete(null);
        }
    }

    /** Once the applied image is past our registration, logs of replicas not assigned here go. */
    private synchronized void removeUnassignedLogs() {
        if (appliedImage != null && appliedOffset >= registrationOffset) {
            try {
                topics.reconcileReplicas(appliedImage, settings.brokerId(), true);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "cannot remove the logs of replicas not assigned here", e);
            }
        }
    }

    // ---------------------------------------------------------------- registration and heartbeats

    private void register() {
        if (closed || !registering.compareAndSet(false, true)) {
            return;
        }
        List<Endpoint> endpoints = node.endpoints(); // every listener's, with the ports bound by now
        ControllerCommand.RegisterBroker command = new ControllerCommand.RegisterBroker(settings.brokerId(),
                incarnationId, endpoints, settings.rack(), topics.clusterId());
        channel.submit(command).whenComplete((result, failure) -> {
            registering.set(false);
            if (closed) {
                return; // the channel closing fails what was in flight
            }
            if (failure == null && result.error() == ErrorCode.NONE) {
                registered(result);
                return;
            }
            String why = failure != null ? failure.toString() : result.error() + ": " + result.message();
            LOG.log(System.Logger.Level.WARNING, "registration of broker " + settings.brokerId()
                    + " failed, retrying: " + why);
            scheduler.schedule(this::register, settings.heartbeatIntervalMs(), TimeUnit.MILLISECONDS);
        });
    }

    private void registered(CommandResult result) {
        registrationOffset = result.offset();
        brokerEpoch = result.value();
        removeUnassignedLogs(); // in case the registration's image was applied before we knew its offset
        completeCatchUp();
        LOG.log(System.Logger.Level.INFO, "broker " + settings.brokerId() + " registered with epoch " + result.value()
                + " (endpoints " + node.endpoints().stream().map(e -> e.listener() + "://" + e.host() + ":" + e.port())
                .toList() + ")");
        scheduler.execute(this::heartbeat); // the first heartbeat gets us unfenced sooner
    }

    private void heartbeat() {
        long epoch = brokerEpoch;
        if (closed || epoch < 0 || !heartbeatInFlight.compareAndSet(false, true)) {
            return;
        }
        BrokerHeartbeat beat = new BrokerHeartbeat(settings.brokerId(), epoch, view.image().offset(), wantShutDown);
        channel.heartbeat(beat).whenComplete((reply, failure) -> {
            heartbeatInFlight.set(false);
            if (failure != null) {
                if (!heartbeatsFailing) {
                    heartbeatsFailing = true; // once, not every interval: the quorum may be down for long
                    LOG.log(System.Logger.Level.WARNING, "broker " + settings.brokerId()
                            + " cannot reach the controller quorum (" + failure + "); retrying every "
                            + settings.heartbeatIntervalMs() + " ms");
                }
                return;
            }
            if (heartbeatsFailing) {
                heartbeatsFailing = false;
                LOG.log(System.Logger.Level.INFO, "broker " + settings.brokerId() + " reaches the controller quorum again");
            }
            lastReply = reply;
            if (reply.error() == ErrorCode.STALE_BROKER_EPOCH && brokerEpoch == epoch) {
                LOG.log(System.Logger.Level.WARNING, "the controller no longer knows registration epoch " + epoch
                        + " of broker " + settings.brokerId() + "; registering again");
                brokerEpoch = -1;
                registrationOffset = Long.MAX_VALUE;
                scheduler.execute(this::register);
            }
        });
    }

    // ---------------------------------------------------------------- controlled shutdown

    /**
     * Kafka's controlled shutdown: asks the controller to move this broker's leaderships away
     * ({@code ControlledShutdown} and heartbeats with wantShutDown) and waits until it answers that the
     * broker may stop or the image shows no leadership here that another in-sync replica could take, at most
     * {@code controlledShutdownTimeoutMs}. Returns whether it completed in time.
     */
    public boolean controlledShutdown() {
        long epoch = brokerEpoch;
        if (!settings.controlledShutdownEnable() || epoch < 0 || closed) {
            return false;
        }
        wantShutDown = true;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.controlledShutdownTimeoutMs());
        channel.submit(new ControllerCommand.ControlledShutdown(settings.brokerId(), epoch))
                .exceptionally(e -> null);
        while (System.nanoTime() < deadline) {
            HeartbeatReply reply = lastReply;
            if ((reply != null && reply.shutDownAllowed()) || !leadsMovablePartitions(view.image())) {
                LOG.log(System.Logger.Level.INFO, "controlled shutdown of broker " + settings.brokerId() + " complete");
                return true;
            }
            heartbeat();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        LOG.log(System.Logger.Level.WARNING, "controlled shutdown of broker " + settings.brokerId()
                + " did not complete within " + settings.controlledShutdownTimeoutMs() + " ms; stopping anyway");
        return false;
    }

    /** Whether this broker leads a partition whose ISR has another live member, not stopping itself, to take over. */
    private boolean leadsMovablePartitions(ClusterImage image) {
        int us = settings.brokerId();
        for (TopicImage t : image.topics().values()) {
            for (PartitionRegistration p : t.partitions()) {
                if (p.leader() == us && p.isr().stream().anyMatch(r -> r != us && image.isActive(r)
                        && !image.brokers().get(r).inControlledShutdown())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Stops heartbeats, fails pending waits and closes the channel (and this node's voter with it). */
    @Override
    public void close() {
        closed = true;
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        view.close();
        channel.close();
    }
}
