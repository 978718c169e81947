package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.DataPathFixture.firstProducePartition;
import static io.odradek.broker.handlers.DataPathFixture.produceOneRecord;
import static io.odradek.broker.handlers.FetchHandlerTest.fetchRequest;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DescribeProducersApi;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.api.ListOffsetsApi;
import io.odradek.wire.api.OffsetForLeaderEpochApi;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse;
import io.odradek.wire.codec.ResponseEncoder;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.WireWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a client sees from the data-path handlers when this broker is not the partition's leader: the
 * partition "moved" lives in the cluster metadata only (no replica here) and is led by broker 2 at epoch 3,
 * and the follower side of Fetch (replica fetches), on real logs and the real partition layer.
 */
class LeadershipDataPathTest {
    static final int LEADER = 2;
    static final int LEADER_EPOCH = 3;

    @TempDir
    Path dir;
    DataPathFixture fx;
    ProduceHandler produce;
    FetchHandler fetch;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        produce = new ProduceHandler(fx, fx.partitions, fx.cluster);
        fetch = new FetchHandler(fx, fx.partitions, fx.cluster, FetchHandlerTest.FETCH_MAX_BYTES);
        fx.cluster.addBroker(DataPathClusterView.broker(LEADER, "broker-2.example", 9192, "rack-b", false));
        fx.cluster.addTopic("moved", UUID.randomUUID(), 1);
        fx.cluster.moveLeader("moved", 0, LEADER, LEADER_EPOCH);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    // ------------------------------------------------------------------ produce

    @Test
    void produceToAPartitionLedElsewhereNamesTheLeaderAndItsEndpoint() {
        Struct response = fx.callAndWait(produce, 10, produceRequest("moved", (short) -1));

        Struct p = producePartition(response);
        assertThat(p.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(p.get(PartitionProduceResponse.BASE_OFFSET)).isEqualTo(-1L);
        Struct leader = p.get(PartitionProduceResponse.CURRENT_LEADER);
        assertThat(leader.get(PartitionProduceResponse.LeaderIdAndEpoch.LEADER_ID)).isEqualTo(LEADER);
        assertThat(leader.get(PartitionProduceResponse.LeaderIdAndEpoch.LEADER_EPOCH)).isEqualTo(LEADER_EPOCH);
        assertThat(response.get(ProduceApi.Response.NODE_ENDPOINTS)).singleElement().satisfies(node -> {
            assertThat(node.get(ProduceApi.Response.NodeEndpoint.NODE_ID)).isEqualTo(LEADER);
            assertThat(node.get(ProduceApi.Response.NodeEndpoint.HOST)).isEqualTo("broker-2.example");
            assertThat(node.get(ProduceApi.Response.NodeEndpoint.PORT)).isEqualTo(9192);
            assertThat(node.get(ProduceApi.Response.NodeEndpoint.RACK)).isEqualTo("rack-b");
        });
    }

    @Test
    void kafkaReadsTheCurrentLeaderFieldsOfAProduceResponse() {
        Struct response = fx.callAndWait(produce, 10, produceRequest("moved", (short) 1));

        ProduceResponseData kafka = new ProduceResponseData(new ByteBufferAccessor(encode(ProduceApi.Response.SCHEMA,
                response, (short) 10, true)), (short) 10);

        ProduceResponseData.PartitionProduceResponse p = kafka.responses().iterator().next().partitionResponses().get(0);
        assertThat(p.errorCode()).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(p.currentLeader().leaderId()).isEqualTo(LEADER);
        assertThat(p.currentLeader().leaderEpoch()).isEqualTo(LEADER_EPOCH);
        assertThat(kafka.nodeEndpoints()).singleElement().satisfies(node -> {
            assertThat(node.nodeId()).isEqualTo(LEADER);
            assertThat(node.host()).isEqualTo("broker-2.example");
            assertThat(node.port()).isEqualTo(9192);
            assertThat(node.rack()).isEqualTo("rack-b");
        });
    }

    @Test
    void produceBeforeV10GetsNotLeaderWithoutLeaderFields() {
        Struct response = fx.callAndWait(produce, 9, produceRequest("moved", (short) 1));

        Struct p = producePartition(response);
        assertThat(p.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(p.get(PartitionProduceResponse.CURRENT_LEADER)).isNull();
        assertThat(response.get(ProduceApi.Response.NODE_ENDPOINTS)).isNullOrEmpty();
    }

    @Test
    void aFencedLeaderIsNamedButHasNoEndpoint() {
        fx.cluster.addBroker(DataPathClusterView.broker(LEADER, "broker-2.example", 9192, "rack-b", true));

        Struct response = fx.callAndWait(produce, 11, produceRequest("moved", (short) 1));

        Struct leader = producePartition(response).get(PartitionProduceResponse.CURRENT_LEADER);
        assertThat(leader.get(PartitionProduceResponse.LeaderIdAndEpoch.LEADER_ID)).isEqualTo(LEADER);
        assertThat(response.get(ProduceApi.Response.NODE_ENDPOINTS)).isNullOrEmpty();
    }

    @Test
    void aTopicNobodyKnowsIsStillUnknownTopicOrPartition() {
        Struct response = fx.callAndWait(produce, 10, produceRequest("nowhere", (short) 1));

        Struct p = producePartition(response);
        assertThat(p.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(p.get(PartitionProduceResponse.CURRENT_LEADER)).isNull();
    }

    // ------------------------------------------------------------------ consumer fetch

    @Test
    void consumerFetchFromABrokerWithoutTheReplicaNamesTheLeaderOnV16() {
        Struct response = fx.callAndWait(fetch, 16, fetchByIdRequest("moved", 0L));

        Struct p = FetchHandlerTest.partition(response, 0, 0);
        assertThat(p.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(p.get(PartitionData.HIGH_WATERMARK)).isEqualTo(-1L);
        assertThat(p.get(PartitionData.RECORDS).sizeInBytes()).isZero();
        Struct leader = p.get(PartitionData.CURRENT_LEADER);
        assertThat(leader.get(PartitionData.LeaderIdAndEpoch.LEADER_ID)).isEqualTo(LEADER);
        assertThat(leader.get(PartitionData.LeaderIdAndEpoch.LEADER_EPOCH)).isEqualTo(LEADER_EPOCH);
        assertThat(response.get(FetchApi.Response.NODE_ENDPOINTS)).singleElement().satisfies(node -> {
            assertThat(node.get(FetchApi.Response.NodeEndpoint.NODE_ID)).isEqualTo(LEADER);
            assertThat(node.get(FetchApi.Response.NodeEndpoint.HOST)).isEqualTo("broker-2.example");
            assertThat(node.get(FetchApi.Response.NodeEndpoint.PORT)).isEqualTo(9192);
            assertThat(node.get(FetchApi.Response.NodeEndpoint.RACK)).isEqualTo("rack-b");
        });
    }

    @Test
    void kafkaReadsTheCurrentLeaderFieldsOfAFetchResponse() {
        Struct response = fx.callAndWait(fetch, 17, fetchByIdRequest("moved", 0L));

        List<Object> parts = ResponseEncoder.encode(ByteBufAllocator.DEFAULT, FetchApi.SPEC, (short) 17, 5, response);
        ByteBuf frame = Unpooled.wrappedBuffer(parts.stream().map(part -> (ByteBuf) part).toArray(ByteBuf[]::new));
        ByteBuffer bytes = ByteBuffer.wrap(ByteBufUtil.getBytes(frame));
        frame.release();
        bytes.getInt(); // frame length
        bytes.getInt(); // correlation id
        bytes.get(); // no tagged fields in the response header
        FetchResponseData kafka = new FetchResponseData(new ByteBufferAccessor(bytes), (short) 17);

        FetchResponseData.PartitionData p = kafka.responses().get(0).partitions().get(0);
        assertThat(p.errorCode()).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(p.currentLeader().leaderId()).isEqualTo(LEADER);
        assertThat(p.currentLeader().leaderEpoch()).isEqualTo(LEADER_EPOCH);
        assertThat(kafka.nodeEndpoints()).singleElement().satisfies(node -> {
            assertThat(node.nodeId()).isEqualTo(LEADER);
            assertThat(node.host()).isEqualTo("broker-2.example");
            assertThat(node.port()).isEqualTo(9192);
            assertThat(node.rack()).isEqualTo("rack-b");
        });
    }

    @Test
    void consumerFetchBeforeV16GetsNotLeaderWithoutLeaderFieldsAsKafkaAnswers() {
        Struct response = fx.callAndWait(fetch, 12, fetchRequest(0, 1, "moved", 0, 0L));

        Struct p = FetchHandlerTest.partition(response, 0, 0);
        assertThat(p.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(p.get(PartitionData.CURRENT_LEADER)).isNull();
        assertThat(response.get(FetchApi.Response.NODE_ENDPOINTS)).isNullOrEmpty();
    }

    @Test
    void aParkedFetchIsAnsweredAtOnceWhenAnotherOfItsPartitionsIsNotLedHere() {
        fx.createTopic("orders", 1);
        Struct request = fetchRequest(10_000, 1, "orders", 0, 0L);
        FetchHandlerTest.addPartition(request.add(FetchApi.Request.TOPICS).set(FetchApi.Request.FetchTopic.TOPIC, "moved"),
                0, 0L);

        Struct response = fx.call(fetch, 12, request).orTimeout(5, java.util.concurrent.TimeUnit.SECONDS).join();

        assertThat(FetchHandlerTest.partition(response, 0, 0).get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(FetchHandlerTest.partition(response, 1, 0).get(PartitionData.ERROR_CODE))
                .isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
    }

    // ------------------------------------------------------------------ replica (follower) fetch

    @Test
    void followerFetchReadsPastTheHighWatermarkAndItsOffsetMovesTheHighWatermark() {
        fx.createTopicWithLaggingFollower("replicated", 1);
        fx.append("replicated", 0, 1L, "a");
        fx.append("replicated", 0, 1L, "b");
        assertThat(fx.partition("replicated", 0).highWatermark()).isZero();

        Struct first = fx.callAndWait(fetch, 12, fetchRequest(0, 1, "replicated", 0, 0L).set(FetchApi.Request.REPLICA_ID, 2));
        assertThat(DataPathFixture.records(FetchHandlerTest.records(first, 0, 0))).containsExactly("0:k-a=a", "1:k-b=b");
        assertThat(FetchHandlerTest.partition(first, 0, 0).get(PartitionData.HIGH_WATERMARK)).isZero();
        assertThat(FetchHandlerTest.partition(first, 0, 0).get(PartitionData.LOG_START_OFFSET)).isZero();

        // The follower's next fetch says it has both records: the high watermark moves, and this answer carries it.
        Struct second = fx.callAndWait(fetch, 12, fetchRequest(0, 1, "replicated", 0, 2L).set(FetchApi.Request.REPLICA_ID, 2));
        Struct p = FetchHandlerTest.partition(second, 0, 0);
        assertThat(p.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(p.get(PartitionData.HIGH_WATERMARK)).isEqualTo(2L);
        assertThat(p.get(PartitionData.LAST_STABLE_OFFSET)).isEqualTo(2L);
        assertThat(p.get(PartitionData.RECORDS).sizeInBytes()).isZero();
        assertThat(fx.partition("replicated", 0).highWatermark()).isEqualTo(2L);
    }

    @Test
    void v15FollowersNameThemselvesInReplicaState() {
        UUID id = fx.createTopicWithLaggingFollower("replicated", 1);
        fx.append("replicated", 0, 1L, "a", "b", "c");

        Struct request = fetchByIdRequest(id, 3L);
        request.set(FetchApi.Request.REPLICA_STATE, FetchApi.Request.ReplicaState.SCHEMA.newStruct()
                .set(FetchApi.Request.ReplicaState.REPLICA_ID, 2)
                .set(FetchApi.Request.ReplicaState.REPLICA_EPOCH, 41L));
        Struct response = fx.callAndWait(fetch, 16, request);

        assertThat(FetchHandlerTest.partition(response, 0, 0).get(PartitionData.HIGH_WATERMARK)).isEqualTo(3L);
        assertThat(fx.partition("replicated", 0).highWatermark()).isEqualTo(3L);
    }

    @Test
    void aConsumerFetchDoesNotCountAsAFollowerCatchingUp() {
        fx.createTopicWithLaggingFollower("replicated", 1);
        fx.append("replicated", 0, 1L, "a");

        Struct response = fx.callAndWait(fetch, 12, fetchRequest(0, 1, "replicated", 0, 1L));

        assertThat(FetchHandlerTest.partition(response, 0, 0).get(PartitionData.HIGH_WATERMARK)).isZero();
        assertThat(fx.partition("replicated", 0).highWatermark()).isZero();
    }

    @Test
    void aParkedFollowerFetchIsWokenByAnAppend() {
        fx.createTopicWithLaggingFollower("replicated", 1);
        fx.append("replicated", 0, 1L, "a");
        var pending = fx.call(fetch, 12, fetchRequest(10_000, 1, "replicated", 0, 1L).set(FetchApi.Request.REPLICA_ID, 2));
        assertThat(pending).isNotDone();

        fx.append("replicated", 0, 2L, "b");

        Struct response = pending.orTimeout(5, java.util.concurrent.TimeUnit.SECONDS).join();
        assertThat(DataPathFixture.records(FetchHandlerTest.records(response, 0, 0))).containsExactly("1:k-b=b");
        // The follower said it had offset 1 before the append: the high watermark is 1, not past "b".
        assertThat(FetchHandlerTest.partition(response, 0, 0).get(PartitionData.HIGH_WATERMARK)).isEqualTo(1L);
    }

    // ------------------------------------------------------------------ ListOffsets, DescribeProducers, OffsetForLeaderEpoch

    @Test
    void listOffsetsOfAPartitionLedElsewhereIsNotLeader() {
        Struct request = ListOffsetsApi.Request.SCHEMA.newStruct().set(ListOffsetsApi.Request.REPLICA_ID, -1)
                .set(ListOffsetsApi.Request.ISOLATION_LEVEL, (byte) 0);
        Struct topic = request.add(ListOffsetsApi.Request.TOPICS).set(ListOffsetsApi.Request.ListOffsetsTopic.NAME, "moved");
        topic.add(ListOffsetsApi.Request.ListOffsetsTopic.PARTITIONS)
                .set(ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition.PARTITION_INDEX, 0)
                .set(ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition.CURRENT_LEADER_EPOCH, LEADER_EPOCH)
                .set(ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition.TIMESTAMP, -1L);

        Struct response = fx.callAndWait(new ListOffsetsHandler(fx.partitions, fx.cluster), 7, request);

        Struct p = response.get(ListOffsetsApi.Response.TOPICS).get(0)
                .get(ListOffsetsApi.Response.ListOffsetsTopicResponse.PARTITIONS).get(0);
        assertThat(p.get(ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse.ERROR_CODE))
                .isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(p.get(ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse.OFFSET)).isEqualTo(-1L);
    }

    @Test
    void describeProducersOfAPartitionWithoutAReplicaHereIsNotLeader() {
        Struct request = DescribeProducersApi.Request.SCHEMA.newStruct();
        request.add(DescribeProducersApi.Request.TOPICS).set(DescribeProducersApi.Request.TopicRequest.NAME, "moved")
                .set(DescribeProducersApi.Request.TopicRequest.PARTITION_INDEXES, List.of(0));

        Struct response = fx.callAndWait(new DescribeProducersHandler(fx.partitions, fx.cluster), 0, request);

        Struct p = response.get(DescribeProducersApi.Response.TOPICS).get(0)
                .get(DescribeProducersApi.Response.TopicResponse.PARTITIONS).get(0);
        assertThat(p.get(DescribeProducersApi.Response.TopicResponse.PartitionResponse.ERROR_CODE))
                .isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(p.get(DescribeProducersApi.Response.TopicResponse.PartitionResponse.ACTIVE_PRODUCERS)).isEmpty();
    }

    @Test
    void offsetForLeaderEpochOfAPartitionLedElsewhereIsNotLeaderAndOfAnUnknownOneUnknown() {
        Struct request = OffsetForLeaderEpochHandlerTest.request(-1, "moved", 0, LEADER_EPOCH, 0);
        OffsetForLeaderEpochHandlerTest.addTopic(request, "nowhere", 0, -1, 0);

        Struct response = fx.callAndWait(new OffsetForLeaderEpochHandler(fx.partitions, fx.cluster), 4, request);

        assertThat(OffsetForLeaderEpochHandlerTest.answers(response))
                .containsExactly("moved-0 NOT_LEADER_OR_FOLLOWER epoch -1 end -1",
                        "nowhere-0 UNKNOWN_TOPIC_OR_PARTITION epoch -1 end -1");
    }

    // ------------------------------------------------------------------ helpers

    private static Struct produceRequest(String topic, short acks) {
        return produceOneRecord(topic, acks, 30_000);
    }

    private static Struct producePartition(Struct response) {
        return firstProducePartition(response);
    }

    private Struct fetchByIdRequest(String topic, long offset) {
        return fetchByIdRequest(fx.cluster.image().topic(topic).orElseThrow().id(), offset);
    }

    private static Struct fetchByIdRequest(UUID id, long offset) {
        Struct request = FetchHandlerTest.baseRequest(0, 1);
        FetchHandlerTest.addPartition(request.add(FetchApi.Request.TOPICS).set(FetchApi.Request.FetchTopic.TOPIC_ID, id),
                0, offset);
        return request;
    }

    private static ByteBuffer encode(io.odradek.wire.schema.Schema schema, Struct struct, short version, boolean flexible) {
        WireWriter out = new WireWriter(UnpooledByteBufAllocator.DEFAULT);
        schema.write(out, struct, version, flexible);
        ByteBuf buf = (ByteBuf) out.finish().get(0);
        byte[] bytes = ByteBufUtil.getBytes(buf);
        buf.release();
        return ByteBuffer.wrap(bytes);
    }
}
