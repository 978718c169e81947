package io.odradek.coordinator.group;

import static io.odradek.coordinator.group.CoordinatorFixture.protocol;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.OffsetsRecordCodec;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.wire.ErrorCode;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TxnOffsetCommit: offsets committed inside a transaction, visible only once its commit marker is written. */
class TransactionalOffsetsTest {
    private static final List<Protocol> ORDERS = List.of(protocol("range", "orders"));
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    private static final long PID = 4000L;
    private static final short EPOCH = 3;

    @TempDir
    Path dir;
    private CoordinatorFixture f;

    private CoordinatorFixture fixture() {
        f = new CoordinatorFixture(dir, CoordinatorFixture.config(0));
        return f;
    }

    @AfterEach
    void close() {
        if (f != null) {
            f.close();
        }
    }

    /** A TxnOffsetCommit v2 from outside group management (generation -1): the partitions' errors. */
    private Map<TopicPartition, ErrorCode> txnCommit(String group, long producerId, Object... topicPartitionOffset) {
        return memberTxnCommit(group, producerId, -1, "", topicPartitionOffset);
    }

    /** A TxnOffsetCommit v3 with the consumer's group metadata. */
    private Map<TopicPartition, ErrorCode> memberTxnCommit(String group, long producerId, int generation, String memberId,
            Object... topicPartitionOffset) {
        List<OffsetCommitRequest.Partition> parts = new ArrayList<>();
        for (int i = 0; i < topicPartitionOffset.length; i += 3) {
            parts.add(new OffsetCommitRequest.Partition(new TopicPartition((String) topicPartitionOffset[i],
                    (Integer) topicPartitionOffset[i + 1]), ((Number) topicPartitionOffset[i + 2]).longValue(), 7, "txn"));
        }
        return f.coordinator.txnOffsetCommit(new TxnOffsetCommitRequest("tx-" + producerId, group, producerId, EPOCH,
                generation, memberId, null, parts, (short) 3)).join();
    }

    private ErrorCode complete(String group, long producerId, boolean commit) {
        return f.coordinator.completeTransaction(f.coordinator.partitionFor(group), producerId, EPOCH, 0, commit).join();
    }

    private Long committed(String group, TopicPartition tp) {
        OffsetAndMetadata o = f.coordinator.fetchOffsets(group, List.of(tp)).join().offsets().get(tp);
        return o == null ? null : o.offset();
    }

    private OffsetFetchResult stableFetch(String group, TopicPartition... tps) {
        return f.coordinator.fetchOffsets(group, null, -1, tps.length == 0 ? null : List.of(tps), true).join();
    }

    @Test
    void transactionalOffsetsAreInvisibleUntilTheCommitMarker() {
        fixture();
        assertThat(txnCommit("etl", PID, "orders", 0, 42L, "orders", 1, 7L))
                .containsExactly(entry(ORDERS_0, ErrorCode.NONE), entry(ORDERS_1, ErrorCode.NONE));
        assertThat(committed("etl", ORDERS_0)).isNull();
        assertThat(f.coordinator.fetchOffsets("etl", null).join().offsets()).isEmpty();

        assertThat(complete("etl", PID, true)).isEqualTo(ErrorCode.NONE);
        OffsetAndMetadata o = f.coordinator.fetchOffsets("etl", List.of(ORDERS_0)).join().offsets().get(ORDERS_0);
        assertThat(o.offset()).isEqualTo(42L);
        assertThat(o.leaderEpoch()).isEqualTo(7);
        assertThat(o.metadata()).isEqualTo("txn");
        assertThat(committed("etl", ORDERS_1)).isEqualTo(7L);
    }

    @Test
    void anAbortDropsThePendingOffsetsAndKeepsTheCommittedOnes() {
        fixture();
        f.commit("etl", -1, "", "orders", 0, 5L);
        txnCommit("etl", PID, "orders", 0, 42L);
        assertThat(complete("etl", PID, false)).isEqualTo(ErrorCode.NONE);
        assertThat(committed("etl", ORDERS_0)).isEqualTo(5L);
        assertThat(stableFetch("etl", ORDERS_0).unstable()).isEmpty();
        // A later commit marker of the same producer finds nothing left to commit.
        assertThat(complete("etl", PID, true)).isEqualTo(ErrorCode.NONE);
        assertThat(committed("etl", ORDERS_0)).isEqualTo(5L);
    }

    @Test
    void requireStableAnswersUnstableOffsetCommitForPartitionsWithAPendingTransaction() {
        fixture();
        f.commit("etl", -1, "", "orders", 0, 5L, "orders", 1, 6L);
        txnCommit("etl", PID, "orders", 0, 42L);

        OffsetFetchResult stable = stableFetch("etl", ORDERS_0, ORDERS_1);
        assertThat(stable.error()).isEqualTo(ErrorCode.NONE);
        assertThat(stable.partitionError(ORDERS_0)).isEqualTo(ErrorCode.UNSTABLE_OFFSET_COMMIT);
        assertThat(stable.offsets().get(ORDERS_0)).isNull(); // offset -1 for the client, which retries
        assertThat(stable.partitionError(ORDERS_1)).isEqualTo(ErrorCode.NONE);
        assertThat(stable.offsets().get(ORDERS_1).offset()).isEqualTo(6L);
        OffsetFetchResult all = stableFetch("etl");
        assertThat(all.offsets().keySet()).containsExactly(ORDERS_0, ORDERS_1);
        assertThat(all.unstable()).containsExactly(ORDERS_0);
        // Without require_stable the committed offset is answered, as Kafka does.
        assertThat(committed("etl", ORDERS_0)).isEqualTo(5L);

        complete("etl", PID, true);
        OffsetFetchResult after = stableFetch("etl", ORDERS_0);
        assertThat(after.unstable()).isEmpty();
        assertThat(after.offsets().get(ORDERS_0).offset()).isEqualTo(42L);
    }

    @Test
    void pendingOffsetsSurviveARestartAndCommitAfterIt() {
        fixture();
        txnCommit("etl", PID, "orders", 0, 42L);
        f.restart();
        assertThat(committed("etl", ORDERS_0)).isNull();
        assertThat(stableFetch("etl", ORDERS_0).unstable()).containsExactly(ORDERS_0);

        assertThat(complete("etl", PID, true)).isEqualTo(ErrorCode.NONE);
        assertThat(committed("etl", ORDERS_0)).isEqualTo(42L);
        f.restart();
        assertThat(committed("etl", ORDERS_0)).isEqualTo(42L);
        assertThat(stableFetch("etl", ORDERS_0).unstable()).isEmpty();
    }

    @Test
    void aRestartAfterTheMarkersReplaysTheCommitsAndDropsTheAborts() {
        fixture();
        txnCommit("etl", PID, "orders", 0, 42L);
        txnCommit("etl", PID + 1, "orders", 1, 99L);
        complete("etl", PID, true);
        complete("etl", PID + 1, false);
        f.restart();
        assertThat(committed("etl", ORDERS_0)).isEqualTo(42L);
        assertThat(committed("etl", ORDERS_1)).isNull();
        assertThat(stableFetch("etl", ORDERS_0, ORDERS_1).unstable()).isEmpty();
    }

    @Test
    void anOffsetCommittedAfterThePendingOneWinsWhenTheTransactionCommits() {
        fixture();
        txnCommit("etl", PID, "orders", 0, 42L);
        f.commit("etl", -1, "", "orders", 0, 50L); // later in the log than the transactional record
        complete("etl", PID, true);
        assertThat(committed("etl", ORDERS_0)).isEqualTo(50L);
        f.restart();
        assertThat(committed("etl", ORDERS_0)).isEqualTo(50L);

        f.commit("etl", -1, "", "orders", 0, 60L); // earlier in the log than the next transactional record
        txnCommit("etl", PID, "orders", 0, 70L);
        complete("etl", PID, true);
        assertThat(committed("etl", ORDERS_0)).isEqualTo(70L);
    }

    @Test
    void theOffsetsLogHoldsATransactionalBatchOfTheProducerThenItsCommitMarker() {
        fixture();
        txnCommit("etl", PID, "orders", 0, 42L);
        complete("etl", PID, true);

        int p = f.coordinator.partitionFor("etl");
        List<MutableRecordBatch> batches = new ArrayList<>();
        long next = 0;
        while (next < f.logs.get(p).logEndOffset()) {
            ByteBuffer bytes = f.logs.get(p).read(next, 1 << 20).readIntoHeap();
            MemoryRecords.readableRecords(bytes).batches().forEach(batches::add);
            next = batches.get(batches.size() - 1).lastOffset() + 1;
        }
        assertThat(batches).hasSize(2);

        MutableRecordBatch offsets = batches.get(0);
        offsets.ensureValid();
        assertThat(offsets.isTransactional()).isTrue();
        assertThat(offsets.isControlBatch()).isFalse();
        assertThat(offsets.producerId()).isEqualTo(PID);
        assertThat(offsets.producerEpoch()).isEqualTo(EPOCH);
        Record record = offsets.iterator().next();
        byte[] key = new byte[record.keySize()];
        record.key().get(key);
        byte[] value = new byte[record.valueSize()];
        record.value().get(value);
        var decoded = (io.odradek.coordinator.offsets.OffsetsRecord.OffsetCommit) OffsetsRecordCodec.decode(key, value);
        assertThat(decoded.groupId()).isEqualTo("etl");
        assertThat(decoded.partition()).isEqualTo(ORDERS_0);
        assertThat(decoded.value().offset()).isEqualTo(42L);

        MutableRecordBatch marker = batches.get(1);
        marker.ensureValid();
        assertThat(marker.isControlBatch()).isTrue();
        assertThat(marker.isTransactional()).isTrue();
        assertThat(marker.producerId()).isEqualTo(PID);
        assertThat(marker.producerEpoch()).isEqualTo(EPOCH);
        assertThat(marker.baseOffset()).isEqualTo(offsets.lastOffset() + 1);
        Record control = marker.iterator().next();
        assertThat(ControlRecordType.parse(control.key())).isEqualTo(ControlRecordType.COMMIT);
        assertThat(EndTransactionMarker.deserialize(control).coordinatorEpoch()).isZero();
        assertThat(marker.magic()).isEqualTo(RecordBatch.MAGIC_VALUE_V2);
    }

    @Test
    void membersCommitInTransactionsWithTheirGenerationEvenDuringARebalance() {
        fixture();
        JoinGroupResult a = f.stableGroup("g", List.of(f.joinNew("g", "a", ORDERS))).get(0);
        assertThat(memberTxnCommit("g", PID, 1, a.memberId(), "orders", 0, 10L)).containsEntry(ORDERS_0, ErrorCode.NONE);
        assertThat(memberTxnCommit("g", PID, 0, a.memberId(), "orders", 0, 11L)).containsEntry(ORDERS_0, ErrorCode.ILLEGAL_GENERATION);
        assertThat(memberTxnCommit("g", PID, 1, "stranger", "orders", 0, 11L)).containsEntry(ORDERS_0, ErrorCode.UNKNOWN_MEMBER_ID);
        // v0-2 carry no member: taken even from a non-empty group (an OffsetCommit would get UNKNOWN_MEMBER_ID).
        assertThat(memberTxnCommit("g", PID, -1, "", "orders", 0, 12L)).containsEntry(ORDERS_0, ErrorCode.NONE);
        assertThat(memberTxnCommit("nosuchgroup", PID, 3, "m", "orders", 0, 1L)).containsEntry(ORDERS_0, ErrorCode.ILLEGAL_GENERATION);
        assertThat(f.coordinator.txnOffsetCommit(new TxnOffsetCommitRequest("tx", "nosuchgroup", PID, EPOCH, 3, "m", null,
                List.of(new OffsetCommitRequest.Partition(ORDERS_0, 1L, -1, "")), (short) 6)).join())
                .containsEntry(ORDERS_0, ErrorCode.GROUP_ID_NOT_FOUND);

        // Completing a rebalance: an OffsetCommit gets REBALANCE_IN_PROGRESS, a TxnOffsetCommit goes through.
        f.joinNew("g", "b", ORDERS);
        JoinGroupResult a2 = f.join("g", a.memberId(), ORDERS).join();
        assertThat(f.commit("g", 2, a2.memberId(), "orders", 0, 13L)).containsEntry(ORDERS_0, ErrorCode.REBALANCE_IN_PROGRESS);
        assertThat(memberTxnCommit("g", PID, 2, a2.memberId(), "orders", 0, 13L)).containsEntry(ORDERS_0, ErrorCode.NONE);
        complete("g", PID, true);
        assertThat(committed("g", ORDERS_0)).isEqualTo(13L);
    }

    @Test
    void aConsumerProtocolMemberCommitsInTransactionsAtItsEpochAndAStaleOneIsAnIllegalGeneration() {
        fixture();
        f.topics.create("orders", 2);
        ConsumerGroupHeartbeatResult joined = f.coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequest("cg",
                "m1", 0, null, null, 30_000, List.of("orders"), null, null, Map.of(), "c", "/127.0.0.1", (short) 1)).join();
        assertThat(joined.error()).isEqualTo(ErrorCode.NONE);
        int epoch = joined.memberEpoch();
        assertThat(memberTxnCommit("cg", PID, epoch, "m1", "orders", 0, 10L)).containsEntry(ORDERS_0, ErrorCode.NONE);
        assertThat(memberTxnCommit("cg", PID, epoch + 1, "m1", "orders", 0, 11L)).containsEntry(ORDERS_0, ErrorCode.ILLEGAL_GENERATION);
        assertThat(memberTxnCommit("cg", PID, epoch, "stranger", "orders", 0, 11L)).containsEntry(ORDERS_0, ErrorCode.UNKNOWN_MEMBER_ID);
        assertThat(f.coordinator.txnOffsetCommit(new TxnOffsetCommitRequest("tx", "cg", PID, EPOCH, epoch + 1, "m1", null,
                List.of(new OffsetCommitRequest.Partition(ORDERS_0, 11L, -1, "")), (short) 6)).join())
                .containsEntry(ORDERS_0, ErrorCode.STALE_MEMBER_EPOCH); // v6 says so plainly
        // No member information at all (v0-2): taken, as Kafka does for a transactional commit.
        assertThat(txnCommit("cg", PID, "orders", 1, 12L)).containsEntry(ORDERS_1, ErrorCode.NONE);
        complete("cg", PID, true);
        assertThat(committed("cg", ORDERS_0)).isEqualTo(10L);
        assertThat(committed("cg", ORDERS_1)).isEqualTo(12L);
        f.restart();
        assertThat(committed("cg", ORDERS_0)).isEqualTo(10L);
    }

    @Test
    void metadataTooLargeIsRefusedPerPartition() {
        fixture();
        String big = "x".repeat(f.config.offsetMetadataMaxBytes() + 1);
        Map<TopicPartition, ErrorCode> errors = f.coordinator.txnOffsetCommit(new TxnOffsetCommitRequest("tx", "etl", PID, EPOCH,
                -1, "", null, List.of(new OffsetCommitRequest.Partition(ORDERS_0, 1L, -1, big),
                        new OffsetCommitRequest.Partition(ORDERS_1, 2L, -1, null)), (short) 3)).join();
        assertThat(errors).containsExactly(entry(ORDERS_0, ErrorCode.OFFSET_METADATA_TOO_LARGE), entry(ORDERS_1, ErrorCode.NONE));
        complete("etl", PID, true);
        assertThat(committed("etl", ORDERS_0)).isNull();
        assertThat(committed("etl", ORDERS_1)).isEqualTo(2L);
    }

    @Test
    void deletingTheGroupDropsItsPendingOffsets() {
        fixture();
        f.commit("etl", -1, "", "orders", 0, 5L);
        txnCommit("etl", PID, "orders", 1, 42L);
        assertThat(f.coordinator.deleteGroup("etl").join()).isEqualTo(ErrorCode.NONE);
        complete("etl", PID, true);
        assertThat(f.coordinator.fetchOffsets("etl", null).join().offsets()).isEmpty();
        f.restart();
        assertThat(f.coordinator.fetchOffsets("etl", null).join().offsets()).isEmpty();
    }

    @Test
    void anOffsetWithAPendingTransactionDoesNotExpire() {
        GroupCoordinatorConfig config = GroupCoordinatorConfig.from(Map.of("offsets.topic.num.partitions", "3",
                "group.initial.rebalance.delay.ms", "0", "offsets.retention.minutes", "1"));
        f = new CoordinatorFixture(dir, config);
        f.commit("etl", -1, "", "orders", 0, 5L, "orders", 1, 6L);
        txnCommit("etl", PID, "orders", 0, 42L);
        f.clock.advance(config.offsetsRetentionMs() + 1);
        f.coordinator.expireOffsetsNow().join();
        assertThat(committed("etl", ORDERS_0)).isEqualTo(5L);
        assertThat(committed("etl", ORDERS_1)).isNull();
        complete("etl", PID, true);
        assertThat(committed("etl", ORDERS_0)).isEqualTo(42L);
    }

    @Test
    void aTransactionalCommitTheLogRefusesFailsEveryPartitionWithTheProducersError() {
        fixture();
        f.holdAppends();
        var answer = f.coordinator.txnOffsetCommit(new TxnOffsetCommitRequest("tx", "etl", PID, EPOCH, -1, "", null,
                List.of(new OffsetCommitRequest.Partition(ORDERS_0, 1L, -1, ""), new OffsetCommitRequest.Partition(ORDERS_1, 2L, -1, "")),
                (short) 3));
        f.failNextAppend(ErrorCode.INVALID_PRODUCER_EPOCH);
        assertThat(answer.join()).containsExactly(entry(ORDERS_0, ErrorCode.INVALID_PRODUCER_EPOCH),
                entry(ORDERS_1, ErrorCode.INVALID_PRODUCER_EPOCH));
        f.commitAppends();
        assertThat(stableFetch("etl", ORDERS_0).unstable()).isEmpty(); // nothing pending
    }

    @Test
    void aRefusedMarkerAnswersTheLogsErrorAndLeavesTheOffsetsPending() {
        fixture();
        txnCommit("etl", PID, "orders", 0, 42L);
        f.holdAppends();
        var marker = f.coordinator.completeTransaction(f.coordinator.partitionFor("etl"), PID, EPOCH, 0, true);
        assertThat(f.heldAppends()).isEqualTo(1);
        f.failNextAppend(ErrorCode.TRANSACTION_COORDINATOR_FENCED);
        assertThat(marker.join()).isEqualTo(ErrorCode.TRANSACTION_COORDINATOR_FENCED);
        var notLeader = f.coordinator.completeTransaction(f.coordinator.partitionFor("etl"), PID, EPOCH, 0, true);
        f.failNextAppend(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        assertThat(notLeader.join()).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        f.commitAppends();
        assertThat(stableFetch("etl", ORDERS_0).unstable()).containsExactly(ORDERS_0);
        assertThat(committed("etl", ORDERS_0)).isNull();
    }

    @Test
    void aMarkerIsAppliedOnlyOnceCommittedAndAfterTheWritesBeforeIt() {
        fixture();
        f.holdAppends();
        var commit = f.coordinator.txnOffsetCommit(new TxnOffsetCommitRequest("tx", "etl", PID, EPOCH, -1, "", null,
                List.of(new OffsetCommitRequest.Partition(ORDERS_0, 42L, -1, "")), (short) 3));
        var marker = f.coordinator.completeTransaction(f.coordinator.partitionFor("etl"), PID, EPOCH, 0, true);
        assertThat(f.heldAppends()).isEqualTo(1); // the marker waits for the offsets' write
        f.commitNextAppend();
        assertThat(commit.join()).containsEntry(ORDERS_0, ErrorCode.NONE);
        assertThat(f.heldAppends()).isEqualTo(1);
        assertThat(marker).isNotDone();
        assertThat(committed("etl", ORDERS_0)).isNull();
        f.commitAppends();
        assertThat(marker.join()).isEqualTo(ErrorCode.NONE);
        assertThat(committed("etl", ORDERS_0)).isEqualTo(42L);
    }

    @Test
    void aMarkerForAPartitionNotServedHereAnswersNotLeaderOrFollower() {
        fixture();
        f.coordinator.onResignation(1).join();
        assertThat(f.coordinator.completeTransaction(1, PID, EPOCH, 0, true).join()).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER);
    }
}
