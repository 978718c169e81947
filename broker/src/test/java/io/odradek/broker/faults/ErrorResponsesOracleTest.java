package io.odradek.broker.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.Apis;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.WireWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * issue 11 (faults): Kafka 4.4's own {@code AbstractRequest.getErrorResponse} is the oracle for our error responses.
 * A request is written with Kafka's message classes, read by both sides; Kafka builds its error response, we build
 * ours and encode it with our codec, Kafka's classes decode it, and the two must be equal field by field (error
 * messages aside: we send none, Kafka copies the exception's).
 */
class ErrorResponsesOracleTest {
    private static final Uuid TOPIC_ID = Uuid.fromString("b3eSeNmGRrSoE5xEXM7Q1Q");

    static Stream<Arguments> requests() {
        List<Arguments> cases = new ArrayList<>();
        add(cases, ApiKeys.PRODUCE, Errors.NOT_LEADER_OR_FOLLOWER, ErrorResponsesOracleTest::produce, 3, 5, 8, 9, 12, 13);
        add(cases, ApiKeys.FETCH, Errors.NOT_LEADER_OR_FOLLOWER, ErrorResponsesOracleTest::fetch, 4, 6, 7, 11, 12, 13, 17, 18);
        add(cases, ApiKeys.LIST_OFFSETS, Errors.NOT_LEADER_OR_FOLLOWER, ErrorResponsesOracleTest::listOffsets, 1, 4, 6, 10);
        add(cases, ApiKeys.METADATA, Errors.LEADER_NOT_AVAILABLE, ErrorResponsesOracleTest::metadata, 0, 1, 4, 9, 10, 12, 13);
        add(cases, ApiKeys.METADATA, Errors.LEADER_NOT_AVAILABLE, v -> new MetadataRequestData().setTopics(
                v == 0 ? List.of() : null), 0, 1, 9, 13);
        add(cases, ApiKeys.OFFSET_FOR_LEADER_EPOCH, Errors.NOT_LEADER_OR_FOLLOWER,
                ErrorResponsesOracleTest::offsetForLeaderEpoch, 2, 3, 4);
        add(cases, ApiKeys.FIND_COORDINATOR, Errors.COORDINATOR_NOT_AVAILABLE,
                ErrorResponsesOracleTest::findCoordinator, 0, 1, 2, 3, 4, 6);
        add(cases, ApiKeys.JOIN_GROUP, Errors.COORDINATOR_NOT_AVAILABLE, ErrorResponsesOracleTest::joinGroup, 0, 2, 5, 6, 7, 9);
        add(cases, ApiKeys.SYNC_GROUP, Errors.REBALANCE_IN_PROGRESS, ErrorResponsesOracleTest::syncGroup, 0, 3, 4, 5);
        add(cases, ApiKeys.HEARTBEAT, Errors.COORDINATOR_NOT_AVAILABLE, v -> new HeartbeatRequestData()
                .setGroupId("g").setGenerationId(3).setMemberId("m"), 0, 1, 3, 4);
        add(cases, ApiKeys.LEAVE_GROUP, Errors.NOT_COORDINATOR, ErrorResponsesOracleTest::leaveGroup, 0, 2, 3, 5);
        add(cases, ApiKeys.OFFSET_COMMIT, Errors.COORDINATOR_NOT_AVAILABLE, ErrorResponsesOracleTest::offsetCommit, 2, 5, 7, 8, 9, 10);
        add(cases, ApiKeys.OFFSET_FETCH, Errors.COORDINATOR_LOAD_IN_PROGRESS, ErrorResponsesOracleTest::offsetFetch, 1, 2, 5, 7, 8, 9, 10);
        add(cases, ApiKeys.DESCRIBE_GROUPS, Errors.COORDINATOR_NOT_AVAILABLE, v -> new DescribeGroupsRequestData()
                .setGroups(List.of("g1", "g2")), 0, 3, 5, 6);
        add(cases, ApiKeys.LIST_GROUPS, Errors.COORDINATOR_NOT_AVAILABLE, v -> new ListGroupsRequestData(), 0, 3, 4, 5);
        add(cases, ApiKeys.CONSUMER_GROUP_HEARTBEAT, Errors.COORDINATOR_NOT_AVAILABLE, v -> new ConsumerGroupHeartbeatRequestData()
                .setGroupId("g").setMemberId("m").setMemberEpoch(0).setSubscribedTopicNames(List.of("t")), 0, 1);
        add(cases, ApiKeys.INIT_PRODUCER_ID, Errors.COORDINATOR_NOT_AVAILABLE, v -> new InitProducerIdRequestData()
                .setTransactionalId(null).setTransactionTimeoutMs(60000), 0, 2, 4, 5);
        add(cases, ApiKeys.ADD_PARTITIONS_TO_TXN, Errors.CONCURRENT_TRANSACTIONS,
                ErrorResponsesOracleTest::addPartitionsToTxn, 0, 2, 3, 4, 5);
        add(cases, ApiKeys.ADD_OFFSETS_TO_TXN, Errors.CONCURRENT_TRANSACTIONS, v -> new AddOffsetsToTxnRequestData()
                .setTransactionalId("tx").setProducerId(7).setProducerEpoch((short) 1).setGroupId("g"), 0, 3, 4);
        add(cases, ApiKeys.END_TXN, Errors.CONCURRENT_TRANSACTIONS, v -> new EndTxnRequestData()
                .setTransactionalId("tx").setProducerId(7).setProducerEpoch((short) 1).setCommitted(true), 0, 3, 5);
        add(cases, ApiKeys.TXN_OFFSET_COMMIT, Errors.COORDINATOR_NOT_AVAILABLE,
                ErrorResponsesOracleTest::txnOffsetCommit, 0, 2, 3, 5);
        add(cases, ApiKeys.CREATE_TOPICS, Errors.NOT_CONTROLLER, v -> new CreateTopicsRequestData()
                .setTopics(new CreateTopicsRequestData.CreatableTopicCollection(List.of(
                        new CreateTopicsRequestData.CreatableTopic().setName("t1").setNumPartitions(3)
                                .setReplicationFactor((short) 1),
                        new CreateTopicsRequestData.CreatableTopic().setName("t2").setNumPartitions(-1)
                                .setReplicationFactor((short) -1)).iterator())), 2, 4, 5, 7);
        add(cases, ApiKeys.DELETE_TOPICS, Errors.NOT_CONTROLLER, ErrorResponsesOracleTest::deleteTopics, 1, 4, 5, 6);
        add(cases, ApiKeys.DESCRIBE_CONFIGS, Errors.REQUEST_TIMED_OUT, v -> new DescribeConfigsRequestData()
                .setResources(List.of(new DescribeConfigsRequestData.DescribeConfigsResource()
                        .setResourceType((byte) 2).setResourceName("t").setConfigurationKeys(null))), 1, 3, 4);
        add(cases, ApiKeys.API_VERSIONS, Errors.UNSUPPORTED_VERSION, v -> new ApiVersionsRequestData()
                .setClientSoftwareName(v >= 3 ? "x" : "").setClientSoftwareVersion(v >= 3 ? "1" : ""), 0, 2, 3, 4);
        add(cases, ApiKeys.API_VERSIONS, Errors.CLUSTER_AUTHORIZATION_FAILED, v -> new ApiVersionsRequestData(), 1);
        return cases.stream();
    }

    private static void add(List<Arguments> cases, ApiKeys api, Errors error, Function<Short, ApiMessage> request,
            int... versions) {
        for (int v : versions) {
            cases.add(Arguments.of(api, (short) v, error, request.apply((short) v)));
        }
    }

    @ParameterizedTest(name = "{0} v{1} {2}")
    @MethodSource("requests")
    void errorResponseIsKafkas(ApiKeys api, short version, Errors error, ApiMessage request) {
        ByteBuffer bytes = MessageUtil.toByteBufferAccessor(request, version).buffer();

        AbstractRequest kafkaRequest = AbstractRequest.parseRequest(api, version,
                new ByteBufferAccessor(bytes.duplicate())).request;
        AbstractResponse kafkasBuilt = kafkaRequest.getErrorResponse(0, error.exception());
        // As a client sees it: written at the version (fields the version lacks are not sent) and read back.
        AbstractResponse kafkas = kafkasBuilt == null ? null : AbstractResponse.parseResponse(api,
                MessageUtil.toByteBufferAccessor(kafkasBuilt.data(), version), version);

        ApiSpec spec = Apis.forKey(api.id);
        Struct ours = ErrorResponses.build(spec, version,
                spec.request().read(Unpooled.wrappedBuffer(bytes.duplicate()), version, spec.isFlexible(version)),
                error.code());
        if (kafkas == null) {
            assertThat(ours).isNull();
            return;
        }
        AbstractResponse oursAsKafkaReadsIt = AbstractResponse.parseResponse(api,
                new ByteBufferAccessor(encode(spec, version, ours)), version);
        assertThat(withoutMessages(oursAsKafkaReadsIt.data().toString()))
                .isEqualTo(withoutMessages(kafkas.data().toString()));
    }

    private static ByteBuffer encode(ApiSpec spec, short version, Struct response) {
        WireWriter out = new WireWriter(UnpooledByteBufAllocator.DEFAULT);
        spec.response().write(out, response, version, spec.isFlexible(version));
        ByteBuf all = Unpooled.buffer();
        for (Object part : out.finish()) {
            ByteBuf buf = (ByteBuf) part;
            all.writeBytes(buf);
            buf.release();
        }
        byte[] bytes = new byte[all.readableBytes()];
        all.readBytes(bytes);
        return ByteBuffer.wrap(bytes);
    }

    /** Error message fields hold Kafka's exception text on its side, nothing on ours; buffer capacities differ. */
    private static String withoutMessages(String data) {
        return data.replaceAll("(?i)(errorMessage)=(null|'[^']*')", "$1=_").replaceAll(" cap=\\d+", "");
    }

    private static ApiMessage produce(short v) {
        ProduceRequestData.TopicProduceData topic = new ProduceRequestData.TopicProduceData()
                .setPartitionData(List.of(
                        new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(MemoryRecords.EMPTY),
                        new ProduceRequestData.PartitionProduceData().setIndex(2).setRecords(MemoryRecords.EMPTY)));
        if (v >= 13) {
            topic.setTopicId(TOPIC_ID);
        } else {
            topic.setName("orders");
        }
        return new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30000)
                .setTopicData(new ProduceRequestData.TopicProduceDataCollection(List.of(topic).iterator()));
    }

    private static ApiMessage fetch(short v) {
        FetchRequestData.FetchTopic topic = new FetchRequestData.FetchTopic().setPartitions(List.of(
                new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(5).setPartitionMaxBytes(1024),
                new FetchRequestData.FetchPartition().setPartition(1).setFetchOffset(9).setPartitionMaxBytes(1024)));
        if (v >= 13) {
            topic.setTopicId(TOPIC_ID);
        } else {
            topic.setTopic("orders");
        }
        FetchRequestData data = new FetchRequestData().setMaxWaitMs(500).setMinBytes(1).setTopics(List.of(topic));
        if (v >= 7) {
            data.setSessionId(42).setSessionEpoch(3);
        }
        if (v < 15) {
            data.setReplicaId(-1);
        }
        return data;
    }

    private static ApiMessage listOffsets(short v) {
        return new ListOffsetsRequestData().setReplicaId(-1).setTopics(List.of(new ListOffsetsRequestData.ListOffsetsTopic()
                .setName("orders").setPartitions(List.of(
                        new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0).setTimestamp(-1),
                        new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(1).setTimestamp(-2)))));
    }

    private static ApiMessage metadata(short v) {
        List<MetadataRequestData.MetadataRequestTopic> topics = new ArrayList<>();
        topics.add(new MetadataRequestData.MetadataRequestTopic().setName("orders"));
        topics.add(new MetadataRequestData.MetadataRequestTopic().setName("payments"));
        if (v >= 12) {
            topics.add(new MetadataRequestData.MetadataRequestTopic().setName(null).setTopicId(TOPIC_ID));
        }
        MetadataRequestData data = new MetadataRequestData().setTopics(topics);
        if (v >= 4) {
            data.setAllowAutoTopicCreation(false);
        }
        return data;
    }

    private static ApiMessage offsetForLeaderEpoch(short v) {
        OffsetForLeaderEpochRequestData.OffsetForLeaderTopic topic = new OffsetForLeaderEpochRequestData.OffsetForLeaderTopic()
                .setTopic("orders").setPartitions(List.of(
                        new OffsetForLeaderEpochRequestData.OffsetForLeaderPartition().setPartition(0).setLeaderEpoch(2),
                        new OffsetForLeaderEpochRequestData.OffsetForLeaderPartition().setPartition(3).setLeaderEpoch(1)));
        return new OffsetForLeaderEpochRequestData().setTopics(
                new OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection(List.of(topic).iterator()));
    }

    private static ApiMessage findCoordinator(short v) {
        FindCoordinatorRequestData data = new FindCoordinatorRequestData();
        if (v >= 4) {
            data.setCoordinatorKeys(List.of("group-a", "group-b"));
        } else {
            data.setKey("group-a");
        }
        return data;
    }

    private static ApiMessage joinGroup(short v) {
        return new JoinGroupRequestData().setGroupId("g").setSessionTimeoutMs(10000).setRebalanceTimeoutMs(v >= 1 ? 30000 : -1)
                .setMemberId("").setProtocolType("consumer")
                .setProtocols(new JoinGroupRequestData.JoinGroupRequestProtocolCollection(List.of(
                        new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range")
                                .setMetadata(new byte[] {1, 2})).iterator()));
    }

    private static ApiMessage syncGroup(short v) {
        SyncGroupRequestData data = new SyncGroupRequestData().setGroupId("g").setGenerationId(1).setMemberId("m")
                .setAssignments(List.of(new SyncGroupRequestData.SyncGroupRequestAssignment().setMemberId("m")
                        .setAssignment(new byte[] {9})));
        if (v >= 5) {
            data.setProtocolType("consumer").setProtocolName("range");
        }
        return data;
    }

    private static ApiMessage leaveGroup(short v) {
        LeaveGroupRequestData data = new LeaveGroupRequestData().setGroupId("g");
        if (v >= 3) {
            data.setMembers(List.of(new LeaveGroupRequestData.MemberIdentity().setMemberId("m1"),
                    new LeaveGroupRequestData.MemberIdentity().setMemberId("m2")));
        } else {
            data.setMemberId("m1");
        }
        return data;
    }

    private static ApiMessage offsetCommit(short v) {
        OffsetCommitRequestData.OffsetCommitRequestTopic topic = new OffsetCommitRequestData.OffsetCommitRequestTopic()
                .setPartitions(List.of(
                        new OffsetCommitRequestData.OffsetCommitRequestPartition().setPartitionIndex(0).setCommittedOffset(10),
                        new OffsetCommitRequestData.OffsetCommitRequestPartition().setPartitionIndex(4).setCommittedOffset(7)));
        if (v >= 10) {
            topic.setTopicId(TOPIC_ID);
        } else {
            topic.setName("orders");
        }
        return new OffsetCommitRequestData().setGroupId("g").setGenerationIdOrMemberEpoch(1).setMemberId("m")
                .setTopics(List.of(topic));
    }

    private static ApiMessage offsetFetch(short v) {
        if (v >= 8) {
            OffsetFetchRequestData.OffsetFetchRequestTopics topic = new OffsetFetchRequestData.OffsetFetchRequestTopics()
                    .setPartitionIndexes(List.of(0, 1));
            if (v >= 10) {
                topic.setTopicId(TOPIC_ID);
            } else {
                topic.setName("orders");
            }
            return new OffsetFetchRequestData().setGroups(List.of(
                    new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("g1").setTopics(List.of(topic)),
                    new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("g2").setTopics(null)));
        }
        return new OffsetFetchRequestData().setGroupId("g").setTopics(List.of(
                new OffsetFetchRequestData.OffsetFetchRequestTopic().setName("orders").setPartitionIndexes(List.of(0, 3))));
    }

    private static ApiMessage addPartitionsToTxn(short v) {
        AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection topics =
                new AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection(List.of(
                        new AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic().setName("orders")
                                .setPartitions(List.of(0, 1))).iterator());
        if (v >= 4) {
            return new AddPartitionsToTxnRequestData().setTransactions(
                    new AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection(List.of(
                            new AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction().setTransactionalId("tx")
                                    .setProducerId(7).setProducerEpoch((short) 1).setTopics(topics)).iterator()));
        }
        return new AddPartitionsToTxnRequestData().setV3AndBelowTransactionalId("tx").setV3AndBelowProducerId(7)
                .setV3AndBelowProducerEpoch((short) 1).setV3AndBelowTopics(topics);
    }

    private static ApiMessage txnOffsetCommit(short v) {
        TxnOffsetCommitRequestData data = new TxnOffsetCommitRequestData().setTransactionalId("tx").setGroupId("g")
                .setProducerId(7).setProducerEpoch((short) 1).setTopics(List.of(
                        new TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic().setName("orders").setPartitions(List.of(
                                new TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition().setPartitionIndex(2)
                                        .setCommittedOffset(5)))));
        if (v >= 3) {
            data.setGenerationIdOrMemberEpoch(1).setMemberId("m");
        }
        return data;
    }

    private static ApiMessage deleteTopics(short v) {
        if (v >= 6) {
            return new DeleteTopicsRequestData().setTimeoutMs(1000).setTopics(List.of(
                    new DeleteTopicsRequestData.DeleteTopicState().setName("orders"),
                    new DeleteTopicsRequestData.DeleteTopicState().setName(null).setTopicId(TOPIC_ID)));
        }
        return new DeleteTopicsRequestData().setTimeoutMs(1000).setTopicNames(List.of("orders", "payments"));
    }
}
