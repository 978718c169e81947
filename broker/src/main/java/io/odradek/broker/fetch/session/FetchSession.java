package io.odradek.broker.fetch.session;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.function.Consumer;

/**
 * One incremental fetch session (KIP-227): the partitions a fetcher reads, in the order they are read, and the
 * epoch its next request must carry. Partitions that returned records move to the end of the order, so a
 * response limited by max_bytes serves the others first next time (as Kafka).
 *
 * <p>Its own lock (this object) guards the partition map and the partitions' state; the shard's lock is never
 * taken while holding it, except by the shard itself, which takes the shard's first (Kafka's rule).
 */
public final class FetchSession {
    private final int id;
    private final boolean privileged;
    private final boolean usesTopicIds;
    private final long creationMs;
    /** The partitions in read order, each its own key and value (always the same object: see {@link #update}). */
    private final LinkedHashMap<SessionPartition, SessionPartition> partitions;
    private long lastUsedMs;
    private int epoch;
    /** The size the cache last accounted for (its eviction key), -1 while not in the cache. */
    private int cachedSize = -1;

    FetchSession(int id, boolean privileged, boolean usesTopicIds, long creationMs, int epoch,
            LinkedHashMap<SessionPartition, SessionPartition> partitions) {
        this.id = id;
        this.privileged = privileged;
        this.usesTopicIds = usesTopicIds;
        this.creationMs = creationMs;
        this.lastUsedMs = creationMs;
        this.epoch = epoch;
        this.partitions = partitions;
    }

    public int id() {
        return id;
    }

    /** Sessions of followers are privileged: only a stale one, or one of another follower, can evict them. */
    public boolean privileged() {
        return privileged;
    }

    public boolean usesTopicIds() {
        return usesTopicIds;
    }

    public long creationMs() {
        return creationMs;
    }

    public synchronized long lastUsedMs() {
        return lastUsedMs;
    }

    /** The epoch the next incremental request must carry. */
    public synchronized int epoch() {
        return epoch;
    }

    public synchronized int size() {
        return partitions.size();
    }

    synchronized void setEpoch(int epoch) {
        this.epoch = epoch;
    }

    synchronized void setLastUsedMs(long lastUsedMs) {
        this.lastUsedMs = lastUsedMs;
    }

    synchronized int cachedSize() {
        return cachedSize;
    }

    synchronized void setCachedSize(int cachedSize) {
        this.cachedSize = cachedSize;
    }

    synchronized SessionCacheShard.LastUsedKey lastUsedKey() {
        return new SessionCacheShard.LastUsedKey(lastUsedMs, id);
    }

    synchronized SessionCacheShard.EvictableKey evictableKey() {
        return new SessionCacheShard.EvictableKey(privileged, cachedSize, id);
    }

    /**
     * Applies an incremental request: partitions named again take its parameters (the cached object stays, so
     * key and value remain one object; a partition named twice takes its last parameters), new ones are added
     * at the end, forgotten ones leave. Caller holds the session lock.
     */
    void update(Collection<SessionPartition> requested, Collection<SessionPartition> forgotten) {
        for (SessionPartition p : requested) {
            SessionPartition cached = partitions.get(p);
            if (cached == null) {
                partitions.put(p, p);
            } else {
                cached.updateRequestParams(p);
            }
        }
        for (SessionPartition p : forgotten) {
            partitions.remove(p);
        }
    }

    /** Caller holds the session lock. */
    void forEach(Consumer<SessionPartition> action) {
        partitions.values().forEach(action);
    }

    /** Moves a partition that returned records to the end of the read order. Caller holds the session lock. */
    void moveToEnd(SessionPartition p) {
        if (partitions.remove(p) != null) {
            partitions.put(p, p);
        }
    }

    /** Whether a partition is still in the session (not forgotten since). Caller holds the session lock. */
    boolean contains(SessionPartition p) {
        return partitions.get(p) == p;
    }

    @Override
    public synchronized String toString() {
        return "FetchSession(id=" + id + ", privileged=" + privileged + ", partitions=" + partitions.size()
                + ", usesTopicIds=" + usesTopicIds + ", epoch=" + epoch + ")";
    }
}
