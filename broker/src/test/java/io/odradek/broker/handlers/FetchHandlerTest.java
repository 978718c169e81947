package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.DataPathFixture.batch;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.FileRegion;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Promise;
import io.odradek.broker.fetch.FileSliceRecords;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.FetchApi.Request;
import io.odradek.wire.api.FetchApi.Request.FetchTopic;
import io.odradek.wire.api.FetchApi.Request.FetchTopic.FetchPartition;
import io.odradek.wire.api.FetchApi.Response;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.codec.ResponseEncoder;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FetchHandlerTest {
    @TempDir
    Path dir;
    DataPathFixture fx;
    static final int FETCH_MAX_BYTES = 57_671_680;
    FetchHandler handler;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        handler = new FetchHandler(fx, fx.partitions, fx.cluster, FETCH_MAX_BYTES);
        fx.createTopic("orders", 2);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void returnsRecordsFromTheBatchHoldingTheFetchOffset() {
        fx.append("orders", 0, 1L, "a", "b");
        fx.append("orders", 0, 2L, "c");
        fx.append("orders", 0, 3L, "d", "e");

        Struct response = fx.callAndWait(handler, 12, fetchRequest(0, 1, "orders", 0, 2L));

        assertThat(response.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(response.get(Response.SESSION_ID)).isZero();
        Struct p = partition(response, 0, 0);
        assertThat(p.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(p.get(PartitionData.HIGH_WATERMARK)).isEqualTo(5L);
        assertThat(p.get(PartitionData.LAST_STABLE_OFFSET)).isEqualTo(5L);
        assertThat(p.get(PartitionData.LOG_START_OFFSET)).isZero();
        assertThat(p.get(PartitionData.ABORTED_TRANSACTIONS)).isNull();
        assertThat(p.get(PartitionData.PREFERRED_READ_REPLICA)).isEqualTo(-1);
        assertThat(p.get(PartitionData.RECORDS)).isInstanceOf(FileSliceRecords.class);
        assertThat(DataPathFixture.records(p.get(PartitionData.RECORDS))).containsExactly("2:k-c=c", "3:k-d=d", "4:k-e=e");
    }

    @Test
    void fetchAtTheLogEndIsEmptyAndOutOfRangeIsAnError() {
        fx.append("orders", 0, 1L, "a");
        Struct atEnd = partition(fx.callAndWait(handler, 12, fetchRequest(0, 1, "orders", 0, 1L)), 0, 0);
        assertThat(atEnd.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(atEnd.get(PartitionData.RECORDS).sizeInBytes()).isZero();
        assertThat(atEnd.get(PartitionData.HIGH_WATERMARK)).isEqualTo(1L);

        for (long offset : new long[] {2L, 100L, -1L}) {
            Struct p = partition(fx.callAndWait(handler, 12, fetchRequest(500, 1, "orders", 0, offset)), 0, 0);
            assertThat(p.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.OFFSET_OUT_OF_RANGE.code());
            assertThat(p.get(PartitionData.HIGH_WATERMARK)).isEqualTo(-1L);
            assertThat(p.get(PartitionData.RECORDS).sizeInBytes()).isZero();
        }
    }

    @Test
    void readCommittedGetsAnEmptyAbortedTransactionList() {
        fx.append("orders", 0, 1L, "a");
        Struct request = fetchRequest(0, 1, "orders", 0, 0L).set(Request.ISOLATION_LEVEL, (byte) 1);
        Struct p = partition(fx.callAndWait(handler, 12, request), 0, 0);
        assertThat(p.get(PartitionData.ABORTED_TRANSACTIONS)).isEmpty();
        assertThat(DataPathFixture.records(p.get(PartitionData.RECORDS))).containsExactly("0:k-a=a");
    }

    @Test
    void unknownTopicsAndPartitionsAreReportedPerPartition() {
        Struct request = fetchRequest(0, 1, "nope", 0, 0L);
        addPartition(request.add(Request.TOPICS).set(FetchTopic.TOPIC, "orders"), 9, 0L);
        Struct response = fx.callAndWait(handler, 12, request);
        assertThat(partition(response, 0, 0).get(PartitionData.ERROR_CODE))
                .isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(partition(response, 1, 0).get(PartitionData.ERROR_CODE))
                .isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
    }

    @Test
    void v13FetchesByTopicId() {
        UUID id = fx.topicId("orders").orElseThrow();
        fx.append("orders", 1, 1L, "by-id");
        Struct request = baseRequest(0, 1);
        addPartition(request.add(Request.TOPICS).set(FetchTopic.TOPIC_ID, id), 1, 0L);
        UUID stranger = UUID.randomUUID();
        addPartition(request.add(Request.TOPICS).set(FetchTopic.TOPIC_ID, stranger), 0, 0L);

        Struct response = fx.callAndWait(handler, 13, request);

        Struct known = response.get(Response.RESPONSES).get(0);
        assertThat(known.get(FetchableTopicResponse.TOPIC_ID)).isEqualTo(id);
        assertThat(DataPathFixture.records(partition(response, 0, 0).get(PartitionData.RECORDS)))
                .containsExactly("0:k-by-id=by-id");
        assertThat(response.get(Response.RESPONSES).get(1).get(FetchableTopicResponse.TOPIC_ID)).isEqualTo(stranger);
        assertThat(partition(response, 1, 0).get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.UNKNOWN_TOPIC_ID.code());
    }

    @Test
    void anUnknownSessionIsRefusedAndAFullRequestNamingItIsServedWithANewSession() {
        fx.append("orders", 0, 1L, "a");
        Struct incremental = fetchRequest(0, 1, "orders", 0, 0L).set(Request.SESSION_ID, 17).set(Request.SESSION_EPOCH, 3);
        Struct refused = fx.callAndWait(handler, 12, incremental);
        assertThat(refused.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.FETCH_SESSION_ID_NOT_FOUND.code());
        assertThat(refused.get(Response.SESSION_ID)).isZero();
        assertThat(refused.get(Response.RESPONSES)).isEmpty();

        // A full request that closes an old session (epoch 0 with an id) is served in full and opens a new one.
        Struct full = fetchRequest(0, 1, "orders", 0, 0L).set(Request.SESSION_ID, 17).set(Request.SESSION_EPOCH, 0);
        Struct served = fx.callAndWait(handler, 12, full);
        assertThat(served.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(served.get(Response.SESSION_ID)).isPositive();
        assertThat(DataPathFixture.records(partition(served, 0, 0).get(PartitionData.RECORDS))).containsExactly("0:k-a=a");
    }

    @Test
    void responseMaxBytesLimitsLaterPartitionsButTheFirstBatchAlwaysComes() {
        fx.append("orders", 0, 1L, "x".repeat(1000));
        fx.append("orders", 1, 1L, "y".repeat(1000));
        Struct request = fetchRequest(0, 1, "orders", 0, 0L).set(Request.MAX_BYTES, 1500);
        addPartition(request.get(Request.TOPICS).get(0), 1, 0L);
        // A partition limit below the batch size still gets the whole first batch (KIP-74).
        request.get(Request.TOPICS).get(0).get(FetchTopic.PARTITIONS).get(0).set(FetchPartition.PARTITION_MAX_BYTES, 10);

        Struct response = fx.callAndWait(handler, 12, request);

        assertThat(DataPathFixture.records(partition(response, 0, 0).get(PartitionData.RECORDS))).hasSize(1);
        Struct second = partition(response, 0, 1);
        assertThat(second.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(second.get(PartitionData.RECORDS).sizeInBytes()).isZero();
        assertThat(second.get(PartitionData.HIGH_WATERMARK)).isEqualTo(1L);
    }

    @Test
    void encodedResponseCarriesTheSegmentBytesAsAFileRegionThatKafkaCanRead() throws Exception {
        fx.append("orders", 0, 1L, "a", "b");
        fx.append("orders", 0, 2L, "c");
        for (short version = 4; version <= 18; version++) {
            Struct request = version >= 13 ? baseRequest(0, 1) : fetchRequest(0, 1, "orders", 0, 0L);
            if (version >= 13) {
                addPartition(request.add(Request.TOPICS).set(FetchTopic.TOPIC_ID, fx.topicId("orders").orElseThrow()), 0, 0L);
            }
            Struct response = fx.callAndWait(handler, version, request);

            List<Object> parts = ResponseEncoder.encode(ByteBufAllocator.DEFAULT, FetchApi.SPEC, version, 77, response);
            assertThat(parts).anySatisfy(part -> assertThat(part).isInstanceOf(FileRegion.class));
            ByteBuffer frame = gather(parts);

            assertThat(frame.getInt()).isEqualTo(frame.remaining());
            assertThat(frame.getInt()).isEqualTo(77);
            if (FetchApi.SPEC.isFlexible(version)) {
                assertThat(frame.get()).isZero(); // no tagged fields in the header
            }
            FetchResponseData kafka = new FetchResponseData(new ByteBufferAccessor(frame), version);
            assertThat(kafka.errorCode()).isZero();
            FetchResponseData.PartitionData p = kafka.responses().get(0).partitions().get(0);
            assertThat(p.highWatermark()).isEqualTo(3L);
            assertThat(DataPathFixture.records(((MemoryRecords) p.records()).buffer()))
                    .as("version %d", version).containsExactly("0:k-a=a", "1:k-b=b", "2:k-c=c");
        }
        // Releasing the sent regions must leave the segment's channel open.
        assertThat(DataPathFixture.records(new FileSliceRecords(fx.log("orders", 0).read(0, 1 << 20)))).hasSize(3);
    }

    // ------------------------------------------------------------------ delayed fetch

    @Test
    void aParkedFetchIsWokenByAnAppendWithTheNewData() {
        fx.append("orders", 0, 1L, "old");
        CompletableFuture<Struct> parked = fx.call(handler, 12, fetchRequest(30_000, 1, "orders", 0, 1L));
        assertThat(parked).isNotDone();
        assertThat(fx.waiting.watching(fx.partition("orders", 0))).isEqualTo(1);

        fx.append("orders", 0, 2L, "new");

        Struct response = parked.orTimeout(5, TimeUnit.SECONDS).join();
        assertThat(DataPathFixture.records(records(response, 0, 0))).containsExactly("1:k-new=new");
        assertThat(partition(response, 0, 0).get(PartitionData.HIGH_WATERMARK)).isEqualTo(2L);
        assertThat(fx.waiting.watchedKeys()).isZero();
    }

    @Test
    void aParkedFetchWaitsUntilMinBytesAcrossItsPartitions() {
        int batchSize = batch(1L, "0123456789").remaining();
        Struct request = fetchRequest(30_000, 2 * batchSize, "orders", 0, 0L);
        addPartition(request.get(Request.TOPICS).get(0), 1, 0L);
        CompletableFuture<Struct> parked = fx.call(handler, 12, request);

        fx.append("orders", 1, 1L, "0123456789");
        waitForLoop();
        assertThat(parked).isNotDone();

        fx.append("orders", 0, 1L, "abcdefghij");
        Struct response = parked.orTimeout(5, TimeUnit.SECONDS).join();
        assertThat(DataPathFixture.records(records(response, 0, 0))).containsExactly("0:k-abcdefghij=abcdefghij");
        assertThat(DataPathFixture.records(records(response, 0, 1))).containsExactly("0:k-0123456789=0123456789");
        assertThat(fx.waiting.watchedKeys()).isZero();
    }

    @Test
    void aParkedFetchAnswersEmptyAfterMaxWait() {
        long start = System.nanoTime();
        CompletableFuture<Struct> parked = fx.call(handler, 12, fetchRequest(200, 1, "orders", 0, 0L));
        Struct response = parked.orTimeout(5, TimeUnit.SECONDS).join();
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(waitedMs).isGreaterThanOrEqualTo(190);
        Struct p = partition(response, 0, 0);
        assertThat(p.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(p.get(PartitionData.RECORDS).sizeInBytes()).isZero();
        assertThat(fx.waiting.watchedKeys()).isZero();
    }

    @Test
    void enoughDataOrAnErrorAnswersWithoutWaiting() {
        fx.append("orders", 0, 1L, "ready");
        assertThat(fx.call(handler, 12, fetchRequest(30_000, 1, "orders", 0, 0L))).isDone();
        assertThat(fx.call(handler, 12, fetchRequest(30_000, 1, "nope", 0, 0L))).isDone();
        assertThat(fx.call(handler, 12, fetchRequest(30_000, 1, "orders", 0, 99L))).isDone();
        assertThat(fx.waiting.watchedKeys()).isZero();
    }

    @Test
    void aFetchParkedOnSeveralPartitionsAnswersOnceOnTheFirstSufficientAppend() {
        Struct request = fetchRequest(30_000, 1, "orders", 0, 0L);
        addPartition(request.get(Request.TOPICS).get(0), 1, 0L);
        CompletableFuture<Struct> parked = fx.call(handler, 12, request);
        assertThat(fx.waiting.watching(fx.partition("orders", 0))).isEqualTo(1);
        assertThat(fx.waiting.watching(fx.partition("orders", 1))).isEqualTo(1);

        fx.append("orders", 1, 1L, "first");
        Struct response = parked.orTimeout(5, TimeUnit.SECONDS).join();
        fx.append("orders", 0, 1L, "later");
        waitForLoop();

        assertThat(DataPathFixture.records(records(response, 0, 0))).isEmpty();
        assertThat(DataPathFixture.records(records(response, 0, 1))).containsExactly("0:k-first=first");
        assertThat(fx.waiting.watching(fx.partition("orders", 0))).isZero();
        assertThat(fx.waiting.watching(fx.partition("orders", 1))).isZero();
    }

    @Test
    void closingTheConnectionDropsAParkedFetchAndUnwatchesIt() {
        Promise<Void> connection = fx.loop.newPromise();
        Struct request = fetchRequest(30_000, 1, "orders", 0, 0L);
        addPartition(request.get(Request.TOPICS).get(0), 1, 0L);
        CompletableFuture<Struct> parked = fx.call(handler, 12, request, "test-client", connection);
        assertThat(fx.waiting.watchedKeys()).isEqualTo(2);

        connection.setSuccess(null);
        waitForLoop();

        assertThat(parked).isCompletedWithValue(null); // nothing to write to a closed connection
        assertThat(fx.waiting.watching(fx.partition("orders", 0))).isZero();
        assertThat(fx.waiting.watching(fx.partition("orders", 1))).isZero();
        fx.append("orders", 0, 1L, "nobody-waits");
        assertThat(fx.waiting.watchedKeys()).isZero();
    }

    @Test
    void aFetchOfMaxBytesIntegerMaxGetsAtMostFetchMaxBytes() {
        int batchSize = batch(1L, "0123456789").remaining();
        for (int i = 0; i < 10; i++) {
            fx.append("orders", 0, 1L, "0123456789");
            fx.append("orders", 1, 1L, "0123456789");
        }
        int cap = 3 * batchSize + batchSize / 2;
        FetchHandler capped = new FetchHandler(fx, fx.partitions, fx.cluster, cap);
        Struct request = fetchRequest(0, 1, "orders", 0, 0L).set(Request.MAX_BYTES, Integer.MAX_VALUE);
        addPartition(request.get(Request.TOPICS).get(0), 1, 0L);

        Struct response = fx.callAndWait(capped, 12, request);

        int total = records(response, 0, 0).sizeInBytes() + records(response, 0, 1).sizeInBytes();
        assertThat(total).isLessThanOrEqualTo(cap);
        // Whole batches of partition 0 as far as the cap goes (a cut-off batch is not a record), none of 1.
        assertThat(DataPathFixture.records(records(response, 0, 0))).hasSize(3);
        assertThat(records(response, 0, 1).sizeInBytes()).isZero();
    }

    @Test
    void theFirstBatchComesWholeEvenWhenLargerThanFetchMaxBytes() {
        String big = "x".repeat(4000);
        fx.append("orders", 0, 1L, big);
        FetchHandler capped = new FetchHandler(fx, fx.partitions, fx.cluster, 1024);
        Struct request = fetchRequest(0, 1, "orders", 0, 0L).set(Request.MAX_BYTES, Integer.MAX_VALUE);

        Struct response = fx.callAndWait(capped, 12, request);

        assertThat(DataPathFixture.records(records(response, 0, 0))).containsExactly("0:k-" + big + "=" + big);
    }

    @Test
    void consumersReadOnlyUpToTheHighWatermarkAndReplicasToTheLogEnd() {
        fx.createTopicWithLaggingFollower("replicated", 1);
        fx.append("replicated", 0, 1L, "a");
        fx.append("replicated", 0, 1L, "b");
        fx.partition("replicated", 0).recordFollowerLogEnd(2, 1L);

        Struct consumer = fx.callAndWait(handler, 12, fetchRequest(0, 1, "replicated", 0, 0L));
        assertThat(DataPathFixture.records(records(consumer, 0, 0))).containsExactly("0:k-a=a");
        assertThat(partition(consumer, 0, 0).get(PartitionData.HIGH_WATERMARK)).isEqualTo(1L);

        Struct replica = fx.callAndWait(handler, 12, fetchRequest(0, 1, "replicated", 0, 0L).set(Request.REPLICA_ID, 2));
        assertThat(DataPathFixture.records(records(replica, 0, 0))).containsExactly("0:k-a=a", "1:k-b=b");
    }

    @Test
    void aSessionlessFetchNamingAPartitionTwiceGetsItOnceFromTheLastOffsetNamed() {
        for (String value : List.of("a", "b", "c")) {
            fx.append("orders", 0, 1L, value); // one batch each: a read from offset 2 returns only c's
        }
        Struct request = baseRequest(0, 1);
        Struct topic = request.add(Request.TOPICS).set(FetchTopic.TOPIC, "orders");
        addPartition(topic, 0, 0L);
        addPartition(topic, 1, 0L);
        addPartition(topic, 0, 2L);

        Struct response = fx.callAndWait(handler, 4, request);

        assertThat(response.get(Response.RESPONSES)).hasSize(1);
        assertThat(response.get(Response.RESPONSES).get(0).get(FetchableTopicResponse.PARTITIONS))
                .extracting(p -> p.get(PartitionData.PARTITION_INDEX)).containsExactly(0, 1);
        assertThat(DataPathFixture.records(records(response, 0, 0))).containsExactly("2:k-c=c");
        assertThat(DataPathFixture.records(records(response, 0, 1))).isEmpty();
    }

    // ------------------------------------------------------------------ helpers

    static Struct baseRequest(int maxWaitMs, int minBytes) {
        return Request.SCHEMA.newStruct().set(Request.REPLICA_ID, -1).set(Request.MAX_WAIT_MS, maxWaitMs)
                .set(Request.MIN_BYTES, minBytes).set(Request.MAX_BYTES, 50 * 1024 * 1024)
                .set(Request.ISOLATION_LEVEL, (byte) 0).set(Request.SESSION_ID, 0).set(Request.SESSION_EPOCH, -1);
    }

    static Struct fetchRequest(int maxWaitMs, int minBytes, String topic, int partition, long offset) {
        Struct request = baseRequest(maxWaitMs, minBytes);
        addPartition(request.add(Request.TOPICS).set(FetchTopic.TOPIC, topic), partition, offset);
        return request;
    }

    static void addPartition(Struct topic, int partition, long offset) {
        topic.add(FetchTopic.PARTITIONS).set(FetchPartition.PARTITION, partition).set(FetchPartition.FETCH_OFFSET, offset)
                .set(FetchPartition.PARTITION_MAX_BYTES, 1024 * 1024);
    }

    static Struct partition(Struct response, int topic, int partition) {
        return response.get(Response.RESPONSES).get(topic).get(FetchableTopicResponse.PARTITIONS).get(partition);
    }

    static Records records(Struct response, int topic, int partition) {
        return partition(response, topic, partition).get(PartitionData.RECORDS);
    }

    /** Lets the event loop run what was queued on it (wake-ups). */
    private void waitForLoop() {
        try {
            fx.loop.submit(() -> { }).get(5, TimeUnit.SECONDS);
            fx.loop.submit(() -> { }).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Writes the frame's parts as the channel would (file regions by transferTo) and releases them. */
    static ByteBuffer gather(List<Object> parts) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WritableByteChannel channel = Channels.newChannel(out);
        for (Object part : parts) {
            if (part instanceof ByteBuf buf) {
                buf.readBytes(out, buf.readableBytes());
            } else {
                FileRegion region = (FileRegion) part;
                while (region.transferred() < region.count()) {
                    region.transferTo(channel, region.transferred());
                }
            }
            ReferenceCountUtil.release(part);
        }
        return Unpooled.wrappedBuffer(out.toByteArray()).nioBuffer();
    }
}
