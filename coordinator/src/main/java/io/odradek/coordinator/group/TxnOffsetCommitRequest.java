package io.odradek.coordinator.group;

import java.util.List;

/**
 * A TxnOffsetCommit: offsets a transactional producer commits for a group inside its open transaction,
 * invisible to OffsetFetch until the transaction commits. v0-2 carry no group membership (generation -1,
 * member id "", no instance id); v3+ carry the consumer's group metadata, checked as for an OffsetCommit
 * but whatever the group's state (Kafka does not hold a transactional commit back during a rebalance).
 * {@code apiVersion} matters from v6: GROUP_ID_NOT_FOUND and STALE_MEMBER_EPOCH instead of ILLEGAL_GENERATION.
 *
 * @param partitions the offsets; their metadata may be null (stored as "")
 */
public record TxnOffsetCommitRequest(String transactionalId, String groupId, long producerId, short producerEpoch,
        int generationId, String memberId, String groupInstanceId, List<OffsetCommitRequest.Partition> partitions,
        short apiVersion) {
    public TxnOffsetCommitRequest {
        memberId = memberId == null ? "" : memberId;
        partitions = List.copyOf(partitions);
    }
}
