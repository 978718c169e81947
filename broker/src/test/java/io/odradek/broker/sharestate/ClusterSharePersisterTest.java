package io.odradek.broker.sharestate;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.coordinators.FakeCluster;
import io.odradek.broker.txn.RecordingSender;
import io.odradek.coordinator.group.TopicCatalog;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.coordinator.share.state.ShareCoordinator;
import io.odradek.coordinator.share.state.ShareCoordinatorConfig;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ReadShareGroupStateApi;
import io.odradek.wire.api.ReadShareGroupStateApi.Response.ReadStateResult;
import io.odradek.wire.api.WriteShareGroupStateApi;
import io.odradek.wire.api.WriteShareGroupStateApi.Request.WriteStateData;
import io.odradek.wire.api.WriteShareGroupStateApi.Response.WriteStateResult;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Share state kept by the key's share coordinator in a cluster: here, on another broker, or nowhere yet. */
class ClusterSharePersisterTest {
    private static final UUID ORDERS = UUID.fromString("7a1b2c3d-0000-4000-8000-00000000abcd");

    @TempDir
    Path dir;
    /** Broker 1's view: __share_group_state's 3 partitions led by 2, 1 and nobody. */
    private final FakeCluster cluster = new FakeCluster(1).withBrokers(1, 2).withTopic(ShareStateTopic.NAME, 2, 1, -1);
    private final RecordingSender sender = new RecordingSender();
    private final AtomicInteger creations = new AtomicInteger();
    private PartitionLog log;
    private ShareCoordinator local;
    private ClusterSharePersister persister;

    private static final TopicCatalog TOPICS = new TopicCatalog() {
        @Override
        public Topic topic(String name) {
            return null;
        }

        @Override
        public Topic topic(UUID id) {
            return ORDERS.equals(id) ? new Topic("orders", ORDERS, 8) : null;
        }

        @Override
        public Collection<String> topicNames() {
            return List.of();
        }
    };

    @BeforeEach
    void start() {
        log = PartitionLog.open(dir, ShareStateTopic.NAME, 1, LogConfig.defaults());
        // Configured with 50 partitions: the topic's 3 in the image must win.
        local = ShareCoordinator.create(ShareCoordinatorConfig.defaults(), p -> new PartitionLogCoordinatorLog(log), TOPICS);
        local.useStateTopicPartitions(3);
        local.onElection(1, 4).join(); // broker 1 leads partition 1
        persister = new ClusterSharePersister(cluster, local, sender, () -> {
            creations.incrementAndGet();
            return CompletableFuture.failedFuture(new IllegalStateException("no controller here"));
        }, attempt -> Runnable::run);
    }

    @AfterEach
    void stop() {
        local.close();
        log.close();
    }

    /** A share partition of {@code orders} whose key lands on {@code __share_group_state} partition {@code partition}. */
    private static SharePartitionKey keyOn(int partition) {
        for (int p = 0; ; p++) {
            SharePartitionKey key = new SharePartitionKey("workers", ORDERS, p);
            int hash = key.coordinatorKey().hashCode();
            if ((hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % 3 == partition) {
                return key;
            }
        }
    }

    private static Struct writeAnswer(Struct request, ErrorCode error) {
        Struct response = WriteShareGroupStateApi.Response.SCHEMA.newStruct();
        Struct topic = request.get(WriteShareGroupStateApi.Request.TOPICS).get(0);
        response.add(WriteShareGroupStateApi.Response.RESULTS).set(WriteStateResult.TOPIC_ID, topic.get(WriteStateData.TOPIC_ID))
                .add(WriteStateResult.PARTITIONS)
                .set(WriteStateResult.PartitionResult.PARTITION, topic.get(WriteStateData.PARTITIONS).get(0).get(WriteStateData.PartitionData.PARTITION))
                .set(WriteStateResult.PartitionResult.ERROR_CODE, error.code());
        return response;
    }

    @Test
    void aWriteForAKeyLedElsewhereIsSentToThatBrokerAsOneWriteShareGroupStateV1() {
        SharePartitionKey key = keyOn(0);
        sender.answering(2, request -> writeAnswer(request, ErrorCode.NONE));

        ErrorCode error = persister.write(key, 3, 7, 100, 4, List.of(new StateBatch(100, 104, StateBatch.ACKNOWLEDGED, (short) 1))).join();

        assertThat(error).isEqualTo(ErrorCode.NONE);
        assertThat(sender.sentSoFar()).singleElement().satisfies(sent -> {
            assertThat(sent.brokerId()).isEqualTo(2);
            assertThat(sent.api()).isEqualTo(WriteShareGroupStateApi.SPEC);
            assertThat(sent.version()).isEqualTo((short) 1);
            Struct r = sent.request();
            assertThat(r.get(WriteShareGroupStateApi.Request.GROUP_ID)).isEqualTo("workers");
            Struct topic = r.get(WriteShareGroupStateApi.Request.TOPICS).get(0);
            assertThat(topic.get(WriteStateData.TOPIC_ID)).isEqualTo(ORDERS);
            Struct p = topic.get(WriteStateData.PARTITIONS).get(0);
            assertThat(List.of(p.get(WriteStateData.PartitionData.PARTITION), p.get(WriteStateData.PartitionData.STATE_EPOCH),
                    p.get(WriteStateData.PartitionData.LEADER_EPOCH), p.get(WriteStateData.PartitionData.DELIVERY_COMPLETE_COUNT)))
                    .containsExactly(key.partition(), 3, 7, 4);
            assertThat(p.get(WriteStateData.PartitionData.START_OFFSET)).isEqualTo(100L);
            assertThat(p.get(WriteStateData.PartitionData.STATE_BATCHES)).singleElement()
                    .satisfies(b -> assertThat(b.get(WriteStateData.PartitionData.StateBatch.LAST_OFFSET)).isEqualTo(104L));
        });
    }

    @Test
    void notCoordinatorIsRetriedWithTheNewestImage() {
        SharePartitionKey key = keyOn(0);
        AtomicInteger calls = new AtomicInteger();
        sender.answering(2, request -> writeAnswer(request, calls.incrementAndGet() < 3 ? ErrorCode.NOT_COORDINATOR : ErrorCode.NONE));

        assertThat(persister.write(key, 0, 0, 0, -1, List.of()).join()).isEqualTo(ErrorCode.NONE);
        assertThat(sender.sentSoFar()).hasSize(3);
    }

    @Test
    void anUnreachableCoordinatorEndsInNetworkExceptionAfterTheLastAttempt() {
        assertThat(persister.write(keyOn(0), 0, 0, 0, -1, List.of()).join()).isEqualTo(ErrorCode.NETWORK_EXCEPTION);
        assertThat(sender.sentSoFar()).hasSize(ClusterSharePersister.MAX_ATTEMPTS);
    }

    @Test
    void aStatePartitionWithoutALeaderIsCoordinatorNotAvailable() {
        assertThat(persister.initialize(keyOn(2), 1, 0).join()).isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE);
        assertThat(sender.sentSoFar()).isEmpty();
    }

    @Test
    void aKeyLedHereIsKeptByThisBrokersCoordinator() {
        SharePartitionKey key = keyOn(1);
        assertThat(persister.initialize(key, 2, 50).join()).isEqualTo(ErrorCode.NONE);
        assertThat(persister.write(key, 2, 4, 50, -1, List.of(new StateBatch(50, 51, StateBatch.ARCHIVED, (short) 2))).join())
                .isEqualTo(ErrorCode.NONE);
        PersistedShareState state = persister.read(key, 4).join();
        assertThat(state.error()).isEqualTo(ErrorCode.NONE);
        assertThat(state.stateEpoch()).isEqualTo(2);
        assertThat(state.batches()).containsExactly(new StateBatch(50, 51, StateBatch.ARCHIVED, (short) 2));
        assertThat(sender.sentSoFar()).isEmpty();
    }

    @Test
    void aReadAnsweredElsewhereCarriesTheRemoteStateAndErrors() {
        SharePartitionKey key = keyOn(0);
        sender.answering(2, request -> {
            Struct response = ReadShareGroupStateApi.Response.SCHEMA.newStruct();
            Struct p = response.add(ReadShareGroupStateApi.Response.RESULTS).set(ReadStateResult.TOPIC_ID, ORDERS)
                    .add(ReadStateResult.PARTITIONS).set(ReadStateResult.PartitionResult.PARTITION, key.partition())
                    .set(ReadStateResult.PartitionResult.STATE_EPOCH, 6).set(ReadStateResult.PartitionResult.START_OFFSET, 30L);
            p.add(ReadStateResult.PartitionResult.STATE_BATCHES).set(ReadStateResult.PartitionResult.StateBatch.FIRST_OFFSET, 30L)
                    .set(ReadStateResult.PartitionResult.StateBatch.LAST_OFFSET, 33L)
                    .set(ReadStateResult.PartitionResult.StateBatch.DELIVERY_STATE, StateBatch.AVAILABLE)
                    .set(ReadStateResult.PartitionResult.StateBatch.DELIVERY_COUNT, (short) 3);
            return response;
        });
        PersistedShareState state = persister.read(key, 9).join();
        assertThat(state.error()).isEqualTo(ErrorCode.NONE);
        assertThat(state.stateEpoch()).isEqualTo(6);
        assertThat(state.startOffset()).isEqualTo(30);
        assertThat(state.batches()).containsExactly(new StateBatch(30, 33, StateBatch.AVAILABLE, (short) 3));
        Struct sent = sender.sentSoFar().get(0).request();
        assertThat(sent.get(ReadShareGroupStateApi.Request.TOPICS).get(0).get(ReadShareGroupStateApi.Request.ReadStateData.PARTITIONS)
                .get(0).get(ReadShareGroupStateApi.Request.ReadStateData.PartitionData.LEADER_EPOCH)).isEqualTo(9);
    }

    @Test
    void aMissingStateTopicIsCreatedFirst() {
        FakeCluster empty = new FakeCluster(1).withBrokers(1, 2);
        ClusterSharePersister fresh = new ClusterSharePersister(empty, local, sender, () -> {
            creations.incrementAndGet();
            return CompletableFuture.failedFuture(new IllegalStateException("controller unreachable"));
        }, attempt -> Runnable::run);
        assertThat(fresh.delete(keyOn(0)).join()).isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE);
        assertThat(creations.get()).isEqualTo(ClusterSharePersister.MAX_ATTEMPTS);
        assertThat(sender.sentSoFar()).isEmpty();
    }
}
