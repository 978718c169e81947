package io.odradek.broker.share;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * One share consumer's session with this broker (Kafka's ShareSession): keyed by group and member, the
 * partitions it fetches from this broker in the order they are read, and the epoch its next request must
 * carry. Guarded by its {@link ShareSessionCache}'s lock.
 */
public final class ShareSession {
    /** Kafka's ShareSessionKey. */
    public record Key(String groupId, String memberId) {
    }

    private final Key key;
    /** Each partition, with whether the next answer must carry it (added since, or last answered with an error). */
    private final LinkedHashMap<TopicIdPartition, Boolean> partitions = new LinkedHashMap<>();
    private int epoch;
    /** Run once when the session leaves the cache (the handler drops its connection-close listener). */
    private Runnable onRemoved;

    ShareSession(Key key, List<TopicIdPartition> initial, int epoch) {
        this.key = key;
        for (TopicIdPartition p : initial) {
            partitions.put(p, false);
        }
        this.epoch = epoch;
    }

    public Key key() {
        return key;
    }

    int epoch() {
        return epoch;
    }

    void epoch(int epoch) {
        this.epoch = epoch;
    }

    void onRemoved(Runnable action) {
        this.onRemoved = action;
    }

    void removed() {
        Runnable action = onRemoved;
        onRemoved = null;
        if (action != null) {
            action.run();
        }
    }

    int size() {
        return partitions.size();
    }

    List<TopicIdPartition> partitions() {
        return new ArrayList<>(partitions.keySet());
    }

    /** Kafka's ShareSession.update: new partitions join (and must be answered once), forgotten ones leave. */
    void update(List<TopicIdPartition> toFetch, List<TopicIdPartition> toForget) {
        for (TopicIdPartition p : toFetch) {
            partitions.putIfAbsent(p, true);
        }
        for (TopicIdPartition p : toForget) {
            partitions.remove(p);
        }
    }

    /**
     * Kafka's CachedSharePartition.maybeUpdateResponseData for an incremental answer: whether the partition is
     * sent (records, an error, or a pending update); a partition with records moves to the end of the order so
     * the others are read first next time; an error is re-sent once it clears.
     */
    boolean mustRespond(TopicIdPartition p, boolean hasRecords, boolean hasError) {
        Boolean pending = partitions.get(p);
        if (pending == null) {
            return hasRecords || hasError; // forgotten meanwhile
        }
        boolean respond = hasRecords || pending || hasError;
        partitions.put(p, hasError);
        if (hasRecords) {
            partitions.remove(p);
            partitions.put(p, false);
        }
        return respond;
    }

    /** Moves partitions that returned records to the end of the order (full answers too). */
    void rotate(List<TopicIdPartition> withRecords) {
        for (TopicIdPartition p : withRecords) {
            Boolean pending = partitions.remove(p);
            if (pending != null) {
                partitions.put(p, pending);
            }
        }
    }

    @Override
    public String toString() {
        return "ShareSession(" + key + ", epoch " + epoch + ", " + partitions.size() + " partitions)";
    }
}
