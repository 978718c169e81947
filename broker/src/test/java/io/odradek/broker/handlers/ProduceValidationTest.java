package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.DataPathFixture.batch;
import static io.odradek.broker.handlers.DataPathFixture.wire;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ProduceApi.Request;
import io.odradek.wire.api.ProduceApi.Request.TopicProduceData;
import io.odradek.wire.api.ProduceApi.Request.TopicProduceData.PartitionProduceData;
import io.odradek.wire.api.ProduceApi.Response;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse.BatchIndexAndErrorMessage;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a producer sees when the log's record walk refuses its batch: error code, error_message, record_errors. */
class ProduceValidationTest {
    @TempDir
    Path dir;
    DataPathFixture fx;
    ProduceHandler handler;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        handler = new ProduceHandler(fx, fx.partitions, fx.cluster);
        fx.createTopic("orders", 1);
        fx.createTopic("table", 1, Map.of("cleanup.policy", "compact"));
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void keylessRecordsOnACompactedTopicComeBackAsRecordErrorsFromV8() {
        Struct p = partition(produce(9, "table", keyed(System.currentTimeMillis(), "k", null, "k2", null)));

        assertThat(ErrorCode.forCode(p.get(PartitionProduceResponse.ERROR_CODE))).isEqualTo(ErrorCode.INVALID_RECORD);
        String noKey = "Compacted topic cannot accept message without key in topic partition table-0.";
        assertThat(recordErrors(p)).containsExactly("1:" + noKey, "3:" + noKey);
        assertThat(p.get(PartitionProduceResponse.ERROR_MESSAGE))
                .startsWith("One or more records have been rejected due to 2 record errors in total");
        assertThat(p.get(PartitionProduceResponse.BASE_OFFSET)).isEqualTo(-1L);
        assertThat(fx.log("table", 0).logEndOffset()).isZero();
    }

    @Test
    void beforeV8TheSameRefusalCarriesNoRecordErrors() {
        Struct p = partition(produce(7, "table", keyed(System.currentTimeMillis(), "k", null)));
        assertThat(ErrorCode.forCode(p.get(PartitionProduceResponse.ERROR_CODE))).isEqualTo(ErrorCode.INVALID_RECORD);
        assertThat(p.get(PartitionProduceResponse.RECORD_ERRORS)).isEmpty();
    }

    @Test
    void aTimestampTwoHoursAheadIsInvalidTimestampWithTheRecordIndex() {
        long future = System.currentTimeMillis() + 2 * 3_600_000L;
        Struct p = partition(produce(9, "orders", batch(future, "late")));
        assertThat(ErrorCode.forCode(p.get(PartitionProduceResponse.ERROR_CODE))).isEqualTo(ErrorCode.INVALID_TIMESTAMP);
        assertThat(p.get(PartitionProduceResponse.ERROR_MESSAGE))
                .isEqualTo("One or more records have been rejected due to invalid timestamp");
        assertThat(recordErrors(p)).singleElement().asString()
                .startsWith("0:Timestamp " + future + " of message with offset 0 is out of range.");
    }

    @Test
    void aCountOfTwoBillionIsRefusedAndTheNextBatchLandsAtOffsetZero() {
        ByteBuffer b = batch(1L, "only");
        b.putInt(RecordBatchHeader.LAST_OFFSET_DELTA_OFFSET, Integer.MAX_VALUE - 1)
                .putInt(RecordBatchHeader.RECORDS_COUNT_OFFSET, Integer.MAX_VALUE);
        b.putInt(RecordBatchHeader.CRC_OFFSET, (int) new RecordBatchHeader(b, 0).computeCrc());

        Struct refused = partition(produce(9, "orders", b));
        assertThat(ErrorCode.forCode(refused.get(PartitionProduceResponse.ERROR_CODE))).isEqualTo(ErrorCode.INVALID_RECORD);
        assertThat(refused.get(PartitionProduceResponse.ERROR_MESSAGE)).contains("premature EOF");
        assertThat(recordErrors(refused)).isEmpty();

        Struct next = partition(produce(9, "orders", batch(1L, "a", "b")));
        assertThat(next.get(PartitionProduceResponse.BASE_OFFSET)).isZero();
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(2L);
    }

    @Test
    void keyedRecordsOnACompactedTopicAreAccepted() {
        Struct p = partition(produce(9, "table", keyed(System.currentTimeMillis(), "k1", "k2")));
        assertThat(ErrorCode.forCode(p.get(PartitionProduceResponse.ERROR_CODE))).isEqualTo(ErrorCode.NONE);
        assertThat(fx.log("table", 0).logEndOffset()).isEqualTo(2L);
    }

    // ------------------------------------------------------------------ helpers

    /** A batch with one record per key, values "value-0", "value-1", ...; a null key makes a keyless record. */
    private static ByteBuffer keyed(long ts, String... keys) {
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(1024), RecordBatch.MAGIC_VALUE_V2,
                Compression.NONE, TimestampType.CREATE_TIME, 0L, ts, -1L, (short) -1, -1, false, -1);
        for (int i = 0; i < keys.length; i++) {
            b.append(new SimpleRecord(ts, utf8(keys[i]), utf8("value-" + i)));
        }
        return b.build().buffer();
    }

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private Struct produce(int version, String topic, ByteBuffer batch) {
        Struct request = Request.SCHEMA.newStruct().set(Request.ACKS, (short) 1).set(Request.TIMEOUT_MS, 30_000);
        request.add(Request.TOPIC_DATA).set(TopicProduceData.NAME, topic)
                .add(TopicProduceData.PARTITION_DATA)
                .set(PartitionProduceData.INDEX, 0)
                .set(PartitionProduceData.RECORDS, wire(batch));
        return fx.callAndWait(handler, version, request);
    }

    private static Struct partition(Struct response) {
        return response.get(Response.RESPONSES).get(0).get(TopicProduceResponse.PARTITION_RESPONSES).get(0);
    }

    private static List<String> recordErrors(Struct partition) {
        return partition.get(PartitionProduceResponse.RECORD_ERRORS).stream()
                .map(e -> e.get(BatchIndexAndErrorMessage.BATCH_INDEX) + ":"
                        + e.get(BatchIndexAndErrorMessage.BATCH_INDEX_ERROR_MESSAGE))
                .toList();
    }
}
