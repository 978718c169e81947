package io.odradek.replication.partition;

import io.odradek.log.PartitionLog;
import io.odradek.replication.metadata.TopicInfo;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The partitions this broker holds (the part of Kafka's ReplicaManager that finds a Partition). On a single
 * node they are made on first use over the logs the storage layer holds: a partition whose log went away
 * (topic deleted) is dropped; one whose log was replaced (topic re-created) gets a fresh Partition, so state
 * never leaks from one incarnation to the next. In a cluster the {@link ReplicaManager} manages the set
 * instead ({@link #manage}): it installs and removes Partitions as the metadata image assigns replicas here,
 * and nothing is made on first use.
 */
public final class Partitions implements AutoCloseable {
    /** What the registry needs from the owner of logs and metadata. */
    public interface Source {
        Optional<PartitionLog> partitionLog(String topic, int partition);

        /** The partition's leader epoch from the cluster metadata; empty for an unknown topic. */
        OptionalInt leaderEpoch(String topic, int partition);

        /** The other in-sync replicas of a partition this broker leads: none on a single node. */
        default Set<Integer> inSyncFollowers(String topic, int partition) {
            return Set.of();
        }
    }

    private record Key(String topic, int partition) {
    }

    private final Source source;
    private final PartitionWriters writers;
    private final WaitingOperations<Partition> waiting;
    private final ConcurrentHashMap<Key, Partition> partitions = new ConcurrentHashMap<>();
    private volatile boolean managed;

    public Partitions(Source source, PartitionWriters writers, WaitingOperations<Partition> waiting) {
        this.source = source;
        this.writers = writers;
        this.waiting = waiting;
    }

    /** The partition, if its topic and log exist here. */
    public Optional<Partition> partition(String topic, int partition) {
        if (managed) {
            return Optional.ofNullable(partitions.get(new Key(topic, partition)));
        }
        Optional<PartitionLog> log = source.partitionLog(topic, partition);
        Key key = new Key(topic, partition);
        if (log.isEmpty()) {
            partitions.remove(key);
            return Optional.empty();
        }
        PartitionLog current = log.get();
        Partition known = partitions.get(key);
        if (known != null && known.log() == current) {
            return Optional.of(known);
        }
        return Optional.of(partitions.compute(key, (k, old) -> old != null && old.log() == current ? old
                : new Partition(current, source.leaderEpoch(topic, partition).orElse(TopicInfo.INITIAL_LEADER_EPOCH),
                        source.inSyncFollowers(topic, partition),
                        writers.writerFor(topic, partition), waiting)));
    }

    /** From now on only installed partitions exist: no lazy creation (cluster mode; the ReplicaManager calls it). */
    public void manage() {
        managed = true;
        partitions.clear();
    }

    public boolean isManaged() {
        return managed;
    }

    /** Installs (or replaces) a managed replica's Partition. */
    public void install(Partition p) {
        partitions.put(new Key(p.topic(), p.partition()), p);
    }

    /** Removes a managed replica's Partition; returns it, if there was one. */
    public Optional<Partition> uninstall(String topic, int partition) {
        return Optional.ofNullable(partitions.remove(new Key(topic, partition)));
    }

    /** The Partitions held now (a snapshot). */
    public List<Partition> all() {
        return List.copyOf(partitions.values());
    }

    /** The writer thread of a partition, for Partitions made outside this registry. */
    public Executor writerFor(String topic, int partition) {
        return writers.writerFor(topic, partition);
    }

    /** Forgets a deleted topic's partitions (operations parked on them run out their timeouts). */
    public void removeTopic(String topic) {
        partitions.keySet().removeIf(key -> key.topic().equals(topic));
    }

    /** The writer threads (issue 11, health: the liveness probe runs a task on each). */
    public PartitionWriters writers() {
        return writers;
    }

    public WaitingOperations<Partition> waiting() {
        return waiting;
    }

    /** Lets handed-over appends finish, then stops the writers and cancels whatever is still parked. */
    @Override
    public void close() {
        writers.close();
        waiting.close();
    }
}
