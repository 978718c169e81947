package io.odradek.broker.fetch.session;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * A share of the fetch session cache (Kafka's FetchSessionCacheShard): its own slots, its own range of session
 * ids, its own eviction. All methods hold the shard's lock, so sessions in different shards are created and
 * evicted without contending.
 *
 * <p>Eviction, when a new session finds every slot taken (Kafka's tryEvict): the least recently used session
 * goes if it has been unused for longer than the eviction time; otherwise the least valuable evictable one goes
 * if the newcomer is worth more. Value orders unprivileged before privileged, then by partition count, then by
 * id. A session is evictable by anyone once older than the eviction time; an unprivileged (consumer) session is
 * evictable by a privileged (follower) one at any age.
 *
 * <p>Besides its slots, a shard holds at most {@code maxPartitions} cached partitions in all (its share of the
 * cache's partition budget): a newcomer that does not fit evicts by the same rule (stale sessions first, then
 * less valuable evictable ones) and, if that cannot make room, gets no session; nothing is evicted then.
 */
final class SessionCacheShard {
    record LastUsedKey(long lastUsedMs, int id) implements Comparable<LastUsedKey> {
        @Override
        public int compareTo(LastUsedKey o) {
            return lastUsedMs != o.lastUsedMs ? Long.compare(lastUsedMs, o.lastUsedMs) : Integer.compare(id, o.id);
        }
    }

    record EvictableKey(boolean privileged, int size, int id) implements Comparable<EvictableKey> {
        @Override
        public int compareTo(EvictableKey o) {
            if (privileged != o.privileged) {
                return Boolean.compare(privileged, o.privileged);
            }
            return size != o.size ? Integer.compare(size, o.size) : Integer.compare(id, o.id);
        }
    }

    private final Map<Integer, FetchSession> sessions = new HashMap<>();
    private final TreeMap<LastUsedKey, FetchSession> lastUsed = new TreeMap<>();
    private final TreeMap<EvictableKey, FetchSession> evictableByAll = new TreeMap<>();
    private final TreeMap<EvictableKey, FetchSession> evictableByPrivileged = new TreeMap<>();
    private final int maxEntries;
    private final long maxPartitions;
    private final long evictionMs;
    private final int idRangeStart;
    private final int idRangeEnd;
    private long numPartitions;
    private long evictions;

    /** Session ids of shard n are in [max(1, n * idRange), (n + 1) * idRange). */
    SessionCacheShard(int maxEntries, long maxPartitions, long evictionMs, int idRange, int shardNum) {
        this.maxEntries = maxEntries;
        this.maxPartitions = maxPartitions;
        this.evictionMs = evictionMs;
        this.idRangeStart = Math.max(1, shardNum * idRange);
        this.idRangeEnd = (shardNum + 1) * idRange;
    }

    synchronized FetchSession get(int sessionId) {
        return sessions.get(sessionId);
    }

    synchronized int size() {
        return sessions.size();
    }

    synchronized long totalPartitions() {
        return numPartitions;
    }

    synchronized long evictions() {
        return evictions;
    }

    /**
     * A new session of {@code size} partitions if a slot and room in the partition budget are free or can be
     * made by eviction; its id, else 0 (no session: the fetcher keeps sending full requests).
     */
    synchronized int maybeCreate(long now, boolean privileged, int size, boolean usesTopicIds,
            Supplier<LinkedHashMap<SessionPartition, SessionPartition>> partitions) {
        if (size > maxPartitions || !makeRoom(privileged, new EvictableKey(privileged, size, 0), now)) {
            return FetchMetadata.INVALID_SESSION_ID;
        }
        FetchSession session = new FetchSession(newSessionId(), privileged, usesTopicIds, now,
                FetchMetadata.nextEpoch(FetchMetadata.INITIAL_EPOCH), partitions.get());
        sessions.put(session.id(), session);
        touch(session, now);
        return session.id();
    }

    /** Whether a cached session may grow to {@code newSize} partitions within the shard's partition budget. */
    synchronized boolean fits(FetchSession session, int newSize) {
        return numPartitions - Math.max(0, session.cachedSize()) + newSize <= maxPartitions;
    }

    private int newSessionId() {
        int id;
        do {
            id = ThreadLocalRandom.current().nextInt(idRangeStart, idRangeEnd);
        } while (sessions.containsKey(id));
        return id;
    }

    /**
     * Kafka's tryEvict, extended to the partition budget: frees a slot and {@code newcomer.size()} partitions by
     * evicting stale sessions (least recently used first), then evictable ones worth less than the newcomer
     * (least valuable first). Victims are chosen before any is removed, so a newcomer that cannot fit evicts
     * nobody. With a slot free and the budget not reached, nothing is evicted.
     */
    private boolean makeRoom(boolean privileged, EvictableKey newcomer, long now) {
        int slotsNeeded = sessions.size() + 1 - maxEntries;
        long partitionsNeeded = numPartitions + newcomer.size() - maxPartitions;
        if (slotsNeeded <= 0 && partitionsNeeded <= 0) {
            return true;
        }
        List<FetchSession> victims = new ArrayList<>();
        for (Map.Entry<LastUsedKey, FetchSession> e : lastUsed.entrySet()) {
            if (slotsNeeded <= 0 && partitionsNeeded <= 0) {
                break;
            }
            if (now - e.getKey().lastUsedMs() <= evictionMs) {
                break; // the rest were used more recently
            }
            victims.add(e.getValue());
            slotsNeeded--;
            partitionsNeeded -= e.getValue().cachedSize();
        }
        for (Map.Entry<EvictableKey, FetchSession> e
                : (privileged ? evictableByPrivileged : evictableByAll).entrySet()) {
            if (slotsNeeded <= 0 && partitionsNeeded <= 0) {
                break;
            }
            if (newcomer.compareTo(e.getKey()) < 0) {
                break; // the rest are worth more than the newcomer
            }
            if (!victims.contains(e.getValue())) {
                victims.add(e.getValue());
                slotsNeeded--;
                partitionsNeeded -= e.getKey().size();
            }
        }
        if (slotsNeeded > 0 || partitionsNeeded > 0) {
            return false;
        }
        for (FetchSession victim : victims) {
            remove(victim);
            evictions++;
        }
        return true;
    }

    synchronized FetchSession remove(int sessionId) {
        FetchSession session = sessions.get(sessionId);
        return session == null ? null : remove(session);
    }

    synchronized FetchSession remove(FetchSession session) {
        EvictableKey evictable;
        synchronized (session) {
            lastUsed.remove(session.lastUsedKey());
            evictable = session.evictableKey();
        }
        evictableByAll.remove(evictable);
        evictableByPrivileged.remove(evictable);
        FetchSession removed = sessions.remove(session.id());
        if (removed != null) {
            numPartitions -= session.cachedSize();
        }
        return removed;
    }

    /** Marks a session used now and re-files it under its current size. */
    synchronized void touch(FetchSession session, long now) {
        synchronized (session) {
            lastUsed.remove(session.lastUsedKey());
            session.setLastUsedMs(now);
            lastUsed.put(session.lastUsedKey(), session);

            int oldSize = session.cachedSize();
            if (oldSize != -1) {
                EvictableKey old = session.evictableKey();
                evictableByPrivileged.remove(old);
                evictableByAll.remove(old);
                numPartitions -= oldSize;
            }
            session.setCachedSize(session.size());
            EvictableKey key = session.evictableKey();
            boolean old = now - session.creationMs() > evictionMs;
            if (!session.privileged() || old) {
                evictableByPrivileged.put(key, session);
            }
            if (old) {
                evictableByAll.put(key, session);
            }
            numPartitions += session.cachedSize();
        }
    }
}
