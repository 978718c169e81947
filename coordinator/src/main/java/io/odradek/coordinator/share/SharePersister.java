package io.odradek.coordinator.share;

import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where share-partition state is kept: Kafka's Persister, served by the share coordinator over
 * {@code __share_group_state} (the share-state APIs 83-87). The share partitions on partition leaders read
 * and write through it; the group coordinator initializes, summarizes and deletes through it. A local
 * implementation calls this broker's share coordinator; in a cluster one that sends the share-state requests
 * to the coordinator of {@link SharePartitionKey#coordinatorKey} (FindCoordinator key type 2).
 *
 * <p>Every method may be called from any thread; futures complete on any thread, with Kafka's error codes
 * (NOT_COORDINATOR / COORDINATOR_NOT_AVAILABLE / COORDINATOR_LOAD_IN_PROGRESS the caller may retry;
 * FENCED_STATE_EPOCH, FENCED_LEADER_EPOCH; UNKNOWN_TOPIC_OR_PARTITION for a topic partition not in the metadata;
 * as Kafka 4.4's share coordinator, read and write of a share partition never initialized (or deleted) answer
 * INVALID_REQUEST "Read/Write operation on uninitialized share partition not allowed.", while readSummary answers
 * NONE with start offset -1).
 */
public interface SharePersister {
    /** InitializeShareGroupState: (re)starts the partition's state at {@code startOffset} under a new state epoch. */
    CompletableFuture<ErrorCode> initialize(SharePartitionKey key, int stateEpoch, long startOffset);

    /** ReadShareGroupState, by the partition's leader (its leader epoch fences older leaders). */
    CompletableFuture<PersistedShareState> read(SharePartitionKey key, int leaderEpoch);

    /**
     * WriteShareGroupState: the start offset and the in-flight batches that changed (an update; the share
     * coordinator merges it into its snapshot). Completes once durable in {@code __share_group_state}.
     */
    CompletableFuture<ErrorCode> write(SharePartitionKey key, int stateEpoch, int leaderEpoch, long startOffset,
            int deliveryCompleteCount, List<StateBatch> batches);

    /** ReadShareGroupStateSummary (DescribeShareGroupOffsets). */
    CompletableFuture<ShareStateSummary> readSummary(SharePartitionKey key, int leaderEpoch);

    /** DeleteShareGroupState (DeleteShareGroupOffsets, DeleteGroups of a share group). */
    CompletableFuture<ErrorCode> delete(SharePartitionKey key);
}
