package io.odradek.broker.fetch.session;

import io.odradek.wire.ErrorCode;
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
 * unused one is evicted once 2 minutes old when a newcomer needs its slot. Memory: besides the slots, a session
 * holds at most {@link #maxSessionPartitions()} partitions (the most this broker can hold, so a real fetcher never
 * reaches it); a full request with more gets no session, an incremental one that would grow past it closes its
 * session and is answered without one (the fetcher then starts over), as Kafka answers a session left empty.
 */
public final class FetchSessionCache {
    /** Kafka's NumFetchSessionCacheShards. */
    public static final int KAFKA_SHARDS = 8;
    /** Kafka's MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS: how long a session is safe from eviction. */
    public static final long KAFKA_EVICTION_MS = 120_000L;

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
     * @param clock                milliseconds now
     */
    public FetchSessionCache(int slots, int shardCount, long evictionMs, int maxSessionPartitions, LongSupplier clock) {
        this.idRange = Integer.MAX_VALUE / shardCount;
        this.shards = new SessionCacheShard[shardCount];
        for (int i = 0; i < shardCount; i++) {
            shards[i] = new SessionCacheShard(slots / shardCount, evictionMs, idRange, i);
        }
        this.maxSessionPartitions = maxSessionPartitions;
        this.clock = clock;
    }

    /** Kafka's cache: 8 shards, 2 minutes before eviction, the system clock. */
    public static FetchSessionCache of(int slots, int maxSessionPartitions) {
        return new FetchSessionCache(slots, KAFKA_SHARDS, KAFKA_EVICTION_MS, maxSessionPartitions,
                System::currentTimeMillis);
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
     * @param requested    the request's partitions, in request order
     * @param forgotten    forgotten_topics_data, as keys
     * @param topicNames   a topic id's name, or null: resolves cached ids that were unknown when added
     */
    public FetchContext newContext(boolean usesTopicIds, int sessionId, int epoch, boolean fromFollower,
            List<SessionPartition> requested, List<SessionPartition> forgotten, Function<UUID, String> topicNames) {
        if (FetchMetadata.isFull(epoch)) {
            if (sessionId != FetchMetadata.INVALID_SESSION_ID) {
                SessionCacheShard shard = shardFor(sessionId);
                if (shard != null) {
                    shard.remove(sessionId);
                }
            }
            return epoch == FetchMetadata.FINAL_EPOCH ? new FetchContext.Sessionless(requested)
                    : new FetchContext.Full(this, requested, usesTopicIds, fromFollower, clock);
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
                if (session.size() == 0 || session.size() > maxSessionPartitions) {
                    shard.remove(session);
                    return new FetchContext.Sessionless(requested);
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
