package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.DataPathFixture.await;
import static io.odradek.broker.handlers.DataPathFixture.batch;
import static io.odradek.broker.handlers.DataPathFixture.concat;
import static io.odradek.broker.handlers.DataPathFixture.wire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.Promise;
import io.odradek.log.FileSlice;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ProduceApi.Request;
import io.odradek.wire.api.ProduceApi.Request.TopicProduceData;
import io.odradek.wire.api.ProduceApi.Request.TopicProduceData.PartitionProduceData;
import io.odradek.wire.api.ProduceApi.Response;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.compress.Compression;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProduceHandlerTest {
    @TempDir
    Path dir;
    DataPathFixture fx;
    ProduceHandler handler;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        handler = new ProduceHandler(fx, fx.partitions, fx.cluster);
        fx.createTopic("orders", 2);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void appendsBatchesAndReturnsTheirBaseOffsets() {
        Struct first = produce(9, (short) -1, null, "orders", 0, wire(batch(1000L, "a", "b", "c")));
        Struct second = produce(9, (short) 1, null, "orders", 0, wire(batch(1001L, "d")));

        assertThat(partition(first).get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(partition(first).get(PartitionProduceResponse.BASE_OFFSET)).isZero();
        assertThat(partition(first).get(PartitionProduceResponse.LOG_APPEND_TIME_MS)).isEqualTo(-1L);
        assertThat(partition(first).get(PartitionProduceResponse.LOG_START_OFFSET)).isZero();
        assertThat(partition(first).get(PartitionProduceResponse.RECORD_ERRORS)).isEmpty();
        assertThat(partition(second).get(PartitionProduceResponse.BASE_OFFSET)).isEqualTo(3L);
        assertThat(first.get(Response.RESPONSES).get(0).get(TopicProduceResponse.NAME)).isEqualTo("orders");

        FileSlice slice = fx.log("orders", 0).read(0, 1 << 20);
        assertThat(DataPathFixture.records(new io.odradek.broker.fetch.FileSliceRecords(slice)))
                .containsExactly("0:k-a=a", "1:k-b=b", "2:k-c=c", "3:k-d=d");
    }

    @Test
    void logAppendTimeTopicsReportTheBrokerTimestamp() {
        fx.createTopic("stamped", 1, Map.of("message.timestamp.type", "LogAppendTime"));
        long before = System.currentTimeMillis();
        Struct response = produce(9, (short) 1, null, "stamped", 0, wire(batch(5L, "x")));
        assertThat(partition(response).get(PartitionProduceResponse.LOG_APPEND_TIME_MS)).isBetween(before,
                System.currentTimeMillis());
    }

    @Test
    void v13AddressesTopicsById() {
        UUID id = fx.topicId("orders").orElseThrow();
        Struct request = request((short) -1, null);
        Struct topic = request.add(Request.TOPIC_DATA).set(TopicProduceData.TOPIC_ID, id);
        topic.add(TopicProduceData.PARTITION_DATA).set(PartitionProduceData.INDEX, 1)
                .set(PartitionProduceData.RECORDS, wire(batch(1L, "by-id")));
        Struct unknown = request.add(Request.TOPIC_DATA).set(TopicProduceData.TOPIC_ID, UUID.randomUUID());
        unknown.add(TopicProduceData.PARTITION_DATA).set(PartitionProduceData.INDEX, 0)
                .set(PartitionProduceData.RECORDS, wire(batch(1L, "lost")));

        Struct response = fx.callAndWait(handler, 13, request);

        List<Struct> topics = response.get(Response.RESPONSES);
        assertThat(topics.get(0).get(TopicProduceResponse.TOPIC_ID)).isEqualTo(id);
        assertThat(errorOf(topics.get(0))).isEqualTo(ErrorCode.NONE);
        assertThat(fx.log("orders", 1).logEndOffset()).isEqualTo(1L);
        assertThat(errorOf(topics.get(1))).isEqualTo(ErrorCode.UNKNOWN_TOPIC_ID);
    }

    @Test
    void unknownTopicOrPartitionIsNotCreated() {
        assertThat(error(produce(9, (short) 1, null, "nope", 0, wire(batch(1L, "x")))))
                .isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(error(produce(9, (short) 1, null, "orders", 7, wire(batch(1L, "x")))))
                .isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(fx.partitionLog("nope", 0)).isEmpty();
    }

    @Test
    void invalidAcksFailEveryPartition() {
        Struct response = produce(9, (short) 2, null, "orders", 0, wire(batch(1L, "x")));
        assertThat(error(response)).isEqualTo(ErrorCode.INVALID_REQUIRED_ACKS);
        assertThat(partition(response).get(PartitionProduceResponse.BASE_OFFSET)).isEqualTo(-1L);
        assertThat(fx.log("orders", 0).logEndOffset()).isZero();
    }

    @Test
    void nullOrEmptyRecordsAreInvalid() {
        assertThat(error(produce(9, (short) 1, null, "orders", 0, null))).isEqualTo(ErrorCode.INVALID_RECORD);
        Struct empty = produce(9, (short) 1, null, "orders", 0, wire(ByteBuffer.allocate(0)));
        assertThat(error(empty)).isEqualTo(ErrorCode.INVALID_RECORD);
        assertThat(partition(empty).get(PartitionProduceResponse.ERROR_MESSAGE)).contains("at least one record batch");
    }

    @Test
    void twoBatchesInOnePartitionAreInvalid() {
        Struct response = produce(9, (short) 1, null, "orders", 0,
                wire(concat(batch(1L, "a"), batch(2L, "b"))));
        assertThat(error(response)).isEqualTo(ErrorCode.INVALID_RECORD);
        assertThat(partition(response).get(PartitionProduceResponse.ERROR_MESSAGE)).contains("exactly one record batch");
        assertThat(fx.log("orders", 0).logEndOffset()).isZero();
    }

    @Test
    void wrongMagicIsInvalid() {
        ByteBuffer b = batch(1L, "a");
        b.put(16, (byte) 1);
        assertThat(error(produce(9, (short) 1, null, "orders", 0, wire(b)))).isEqualTo(ErrorCode.INVALID_RECORD);
    }

    @Test
    void zstdNeedsVersion7() {
        ByteBuffer zstd = DataPathFixture.compressedBatch(Compression.zstd().build(), 1L, "squeezed");
        assertThat(error(produce(6, (short) 1, null, "orders", 0, wire(zstd))))
                .isEqualTo(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE);
        assertThat(error(produce(7, (short) 1, null, "orders", 0, wire(zstd)))).isEqualTo(ErrorCode.NONE);
    }

    @Test
    void aCorruptBatchIsRejectedByTheLogWithItsMessage() {
        ByteBuffer b = batch(1L, "a", "b");
        b.put(b.limit() - 1, (byte) (b.get(b.limit() - 1) ^ 0xff)); // breaks the CRC
        Struct response = produce(9, (short) 1, null, "orders", 0, wire(b));
        assertThat(error(response)).isEqualTo(ErrorCode.CORRUPT_MESSAGE);
        assertThat(partition(response).get(PartitionProduceResponse.ERROR_MESSAGE)).contains("CRC");
        assertThat(fx.log("orders", 0).logEndOffset()).isZero();
    }

    @Test
    void aBatchOverMaxMessageBytesIsTooLarge() {
        fx.createTopic("small", 1, Map.of("max.message.bytes", "200"));
        Struct response = produce(9, (short) 1, null, "small", 0, wire(batch(1L, "x".repeat(500))));
        assertThat(error(response)).isEqualTo(ErrorCode.MESSAGE_TOO_LARGE);
    }

    @Test
    void idempotentRetriesGetTheOriginalOffsetAndGapsAreOutOfOrder() {
        ByteBuffer first = DataPathFixture.idempotentBatch(42L, (short) 0, 0, 1L, "a", "b");
        assertThat(partition(produce(9, (short) -1, null, "orders", 0, wire(first)))
                .get(PartitionProduceResponse.BASE_OFFSET)).isZero();
        Struct retry = produce(9, (short) -1, null, "orders", 0, wire(first));
        assertThat(error(retry)).isEqualTo(ErrorCode.NONE);
        assertThat(partition(retry).get(PartitionProduceResponse.BASE_OFFSET)).isZero();
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(2L);

        ByteBuffer gap = DataPathFixture.idempotentBatch(42L, (short) 0, 5, 1L, "z");
        assertThat(error(produce(9, (short) -1, null, "orders", 0, wire(gap))))
                .isEqualTo(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
    }

    @Test
    void transactionalBatchesNeedATransactionalId() {
        ByteBuffer txn = DataPathFixture.transactionalBatch(7L, (short) 0, 1L, "t");
        Struct withoutId = produce(9, (short) -1, null, "orders", 0, wire(txn));
        assertThat(error(withoutId)).isEqualTo(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(fx.log("orders", 0).logEndOffset()).isZero();

        // A transactional id with plain batches is appended, as in Kafka.
        assertThat(error(produce(9, (short) -1, "my-txn", "orders", 0, wire(batch(1L, "plain")))))
                .isEqualTo(ErrorCode.NONE);
    }

    @Test
    void internalTopicsTakeNoClientWrites() {
        fx.createTopic("__consumer_offsets", 1);
        assertThat(error(produce(9, (short) 1, null, "__consumer_offsets", 0, wire(batch(1L, "x")))))
                .isEqualTo(ErrorCode.INVALID_TOPIC_EXCEPTION);
    }

    @Test
    void acksZeroSendsNoResponse() {
        CompletableFuture<Struct> response = fx.call(handler, 9, request((short) 0, null, "orders", 0,
                wire(batch(1L, "fire-and-forget"))));
        assertThat(response.join()).isNull();
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(1L);
    }

    @Test
    void acksZeroWithAnErrorClosesTheConnection() {
        CompletableFuture<Struct> response = fx.call(handler, 9, request((short) 0, null, "nope", 0,
                wire(batch(1L, "x"))));
        assertThatThrownBy(response::join).isInstanceOf(CompletionException.class)
                .hasMessageContaining("nope-0=UNKNOWN_TOPIC_OR_PARTITION");
    }

    @Test
    void anAppendWakesAFetchParkedOnThePartition() {
        FetchHandler fetch = new FetchHandler(fx, fx.partitions, fx.cluster, FetchHandlerTest.FETCH_MAX_BYTES);
        CompletableFuture<Struct> parked = fx.call(fetch, 12, FetchHandlerTest.fetchRequest(10_000, 1, "orders", 0, 0L));
        assertThat(parked).isNotDone();

        produce(9, (short) 1, null, "orders", 0, wire(batch(1L, "wake-up")));

        Struct response = parked.orTimeout(5, java.util.concurrent.TimeUnit.SECONDS).join();
        assertThat(DataPathFixture.records(FetchHandlerTest.records(response, 0, 0))).containsExactly("0:k-wake-up=wake-up");
    }

    @Test
    void acksAllAnswersOnceTheHighWatermarkPassesTheAppend() {
        Struct response = produce(9, (short) -1, null, "orders", 0, wire(batch(1L, "a", "b")));
        assertThat(error(response)).isEqualTo(ErrorCode.NONE);
        assertThat(partition(response).get(PartitionProduceResponse.BASE_OFFSET)).isZero();
        assertThat(fx.partition("orders", 0).highWatermark()).isEqualTo(2L);
    }

    @Test
    void acksAllWaitsForTheFollowerAndAnswersWhenItCatchesUp() {
        fx.createTopicWithLaggingFollower("replicated", 1);
        CompletableFuture<Struct> pending = fx.call(handler, 9, request((short) -1, null, "replicated", 0,
                wire(batch(1L, "a", "b"))));
        await(() -> fx.waiting.watching(fx.partition("replicated", 0)) == 1);
        assertThat(fx.log("replicated", 0).logEndOffset()).isEqualTo(2L);
        assertThat(pending).isNotDone();

        fx.partition("replicated", 0).recordFollowerLogEnd(2, 2L);

        Struct response = pending.orTimeout(5, TimeUnit.SECONDS).join();
        assertThat(error(response)).isEqualTo(ErrorCode.NONE);
        assertThat(partition(response).get(PartitionProduceResponse.BASE_OFFSET)).isZero();
        assertThat(fx.waiting.watchedKeys()).isZero();
    }

    @Test
    void acksAllTimesOutWithRequestTimedOutWhenTheHighWatermarkStays() {
        fx.createTopicWithLaggingFollower("replicated", 1);
        Struct request = request((short) -1, null, "replicated", 0, wire(batch(1L, "a"))).set(Request.TIMEOUT_MS, 100);

        Struct response = fx.callAndWait(handler, 9, request);

        assertThat(error(response)).isEqualTo(ErrorCode.REQUEST_TIMED_OUT);
        assertThat(partition(response).get(PartitionProduceResponse.BASE_OFFSET)).isZero(); // Kafka keeps it
        assertThat(fx.log("replicated", 0).logEndOffset()).isEqualTo(1L);
        assertThat(fx.waiting.watchedKeys()).isZero();
    }

    @Test
    void acksAllIsDroppedWhenTheConnectionCloses() {
        fx.createTopicWithLaggingFollower("replicated", 1);
        Promise<Void> connection = fx.loop.newPromise();
        CompletableFuture<Struct> pending = fx.call(handler, 9, request((short) -1, null, "replicated", 0,
                wire(batch(1L, "a"))), "test-client", connection);
        await(() -> fx.waiting.watchedKeys() == 1);

        connection.setSuccess(null);

        // No response is written for a connection that is gone: the request ends with none, as acks=0 does.
        assertThat(pending.orTimeout(5, TimeUnit.SECONDS).join()).isNull();
        assertThat(fx.waiting.watchedKeys()).isZero();
    }

    @Test
    void acksOneAnswersAfterTheLocalAppendWithoutWaitingForFollowers() {
        fx.createTopicWithLaggingFollower("replicated", 1);
        Struct response = produce(9, (short) 1, null, "replicated", 0, wire(batch(1L, "a")));
        assertThat(error(response)).isEqualTo(ErrorCode.NONE);
        assertThat(fx.partition("replicated", 0).highWatermark()).isZero();
        assertThat(fx.waiting.watchedKeys()).isZero();
    }

    @Test
    void theRecordsBufferIsReleasedOnceAppendedOrRefused() {
        ByteBuf ok = Unpooled.copiedBuffer(batch(1L, "a"));
        produce(9, (short) 1, null, "orders", 0, new MemoryRecords(ok));
        ByteBuffer corrupt = batch(1L, "b");
        corrupt.put(corrupt.limit() - 1, (byte) 0x7f);
        ByteBuf bad = Unpooled.copiedBuffer(corrupt);
        Struct refused = produce(9, (short) 1, null, "orders", 0, new MemoryRecords(bad));

        assertThat(error(refused)).isEqualTo(ErrorCode.CORRUPT_MESSAGE);
        // Only the request's own reference is left, which the network layer releases with the frame.
        assertThat(ok.refCnt()).isEqualTo(1);
        assertThat(bad.refCnt()).isEqualTo(1);
    }

    // ------------------------------------------------------------------ helpers

    private Struct produce(int version, short acks, String transactionalId, String topic, int partition, Records records) {
        return fx.callAndWait(handler, version, request(acks, transactionalId, topic, partition, records));
    }

    private static Struct request(short acks, String transactionalId) {
        return Request.SCHEMA.newStruct().set(Request.ACKS, acks).set(Request.TIMEOUT_MS, 30_000)
                .set(Request.TRANSACTIONAL_ID, transactionalId);
    }

    private static Struct request(short acks, String transactionalId, String topic, int partition, Records records) {
        Struct request = request(acks, transactionalId);
        request.add(Request.TOPIC_DATA).set(TopicProduceData.NAME, topic)
                .add(TopicProduceData.PARTITION_DATA)
                .set(PartitionProduceData.INDEX, partition)
                .set(PartitionProduceData.RECORDS, records);
        return request;
    }

    private static Struct partition(Struct response) {
        return response.get(Response.RESPONSES).get(0).get(TopicProduceResponse.PARTITION_RESPONSES).get(0);
    }

    private static ErrorCode error(Struct response) {
        return ErrorCode.forCode(partition(response).get(PartitionProduceResponse.ERROR_CODE));
    }

    private static ErrorCode errorOf(Struct topic) {
        return ErrorCode.forCode(topic.get(TopicProduceResponse.PARTITION_RESPONSES).get(0)
                .get(PartitionProduceResponse.ERROR_CODE));
    }
}
