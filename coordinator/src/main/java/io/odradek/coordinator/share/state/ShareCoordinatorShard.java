package io.odradek.coordinator.share.state;

import io.odradek.coordinator.group.TopicCatalog;
import io.odradek.coordinator.runtime.CoordinatorContext;
import io.odradek.coordinator.runtime.CoordinatorResult;
import io.odradek.coordinator.runtime.CoordinatorShard;
import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The share partitions of one {@code __share_group_state} partition (Kafka 4.4's ShareCoordinatorShard),
 * confined to the partition's coordinator thread. State changes only by {@link #replay}: an operation
 * returns the record to write, the runtime appends it and, once committed, replays it here (as load does).
 *
 * <p>Records: InitializeShareGroupState writes a ShareSnapshot (a new state epoch, no batches). A write
 * becomes a ShareUpdate holding only its own batches (merged into the state on replay), except that after
 * {@code share.coordinator.snapshot.update.records.per.snapshot} updates the next write is a full ShareSnapshot
 * of the merged state, so a load replays at most that many updates per partition past a snapshot. A read by a
 * leader under a new leader epoch records that epoch (an update or snapshot with no batches) so older leaders are
 * fenced. DeleteShareGroupState writes a tombstone. Merging is {@link StateBatchCombiner}'s.
 *
 * <p>Fencing, as Kafka: a write or read whose leader epoch is below the highest recorded answers
 * FENCED_LEADER_EPOCH; a write or initialize whose state epoch is below the recorded one FENCED_STATE_EPOCH.
 * Reading or writing a share partition never initialized is INVALID_REQUEST ("... on uninitialized share
 * partition not allowed."); a topic partition the metadata does not hold is UNKNOWN_TOPIC_OR_PARTITION.
 *
 * <p>Pruning, as Kafka: every {@code share.coordinator.state.topic.prune.interval.ms} the partition's records
 * below the lowest offset still needed (each live share partition's latest snapshot; a deleted one needs none)
 * are deleted, so the topic does not grow forever and a load replays only what it needs.
 */
final class ShareCoordinatorShard implements CoordinatorShard<ShareStateRecord> {
    static final String NEGATIVE_PARTITION_ID = "The partition id cannot be a negative number.";
    static final String NEGATIVE_LEADER_EPOCH = "The leader epoch cannot be a negative number.";
    static final String NEGATIVE_STATE_EPOCH = "The state epoch cannot be a negative number.";
    static final String WRITE_UNINITIALIZED = "Write operation on uninitialized share partition not allowed.";
    static final String READ_UNINITIALIZED = "Read operation on uninitialized share partition not allowed.";
    /** Kafka's Errors messages, which Kafka's coordinator answers with these errors. */
    static final String FENCED_LEADER_EPOCH_MESSAGE = "The leader epoch in the request is older than the epoch on the broker.";
    static final String FENCED_STATE_EPOCH_MESSAGE = "The coordinator rejected the request because the state epoch did not match.";
    static final String UNKNOWN_TOPIC_OR_PARTITION_MESSAGE = "This server does not host this topic-partition.";

    private final CoordinatorContext<ShareStateRecord> context;
    private final ShareCoordinatorConfig config;
    private final TopicCatalog topics;
    private final Map<SharePartitionKey, ShareGroupOffset> states = new HashMap<>();
    /** The highest leader epoch seen per share partition (Kafka's leaderEpochMap: it only rises). */
    private final Map<SharePartitionKey, Integer> leaderEpochs = new HashMap<>();
    /** The highest state epoch seen (only rises; a tombstone forgets it). */
    private final Map<SharePartitionKey, Integer> stateEpochs = new HashMap<>();
    /** ShareUpdates replayed since the partition's last snapshot reset it. */
    private final Map<SharePartitionKey, Integer> updatesSinceSnapshot = new HashMap<>();
    /**
     * Pruning: the offset of each live share partition's latest snapshot (what a reload must start from for it;
     * a deleted one needs nothing), and the offset after the last record replayed.
     */
    private final Map<SharePartitionKey, Long> neededFrom = new HashMap<>();
    private long replayedEnd;
    /** Deletes the partition's records below an offset (DeleteRecords on {@code __share_group_state}). */
    private final java.util.function.LongConsumer deleteRecordsBefore;

    ShareCoordinatorShard(CoordinatorContext<ShareStateRecord> context, ShareCoordinatorConfig config, TopicCatalog topics) {
        this(context, config, topics, offset -> { });
    }

    ShareCoordinatorShard(CoordinatorContext<ShareStateRecord> context, ShareCoordinatorConfig config, TopicCatalog topics,
            java.util.function.LongConsumer deleteRecordsBefore) {
        this.context = context;
        this.config = config;
        this.topics = topics;
        this.deleteRecordsBefore = deleteRecordsBefore;
    }

    // ------------------------------------------------------------------ pruning (Kafka's ShareCoordinatorOffsetsManager)

    @Override
    public void replay(long offset, long producerId, short producerEpoch, ShareStateRecord record) {
        SharePartitionKey key = record.key();
        if (record.isTombstone()) {
            neededFrom.remove(key);
        } else if (record.type() == ShareStateRecord.Type.SNAPSHOT) {
            neededFrom.put(key, offset);
        } else {
            neededFrom.putIfAbsent(key, offset); // an update without a snapshot before it: keep it
        }
        replayedEnd = Math.max(replayedEnd, offset + 1);
        replay(record);
    }

    /** The lowest offset a reload still needs: no record below it is needed by any share partition. */
    long lowestNeededOffset() {
        return neededFrom.values().stream().mapToLong(Long::longValue).min().orElse(replayedEnd);
    }

    @Override
    public void onLoaded() {
        schedulePrune();
    }

    private void schedulePrune() {
        context.schedule(config.pruneIntervalMs(), "prune-share-group-state", () -> {
            deleteRecordsBefore.accept(lowestNeededOffset());
            schedulePrune();
            return CoordinatorResult.of(null);
        });
    }

    // ------------------------------------------------------------------ replay

    @Override
    public void replay(ShareStateRecord record) {
        SharePartitionKey key = record.key();
        if (record.isTombstone()) {
            states.remove(key);
            leaderEpochs.remove(key);
            stateEpochs.remove(key);
            updatesSinceSnapshot.remove(key);
            return;
        }
        ShareGroupOffset value = record.value();
        raise(leaderEpochs, key, value.leaderEpoch());
        if (record.type() == ShareStateRecord.Type.SNAPSHOT) {
            raise(stateEpochs, key, value.stateEpoch());
            states.put(key, value);
            Integer updates = updatesSinceSnapshot.get(key);
            if (updates != null && updates >= config.snapshotUpdateRecordsPerSnapshot()) {
                updatesSinceSnapshot.put(key, 0);
            }
        } else {
            states.merge(key, value, ShareCoordinatorShard::merge);
            updatesSinceSnapshot.merge(key, 1, Integer::sum);
        }
    }

    private static void raise(Map<SharePartitionKey, Integer> epochs, SharePartitionKey key, int epoch) {
        epochs.merge(key, epoch, Math::max);
    }

    /** An update applied to the state so far: its batches merged in, its start offset and leader epoch unless -1. */
    private static ShareGroupOffset merge(ShareGroupOffset soFar, ShareGroupOffset update) {
        long startOffset = update.startOffset() == -1 ? soFar.startOffset() : update.startOffset();
        int leaderEpoch = update.leaderEpoch() == -1 ? soFar.leaderEpoch() : update.leaderEpoch();
        return new ShareGroupOffset(soFar.snapshotEpoch(), soFar.stateEpoch(), leaderEpoch, startOffset,
                update.deliveryCompleteCount(), soFar.createTimestamp(), soFar.writeTimestamp(),
                StateBatchCombiner.combine(soFar.batches(), update.batches(), startOffset));
    }

    // ------------------------------------------------------------------ operations

    CoordinatorResult<ShareStateResult, ShareStateRecord> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
        ShareStateResult error = null;
        if (key.partition() < 0) {
            error = invalid(NEGATIVE_PARTITION_ID);
        } else if (stateEpoch < 0) {
            error = invalid(NEGATIVE_STATE_EPOCH);
        } else if (stateEpochs.getOrDefault(key, Integer.MIN_VALUE) > stateEpoch) {
            error = new ShareStateResult(ErrorCode.FENCED_STATE_EPOCH, FENCED_STATE_EPOCH_MESSAGE);
        } else if (!topicPartitionExists(key)) {
            error = unknownTopicOrPartition();
        }
        if (error != null) {
            return CoordinatorResult.of(error);
        }
        ShareGroupOffset current = states.get(key);
        long now = context.nowMs();
        ShareGroupOffset initial = new ShareGroupOffset(current == null ? 0 : current.snapshotEpoch() + 1, stateEpoch, 0,
                startOffset, startOffset == -1 ? -1 : 0, now, now, List.of());
        return CoordinatorResult.of(List.of(ShareStateRecord.snapshot(key, initial)), ShareStateResult.NONE);
    }

    CoordinatorResult<ShareStateResult, ShareStateRecord> write(SharePartitionKey key, int stateEpoch, int leaderEpoch,
            long startOffset, int deliveryCompleteCount, List<StateBatch> batches) {
        ShareStateResult error = null;
        if (key.partition() < 0) {
            error = invalid(NEGATIVE_PARTITION_ID);
        } else if (leaderEpoch < 0) {
            error = invalid(NEGATIVE_LEADER_EPOCH);
        } else if (stateEpoch < 0) {
            error = invalid(NEGATIVE_STATE_EPOCH);
        } else if (!states.containsKey(key)) {
            error = invalid(WRITE_UNINITIALIZED);
        } else if (leaderEpochs.getOrDefault(key, Integer.MIN_VALUE) > leaderEpoch) {
            error = new ShareStateResult(ErrorCode.FENCED_LEADER_EPOCH, FENCED_LEADER_EPOCH_MESSAGE);
        } else if (stateEpochs.getOrDefault(key, Integer.MIN_VALUE) > stateEpoch) {
            error = new ShareStateResult(ErrorCode.FENCED_STATE_EPOCH, FENCED_STATE_EPOCH_MESSAGE);
        } else if (!topicPartitionExists(key)) {
            error = unknownTopicOrPartition();
        }
        if (error != null) {
            return CoordinatorResult.of(error);
        }
        // As Kafka: a write keeps the recorded leader epoch (reads move it).
        ShareStateRecord record = stateRecord(key, states.get(key).leaderEpoch(), startOffset, deliveryCompleteCount, batches);
        return CoordinatorResult.of(List.of(record), ShareStateResult.NONE);
    }

    /** ReadShareGroupState: the state, recording the reader's leader epoch when it is new. */
    CoordinatorResult<PersistedShareState, ShareStateRecord> read(SharePartitionKey key, int leaderEpoch) {
        PersistedShareState error = null;
        if (key.partition() < 0) {
            error = PersistedShareState.error(ErrorCode.INVALID_REQUEST, NEGATIVE_PARTITION_ID);
        } else if (leaderEpoch < 0) {
            error = PersistedShareState.error(ErrorCode.INVALID_REQUEST, NEGATIVE_LEADER_EPOCH);
        } else if (!states.containsKey(key)) {
            error = PersistedShareState.error(ErrorCode.INVALID_REQUEST, READ_UNINITIALIZED);
        } else if (leaderEpochs.getOrDefault(key, Integer.MIN_VALUE) > leaderEpoch) {
            error = PersistedShareState.error(ErrorCode.FENCED_LEADER_EPOCH, FENCED_LEADER_EPOCH_MESSAGE);
        } else if (!topicPartitionExists(key)) {
            error = PersistedShareState.error(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_OR_PARTITION_MESSAGE);
        }
        if (error != null) {
            return CoordinatorResult.of(error);
        }
        ShareGroupOffset state = states.get(key);
        PersistedShareState answer = new PersistedShareState(ErrorCode.NONE, null, state.stateEpoch(), state.startOffset(),
                state.leaderEpoch(), state.batches());
        Integer recorded = leaderEpochs.get(key);
        if (recorded != null && recorded == leaderEpoch) {
            return CoordinatorResult.of(answer);
        }
        ShareStateRecord record = stateRecord(key, leaderEpoch, state.startOffset(), state.deliveryCompleteCount(), List.of());
        return CoordinatorResult.of(List.of(record), answer);
    }

    /**
     * ReadShareGroupStateSummary: no fencing, nothing written. A share partition never initialized answers NONE
     * with start offset -1, state and leader epoch 0, as Kafka.
     */
    ShareStateSummary readSummary(SharePartitionKey key) {
        if (key.partition() < 0) {
            return ShareStateSummary.error(ErrorCode.INVALID_REQUEST, NEGATIVE_PARTITION_ID);
        }
        if (!topicPartitionExists(key)) {
            return ShareStateSummary.error(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_OR_PARTITION_MESSAGE);
        }
        ShareGroupOffset state = states.get(key);
        if (state == null) {
            return new ShareStateSummary(ErrorCode.NONE, null, 0, 0, -1, -1);
        }
        return new ShareStateSummary(ErrorCode.NONE, null, state.stateEpoch(), state.leaderEpoch(), state.startOffset(),
                state.deliveryCompleteCount());
    }

    /** DeleteShareGroupState: a tombstone; NONE and nothing written for a share partition not held. */
    CoordinatorResult<ShareStateResult, ShareStateRecord> delete(SharePartitionKey key) {
        if (key.partition() < 0) {
            return CoordinatorResult.of(invalid(NEGATIVE_PARTITION_ID));
        }
        if (!topicPartitionExists(key)) {
            return CoordinatorResult.of(unknownTopicOrPartition());
        }
        if (!states.containsKey(key)) {
            return CoordinatorResult.of(ShareStateResult.NONE);
        }
        return CoordinatorResult.of(List.of(ShareStateRecord.tombstone(key)), ShareStateResult.NONE);
    }

    /** Tombstones for the share partitions held here whose topic is gone from the metadata (Kafka's maybeCleanupShareState). */
    CoordinatorResult<Void, ShareStateRecord> dropDeletedTopics() {
        List<ShareStateRecord> tombstones = new ArrayList<>();
        for (SharePartitionKey key : states.keySet()) {
            if (topics.topic(key.topicId()) == null) {
                tombstones.add(ShareStateRecord.tombstone(key));
            }
        }
        return CoordinatorResult.of(tombstones, null);
    }

    /** For tests: the state held for a share partition, or null. */
    ShareGroupOffset state(SharePartitionKey key) {
        return states.get(key);
    }

    /**
     * The record a write (or a read under a new leader epoch) produces (Kafka's generateShareStateRecord): a
     * ShareUpdate with the write's own batches, or once enough updates have been written, a ShareSnapshot of the
     * whole merged state under the next snapshot epoch. The start offset never moves back; the delivery-complete
     * count of an older start offset is the recorded one.
     */
    private ShareStateRecord stateRecord(SharePartitionKey key, int leaderEpoch, long requestedStart,
            int requestedDeliveryComplete, List<StateBatch> batches) {
        ShareGroupOffset current = states.get(key);
        long startOffset = Math.max(requestedStart, current.startOffset());
        int deliveryComplete = requestedDeliveryComplete;
        if (requestedStart == current.startOffset()) {
            deliveryComplete = Math.max(requestedDeliveryComplete, current.deliveryCompleteCount());
        } else if (requestedStart < current.startOffset()) {
            deliveryComplete = current.deliveryCompleteCount();
        }
        if (updatesSinceSnapshot.getOrDefault(key, 0) >= config.snapshotUpdateRecordsPerSnapshot()) {
            long now = context.nowMs();
            return ShareStateRecord.snapshot(key, new ShareGroupOffset(current.snapshotEpoch() + 1, current.stateEpoch(),
                    leaderEpoch, startOffset, deliveryComplete, now, now,
                    StateBatchCombiner.combine(current.batches(), batches, startOffset)));
        }
        return ShareStateRecord.update(key, new ShareGroupOffset(current.snapshotEpoch(), -1, leaderEpoch, startOffset,
                deliveryComplete, 0, 0, StateBatchCombiner.combine(List.of(), batches, startOffset)));
    }

    private boolean topicPartitionExists(SharePartitionKey key) {
        TopicCatalog.Topic topic = topics.topic(key.topicId());
        return topic != null && key.partition() < topic.partitions();
    }

    private static ShareStateResult invalid(String message) {
        return new ShareStateResult(ErrorCode.INVALID_REQUEST, message);
    }

    private static ShareStateResult unknownTopicOrPartition() {
        return new ShareStateResult(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_OR_PARTITION_MESSAGE);
    }
}
