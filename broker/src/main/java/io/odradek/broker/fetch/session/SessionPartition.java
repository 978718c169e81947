package io.odradek.broker.fetch.session;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * One partition of a fetch: what the fetcher asked for it (fetch offset, sizes, epochs) and, once it sits in a
 * session, what the last response said about it (high watermark, log start offset), so an incremental
 * response can leave it out while neither changes (Kafka's FetchSession.CachedPartition).
 *
 * <p>Identity is (topic id, partition) in a session of Fetch v13+ and (topic name, partition) before: a
 * partition whose id is unknown keeps a null name until the id becomes known. Only the identity is used by
 * {@link #equals}/{@link #hashCode}, so the object is its own key in the session's map (no separate key
 * object per cached partition). Mutable state is guarded by the session's lock once the partition is cached.
 */
public final class SessionPartition {
    private final UUID topicId;
    private String topic;
    private final int partition;

    private long fetchOffset;
    private int maxBytes;
    private int currentLeaderEpoch;
    private int lastFetchedEpoch;
    private long fetcherLogStartOffset;

    /** What the last response sent said: -1 until one did, and after an error (so it is sent again). */
    private long highWatermark = -1L;
    private long logStartOffset = -1L;

    /**
     * @param topicId the topic's id (v13+), or null when the fetch names topics
     * @param topic   the topic's name, or null for an id this broker does not know
     */
    public SessionPartition(UUID topicId, String topic, int partition, long fetchOffset, int maxBytes,
            int currentLeaderEpoch, int lastFetchedEpoch, long fetcherLogStartOffset) {
        if (topicId == null && topic == null) {
            throw new IllegalArgumentException("a partition needs its topic's id or name");
        }
        this.topicId = topicId;
        this.topic = topic;
        this.partition = partition;
        this.fetchOffset = fetchOffset;
        this.maxBytes = maxBytes;
        this.currentLeaderEpoch = currentLeaderEpoch;
        this.lastFetchedEpoch = lastFetchedEpoch;
        this.fetcherLogStartOffset = fetcherLogStartOffset;
    }

    /** A partition named only to find or forget its cached entry. */
    public static SessionPartition key(UUID topicId, String topic, int partition) {
        return new SessionPartition(topicId, topic, partition, -1L, 0, -1, -1, -1L);
    }

    public UUID topicId() {
        return topicId;
    }

    /** The topic's name; null for an id not (yet) known here. */
    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    public long fetchOffset() {
        return fetchOffset;
    }

    public int maxBytes() {
        return maxBytes;
    }

    public int currentLeaderEpoch() {
        return currentLeaderEpoch;
    }

    public int lastFetchedEpoch() {
        return lastFetchedEpoch;
    }

    public long fetcherLogStartOffset() {
        return fetcherLogStartOffset;
    }

    long highWatermark() {
        return highWatermark;
    }

    long logStartOffset() {
        return logStartOffset;
    }

    /**
     * The partitions once each, in the order first named, each with the parameters it was last named with, as
     * Kafka's FetchRequest.fetchData (a LinkedHashMap) reads a request naming one twice. Each is its own key and
     * value (the first object, taking the later parameters), so a session can hold the map as it is.
     */
    static LinkedHashMap<SessionPartition, SessionPartition> distinct(List<SessionPartition> requested) {
        LinkedHashMap<SessionPartition, SessionPartition> out = new LinkedHashMap<>(requested.size() * 4 / 3 + 1);
        for (SessionPartition p : requested) {
            SessionPartition first = out.putIfAbsent(p, p);
            if (first != null) {
                first.updateRequestParams(p);
            }
        }
        return out;
    }

    /** An incremental request named this partition again: its parameters replace the cached ones. */
    void updateRequestParams(SessionPartition requested) {
        fetchOffset = requested.fetchOffset;
        maxBytes = requested.maxBytes;
        currentLeaderEpoch = requested.currentLeaderEpoch;
        lastFetchedEpoch = requested.lastFetchedEpoch;
        fetcherLogStartOffset = requested.fetcherLogStartOffset;
    }

    /** Kafka resolves a cached id that was unknown when it was added, once; a known name is kept. */
    void resolveName(Function<UUID, String> topicNames) {
        if (topic == null && topicId != null) {
            topic = topicNames.apply(topicId);
        }
    }

    /** Remembers what a response sent (a new session's partitions, as their first response said). */
    void recordResponse(PartitionRead read) {
        highWatermark = read.hasError() ? -1L : read.highWatermark();
        logStartOffset = read.hasError() ? -1L : read.logStartOffset();
    }

    /**
     * Kafka's maybeUpdateResponseData: whether an incremental response must carry this partition (records,
     * a new high watermark or log start offset, an error, a diverging epoch); when {@code update}, the cached
     * high watermark and log start move to what is sent (-1 after an error, so the partition is sent again
     * once the error clears).
     */
    boolean mustRespond(PartitionRead read, boolean update) {
        boolean must = read.hasRecords() || read.hasDivergingEpoch();
        long hw = read.hasError() ? -1L : read.highWatermark();
        long start = read.hasError() ? -1L : read.logStartOffset();
        if (read.hasError()) {
            must = true;
        }
        if (highWatermark != hw) {
            must = true;
        }
        if (logStartOffset != start) {
            must = true;
        }
        if (update) {
            highWatermark = hw;
            logStartOffset = start;
        }
        return must;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SessionPartition other && partition == other.partition
                && (topicId != null ? topicId.equals(other.topicId) : other.topicId == null && topic.equals(other.topic));
    }

    @Override
    public int hashCode() {
        return 31 * partition + (topicId != null ? topicId.hashCode() : topic.hashCode());
    }

    @Override
    public String toString() {
        return (topic != null ? topic : String.valueOf(topicId)) + "-" + partition + "@" + fetchOffset;
    }
}
