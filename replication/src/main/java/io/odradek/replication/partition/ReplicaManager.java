package io.odradek.replication.partition;

import io.odradek.log.LogException;
import io.odradek.log.PartitionLog;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.replication.fetcher.FetchSource;
import io.odradek.replication.fetcher.ReplicaFetcherManager;
import io.odradek.wire.ErrorCode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * This broker's replicas in a cluster (Kafka's ReplicaManager, the metadata side): it applies every metadata
 * image, in offset order on one thread, to the replicas the image assigns here. For each: the log is made
 * ({@link LocalLogs}), the {@link Partition} installed in {@link Partitions}, then made leader or follower by
 * its registration; a follower fetches from its leader's endpoint of the inter-broker listener (a follower
 * whose leader is unknown or fenced waits for a later image). Replicas no longer assigned here (reassigned
 * away, topic deleted or re-created) stop fetching, leave {@link Partitions} and have their logs deleted.
 * {@link LeadershipListener}s hear every change of leadership here. A periodic task shrinks the ISR of the
 * partitions this broker leads (every {@code replica.lag.time.max.ms / 2}, as Kafka's isr-expiration).
 */
public final class ReplicaManager implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ReplicaManager.class.getName());

    private record Key(String topic, int partition) {
    }

    /** A local replica: its Partition and the topic id it was made for. */
    private record Replica(Partition partition, UUID topicId) {
    }

    private final int localBrokerId;
    private final Partitions partitions;
    private final ControllerChannel controller;
    private final LocalLogs logs;
    private final ReplicationSettings settings;
    private final LongSupplier brokerEpoch;
    private final ReplicaFetcherManager fetchers;
    private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();
    private final Map<Key, Replica> replicas = new HashMap<>();
    private final ScheduledExecutorService isrExpiration;
    private volatile ClusterImage image = ClusterImage.EMPTY;

    /**
     * @param localBrokerId this broker's {@code node.id}
     * @param partitions    the registry handlers read; switched to managed mode (no lazy creation)
     * @param controller    where ISR changes are proposed (AlterPartition)
     * @param logs          makes and deletes local logs
     * @param settings      replication configuration
     * @param brokerEpoch   this broker's registration epoch (sent in fetches and AlterPartition)
     */
    public ReplicaManager(int localBrokerId, Partitions partitions, ControllerChannel controller, LocalLogs logs,
            ReplicationSettings settings, LongSupplier brokerEpoch) {
        this.localBrokerId = localBrokerId;
        this.partitions = partitions;
        this.controller = controller;
        this.logs = logs;
        this.settings = settings;
        this.brokerEpoch = brokerEpoch;
        this.fetchers = new ReplicaFetcherManager(localBrokerId, brokerEpoch, settings);
        partitions.manage();
        isrExpiration = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "odradek-isr-expiration");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(1, settings.replicaLagTimeMaxMs() / 2);
        isrExpiration.scheduleAtFixedRate(this::shrinkIsrs, period, period, TimeUnit.MILLISECONDS);
    }

    public void addLeadershipListener(LeadershipListener listener) {
        listeners.add(listener);
    }

    /** The image last applied. */
    public ClusterImage image() {
        return image;
    }

    /** The fetch threads, for tests and reporting. */
    public ReplicaFetcherManager fetchers() {
        return fetchers;
    }

    /** Applies {@code next} to the local replicas; call in offset order, from one thread. */
    public synchronized void applyImage(ClusterImage next) {
        long now = System.currentTimeMillis();
        Set<Key> assigned = new HashSet<>();
        for (TopicImage topic : next.topics().values()) {
            for (int i = 0; i < topic.partitions().size(); i++) {
                PartitionRegistration registration = topic.partition(i);
                if (!registration.replicas().contains(localBrokerId)) {
                    continue;
                }
                Key key = new Key(topic.name(), i);
                assigned.add(key);
                try {
                    applyRegistration(next, topic, i, registration, now);
                } catch (RuntimeException e) {
                    // One bad log (an offline directory) must not stop the others from following the image.
                    LOG.log(System.Logger.Level.ERROR, "Could not apply the metadata of " + key.topic() + "-" + i
                            + " at offset " + next.offset(), e);
                }
            }
        }
        for (Key key : List.copyOf(replicas.keySet())) {
            if (!assigned.contains(key)) {
                removeReplica(key, true);
            }
        }
        image = next;
        fetchers.resumeAll();
    }

    private void applyRegistration(ClusterImage next, TopicImage topic, int index, PartitionRegistration registration,
            long now) {
        Key key = new Key(topic.name(), index);
        Replica replica = replicas.get(key);
        if (replica != null && !replica.topicId().equals(topic.id())) {
            // The topic was deleted and created again under the same name: nothing of the old one carries over.
            removeReplica(key, true);
            replica = null;
        }
        if (replica == null) {
            PartitionLog log = logs.getOrCreate(topic, index);
            Partition p = new Partition(log, topic.id(), localBrokerId, controller, brokerEpoch,
                    partitions.writerFor(topic.name(), index), partitions.waiting());
            replica = new Replica(p, topic.id());
            replicas.put(key, replica);
            partitions.install(p);
        }
        Partition p = replica.partition();
        if (registration.leader() == localBrokerId) {
            fetchers.stop(p, topic.id());
            if (p.makeLeader(registration, now)) {
                fire(key, registration.leaderEpoch(), true);
            }
            return;
        }
        boolean wasLeader = p.isLeader();
        boolean changed = p.makeFollower(registration);
        if (changed && (wasLeader || registration.leaderEpoch() >= 0)) {
            fire(key, registration.leaderEpoch(), false);
        }
        FetchSource source = leaderEndpoint(next, registration.leader());
        if (source == null) {
            fetchers.stop(p, topic.id());
        } else {
            fetchers.fetch(p, topic.id(), p.leaderEpoch(), source);
        }
    }

    /**
     * records (issue 9), AlterReplicaLogDirs in a cluster: moves a local replica's log with {@code move}, which runs
     * on the partition's writer (so no append interleaves) and leaves the moved log where
     * {@link LocalLogs#getOrCreate} finds it. The replica's Partition is retired first as if the replica had left
     * (fetching stops, writes parked on it fail with NOT_LEADER_OR_FOLLOWER, a leader announces it no longer leads);
     * then a fresh Partition over the log takes the current image's registration again, whether the move
     * succeeded or not: a leader starts over as after an election at the same epoch (its followers report their
     * log ends again, so the high watermark waits for their next fetches), a follower fetches again. Kafka
     * instead copies into a future replica while the current one keeps serving. Blocks until done: call it off
     * the network threads.
     *
     * @throws LogException REPLICA_NOT_AVAILABLE when this broker holds no replica of the partition, or what the
     *         move threw
     */
    public synchronized void moveReplica(String topic, int partition, Supplier<PartitionLog> move) {
        Key key = new Key(topic, partition);
        Replica replica = replicas.get(key);
        if (replica == null) {
            throw new LogException(ErrorCode.REPLICA_NOT_AVAILABLE, "Broker " + localBrokerId
                    + " holds no replica of " + topic + "-" + partition);
        }
        removeReplica(key, false);
        CompletableFuture<PartitionLog> moved = new CompletableFuture<>();
        try {
            partitions.writerFor(topic, partition).execute(() -> {
                try {
                    moved.complete(move.get());
                } catch (RuntimeException e) {
                    moved.completeExceptionally(e);
                }
            });
            moved.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        } finally {
            ClusterImage current = image;
            TopicImage t = current.topic(topic).filter(ti -> ti.id().equals(replica.topicId())).orElse(null);
            if (t != null && partition < t.partitions().size() && t.partition(partition).replicas().contains(localBrokerId)) {
                applyRegistration(current, t, partition, t.partition(partition), System.currentTimeMillis());
            }
        }
    }

    /** The leader's inter-broker endpoint, or null when there is no leader or it is fenced or unreachable. */
    private FetchSource leaderEndpoint(ClusterImage next, int leader) {
        if (leader < 0 || leader == localBrokerId || !next.isActive(leader)) {
            return null;
        }
        BrokerRegistration broker = next.broker(leader).orElse(null);
        Endpoint endpoint = broker == null ? null : broker.endpoint(settings.listenerName());
        if (endpoint == null && broker != null) {
            endpoint = broker.clientEndpoint();
        }
        return endpoint == null ? null : new FetchSource(leader, endpoint.host(), endpoint.port());
    }

    private void removeReplica(Key key, boolean deleteLog) {
        Replica replica = replicas.remove(key);
        if (replica == null) {
            return;
        }
        Partition p = replica.partition();
        fetchers.stop(p, replica.topicId());
        partitions.uninstall(key.topic(), key.partition());
        // Writes parked on its commit fail now (NOT_LEADER_OR_FOLLOWER) rather than wait forever.
        p.markRemoved();
        if (p.isLeader()) {
            fire(key, p.leaderEpoch(), false);
        }
        if (deleteLog) {
            logs.delete(key.topic(), key.partition());
        }
    }

    private void fire(Key key, int leaderEpoch, boolean isLeader) {
        for (LeadershipListener l : listeners) {
            try {
                l.onLeadershipChange(key.topic(), key.partition(), leaderEpoch, isLeader);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "Leadership listener failed for " + key.topic() + "-"
                        + key.partition(), e);
            }
        }
    }

    /** The periodic ISR check of every partition led here. */
    void shrinkIsrs() {
        long now = System.currentTimeMillis();
        for (Partition p : partitions.all()) {
            try {
                p.maybeShrinkIsr(now, settings.replicaLagTimeMaxMs());
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "ISR check of " + p + " failed", e);
            }
        }
    }

    /** Stops fetching and the ISR task; logs and Partitions stay (the broker closes them). */
    public void shutdown() {
        isrExpiration.shutdownNow();
        fetchers.close();
    }

    @Override
    public void close() {
        shutdown();
    }
}
