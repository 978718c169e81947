package io.odradek.broker.fetch.session;

import io.odradek.wire.ErrorCode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The broker's incremental fetch sessions (KIP-227), as Kafka's FetchSessionCache and FetchManager: at most
 * {@code max.incremental.fetch.session.cache.slots} sessions, split evenly over 8 shards (Kafka's
 * NumFetchSessionCacheShards: each shard holds slots / 8, so fewer than 8 slots means no sessions, as in Kafka),
 * new sessions placed round-robin, each shard evicting on its own (see {@link SessionCacheShard}).
 *
 * <p>Sessions outlive connections, as in Kafka: a fetcher that reconnects may carry on with its session; an
 * unused one is evicted once 2 minutes old when a newcomer needs its slot. Memory (Kafka has no bound but the
 * slots): a session holds at most {@link #maxSessionPartitions()} partitions (the most this broker can hold, so a
 * real fetcher never reaches it), and all sessions together at most {@code maxCachedPartitions} (split evenly
 * over the shards like the slots; about 120 bytes each), so a client making sessions of made-up partitions
 * cannot fill the heap. A full request that does not fit, even after evicting what Kafka's rule lets it evict,
 * gets no session (id 0, as when every slot is taken); an incremental one that would grow its session past
 * either bound closes the session and is answered without one (the fetcher then starts over with a full
 * request), as Kafka answers a session left empty.
 */
public final class FetchSessionCache {
    /** Kafka's NumFetchSessionCacheShards. */
    public static final int KAFKA_SHARDS = 8;
    /** Kafka's MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS: how long a session is safe from eviction. */
    public static final long KAFKA_EVICTION_MS = 120_000L;
    /**
     * Default of {@code odradek.fetch.session.cache.max.partitions}: partitions cached over all sessions, about
     * 24 MB; twenty times a broker's default {@code odradek.max.partitions}, so followers and consumer groups
     * reading every partition here several times over still get sessions.
     */
    public static final int DEFAULT_MAX_CACHED_PARTITIONS = 200_000;

    private final SessionCacheShard[] shards;
    private final int idRange;
    private final int maxSessionPartitions;
    private final LongSupplier clock;
    private final AtomicInteger nextShard = new AtomicInteger();

    /**
     * @param slots                {@code max.incremental.fetch.session.cache.slots}
     * @param shardCount           shards the slots are split over (Kafka: 8)
     * @param evictionMs           how long a session is safe from eviction (Kafka: 120000)
     * @param maxSessionPartitions the most partitions one session may hold
     * @param maxCachedPartitions  the most partitions all sessions hold together (each shard holds its share)
     * @param clock                milliseconds now
     */
    public FetchSessionCache(int slots, int shardCount, long evictionMs, int maxSessionPartitions,
            long maxCachedPartitions, LongSupplier clock) {
        this.idRange = Integer.MAX_VALUE / shardCount;
        this.shards = new SessionCacheShard[shardCount];
        for (int i = 0; i < shardCount; i++) {
            shards[i] = new SessionCacheShard(slots / shardCount, maxCachedPartitions / shardCount, evictionMs,
                    idRange, i);
        }
        this.maxSessionPartitions = maxSessionPartitions;
        this.clock = clock;
    }

    /** With the default partition budget ({@link #DEFAULT_MAX_CACHED_PARTITIONS}). */
    public FetchSessionCache(int slots, int shardCount, long evictionMs, int maxSessionPartitions, LongSupplier clock) {
        this(slots, shardCount, evictionMs, maxSessionPartitions, DEFAULT_MAX_CACHED_PARTITIONS, clock);
    }

    /** Kafka's cache: 8 shards, 2 minutes before eviction, the system clock. */
    public static FetchSessionCache of(int slots, int maxSessionPartitions, long maxCachedPartitions) {
        return new FetchSessionCache(slots, KAFKA_SHARDS, KAFKA_EVICTION_MS, maxSessionPartitions,
                maxCachedPartitions, System::currentTimeMillis);
    }

    /** Kafka's cache with the default partition budget. */
    public static FetchSessionCache of(int slots, int maxSessionPartitions) {
        return of(slots, maxSessionPartitions, DEFAULT_MAX_CACHED_PARTITIONS);
    }

    /**
     * A full request with epoch -1 (every request before v7, fetchers that want no session): closes the session it names, if
     * any, and is served without one. The context holds no partitions: the caller reads the request's own,
     * so a sessionless fetch costs the cache nothing per partition.
     */
    public FetchContext sessionless(int sessionId) {
        close(sessionId);
        return FetchContext.Sessionless.FROM_REQUEST;
    }

    /**
     * Kafka's FetchManager.newContext. A full request (epoch 0 or -1) closes the session it names, if any;
     * epoch -1 then gets no session, epoch 0 a new one when its response is made. An incremental request needs a
     * known session (else FETCH_SESSION_ID_NOT_FOUND) at the epoch that session expects (else
     * INVALID_FETCH_SESSION_EPOCH), fetching by id exactly when the session does (else
     * FETCH_SESSION_TOPIC_ID_ERROR); it then adds or updates the partitions it names, drops the forgotten ones,
     * marks the session used and moves it to its next epoch.
     *
     * @param usesTopicIds a request of Fetch v13+ (partitions named by topic id)
     * @param fromFollower a replica's fetch: its session is privileged
     * @param requested    the request's partitions, in request order; one named twice counts once, at its
     *                     first place with its last parameters (Kafka's FetchRequest.fetchData is a LinkedHashMap)
     * @param forgotten    forgotten_topics_data, as keys
     * @param topicNames   a topic id's name, or null: resolves cached ids that were unknown when added
     */
    public FetchContext newContext(boolean usesTopicIds, int sessionId, int epoch, boolean fromFollower,
            List<SessionPartition> requested, List<SessionPartition> forgotten, Function<UUID, String> topicNames) {
        if (FetchMetadata.isFull(epoch)) {
            close(sessionId);
            LinkedHashMap<SessionPartition, SessionPartition> distinct = SessionPartition.distinct(requested);
            return epoch == FetchMetadata.FINAL_EPOCH ? new FetchContext.Sessionless(List.copyOf(distinct.values()))
                    : new FetchContext.Full(this, distinct, usesTopicIds, fromFollower, clock);
        }
        SessionCacheShard shard = shardFor(sessionId);
        if (shard == null) {
            return new FetchContext.SessionError(ErrorCode.FETCH_SESSION_ID_NOT_FOUND);
        }
        synchronized (shard) {
            FetchSession session = shard.get(sessionId);
            if (session == null) {
                return new FetchContext.SessionError(ErrorCode.FETCH_SESSION_ID_NOT_FOUND);
            }
            synchronized (session) {
                if (session.epoch() != epoch) {
                    return new FetchContext.SessionError(ErrorCode.INVALID_FETCH_SESSION_EPOCH);
                }
                if (session.usesTopicIds() != usesTopicIds) {
                    return new FetchContext.SessionError(ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR);
                }
                session.update(requested, forgotten);
                if (session.size() == 0 || session.size() > maxSessionPartitions || !shard.fits(session, session.size())) {
                    shard.remove(session);
                    return new FetchContext.Sessionless(List.copyOf(SessionPartition.distinct(requested).values()));
                }
                shard.touch(session, clock.getAsLong());
                session.setEpoch(FetchMetadata.nextEpoch(session.epoch()));
                return new FetchContext.Incremental(session, epoch, topicNames);
            }
        }
    }

    /** A session, if cached. */
    public Optional<FetchSession> session(int sessionId) {
        SessionCacheShard shard = shardFor(sessionId);
        return shard == null ? Optional.empty() : Optional.ofNullable(shard.get(sessionId));
    }

    /** Sessions cached now (Kafka's NumIncrementalFetchSessions). */
    public int size() {
        int n = 0;
        for (SessionCacheShard shard : shards) {
            n += shard.size();
        }
        return n;
    }

    /** Partitions cached over all sessions (Kafka's NumIncrementalFetchPartitionsCached). */
    public long totalPartitions() {
        long n = 0;
        for (SessionCacheShard shard : shards) {
            n += shard.totalPartitions();
        }
        return n;
    }

    /** Sessions evicted so far (Kafka's IncrementalFetchSessionEvictionsPerSec counts these). */
    public long evictions() {
        long n = 0;
        for (SessionCacheShard shard : shards) {
            n += shard.evictions();
        }
        return n;
    }

    private void close(int sessionId) {
        SessionCacheShard shard = sessionId == FetchMetadata.INVALID_SESSION_ID ? null : shardFor(sessionId);
        if (shard != null) {
            shard.remove(sessionId);
        }
    }

    int maxSessionPartitions() {
        return maxSessionPartitions;
    }

    SessionCacheShard nextShard() {
        return shards[(nextShard.getAndIncrement() & Integer.MAX_VALUE) % shards.length];
    }

    /** The shard a session id belongs to; null for an id no shard hands out. */
    private SessionCacheShard shardFor(int sessionId) {
        if (sessionId <= 0) {
            return null;
        }
        int shard = sessionId / idRange;
        return shard < shards.length ? shards[shard] : null;
    }
}
