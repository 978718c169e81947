package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionVerifier;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.OffsetFetchApi;
import io.odradek.wire.api.OffsetFetchApi.Request.OffsetFetchRequestGroup;
import io.odradek.wire.api.OffsetFetchApi.Request.OffsetFetchRequestGroup.OffsetFetchRequestTopics;
import io.odradek.wire.api.OffsetFetchApi.Request.OffsetFetchRequestTopic;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseGroup;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseGroup.OffsetFetchResponseTopics;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseGroup.OffsetFetchResponseTopics.OffsetFetchResponsePartitions;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseTopic;
import io.odradek.wire.api.OffsetFetchApi.Response.OffsetFetchResponseTopic.OffsetFetchResponsePartition;
import io.odradek.wire.api.TxnOffsetCommitApi;
import io.odradek.wire.api.TxnOffsetCommitApi.Request.TxnOffsetCommitRequestTopic;
import io.odradek.wire.api.TxnOffsetCommitApi.Request.TxnOffsetCommitRequestTopic.TxnOffsetCommitRequestPartition;
import io.odradek.wire.api.TxnOffsetCommitApi.Response.TxnOffsetCommitResponseTopic;
import io.odradek.wire.api.TxnOffsetCommitApi.Response.TxnOffsetCommitResponseTopic.TxnOffsetCommitResponsePartition;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TxnOffsetCommit through the real codec, and OffsetFetch's require_stable answers. */
class TxnOffsetCommitHandlerTest {
    private static final long PID = 77L;
    private static final short EPOCH = 2;

    @TempDir
    Path dir;
    AdminFixture f;
    GroupCoordinator groups;
    UUID ordersId;
    /** What the transaction coordinator answers for the verified partition. */
    ErrorCode verification = ErrorCode.NONE;
    /** The verifications asked for: transactional id, partitions, addIfMissing. */
    final List<String> verified = new ArrayList<>();
    TxnOffsetCommitHandler handler;

    @BeforeEach
    void start() throws Exception {
        f = new AdminFixture(dir, Map.of("offsets.topic.num.partitions", "2", "group.initial.rebalance.delay.ms", "0"));
        groups = GroupCoordinators.startLoaded(f);
        ordersId = f.topics.createTopic("orders", 2, Map.of(), false).id();
        TransactionVerifier verifier = new TransactionVerifier() {
            @Override
            public CompletableFuture<Map<TopicPartition, ErrorCode>> verify(String transactionalId, long producerId,
                    short producerEpoch, Collection<TopicPartition> partitions, boolean addIfMissing) {
                verified.add(transactionalId + " " + producerId + "/" + producerEpoch + " " + partitions + " add=" + addIfMissing);
                TopicPartition tp = partitions.iterator().next();
                return CompletableFuture.completedFuture(Map.of(tp, verification));
            }
        };
        handler = new TxnOffsetCommitHandler(groups, verifier, f.topics);
    }

    @AfterEach
    void stop() {
        groups.close();
        f.close();
    }

    private Struct txnCommit(int version, String topic, long offset) {
        return txnCommit(version, topic, 1, offset);
    }

    private Struct txnCommit(int version, String topic, int partition, long offset) {
        Struct request = TxnOffsetCommitApi.Request.SCHEMA.newStruct()
                .set(TxnOffsetCommitApi.Request.TRANSACTIONAL_ID, "tx")
                .set(TxnOffsetCommitApi.Request.GROUP_ID, "etl")
                .set(TxnOffsetCommitApi.Request.PRODUCER_ID, PID)
                .set(TxnOffsetCommitApi.Request.PRODUCER_EPOCH, EPOCH);
        Struct t = request.add(TxnOffsetCommitApi.Request.TOPICS);
        if (version >= 6) {
            t.set(TxnOffsetCommitRequestTopic.TOPIC_ID, topic.equals("orders") ? ordersId : UUID.randomUUID());
        } else {
            t.set(TxnOffsetCommitRequestTopic.NAME, topic);
        }
        t.add(TxnOffsetCommitRequestTopic.PARTITIONS)
                .set(TxnOffsetCommitRequestPartition.PARTITION_INDEX, partition)
                .set(TxnOffsetCommitRequestPartition.COMMITTED_OFFSET, offset)
                .set(TxnOffsetCommitRequestPartition.COMMITTED_METADATA, "m");
        return f.call(handler, version, request);
    }

    private static short errorOf(Struct response) {
        Struct topic = response.get(TxnOffsetCommitApi.Response.TOPICS).get(0);
        return topic.get(TxnOffsetCommitResponseTopic.PARTITIONS).get(0).get(TxnOffsetCommitResponsePartition.ERROR_CODE);
    }

    /** OffsetFetch v7 (one group) of orders-1: offset and partition error. */
    private long[] fetchV7(boolean requireStable) {
        Struct request = OffsetFetchApi.Request.SCHEMA.newStruct()
                .set(OffsetFetchApi.Request.GROUP_ID, "etl")
                .set(OffsetFetchApi.Request.REQUIRE_STABLE, requireStable);
        request.add(OffsetFetchApi.Request.TOPICS).set(OffsetFetchRequestTopic.NAME, "orders")
                .set(OffsetFetchRequestTopic.PARTITION_INDEXES, List.of(1));
        Struct response = f.call(new OffsetFetchHandler(groups, f.topics), 7, request);
        Struct p = response.get(OffsetFetchApi.Response.TOPICS).get(0).get(OffsetFetchResponseTopic.PARTITIONS).get(0);
        return new long[] {p.get(OffsetFetchResponsePartition.COMMITTED_OFFSET), p.get(OffsetFetchResponsePartition.ERROR_CODE)};
    }

    /** OffsetFetch v9 (groups array) of every offset: partition -> offset and error. */
    private long[] fetchAllV9(boolean requireStable) {
        Struct request = OffsetFetchApi.Request.SCHEMA.newStruct().set(OffsetFetchApi.Request.REQUIRE_STABLE, requireStable);
        request.add(OffsetFetchApi.Request.GROUPS).set(OffsetFetchRequestGroup.GROUP_ID, "etl")
                .set(OffsetFetchRequestGroup.TOPICS, null);
        Struct response = f.call(new OffsetFetchHandler(groups, f.topics), 9, request);
        Struct group = response.get(OffsetFetchApi.Response.GROUPS).get(0);
        assertThat(group.get(OffsetFetchResponseGroup.ERROR_CODE)).isZero();
        List<Struct> topics = group.get(OffsetFetchResponseGroup.TOPICS);
        if (topics.isEmpty()) {
            return null;
        }
        Struct p = topics.get(0).get(OffsetFetchResponseTopics.PARTITIONS).get(0);
        return new long[] {p.get(OffsetFetchResponsePartitions.PARTITION_INDEX), p.get(OffsetFetchResponsePartitions.COMMITTED_OFFSET),
                p.get(OffsetFetchResponsePartitions.ERROR_CODE)};
    }

    @Test
    void offsetsCommittedInATransactionAreUnstableUntilItsMarkerThenVisible() {
        assertThat(errorOf(txnCommit(3, "orders", 42L))).isZero();
        assertThat(fetchV7(false)).containsExactly(-1L, 0L);
        assertThat(fetchV7(true)).containsExactly(-1L, ErrorCode.UNSTABLE_OFFSET_COMMIT.code());
        assertThat(fetchAllV9(false)).isNull(); // nothing committed yet
        ErrorCode marker = groups.completeTransaction(groups.partitionFor("etl"), PID, EPOCH, 0, true).join();
        assertThat(marker).isEqualTo(ErrorCode.NONE);
        assertThat(fetchV7(true)).containsExactly(42L, 0L);

        assertThat(errorOf(txnCommit(3, "orders", 50L))).isZero();
        assertThat(fetchAllV9(true)).containsExactly(1L, -1L, ErrorCode.UNSTABLE_OFFSET_COMMIT.code());
        assertThat(fetchAllV9(false)).containsExactly(1L, 42L, 0L);
        groups.completeTransaction(groups.partitionFor("etl"), PID, EPOCH, 0, false).join();
        assertThat(fetchAllV9(true)).containsExactly(1L, 42L, 0L);
    }

    @Test
    void theGroupsOffsetsPartitionIsVerifiedUpToV4AndAddedFromV5() {
        String offsetsPartition = "[" + OffsetsTopic.NAME + "-" + groups.partitionFor("etl") + "]";
        txnCommit(4, "orders", 1L);
        txnCommit(5, "orders", 2L);
        assertThat(errorOf(txnCommit(6, "orders", 3L))).isZero(); // v6: the topic by id
        assertThat(verified).containsExactly("tx 77/2 " + offsetsPartition + " add=false",
                "tx 77/2 " + offsetsPartition + " add=true", "tx 77/2 " + offsetsPartition + " add=true");
        groups.completeTransaction(groups.partitionFor("etl"), PID, EPOCH, 0, true).join();
        assertThat(fetchV7(true)).containsExactly(3L, 0L);
    }

    @Test
    void aRefusedVerificationFailsTheCommitAsKafkaMapsIt() {
        verification = ErrorCode.PRODUCER_FENCED;
        assertThat(errorOf(txnCommit(5, "orders", 1L))).isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH.code());
        verification = ErrorCode.TRANSACTION_ABORTABLE;
        assertThat(errorOf(txnCommit(3, "orders", 1L))).isEqualTo(ErrorCode.INVALID_TXN_STATE.code());
        assertThat(errorOf(txnCommit(4, "orders", 1L))).isEqualTo(ErrorCode.TRANSACTION_ABORTABLE.code());
        verification = ErrorCode.INVALID_TXN_STATE;
        assertThat(errorOf(txnCommit(2, "orders", 1L))).isEqualTo(ErrorCode.INVALID_TXN_STATE.code());
        verification = ErrorCode.NOT_COORDINATOR;
        assertThat(errorOf(txnCommit(5, "orders", 1L))).isEqualTo(ErrorCode.NOT_COORDINATOR.code());
        verification = ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
        assertThat(errorOf(txnCommit(2, "orders", 1L))).isEqualTo(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS.code());
        assertThat(errorOf(txnCommit(1, "orders", 1L))).isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE.code());
        // Nothing was written: a commit marker finds no pending offset.
        groups.completeTransaction(groups.partitionFor("etl"), PID, EPOCH, 0, true).join();
        assertThat(fetchV7(true)).containsExactly(-1L, 0L);
    }

    @Test
    void aV0TransactionalCommitIsReadByAV0OffsetFetchOnceItsTransactionCommits() {
        assertThat(errorOf(txnCommit(0, "orders", 42L))).isZero();
        assertThat(verified).containsExactly("tx 77/2 [" + OffsetsTopic.NAME + "-" + groups.partitionFor("etl") + "] add=false");
        groups.completeTransaction(groups.partitionFor("etl"), PID, EPOCH, 0, true).join();

        Struct request = OffsetFetchApi.Request.SCHEMA.newStruct().set(OffsetFetchApi.Request.GROUP_ID, "etl");
        request.add(OffsetFetchApi.Request.TOPICS).set(OffsetFetchRequestTopic.NAME, "orders")
                .set(OffsetFetchRequestTopic.PARTITION_INDEXES, List.of(1));
        Struct p = f.call(new OffsetFetchHandler(groups, f.topics), 0, request).get(OffsetFetchApi.Response.TOPICS).get(0)
                .get(OffsetFetchResponseTopic.PARTITIONS).get(0);
        assertThat(p.get(OffsetFetchResponsePartition.COMMITTED_OFFSET) + " " + p.get(OffsetFetchResponsePartition.METADATA) + " "
                + p.get(OffsetFetchResponsePartition.ERROR_CODE)).isEqualTo("42 m 0");
    }

    @Test
    void anUnknownTopicIsRefusedWithoutAskingTheTransactionCoordinator() {
        assertThat(errorOf(txnCommit(3, "nosuchtopic", 1L))).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(errorOf(txnCommit(6, "nosuchtopic", 1L))).isEqualTo(ErrorCode.UNKNOWN_TOPIC_ID.code());
        assertThat(errorOf(txnCommit(3, "orders", 2, 1L))).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code()); // 2 partitions
        assertThat(verified).isEmpty();
    }
}
