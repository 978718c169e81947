package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.DataPathFixture.await;
import static io.odradek.broker.handlers.DataPathFixture.firstProducePartition;
import static io.odradek.broker.handlers.DataPathFixture.produceOneRecord;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.partition.Partition;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data-path handlers over a cluster replica: a Partition of this broker (1) made leader or follower
 * from a registration, as the ReplicaManager does, with broker 2 as the other replica, over a real log.
 */
class ReplicatedDataPathTest {
    static final int LOCAL = DataPathClusterView.LOCAL;
    static final int OTHER = 2;
    static final long BROKER_EPOCH = 10;

    @TempDir
    Path dir;
    DataPathFixture fx;
    ProduceHandler produce;
    FetchHandler fetch;
    OffsetForLeaderEpochHandler offsetForLeaderEpoch;
    final SilentController controller = new SilentController();
    Partition partition;
    UUID topicId;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        produce = new ProduceHandler(fx, fx.partitions, fx.cluster);
        fetch = new FetchHandler(fx, fx.partitions, fx.cluster, FetchHandlerTest.FETCH_MAX_BYTES);
        offsetForLeaderEpoch = new OffsetForLeaderEpochHandler(fx.partitions, fx.cluster);
        fx.cluster.addBroker(DataPathClusterView.broker(OTHER, "broker-2.example", 9192, null, false));
        topicId = fx.createTopic("replicated", 1, Map.of("min.insync.replicas", "2"));
        fx.partitions.manage();
        partition = new Partition(fx.log("replicated", 0), topicId, LOCAL, controller, () -> BROKER_EPOCH,
                fx.partitions.writerFor("replicated", 0), fx.waiting);
        fx.partitions.install(partition);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private void lead(List<Integer> isr, int leaderEpoch, int partitionEpoch) {
        partition.makeLeader(new PartitionRegistration(List.of(LOCAL, OTHER), isr, List.of(), List.of(), LOCAL,
                leaderEpoch, partitionEpoch), System.currentTimeMillis());
    }

    private void follow(int leaderEpoch, int partitionEpoch) {
        partition.makeFollower(new PartitionRegistration(List.of(LOCAL, OTHER), List.of(LOCAL, OTHER), List.of(),
                List.of(), OTHER, leaderEpoch, partitionEpoch));
        fx.cluster.moveLeader("replicated", 0, OTHER, leaderEpoch);
    }

    // ------------------------------------------------------------------ produce

    @Test
    void produceToAFollowerIsNotLeaderAndNamesTheLeader() {
        follow(4, 4);

        Struct response = fx.callAndWait(produce, 11, produceRequest((short) 1, 30_000));

        Struct p = producePartition(response);
        assertThat(p.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(p.get(PartitionProduceResponse.CURRENT_LEADER).get(PartitionProduceResponse.LeaderIdAndEpoch.LEADER_ID))
                .isEqualTo(OTHER);
        assertThat(p.get(PartitionProduceResponse.CURRENT_LEADER).get(PartitionProduceResponse.LeaderIdAndEpoch.LEADER_EPOCH))
                .isEqualTo(4);
        assertThat(response.get(ProduceApi.Response.NODE_ENDPOINTS)).extracting(
                n -> n.get(ProduceApi.Response.NodeEndpoint.HOST) + ":" + n.get(ProduceApi.Response.NodeEndpoint.PORT))
                .containsExactly("broker-2.example:9192");
        assertThat(fx.log("replicated", 0).logEndOffset()).isZero();
    }

    @Test
    void acksAllWithTheIsrBelowMinInsyncReplicasIsNotEnoughReplicasAndAppendsNothing() {
        lead(List.of(LOCAL), 1, 1);

        Struct response = fx.callAndWait(produce, 9, produceRequest((short) -1, 30_000));

        assertThat(producePartition(response).get(PartitionProduceResponse.ERROR_CODE))
                .isEqualTo(ErrorCode.NOT_ENOUGH_REPLICAS.code());
        assertThat(producePartition(response).get(PartitionProduceResponse.ERROR_MESSAGE))
                .contains("insufficient to satisfy the min.isr requirement of 2");
        assertThat(fx.log("replicated", 0).logEndOffset()).isZero();
    }

    @Test
    void acksOneIsAppendedEvenWithTheIsrBelowMinInsyncReplicas() {
        lead(List.of(LOCAL), 1, 1);

        Struct response = fx.callAndWait(produce, 9, produceRequest((short) 1, 30_000));

        assertThat(producePartition(response).get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(fx.log("replicated", 0).logEndOffset()).isEqualTo(1L);
    }

    @Test
    void acksAllTimesOutWhenTheInSyncFollowerStaysSilent() {
        lead(List.of(LOCAL, OTHER), 1, 1);

        Struct response = fx.callAndWait(produce, 9, produceRequest((short) -1, 200));

        Struct p = producePartition(response);
        assertThat(p.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.REQUEST_TIMED_OUT.code());
        assertThat(p.get(PartitionProduceResponse.BASE_OFFSET)).isZero();
        assertThat(fx.log("replicated", 0).logEndOffset()).isEqualTo(1L);
        assertThat(partition.highWatermark()).isZero();
    }

    @Test
    void acksAllCompletesWhenTheFollowerFetchesPastTheAppend() {
        lead(List.of(LOCAL, OTHER), 1, 1);
        CompletableFuture<Struct> pending = fx.call(produce, 9, produceRequest((short) -1, 30_000));
        await(() -> fx.log("replicated", 0).logEndOffset() == 1L);
        assertThat(pending).isNotDone();

        Struct first = fx.callAndWait(fetch, 16, followerFetch(0L, -1));
        assertThat(DataPathFixture.records(FetchHandlerTest.records(first, 0, 0))).containsExactly("0:k-x=x");
        assertThat(pending).isNotDone();
        fx.callAndWait(fetch, 16, followerFetch(1L, 1));

        Struct response = pending.orTimeout(5, TimeUnit.SECONDS).join();
        assertThat(producePartition(response).get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(partition.highWatermark()).isEqualTo(1L);
    }

    @Test
    void anIsrThatShrankBelowMinInsyncWhileWaitingHoldsTheHighWatermarkSoTheProduceTimesOut() {
        lead(List.of(LOCAL, OTHER), 1, 1);
        CompletableFuture<Struct> pending = fx.call(produce, 9, produceRequest((short) -1, 500));
        await(() -> fx.log("replicated", 0).logEndOffset() == 1L);

        lead(List.of(LOCAL), 1, 2); // the controller took the silent follower out of the ISR

        // Kafka's maybeIncrementLeaderHW: no high watermark move below min.insync.replicas, so nothing commits.
        Struct p = producePartition(pending.orTimeout(5, TimeUnit.SECONDS).join());
        assertThat(p.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.REQUEST_TIMED_OUT.code());
        assertThat(p.get(PartitionProduceResponse.BASE_OFFSET)).isZero();
        assertThat(partition.highWatermark()).isZero();
    }

    @Test
    void anAcksAllProduceWhosePartitionLosesLeadershipIsNotLeaderWithTheNewLeader() {
        lead(List.of(LOCAL, OTHER), 1, 1);
        CompletableFuture<Struct> pending = fx.call(produce, 11, produceRequest((short) -1, 30_000));
        await(() -> fx.log("replicated", 0).logEndOffset() == 1L);

        follow(2, 2);

        Struct response = pending.orTimeout(5, TimeUnit.SECONDS).join();
        Struct p = producePartition(response);
        assertThat(p.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(p.get(PartitionProduceResponse.CURRENT_LEADER).get(PartitionProduceResponse.LeaderIdAndEpoch.LEADER_ID))
                .isEqualTo(OTHER);
        assertThat(response.get(ProduceApi.Response.NODE_ENDPOINTS)).hasSize(1);
    }

    @Test
    void aSingleNodeRefusesAcksAllWhenMinInsyncReplicasIsAboveOne() {
        fx.createTopic("single", 1, Map.of("min.insync.replicas", "2"));
        fx.partitions.install(new Partition(fx.log("single", 0), 0, java.util.Set.of(),
                fx.partitions.writerFor("single", 0), fx.waiting));

        Struct request = produceRequest((short) -1, 30_000);
        request.get(ProduceApi.Request.TOPIC_DATA).get(0).set(ProduceApi.Request.TopicProduceData.NAME, "single");
        Struct p = producePartition(fx.callAndWait(produce, 9, request));

        assertThat(p.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.NOT_ENOUGH_REPLICAS.code());
        assertThat(p.get(PartitionProduceResponse.ERROR_MESSAGE)).isEqualTo("The size of the current ISR : 1 is "
                + "insufficient to satisfy the min.isr requirement of 2 for partition single-0, live replica(s) "
                + "broker.id are : [1]");
        assertThat(fx.log("single", 0).logEndOffset()).isZero();
    }

    // ------------------------------------------------------------------ fetch

    @Test
    void consumerFetchChecksTheLeaderEpoch() {
        lead(List.of(LOCAL, OTHER), 4, 4);

        assertThat(consumerFetchError(3)).isEqualTo(ErrorCode.FENCED_LEADER_EPOCH);
        assertThat(consumerFetchError(5)).isEqualTo(ErrorCode.UNKNOWN_LEADER_EPOCH);
        assertThat(consumerFetchError(4)).isEqualTo(ErrorCode.NONE);
        assertThat(consumerFetchError(-1)).isEqualTo(ErrorCode.NONE);
    }

    @Test
    void consumerFetchFromAFollowerIsNotLeaderWithTheLeaderOnV16() {
        follow(4, 4);

        Struct response = fx.callAndWait(fetch, 16, consumerFetch(4));

        Struct p = FetchHandlerTest.partition(response, 0, 0);
        assertThat(p.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(p.get(PartitionData.CURRENT_LEADER).get(PartitionData.LeaderIdAndEpoch.LEADER_ID)).isEqualTo(OTHER);
        assertThat(p.get(PartitionData.CURRENT_LEADER).get(PartitionData.LeaderIdAndEpoch.LEADER_EPOCH)).isEqualTo(4);
        assertThat(response.get(FetchApi.Response.NODE_ENDPOINTS)).extracting(n -> n.get(FetchApi.Response.NodeEndpoint.NODE_ID))
                .containsExactly(OTHER);
    }

    @Test
    void aParkedConsumerFetchAnswersWhenItsLeaderBecomesAFollower() {
        lead(List.of(LOCAL, OTHER), 1, 1);
        CompletableFuture<Struct> withEpoch = fx.call(fetch, 16, consumerFetch(1).set(FetchApi.Request.MAX_WAIT_MS, 10_000));
        CompletableFuture<Struct> withoutEpoch = fx.call(fetch, 16, consumerFetch(-1).set(FetchApi.Request.MAX_WAIT_MS, 10_000));
        assertThat(withEpoch).isNotDone();
        assertThat(withoutEpoch).isNotDone();

        follow(2, 2);

        // The epoch is checked first, as in Kafka: a consumer that named epoch 1 is fenced by epoch 2.
        Struct fenced = FetchHandlerTest.partition(withEpoch.orTimeout(5, TimeUnit.SECONDS).join(), 0, 0);
        assertThat(fenced.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.FENCED_LEADER_EPOCH.code());
        assertThat(fenced.get(PartitionData.CURRENT_LEADER).get(PartitionData.LeaderIdAndEpoch.LEADER_ID)).isEqualTo(OTHER);
        assertThat(fenced.get(PartitionData.CURRENT_LEADER).get(PartitionData.LeaderIdAndEpoch.LEADER_EPOCH)).isEqualTo(2);
        Struct notLeader = FetchHandlerTest.partition(withoutEpoch.orTimeout(5, TimeUnit.SECONDS).join(), 0, 0);
        assertThat(notLeader.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
    }

    @Test
    void aFollowerWhoseLogDivergedGetsTheEpochToTruncateToAndNoRecords() {
        lead(List.of(LOCAL, OTHER), 0, 0);
        fx.callAndWait(produce, 9, produceRequest((short) 1, 30_000)); // offset 0 at epoch 0
        lead(List.of(LOCAL, OTHER), 2, 2);
        fx.callAndWait(produce, 9, produceRequest((short) 1, 30_000)); // offset 1 at epoch 2

        // The follower wrote offsets 0-1 at epoch 1 (under a leader we never saw): our epoch 0 ended at 1.
        Struct response = fx.callAndWait(fetch, 16, followerFetch(2L, 1).set(FetchApi.Request.MAX_WAIT_MS, 10_000));

        Struct p = FetchHandlerTest.partition(response, 0, 0);
        assertThat(p.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(p.get(PartitionData.DIVERGING_EPOCH).get(PartitionData.EpochEndOffset.EPOCH)).isZero();
        assertThat(p.get(PartitionData.DIVERGING_EPOCH).get(PartitionData.EpochEndOffset.END_OFFSET)).isEqualTo(1L);
        assertThat(p.get(PartitionData.RECORDS).sizeInBytes()).isZero();
        assertThat(partition.highWatermark()).as("a diverging fetch records no state").isZero();
    }

    // ------------------------------------------------------------------ OffsetForLeaderEpoch

    @Test
    void offsetForLeaderEpochAnswersWhereEachEpochEnded() {
        lead(List.of(LOCAL, OTHER), 0, 0);
        fx.callAndWait(produce, 9, produceRequest((short) 1, 30_000));
        fx.callAndWait(produce, 9, produceRequest((short) 1, 30_000));
        lead(List.of(LOCAL, OTHER), 3, 3);
        fx.callAndWait(produce, 9, produceRequest((short) 1, 30_000));

        Struct request = OffsetForLeaderEpochHandlerTest.request(OTHER, "replicated", 0, 3, 0);
        OffsetForLeaderEpochHandlerTest.addTopic(request, "replicated", 0, 3, 2);
        OffsetForLeaderEpochHandlerTest.addTopic(request, "replicated", 0, 3, 3);
        OffsetForLeaderEpochHandlerTest.addTopic(request, "replicated", 0, 2, 3);

        assertThat(OffsetForLeaderEpochHandlerTest.answers(fx.callAndWait(offsetForLeaderEpoch, 4, request)))
                .containsExactly("replicated-0 NONE epoch 0 end 2", "replicated-0 NONE epoch 0 end 2",
                        "replicated-0 NONE epoch 3 end 3", "replicated-0 FENCED_LEADER_EPOCH epoch -1 end -1");
    }

    @Test
    void offsetForLeaderEpochOnAFollowerIsNotLeader() {
        follow(4, 4);

        assertThat(OffsetForLeaderEpochHandlerTest.answers(fx.callAndWait(offsetForLeaderEpoch, 4,
                OffsetForLeaderEpochHandlerTest.request(-1, "replicated", 0, 4, 0))))
                .containsExactly("replicated-0 NOT_LEADER_OR_FOLLOWER epoch -1 end -1");
    }

    // ------------------------------------------------------------------ helpers

    private ErrorCode consumerFetchError(int currentLeaderEpoch) {
        return ErrorCode.forCode(FetchHandlerTest.partition(fx.callAndWait(fetch, 16, consumerFetch(currentLeaderEpoch)), 0, 0)
                .get(PartitionData.ERROR_CODE));
    }

    private Struct consumerFetch(int currentLeaderEpoch) {
        Struct request = FetchHandlerTest.baseRequest(0, 1);
        request.add(FetchApi.Request.TOPICS).set(FetchApi.Request.FetchTopic.TOPIC_ID, topicId)
                .add(FetchApi.Request.FetchTopic.PARTITIONS)
                .set(FetchApi.Request.FetchTopic.FetchPartition.PARTITION, 0)
                .set(FetchApi.Request.FetchTopic.FetchPartition.CURRENT_LEADER_EPOCH, currentLeaderEpoch)
                .set(FetchApi.Request.FetchTopic.FetchPartition.FETCH_OFFSET, 0L)
                .set(FetchApi.Request.FetchTopic.FetchPartition.PARTITION_MAX_BYTES, 1 << 20);
        return request;
    }

    /** Broker 2's v16 fetch at {@code offset}, its last batch of epoch {@code lastFetchedEpoch} (-1: none). */
    private Struct followerFetch(long offset, int lastFetchedEpoch) {
        Struct request = FetchHandlerTest.baseRequest(0, 1);
        request.set(FetchApi.Request.REPLICA_STATE, FetchApi.Request.ReplicaState.SCHEMA.newStruct()
                .set(FetchApi.Request.ReplicaState.REPLICA_ID, OTHER)
                .set(FetchApi.Request.ReplicaState.REPLICA_EPOCH, BROKER_EPOCH));
        request.add(FetchApi.Request.TOPICS).set(FetchApi.Request.FetchTopic.TOPIC_ID, topicId)
                .add(FetchApi.Request.FetchTopic.PARTITIONS)
                .set(FetchApi.Request.FetchTopic.FetchPartition.PARTITION, 0)
                .set(FetchApi.Request.FetchTopic.FetchPartition.FETCH_OFFSET, offset)
                .set(FetchApi.Request.FetchTopic.FetchPartition.LAST_FETCHED_EPOCH, lastFetchedEpoch)
                .set(FetchApi.Request.FetchTopic.FetchPartition.PARTITION_MAX_BYTES, 1 << 20);
        return request;
    }

    private static Struct produceRequest(short acks, int timeoutMs) {
        return produceOneRecord("replicated", acks, timeoutMs);
    }

    private static Struct producePartition(Struct response) {
        return firstProducePartition(response);
    }

    /** A controller that records what it is asked and never answers (ISR changes stay pending). */
    static final class SilentController implements ControllerChannel {
        final List<ControllerCommand> submitted = new CopyOnWriteArrayList<>();

        @Override
        public CompletableFuture<CommandResult> submit(ControllerCommand command) {
            submitted.add(command);
            return new CompletableFuture<>();
        }

        @Override
        public CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat heartbeat) {
            return new CompletableFuture<>();
        }

        @Override
        public CompletableFuture<QuorumInfo> describeQuorum() {
            return new CompletableFuture<>();
        }

        @Override
        public ClusterImage image() {
            return ClusterImage.EMPTY;
        }

        @Override
        public void addListener(Consumer<ClusterImage> listener) {
        }

        @Override
        public void close() {
        }
    }
}
