package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.DataPathFixture.batch;
import static io.odradek.broker.handlers.DataPathFixture.transactionalBatch;
import static io.odradek.broker.handlers.DataPathFixture.wire;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DeleteRecordsApi;
import io.odradek.wire.api.DescribeProducersApi;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.api.ListOffsetsApi;
import io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic;
import io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition;
import io.odradek.wire.api.ListOffsetsApi.Response.ListOffsetsTopicResponse;
import io.odradek.wire.api.ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.api.ProduceApi.Request.TopicProduceData;
import io.odradek.wire.api.ProduceApi.Request.TopicProduceData.PartitionProduceData;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10: what Kafka 4.4's KafkaApis checks on the data path (Produce, Fetch, ListOffsets,
 * OffsetForLeaderEpoch, DeleteRecords, DescribeProducers), with a scripted authorizer: the exact error codes,
 * and that a refused partition is neither written nor read.
 */
class DataPathAuthorizationTest {
    @TempDir
    Path dir;
    DataPathFixture fx;
    ScriptedAuthorizer acls;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        fx.createTopic("orders", 1);
        fx.createTopic("payments", 1);
        acls = new ScriptedAuthorizer();
        fx.session = acls.session();
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    // ------------------------------------------------------------------ Produce

    @Test
    void produceWritesOnlyTopicsWithWriteAndRefusesTheOthersBeforeExistence() {
        acls.allowTopic(AclOperation.WRITE, "orders");
        Struct request = produceRequest(null);
        addProduce(request, "orders", wire(batch(1L, "a")));
        addProduce(request, "payments", wire(batch(1L, "b")));
        addProduce(request, "ghost", wire(batch(1L, "c")));

        Struct response = fx.callAndWait(new ProduceHandler(fx, fx.partitions, fx.cluster), 9, request);

        assertThat(produceErrors(response)).containsExactly(ErrorCode.NONE, ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                ErrorCode.TOPIC_AUTHORIZATION_FAILED);
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(1L);
        assertThat(fx.log("payments", 0).logEndOffset()).isZero();
    }

    @Test
    void invalidAcksAreAnsweredOnlyForPartitionsThatPassedAuthorization() {
        acls.allowTopic(AclOperation.WRITE, "orders");
        Struct request = produceRequest(null).set(ProduceApi.Request.ACKS, (short) 2);
        addProduce(request, "orders", wire(batch(1L, "a")));
        addProduce(request, "payments", wire(batch(1L, "b")));

        Struct response = fx.callAndWait(new ProduceHandler(fx, fx.partitions, fx.cluster), 9, request);

        assertThat(produceErrors(response)).containsExactly(ErrorCode.INVALID_REQUIRED_ACKS,
                ErrorCode.TOPIC_AUTHORIZATION_FAILED);
        assertThat(fx.log("orders", 0).logEndOffset()).isZero();
    }

    @Test
    void produceByTopicIdNamesAnUnknownIdBeforeAuthorization() {
        Struct request = produceRequest(null);
        request.add(ProduceApi.Request.TOPIC_DATA).set(TopicProduceData.TOPIC_ID, UUID.randomUUID())
                .add(TopicProduceData.PARTITION_DATA).set(PartitionProduceData.INDEX, 0)
                .set(PartitionProduceData.RECORDS, (Records) wire(batch(1L, "x")));
        request.add(ProduceApi.Request.TOPIC_DATA).set(TopicProduceData.TOPIC_ID, fx.topicId("orders").orElseThrow())
                .add(TopicProduceData.PARTITION_DATA).set(PartitionProduceData.INDEX, 0)
                .set(PartitionProduceData.RECORDS, (Records) wire(batch(1L, "y")));

        Struct response = fx.callAndWait(new ProduceHandler(fx, fx.partitions, fx.cluster), 13, request);

        assertThat(produceErrors(response)).containsExactly(ErrorCode.UNKNOWN_TOPIC_ID,
                ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    }

    @Test
    void transactionalProduceWithoutWriteOnTheTransactionalIdFailsEveryPartition() {
        acls.allowTopic(AclOperation.WRITE, "orders").allowTopic(AclOperation.WRITE, "payments");
        Struct request = produceRequest("tx-1");
        addProduce(request, "orders", wire(transactionalBatch(7L, (short) 0, 1L, "a")));
        addProduce(request, "payments", wire(batch(1L, "b")));

        Struct response = fx.callAndWait(new ProduceHandler(fx, fx.partitions, fx.cluster), 9, request);

        assertThat(produceErrors(response)).containsExactly(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
                ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(fx.log("orders", 0).logEndOffset()).isZero();
        assertThat(fx.log("payments", 0).logEndOffset()).isZero();
        assertThat(acls.asked).contains(new ScriptedAuthorizer.Grant(AclOperation.WRITE,
                ResourceType.TRANSACTIONAL_ID, "tx-1"));
    }

    @Test
    void transactionalProduceWithWriteOnTheTransactionalIdAppends() {
        acls.allowTopic(AclOperation.WRITE, "orders").allow(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, "tx-1");
        Struct request = produceRequest("tx-1");
        addProduce(request, "orders", wire(transactionalBatch(7L, (short) 0, 1L, "a")));

        Struct response = fx.callAndWait(new ProduceHandler(fx, fx.partitions, fx.cluster), 9, request);

        assertThat(produceErrors(response)).containsExactly(ErrorCode.NONE);
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(1L);
    }

    @Test
    void nonTransactionalProduceWithATransactionalIdDoesNotAskAboutIt() {
        acls.allowTopic(AclOperation.WRITE, "orders");
        Struct request = produceRequest("tx-1");
        addProduce(request, "orders", wire(batch(1L, "a")));

        Struct response = fx.callAndWait(new ProduceHandler(fx, fx.partitions, fx.cluster), 9, request);

        assertThat(produceErrors(response)).containsExactly(ErrorCode.NONE);
        assertThat(acls.asked).extracting(ScriptedAuthorizer.Grant::type).containsOnly(ResourceType.TOPIC);
    }

    // ------------------------------------------------------------------ Fetch

    @Test
    void consumerFetchReadsOnlyTopicsWithReadAndAnswersTheOthersAtOnce() {
        acls.allowTopic(AclOperation.READ, "orders");
        fx.append("orders", 0, 1L, "a");
        fx.append("payments", 0, 1L, "secret");
        Struct request = FetchHandlerTest.fetchRequest(0, 1, "orders", 0, 0);
        FetchHandlerTest.addPartition(request.add(FetchApi.Request.TOPICS)
                .set(FetchApi.Request.FetchTopic.TOPIC, "payments"), 0, 0);
        FetchHandlerTest.addPartition(request.add(FetchApi.Request.TOPICS)
                .set(FetchApi.Request.FetchTopic.TOPIC, "ghost"), 0, 0);

        Struct response = fx.callAndWait(fetchHandler(), 11, request);

        assertThat(fetchError(response, 0)).isEqualTo(ErrorCode.NONE);
        assertThat(DataPathFixture.records(FetchHandlerTest.records(response, 0, 0))).containsExactly("0:k-a=a");
        assertThat(fetchError(response, 1)).isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
        assertThat(FetchHandlerTest.partition(response, 1, 0).get(PartitionData.HIGH_WATERMARK)).isEqualTo(-1L);
        assertThat(DataPathFixture.records(FetchHandlerTest.records(response, 1, 0))).isEmpty();
        assertThat(fetchError(response, 2)).isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    }

    @Test
    void followerFetchWithoutClusterActionIsRefusedOnEveryPartition() {
        acls.allowTopic(AclOperation.READ, "orders");
        fx.append("orders", 0, 1L, "a");
        Struct request = FetchHandlerTest.fetchRequest(0, 1, "orders", 0, 0).set(FetchApi.Request.REPLICA_ID, 2);

        Struct response = fx.callAndWait(fetchHandler(), 11, request);

        assertThat(fetchError(response, 0)).isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
        assertThat(DataPathFixture.records(FetchHandlerTest.records(response, 0, 0))).isEmpty();
    }

    @Test
    void followerFetchWithClusterActionReadsToTheLogEndWithoutTopicAcls() {
        acls.allowCluster(AclOperation.CLUSTER_ACTION);
        fx.append("orders", 0, 1L, "a");
        Struct request = FetchHandlerTest.fetchRequest(0, 1, "orders", 0, 0).set(FetchApi.Request.REPLICA_ID, 2);

        Struct response = fx.callAndWait(fetchHandler(), 11, request);

        assertThat(fetchError(response, 0)).isEqualTo(ErrorCode.NONE);
        assertThat(DataPathFixture.records(FetchHandlerTest.records(response, 0, 0))).containsExactly("0:k-a=a");
        assertThat(acls.asked).extracting(ScriptedAuthorizer.Grant::type).containsOnly(ResourceType.CLUSTER);
    }

    @Test
    void aRefusedPartitionDoesNotCutALongPollShort() {
        acls.allowTopic(AclOperation.READ, "orders");
        Struct request = FetchHandlerTest.fetchRequest(60_000, 1, "orders", 0, 0);
        FetchHandlerTest.addPartition(request.add(FetchApi.Request.TOPICS)
                .set(FetchApi.Request.FetchTopic.TOPIC, "payments"), 0, 0);

        var pending = fx.call(fetchHandler(), 11, request);
        assertThat(pending).isNotDone();
        fx.append("orders", 0, 1L, "late");

        Struct response = pending.orTimeout(10, java.util.concurrent.TimeUnit.SECONDS).join();
        assertThat(DataPathFixture.records(FetchHandlerTest.records(response, 0, 0))).containsExactly("0:k-late=late");
        assertThat(fetchError(response, 1)).isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    }

    // ------------------------------------------------------------------ ListOffsets, OffsetForLeaderEpoch

    @Test
    void listOffsetsNeedsDescribeOnTheTopic() {
        acls.allowTopic(AclOperation.DESCRIBE, "orders");
        fx.append("orders", 0, 1L, "a", "b");
        Struct request = ListOffsetsApi.Request.SCHEMA.newStruct().set(ListOffsetsApi.Request.REPLICA_ID, -1)
                .set(ListOffsetsApi.Request.ISOLATION_LEVEL, (byte) 0);
        for (String topic : List.of("orders", "payments", "ghost")) {
            request.add(ListOffsetsApi.Request.TOPICS).set(ListOffsetsTopic.NAME, topic).add(ListOffsetsTopic.PARTITIONS)
                    .set(ListOffsetsPartition.PARTITION_INDEX, 0).set(ListOffsetsPartition.TIMESTAMP, -1L);
        }

        Struct response = fx.callAndWait(new ListOffsetsHandler(fx.partitions, fx.cluster), 7, request);

        List<Struct> answers = response.get(ListOffsetsApi.Response.TOPICS).stream()
                .map(t -> t.get(ListOffsetsTopicResponse.PARTITIONS).get(0)).toList();
        assertThat(answers).extracting(p -> ErrorCode.forCode(p.get(ListOffsetsPartitionResponse.ERROR_CODE)))
                .containsExactly(ErrorCode.NONE, ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                        ErrorCode.TOPIC_AUTHORIZATION_FAILED);
        assertThat(answers).extracting(p -> p.get(ListOffsetsPartitionResponse.OFFSET)).containsExactly(2L, -1L, -1L);
    }

    @Test
    void listOffsetsV0NeedsDescribeOnTheTopicToo() {
        Struct request = ListOffsetsApi.Request.SCHEMA.newStruct().set(ListOffsetsApi.Request.REPLICA_ID, -1);
        request.add(ListOffsetsApi.Request.TOPICS).set(ListOffsetsTopic.NAME, "orders").add(ListOffsetsTopic.PARTITIONS)
                .set(ListOffsetsPartition.PARTITION_INDEX, 0).set(ListOffsetsPartition.TIMESTAMP, -1L)
                .set(ListOffsetsPartition.MAX_NUM_OFFSETS, 1);

        Struct response = fx.callAndWait(new ListOffsetsHandler(fx.partitions, fx.cluster), 0, request);

        Struct p = response.get(ListOffsetsApi.Response.TOPICS).get(0).get(ListOffsetsTopicResponse.PARTITIONS).get(0);
        assertThat(p.get(ListOffsetsPartitionResponse.ERROR_CODE)).isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(p.get(ListOffsetsPartitionResponse.OLD_STYLE_OFFSETS)).isEmpty();
    }

    @Test
    void offsetForLeaderEpochNeedsDescribeOnTheTopicForConsumers() {
        acls.allowTopic(AclOperation.DESCRIBE, "orders");
        fx.append("orders", 0, 1L, "a");
        Struct request = OffsetForLeaderEpochHandlerTest.request(-1, "orders", 0, -1, 0);
        OffsetForLeaderEpochHandlerTest.addTopic(request, "payments", 0, -1, 0);

        Struct response = fx.callAndWait(new OffsetForLeaderEpochHandler(fx.partitions, fx.cluster), 4, request);

        assertThat(OffsetForLeaderEpochHandlerTest.answers(response)).containsExactly(
                "orders-0 NONE epoch 0 end 1", "payments-0 TOPIC_AUTHORIZATION_FAILED epoch -1 end -1");
    }

    @Test
    void offsetForLeaderEpochWithClusterActionAnswersEveryTopic() {
        acls.allowCluster(AclOperation.CLUSTER_ACTION);
        fx.append("payments", 0, 1L, "p");
        Struct request = OffsetForLeaderEpochHandlerTest.request(2, "payments", 0, -1, 0);

        Struct response = fx.callAndWait(new OffsetForLeaderEpochHandler(fx.partitions, fx.cluster), 4, request);

        assertThat(OffsetForLeaderEpochHandlerTest.answers(response)).containsExactly("payments-0 NONE epoch 0 end 1");
    }

    // ------------------------------------------------------------------ DeleteRecords, DescribeProducers

    @Test
    void deleteRecordsNeedsDeleteOnTheTopic() {
        acls.allowTopic(AclOperation.DELETE, "orders").allowTopic(AclOperation.DESCRIBE, "payments");
        fx.append("orders", 0, 1L, "a", "b");
        fx.append("payments", 0, 1L, "a", "b");
        Struct request = DeleteRecordsApi.Request.SCHEMA.newStruct().set(DeleteRecordsApi.Request.TIMEOUT_MS, 5000);
        for (String topic : List.of("orders", "payments")) {
            request.add(DeleteRecordsApi.Request.TOPICS).set(DeleteRecordsApi.Request.DeleteRecordsTopic.NAME, topic)
                    .add(DeleteRecordsApi.Request.DeleteRecordsTopic.PARTITIONS)
                    .set(DeleteRecordsApi.Request.DeleteRecordsTopic.DeleteRecordsPartition.PARTITION_INDEX, 0)
                    .set(DeleteRecordsApi.Request.DeleteRecordsTopic.DeleteRecordsPartition.OFFSET, 1L);
        }

        Struct response = fx.callAndWait(new DeleteRecordsHandler(fx.partitions, fx.cluster), 2, request);

        List<Struct> answers = response.get(DeleteRecordsApi.Response.TOPICS).stream()
                .map(t -> t.get(DeleteRecordsApi.Response.DeleteRecordsTopicResult.PARTITIONS).get(0)).toList();
        assertThat(answers).extracting(p -> ErrorCode.forCode(p.get(
                        DeleteRecordsApi.Response.DeleteRecordsTopicResult.DeleteRecordsPartitionResult.ERROR_CODE)))
                .containsExactly(ErrorCode.NONE, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
        assertThat(answers).extracting(p -> p.get(
                        DeleteRecordsApi.Response.DeleteRecordsTopicResult.DeleteRecordsPartitionResult.LOW_WATERMARK))
                .containsExactly(1L, -1L);
        assertThat(fx.log("orders", 0).logStartOffset()).isEqualTo(1L);
        assertThat(fx.log("payments", 0).logStartOffset()).isZero();
    }

    @Test
    void describeProducersNeedsReadOnTheTopic() {
        acls.allowTopic(AclOperation.DESCRIBE, "orders");
        Struct request = DescribeProducersApi.Request.SCHEMA.newStruct();
        request.add(DescribeProducersApi.Request.TOPICS).set(DescribeProducersApi.Request.TopicRequest.NAME, "orders")
                .set(DescribeProducersApi.Request.TopicRequest.PARTITION_INDEXES, List.of(0, 1));

        Struct response = fx.callAndWait(new DescribeProducersHandler(fx.partitions, fx.cluster), 0, request);

        List<Struct> partitions = response.get(DescribeProducersApi.Response.TOPICS).get(0)
                .get(DescribeProducersApi.Response.TopicResponse.PARTITIONS);
        assertThat(partitions).extracting(p -> p.get(DescribeProducersApi.Response.TopicResponse.PartitionResponse.ERROR_CODE))
                .containsExactly(ErrorCode.TOPIC_AUTHORIZATION_FAILED.code(), ErrorCode.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(partitions).extracting(p -> p.get(DescribeProducersApi.Response.TopicResponse.PartitionResponse.ERROR_MESSAGE))
                .containsOnly("Topic authorization failed.");
    }

    // ------------------------------------------------------------------ helpers

    private FetchHandler fetchHandler() {
        return new FetchHandler(fx, fx.partitions, fx.cluster, FetchHandlerTest.FETCH_MAX_BYTES);
    }

    private static ErrorCode fetchError(Struct response, int topic) {
        return ErrorCode.forCode(FetchHandlerTest.partition(response, topic, 0).get(PartitionData.ERROR_CODE));
    }

    private static Struct produceRequest(String transactionalId) {
        return ProduceApi.Request.SCHEMA.newStruct().set(ProduceApi.Request.ACKS, (short) 1)
                .set(ProduceApi.Request.TIMEOUT_MS, 30_000).set(ProduceApi.Request.TRANSACTIONAL_ID, transactionalId);
    }

    private static void addProduce(Struct request, String topic, Records records) {
        request.add(ProduceApi.Request.TOPIC_DATA).set(TopicProduceData.NAME, topic)
                .add(TopicProduceData.PARTITION_DATA).set(PartitionProduceData.INDEX, 0)
                .set(PartitionProduceData.RECORDS, records);
    }

    private static List<ErrorCode> produceErrors(Struct response) {
        return response.get(ProduceApi.Response.RESPONSES).stream()
                .flatMap(t -> t.get(TopicProduceResponse.PARTITION_RESPONSES).stream())
                .map(p -> ErrorCode.forCode(p.get(PartitionProduceResponse.ERROR_CODE)))
                .toList();
    }
}
