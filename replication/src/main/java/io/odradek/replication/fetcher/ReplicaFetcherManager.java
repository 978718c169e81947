package io.odradek.replication.fetcher;

import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.ReplicationSettings;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * The follower fetch threads of this broker (Kafka's ReplicaFetcherManager): {@code num.replica.fetchers}
 * threads per leader endpoint, a partition always on the same one (by hash). Called from the metadata thread
 * only; a fetcher left with no partitions is stopped.
 */
public final class ReplicaFetcherManager implements AutoCloseable {
    private record FetcherKey(FetchSource source, int fetcherId) {
    }

    private record Assignment(FetcherKey fetcher, int leaderEpoch) {
    }

    private record PartitionKey(UUID topicId, int partition) {
    }

    private final int localBrokerId;
    private final LongSupplier brokerEpoch;
    private final ReplicationSettings settings;
    private final Map<FetcherKey, ReplicaFetcher> fetchers = new HashMap<>();
    private final Map<PartitionKey, Assignment> assignments = new HashMap<>();

    public ReplicaFetcherManager(int localBrokerId, LongSupplier brokerEpoch, ReplicationSettings settings) {
        this.localBrokerId = localBrokerId;
        this.brokerEpoch = brokerEpoch;
        this.settings = settings;
    }

    /**
     * Fetches {@code partition} from {@code source} at {@code leaderEpoch}; moves it if it was fetched from
     * elsewhere, restarts it at a new epoch, and resumes it if it was paused.
     */
    public synchronized void fetch(Partition partition, UUID topicId, int leaderEpoch, FetchSource source) {
        PartitionKey key = new PartitionKey(topicId, partition.partition());
        FetcherKey fetcherKey = new FetcherKey(source, Math.floorMod(
                31 * partition.topic().hashCode() + partition.partition(), settings.numFetchers()));
        Assignment current = assignments.get(key);
        if (current != null && current.fetcher().equals(fetcherKey) && current.leaderEpoch() == leaderEpoch) {
            return;
        }
        if (current != null && !current.fetcher().equals(fetcherKey)) {
            stop(partition, topicId);
        }
        ReplicaFetcher fetcher = fetchers.computeIfAbsent(fetcherKey, k -> {
            ReplicaFetcher f = new ReplicaFetcher("odradek-replica-fetcher-" + localBrokerId + "-from-"
                    + source.brokerId() + "-" + k.fetcherId(), source, localBrokerId, brokerEpoch, settings);
            f.start();
            return f;
        });
        fetcher.add(partition, topicId, leaderEpoch);
        assignments.put(key, new Assignment(fetcherKey, leaderEpoch));
    }

    /** Stops fetching {@code partition}; once this returns no fetcher writes to its log. */
    public synchronized void stop(Partition partition, UUID topicId) {
        Assignment current = assignments.remove(new PartitionKey(topicId, partition.partition()));
        if (current == null) {
            return;
        }
        ReplicaFetcher fetcher = fetchers.get(current.fetcher());
        if (fetcher != null) {
            fetcher.remove(topicId, partition.partition());
            if (fetcher.isEmpty()) {
                fetchers.remove(current.fetcher());
                // Not close(): waiting for a thread stuck on a silent leader would hold the metadata thread.
                fetcher.stopAsync();
            }
        }
    }

    /** Where {@code partition} is fetched from now, or null when it is not. */
    public synchronized FetchSource sourceOf(UUID topicId, int partition) {
        Assignment a = assignments.get(new PartitionKey(topicId, partition));
        return a == null ? null : a.fetcher().source();
    }

    /** A new image: partitions paused after an error try again. */
    public synchronized void resumeAll() {
        fetchers.values().forEach(ReplicaFetcher::resumeAll);
    }

    public synchronized List<ReplicaFetcher> fetchers() {
        return List.copyOf(fetchers.values());
    }

    @Override
    public synchronized void close() {
        for (Iterator<ReplicaFetcher> it = fetchers.values().iterator(); it.hasNext(); ) {
            it.next().close();
            it.remove();
        }
        assignments.clear();
    }
}
