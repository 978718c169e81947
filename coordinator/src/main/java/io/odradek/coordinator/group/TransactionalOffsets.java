package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.TopicPartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The offsets of one {@code __consumer_offsets} partition committed inside transactions (TxnOffsetCommit)
 * and not yet ended: per producer, per group and partition, invisible to OffsetFetch until the producer's
 * commit marker moves them into the groups' committed offsets; an abort marker drops them (Kafka's
 * pendingTransactionalOffsets and openTransactions).
 *
 * <p>When a transaction commits, its offset replaces the committed one only if its record is newer in the
 * log (Kafka decides by the record's offset, so that compaction of the log cannot bring back an older
 * commit): an ordinary commit written after the transactional one, while it was pending, wins. For that
 * the log offset of ordinary commits is kept for the partitions with an open transaction only.
 *
 * <p>Confined to the shard's thread, like the groups.
 */
final class TransactionalOffsets {
    /** A pending offset and where its record lies in the log. */
    record Pending(OffsetAndMetadata value, long recordOffset) {
    }

    /** A pending offset that a commit marker made effective. */
    record Committed(String groupId, TopicPartition partition, OffsetAndMetadata value) {
    }

    /** Producer id -> group -> partition -> its pending offset. */
    private final Map<Long, Map<String, Map<TopicPartition, Pending>>> byProducer = new HashMap<>();
    /** Group -> partition -> producers with a pending offset there. */
    private final Map<String, Map<TopicPartition, Set<Long>>> open = new HashMap<>();
    /** Group -> partition -> log offset of the latest effective commit, for partitions in {@link #open} only. */
    private final Map<String, Map<TopicPartition, Long>> lastCommitOffsets = new HashMap<>();

    /** A transactional offset commit record of {@code producerId} at {@code recordOffset} was replayed. */
    void addPending(long producerId, String groupId, TopicPartition tp, OffsetAndMetadata value, long recordOffset) {
        byProducer.computeIfAbsent(producerId, k -> new HashMap<>())
                .computeIfAbsent(groupId, k -> new HashMap<>())
                .put(tp, new Pending(value, recordOffset));
        open.computeIfAbsent(groupId, k -> new HashMap<>()).computeIfAbsent(tp, k -> new HashSet<>()).add(producerId);
    }

    /** An ordinary offset commit record at {@code recordOffset} was replayed (it took effect at once). */
    void committed(String groupId, TopicPartition tp, long recordOffset) {
        if (hasPending(groupId, tp)) {
            lastCommitOffsets.computeIfAbsent(groupId, k -> new HashMap<>()).put(tp, recordOffset);
        }
    }

    /** An offset tombstone was replayed: it deletes the pending offsets of that partition too, as in Kafka. */
    void tombstone(String groupId, TopicPartition tp) {
        Map<TopicPartition, Set<Long>> partitions = open.get(groupId);
        Set<Long> producers = partitions == null ? null : partitions.remove(tp);
        if (producers != null) {
            for (long producerId : producers) {
                removePending(producerId, groupId, tp);
            }
        }
        forgetCommitOffset(groupId, tp);
        if (partitions != null && partitions.isEmpty()) {
            open.remove(groupId);
        }
    }

    boolean hasPending(String groupId, TopicPartition tp) {
        Map<TopicPartition, Set<Long>> partitions = open.get(groupId);
        return partitions != null && partitions.containsKey(tp);
    }

    boolean hasPending(String groupId) {
        return open.containsKey(groupId);
    }

    /** The group's partitions with a pending offset, by topic and partition. */
    Set<TopicPartition> pendingPartitions(String groupId) {
        Map<TopicPartition, Set<Long>> partitions = open.get(groupId);
        return partitions == null ? Set.of() : new TreeSet<>(partitions.keySet());
    }

    /** Every group's partitions with a pending offset. */
    Map<String, Set<TopicPartition>> allPendingPartitions() {
        Map<String, Set<TopicPartition>> out = new HashMap<>();
        open.forEach((groupId, partitions) -> out.put(groupId, new TreeSet<>(partitions.keySet())));
        return out;
    }

    /**
     * The producer's transaction ended: its pending offsets are dropped; on commit, those newer in the log
     * than the partition's committed offset are returned, for the caller to make effective.
     */
    List<Committed> end(long producerId, boolean commit) {
        Map<String, Map<TopicPartition, Pending>> pending = byProducer.remove(producerId);
        List<Committed> out = new ArrayList<>();
        if (pending == null) {
            return out;
        }
        pending.forEach((groupId, partitions) -> partitions.forEach((tp, p) -> {
            Long last = lastCommitOffsets.getOrDefault(groupId, Map.of()).get(tp);
            if (commit && (last == null || p.recordOffset() > last)) {
                out.add(new Committed(groupId, tp, p.value()));
                lastCommitOffsets.computeIfAbsent(groupId, k -> new HashMap<>()).put(tp, p.recordOffset());
            }
            closeOpen(producerId, groupId, tp);
        }));
        return out;
    }

    private void removePending(long producerId, String groupId, TopicPartition tp) {
        Map<String, Map<TopicPartition, Pending>> groups = byProducer.get(producerId);
        if (groups == null) {
            return;
        }
        Map<TopicPartition, Pending> partitions = groups.get(groupId);
        if (partitions != null) {
            partitions.remove(tp);
            if (partitions.isEmpty()) {
                groups.remove(groupId);
            }
        }
        if (groups.isEmpty()) {
            byProducer.remove(producerId);
        }
    }

    /** The producer no longer has a pending offset for the partition; past the last one, its commit offset goes. */
    private void closeOpen(long producerId, String groupId, TopicPartition tp) {
        Map<TopicPartition, Set<Long>> partitions = open.get(groupId);
        Set<Long> producers = partitions == null ? null : partitions.get(tp);
        if (producers == null) {
            return;
        }
        producers.remove(producerId);
        if (producers.isEmpty()) {
            partitions.remove(tp);
            forgetCommitOffset(groupId, tp);
            if (partitions.isEmpty()) {
                open.remove(groupId);
            }
        }
    }

    private void forgetCommitOffset(String groupId, TopicPartition tp) {
        Map<TopicPartition, Long> offsets = lastCommitOffsets.get(groupId);
        if (offsets != null) {
            offsets.remove(tp);
            if (offsets.isEmpty()) {
                lastCommitOffsets.remove(groupId);
            }
        }
    }
}
