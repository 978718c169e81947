package io.odradek.broker.share;

import io.odradek.broker.group.GroupConfigs;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.partition.Acknowledgement;
import io.odradek.coordinator.share.partition.SharePartition;
import io.odradek.coordinator.share.partition.ShareTimers;
import io.odradek.log.OffsetAndTimestamp;
import io.odradek.replication.partition.FetchIsolation;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongUnaryOperator;

/**
 * The share partitions this broker leads (Kafka's SharePartitionManager): one {@link SharePartition} per
 * (share group, topic id, partition), made on the first ShareFetch that reaches the partition's leader. Its
 * settings (share.record.lock.duration.ms, share.delivery.count.limit, share.partition.max.record.locks,
 * share.auto.offset.reset, share.isolation.level over the broker's group.share.* defaults, clamped as Kafka
 * does) are read from {@link GroupConfigs} on each use, so a group config change applies to open partitions. A share partition is
 * closed (its lock timers cancelled; its state stays in {@code __share_group_state}) when this broker stops
 * leading the partition, the leader epoch changes, the topic is deleted or re-created, or an operation finds
 * it fenced (NOT_LEADER_OR_FOLLOWER, FENCED_STATE_EPOCH, GROUP_ID_NOT_FOUND, UNKNOWN_TOPIC_OR_PARTITION); the
 * next fetch makes a fresh one, which reads the persisted state again. As in Kafka (ShareGroupListener), a
 * group's share partitions also close when its last share session on this broker ends, so a reset of its
 * state (AlterShareGroupOffsets, DeleteGroups, done through the share coordinator) is read by the next fetch
 * and the partitions of groups no longer fetching do not stay in memory. It also holds the share sessions.
 *
 * <p>Whatever makes records acquirable again on a partition (releases, lock timeouts, acknowledgements, a
 * share partition initialized or closed) wakes the share fetches parked on it in the waiting-operations set.
 */
public final class SharePartitionManager implements AutoCloseable {
    private record Entry(SharePartition sharePartition, Partition partition, int leaderEpoch) {
    }

    private final Partitions partitions;
    private final SharePersister persister;
    private final GroupConfigs groupConfigs;
    private final ShareTimers timers;
    private final ShareSessionCache sessions;
    private final ConcurrentHashMap<SharePartitionKey, Entry> sharePartitions = new ConcurrentHashMap<>();

    public SharePartitionManager(Partitions partitions, SharePersister persister, GroupConfigs groupConfigs,
            ShareTimers timers) {
        this.partitions = partitions;
        this.persister = persister;
        this.groupConfigs = groupConfigs;
        this.timers = timers;
        this.sessions = new ShareSessionCache(groupConfigs.shareMaxShareSessions(), this::onGroupEmpty);
    }

    public ShareSessionCache sessions() {
        return sessions;
    }

    /** AcquisitionLockTimeoutMs of the group's answers: its share.record.lock.duration.ms, else the broker's. */
    public int recordLockDurationMs(String groupId) {
        return groupConfigs.shareRecordLockDurationMs(groupId);
    }

    /** Where the group's share fetches stop reading: the high watermark, or the LSO for read_committed groups. */
    public FetchIsolation isolation(String groupId) {
        return groupConfigs.shareReadCommitted(groupId)
                ? FetchIsolation.TXN_COMMITTED : FetchIsolation.HIGH_WATERMARK;
    }

    /**
     * The group's share partition of {@code partition} (which this broker leads), made on first use; one made
     * for an older incarnation of the partition (another leader epoch, a re-created topic) is closed and
     * replaced.
     */
    public SharePartition sharePartition(String groupId, UUID topicId, Partition partition) {
        SharePartitionKey key = new SharePartitionKey(groupId, topicId, partition.partition());
        int epoch = partition.leaderEpoch();
        Entry known = sharePartitions.get(key);
        if (known != null && known.partition == partition && known.leaderEpoch == epoch) {
            return known.sharePartition;
        }
        List<Entry> replaced = new ArrayList<>(1);
        Entry entry = sharePartitions.compute(key, (k, old) -> {
            if (old != null && old.partition == partition && old.leaderEpoch == epoch) {
                return old;
            }
            if (old != null) {
                replaced.add(old);
            }
            return new Entry(newSharePartition(key, partition), partition, epoch);
        });
        replaced.forEach(this::closeEntry);
        return entry.sharePartition;
    }

    private SharePartition newSharePartition(SharePartitionKey key, Partition partition) {
        String groupId = key.groupId();
        return new SharePartition(key, () -> groupConfigs.sharePartitionSettings(groupId), persister, timers,
                offsetForReset(partition), () -> partitions.waiting().wake(partition));
    }

    /**
     * ListOffsets' answers on the leader: -2 the log start, -1 the high watermark (Kafka's latest for a share
     * partition, read_uncommitted), a timestamp the first offset at or after it, -1 when there is none.
     */
    static LongUnaryOperator offsetForReset(Partition partition) {
        return timestamp -> {
            if (timestamp == -2L) {
                return partition.logStartOffset();
            }
            if (timestamp == -1L) {
                return partition.highWatermark();
            }
            return partition.offsetForTimestamp(timestamp).map(OffsetAndTimestamp::offset)
                    .filter(offset -> offset < partition.highWatermark()).orElse(-1L);
        };
    }

    /** The group's share partition if one is open here (acknowledgements never make one). */
    public SharePartition existing(String groupId, TopicIdPartition p) {
        Entry entry = sharePartitions.get(new SharePartitionKey(groupId, p.topicId(), p.partition()));
        return entry == null ? null : entry.sharePartition;
    }

    /** Closes the share partition if it is still the one open for its key (initialization failed, fenced). */
    public void fenced(SharePartitionKey key, SharePartition sharePartition) {
        Entry entry = sharePartitions.get(key);
        if (entry != null && entry.sharePartition == sharePartition && sharePartitions.remove(key, entry)) {
            closeEntry(entry);
        }
    }

    /** Errors after which Kafka drops a share partition so the next fetch makes it afresh. */
    public static boolean isFencing(ErrorCode error) {
        return error == ErrorCode.NOT_LEADER_OR_FOLLOWER || error == ErrorCode.FENCED_STATE_EPOCH
                || error == ErrorCode.GROUP_ID_NOT_FOUND || error == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
    }

    /**
     * Applies a member's acknowledgements, partition by partition (Kafka's SharePartitionManager.acknowledge):
     * a partition with no share partition open here is UNKNOWN_TOPIC_OR_PARTITION. Completes once every
     * partition's change is persisted, with each partition's error (NONE when applied).
     */
    public CompletableFuture<Map<TopicIdPartition, ErrorCode>> acknowledge(String groupId, String memberId,
            Map<TopicIdPartition, List<Acknowledgement>> acknowledgements) {
        Map<TopicIdPartition, CompletableFuture<ErrorCode>> futures = new LinkedHashMap<>();
        acknowledgements.forEach((p, batches) -> {
            SharePartitionKey key = new SharePartitionKey(groupId, p.topicId(), p.partition());
            Entry entry = sharePartitions.get(key);
            if (entry == null) {
                futures.put(p, CompletableFuture.completedFuture(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION));
                return;
            }
            CompletableFuture<ErrorCode> done = entry.sharePartition.acknowledge(memberId, batches)
                    .handle((error, failure) -> afterChange(key, entry, error, failure));
            // Released or rejected records may be acquirable now: parked fetches of the partition look again.
            partitions.waiting().wake(entry.partition);
            futures.put(p, done);
        });
        return allOf(futures);
    }

    /**
     * The member's share session ended (closed by the member, its connection gone): what it holds in the
     * session's partitions becomes available to the other members (Kafka's releaseSession).
     */
    public CompletableFuture<Map<TopicIdPartition, ErrorCode>> releaseAcquiredRecords(ShareSession session,
            List<TopicIdPartition> sessionPartitions) {
        String groupId = session.key().groupId();
        String memberId = session.key().memberId();
        Map<TopicIdPartition, CompletableFuture<ErrorCode>> futures = new LinkedHashMap<>();
        for (TopicIdPartition p : sessionPartitions) {
            SharePartitionKey key = new SharePartitionKey(groupId, p.topicId(), p.partition());
            Entry entry = sharePartitions.get(key);
            if (entry == null) {
                futures.put(p, CompletableFuture.completedFuture(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION));
                continue;
            }
            futures.put(p, entry.sharePartition.releaseAcquiredRecords(memberId)
                    .handle((error, failure) -> afterChange(key, entry, error, failure)));
            partitions.waiting().wake(entry.partition);
        }
        return allOf(futures);
    }

    /**
     * Ends the session (if it is still the member's): releases its records, then removes it once the release is
     * persisted, so that a group left with no session closes its share partitions with nothing in flight.
     */
    public void endSession(ShareSession session) {
        if (!sessions.holds(session)) {
            return;
        }
        releaseAcquiredRecords(session, sessions.partitions(session))
                .whenComplete((errors, failure) -> sessions.remove(session));
    }

    /**
     * The group's last share session here ended (Kafka's onGroupEmpty): its share partitions close; a later
     * fetch makes them afresh from the persisted state.
     */
    private void onGroupEmpty(String groupId) {
        sharePartitions.forEach((key, entry) -> {
            if (key.groupId().equals(groupId) && !sessions.hasSessions(groupId) && sharePartitions.remove(key, entry)) {
                closeEntry(entry);
            }
        });
    }

    private ErrorCode afterChange(SharePartitionKey key, Entry entry, ErrorCode error, Throwable failure) {
        ErrorCode result = failure != null ? ErrorCode.UNKNOWN_SERVER_ERROR : error == null ? ErrorCode.NONE : error;
        if (isFencing(result)) {
            fenced(key, entry.sharePartition);
        }
        partitions.waiting().wake(entry.partition);
        return result;
    }

    private static CompletableFuture<Map<TopicIdPartition, ErrorCode>> allOf(
            Map<TopicIdPartition, CompletableFuture<ErrorCode>> futures) {
        return CompletableFuture.allOf(futures.values().toArray(CompletableFuture<?>[]::new)).thenApply(v -> {
            Map<TopicIdPartition, ErrorCode> out = new LinkedHashMap<>();
            futures.forEach((p, f) -> out.put(p, f.join()));
            return out;
        });
    }

    /**
     * A leadership change here (the replica manager's listener, cluster mode): share partitions of a partition
     * this broker no longer leads, or leads in another epoch, close.
     */
    public void onLeadershipChange(String topic, int partition, int leaderEpoch, boolean isLeader) {
        sharePartitions.forEach((key, entry) -> {
            if (entry.partition.topic().equals(topic) && entry.partition.partition() == partition
                    && (!isLeader || entry.leaderEpoch != leaderEpoch) && sharePartitions.remove(key, entry)) {
                closeEntry(entry);
            }
        });
    }

    /** A deleted topic's share partitions close (their parked fetches answer at their next check). */
    public void onTopicDeleted(String topic) {
        sharePartitions.forEach((key, entry) -> {
            if (entry.partition.topic().equals(topic) && sharePartitions.remove(key, entry)) {
                closeEntry(entry);
            }
        });
    }

    /** Share partitions open here (tests and metrics). */
    public int openSharePartitions() {
        return sharePartitions.size();
    }

    private void closeEntry(Entry entry) {
        try {
            entry.sharePartition.close();
        } finally {
            partitions.waiting().wake(entry.partition);
        }
    }

    @Override
    public void close() {
        sharePartitions.forEach((key, entry) -> {
            if (sharePartitions.remove(key, entry)) {
                entry.sharePartition.close();
            }
        });
        if (timers instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("share lock timers did not close", e);
            }
        }
    }
}
