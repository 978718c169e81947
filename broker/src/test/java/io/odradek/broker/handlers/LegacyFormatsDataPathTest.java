package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.api.RequestContext;

import io.odradek.broker.fetch.DownConvertedRecords;
import io.odradek.broker.fetch.FileSliceRecords;
import io.odradek.broker.quota.ConsumerFetchQuota;
import io.odradek.log.LogConfig;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.FetchApi.Request;
import io.odradek.wire.api.FetchApi.Request.FetchTopic;
import io.odradek.wire.api.FetchApi.Request.FetchTopic.FetchPartition;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Old clients end to end through the real handlers and logs: Produce v0-2 with magic 0/1 message sets built by
 * Kafka's own builder, stored as v2 batches, read back by Fetch v0-3 as magic 0/1 (and by v4+ as v2), each
 * read with Kafka's own record classes.
 */
class LegacyFormatsDataPathTest {
    private static final long TS = System.currentTimeMillis() - 1000;

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
        fx.createTopic("old", 1);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private static ByteBuffer legacySet(byte magic, Compression compression, String... values) {
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(16 * 1024), magic, compression,
                TimestampType.CREATE_TIME, 0L);
        for (String v : values) {
            b.append(TS, ("k-" + v).getBytes(StandardCharsets.UTF_8), v.getBytes(StandardCharsets.UTF_8));
        }
        return b.build().buffer();
    }

    private Struct produce(int version, ByteBuffer records) {
        Struct request = ProduceApi.Request.SCHEMA.newStruct().set(ProduceApi.Request.ACKS, (short) 1)
                .set(ProduceApi.Request.TIMEOUT_MS, 1000);
        request.add(ProduceApi.Request.TOPIC_DATA).set(ProduceApi.Request.TopicProduceData.NAME, "old")
                .add(ProduceApi.Request.TopicProduceData.PARTITION_DATA)
                .set(ProduceApi.Request.TopicProduceData.PartitionProduceData.INDEX, 0)
                .set(ProduceApi.Request.TopicProduceData.PartitionProduceData.RECORDS, (Records) DataPathFixture.wire(records));
        return DataPathFixture.firstProducePartition(fx.callAndWait(produce, version, request));
    }

    private Struct fetch(int version, long offset, int partitionMaxBytes) {
        Struct request = FetchHandlerTest.baseRequest(0, 1);
        request.add(Request.TOPICS).set(FetchTopic.TOPIC, "old").add(FetchTopic.PARTITIONS)
                .set(FetchPartition.PARTITION, 0).set(FetchPartition.FETCH_OFFSET, offset)
                .set(FetchPartition.PARTITION_MAX_BYTES, partitionMaxBytes);
        return fx.callAndWait(fetch, version, request).get(io.odradek.wire.api.FetchApi.Response.RESPONSES).get(0)
                .get(FetchableTopicResponse.PARTITIONS).get(0);
    }

    /** "offset:key=value@timestamp/magic" of every message, by Kafka's reader. */
    private static List<String> read(Records records) {
        List<String> out = new ArrayList<>();
        for (MutableRecordBatch batch : MemoryRecords.readableRecords(bytesOf(records)).batches()) {
            batch.ensureValid();
            for (Record r : batch) {
                out.add(r.offset() + ":" + StandardCharsets.UTF_8.decode(r.key()) + "="
                        + StandardCharsets.UTF_8.decode(r.value()) + "@" + (r.timestamp() == TS ? "ts" : r.timestamp())
                        + "/v" + batch.magic());
            }
        }
        return out;
    }

    private static ByteBuffer bytesOf(Records records) {
        if (records instanceof DownConvertedRecords converted) {
            io.odradek.wire.schema.WireWriter w = new io.odradek.wire.schema.WireWriter(
                    io.netty.buffer.UnpooledByteBufAllocator.DEFAULT);
            converted.writeTo(w);
            byte[] bytes = new byte[w.buf().readableBytes()];
            w.buf().readBytes(bytes);
            w.discard();
            return ByteBuffer.wrap(bytes);
        }
        return DataPathFixture.bytesOf(records);
    }

    @Test
    void oldProducersWriteAndOldConsumersReadTheirOwnFormats() {
        Struct v0 = produce(0, legacySet((byte) 0, Compression.NONE, "a", "b"));
        Struct v2 = produce(2, legacySet((byte) 1, Compression.gzip().build(), "c", "d"));

        assertThat(v0.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(v0.get(PartitionProduceResponse.BASE_OFFSET)).isZero();
        assertThat(v2.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(v2.get(PartitionProduceResponse.BASE_OFFSET)).isEqualTo(2L);
        assertThat(v2.get(PartitionProduceResponse.LOG_APPEND_TIME_MS)).isEqualTo(-1L);

        // The log holds v2 batches only: what Fetch v4+ serves untouched.
        Struct modern = fetch(12, 0, 1 << 20);
        assertThat(modern.get(PartitionData.RECORDS)).isInstanceOf(FileSliceRecords.class);
        assertThat(read(modern.get(PartitionData.RECORDS))).containsExactly(
                "0:k-a=a@-1/v2", "1:k-b=b@-1/v2", "2:k-c=c@ts/v2", "3:k-d=d@ts/v2");

        Struct fetchV0 = fetch(0, 0, 1 << 20);
        assertThat(fetchV0.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(fetchV0.get(PartitionData.HIGH_WATERMARK)).isEqualTo(4L);
        assertThat(fetchV0.get(PartitionData.RECORDS)).isInstanceOf(DownConvertedRecords.class);
        assertThat(read(fetchV0.get(PartitionData.RECORDS))).containsExactly(
                "0:k-a=a@-1/v0", "1:k-b=b@-1/v0", "2:k-c=c@-1/v0", "3:k-d=d@-1/v0");

        Struct fetchV3 = fetch(3, 1, 1 << 20);
        assertThat(read(fetchV3.get(PartitionData.RECORDS))).containsExactly(
                "1:k-b=b@-1/v1", "2:k-c=c@ts/v1", "3:k-d=d@ts/v1");
    }

    @Test
    void aLogAppendTimeTopicStampsOldSetsAndServesTheTimeToOldConsumers() {
        fx.createTopic("lat", 1, Map.of(LogConfig.MESSAGE_TIMESTAMP_TYPE, LogConfig.LOG_APPEND_TIME));
        Struct request = ProduceApi.Request.SCHEMA.newStruct().set(ProduceApi.Request.ACKS, (short) 1)
                .set(ProduceApi.Request.TIMEOUT_MS, 1000);
        request.add(ProduceApi.Request.TOPIC_DATA).set(ProduceApi.Request.TopicProduceData.NAME, "lat")
                .add(ProduceApi.Request.TopicProduceData.PARTITION_DATA)
                .set(ProduceApi.Request.TopicProduceData.PartitionProduceData.INDEX, 0)
                .set(ProduceApi.Request.TopicProduceData.PartitionProduceData.RECORDS,
                        (Records) DataPathFixture.wire(legacySet((byte) 1, Compression.snappy().build(), "a", "b")));

        Struct produced = DataPathFixture.firstProducePartition(fx.callAndWait(produce, 2, request));

        long appendTime = produced.get(PartitionProduceResponse.LOG_APPEND_TIME_MS);
        assertThat(produced.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(appendTime).isGreaterThan(TS);
        Struct fetched = FetchHandlerTest.partition(fx.callAndWait(fetch, 2, FetchHandlerTest.fetchRequest(0, 1, "lat", 0, 0L)), 0, 0);
        assertThat(read(fetched.get(PartitionData.RECORDS))).containsExactly(
                "0:k-a=a@" + appendTime + "/v1", "1:k-b=b@" + appendTime + "/v1");
        MutableRecordBatch wrapper = MemoryRecords.readableRecords(bytesOf(fetched.get(PartitionData.RECORDS)))
                .batches().iterator().next();
        assertThat(wrapper.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
        assertThat(wrapper.compressionType().name).isEqualTo("snappy");
    }

    @Test
    void aMagic1SetInProduceV3IsAnInvalidRecord() {
        Struct refused = produce(3, legacySet((byte) 1, Compression.NONE, "a"));

        assertThat(refused.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_RECORD.code());
        assertThat(fx.log("old", 0).logEndOffset()).isZero();
    }

    @Test
    void aCorruptMessageInProduceV1IsACorruptMessageAndNothingIsWritten() {
        ByteBuffer set = legacySet((byte) 1, Compression.NONE, "a", "b");
        set.put(set.limit() - 1, (byte) '!');

        Struct refused = produce(1, set);

        assertThat(refused.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.CORRUPT_MESSAGE.code());
        assertThat(fx.log("old", 0).logEndOffset()).isZero();
    }

    @Test
    void anOldSetIsNotMistakenForATransactionalBatch() {
        // Bytes 21-22 of a magic 1 message are inside its timestamp: bit 28 set there is where a v2 batch keeps
        // its transactional flag, which must not make Odradek ask for a transactional id.
        long ts = (TS & (1L << 28)) != 0 ? TS : TS - (1L << 28);
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(1024), (byte) 1, Compression.NONE,
                TimestampType.CREATE_TIME, 0L);
        b.append(ts, "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
        ByteBuffer set = b.build().buffer();
        assertThat(set.getShort(21) & 0x10).isNotZero();

        Struct answer = produce(2, set);

        assertThat(answer.get(PartitionProduceResponse.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(read(fetch(2, 0, 1 << 20).get(PartitionData.RECORDS))).containsExactly("0:k=v@" + (ts == TS ? "ts" : ts) + "/v1");
    }

    @Test
    void oldConsumersOfAZstdTopicGetUnsupportedCompressionType() {
        fx.createTopic("z", 1, Map.of(LogConfig.COMPRESSION_TYPE, "zstd"));
        Struct request = FetchHandlerTest.fetchRequest(0, 1, "z", 0, 0L);

        Struct old = FetchHandlerTest.partition(fx.callAndWait(fetch, 3, request), 0, 0);
        Struct modern = FetchHandlerTest.partition(fx.callAndWait(fetch, 12, request), 0, 0);

        assertThat(old.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE.code());
        assertThat(modern.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "Fetch v{0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 3, 4, 6, 9})
    void consumersBeforeFetchV10OfAZstdTopicGetUnsupportedCompressionTypeAndV10Reads(int version) {
        fx.createTopic("z", 1, Map.of(LogConfig.COMPRESSION_TYPE, "zstd"));
        fx.partition("z", 0).appendAsLeader(MemoryRecords.withRecords(Compression.zstd().build(),
                new org.apache.kafka.common.record.internal.SimpleRecord(TS, "k".getBytes(StandardCharsets.UTF_8),
                        "v".getBytes(StandardCharsets.UTF_8))).buffer(), (short) 1).join();
        Struct request = FetchHandlerTest.fetchRequest(0, 1, "z", 0, 0L);

        Struct old = FetchHandlerTest.partition(fx.callAndWait(fetch, version, request), 0, 0);
        Struct v10 = FetchHandlerTest.partition(fx.callAndWait(fetch, 10, request), 0, 0);

        assertThat(old.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE.code());
        assertThat(old.get(PartitionData.RECORDS).sizeInBytes()).isZero();
        assertThat(v10.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(read(v10.get(PartitionData.RECORDS))).containsExactly("0:k=v@ts/v2");
    }

    @Test
    void oneResponseDecompressesAtMostItsMaxBytesBeyondTheFirstRecord() {
        fx.createTopic("zeros", 2);
        for (int partition = 0; partition < 2; partition++) {
            org.apache.kafka.common.record.internal.SimpleRecord[] records = new org.apache.kafka.common.record.internal.SimpleRecord[3];
            for (int i = 0; i < 3; i++) {
                records[i] = new org.apache.kafka.common.record.internal.SimpleRecord(TS,
                        ("k" + i).getBytes(StandardCharsets.UTF_8), new byte[40_000]);
            }
            // 120 kB of zeros gzip to a few hundred bytes: the slices read say nothing of what they expand to.
            fx.partition("zeros", partition).appendAsLeader(
                    MemoryRecords.withRecords(Compression.gzip().build(), records).buffer(), (short) 1).join();
        }
        Struct request = FetchHandlerTest.baseRequest(0, 1).set(Request.MAX_BYTES, 100_000);
        Struct topic = request.add(Request.TOPICS).set(FetchTopic.TOPIC, "zeros");
        FetchHandlerTest.addPartition(topic, 0, 0L);
        FetchHandlerTest.addPartition(topic, 1, 0L);

        Struct response = fx.callAndWait(fetch, 3, request);

        // partition 0: its first record, then what fits in 100 kB; partition 1: nothing left for its first record
        assertThat(read(FetchHandlerTest.records(response, 0, 0))).extracting(m -> m.substring(0, m.indexOf(':')))
                .containsExactly("0", "1");
        assertThat(FetchHandlerTest.partition(response, 0, 1).get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(FetchHandlerTest.records(response, 0, 1).sizeInBytes()).isZero();
    }

    @Test
    void aParkedFetchWhoseAnswerFailsIsAnsweredWithTheFailureInsteadOfHanging() {
        FetchHandler failing = new FetchHandler(fx, fx.partitions, fx.cluster, FetchHandlerTest.FETCH_MAX_BYTES)
                .withConsumerQuota(new ConsumerFetchQuota() {
                    @Override
                    public boolean applies(RequestContext context, Struct request) {
                        return true;
                    }

                    @Override
                    public int throttleMs(RequestContext context, Struct request, Struct wouldSend) {
                        throw new IllegalStateException("cannot size the answer");
                    }
                });
        java.util.concurrent.CompletableFuture<Struct> parked = fx.call(failing, 3,
                FetchHandlerTest.fetchRequest(30_000, 1, "old", 0, 0L));
        assertThat(parked).isNotDone();

        fx.append("old", 0, TS, "wakes");

        assertThat(parked).failsWithin(java.time.Duration.ofSeconds(5))
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void fetchV1WithABatchLargerThanItsLimitGetsNothingAndV3GetsItWhole() {
        produce(1, legacySet((byte) 1, Compression.NONE, "x".repeat(300)));

        Struct v1 = fetch(1, 0, 100);
        Struct v3 = fetch(3, 0, 100);

        assertThat(v1.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(v1.get(PartitionData.RECORDS).sizeInBytes()).isZero();
        assertThat(read(v3.get(PartitionData.RECORDS))).containsExactly("0:k-" + "x".repeat(300) + "=" + "x".repeat(300) + "@ts/v1");
    }
}
