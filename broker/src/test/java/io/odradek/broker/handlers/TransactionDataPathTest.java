package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.DataPathFixture.transactionalBatch;
import static io.odradek.broker.handlers.FetchHandlerTest.fetchRequest;
import static io.odradek.broker.handlers.FetchHandlerTest.partition;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.txn.LocalTransactionMarkerWriter;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.log.FileSlice;
import io.odradek.log.producer.ActiveProducer;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DescribeProducersApi;
import io.odradek.wire.api.DescribeProducersApi.Response.TopicResponse;
import io.odradek.wire.api.DescribeProducersApi.Response.TopicResponse.PartitionResponse;
import io.odradek.wire.api.DescribeProducersApi.Response.TopicResponse.PartitionResponse.ProducerState;
import io.odradek.wire.api.FetchApi.Request;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData.AbortedTransaction;
import io.odradek.wire.api.ListOffsetsApi;
import io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic;
import io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition;
import io.odradek.wire.api.ListOffsetsApi.Response.ListOffsetsTopicResponse;
import io.odradek.wire.api.ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse;
import io.odradek.wire.api.WriteTxnMarkersApi;
import io.odradek.wire.api.WriteTxnMarkersApi.Request.WritableTxnMarker;
import io.odradek.wire.api.WriteTxnMarkersApi.Request.WritableTxnMarker.WritableTxnMarkerTopic;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult.WritableTxnMarkerPartitionResult;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data path of transactions: read_committed fetches and offsets bounded by the last stable offset,
 * aborted transaction lists, markers written by WriteTxnMarkers, and DescribeProducers.
 */
class TransactionDataPathTest {
    private static final long PID = 7L;
    private static final long OTHER_PID = 8L;
    private static final short EPOCH = 3;
    private static final byte READ_COMMITTED = 1;
    /** Recent timestamps: a segment whose first batch is older than log.roll.ms (7 days) would roll. */
    private static final long T0 = System.currentTimeMillis();
    private static final long TXN_TS = T0 + 5_000;

    @TempDir
    Path dir;
    DataPathFixture fx;
    FetchHandler fetch;
    ListOffsetsHandler listOffsets;
    /** What the fake group coordinator was asked to complete. */
    final List<String> offsetsCompleted = new CopyOnWriteArrayList<>();
    ErrorCode offsetsAnswer = ErrorCode.NONE;
    WriteTxnMarkersHandler writeMarkers;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        fx.createTopic("orders", 2);
        fetch = new FetchHandler(fx, fx.partitions, fx.cluster, FetchHandlerTest.FETCH_MAX_BYTES);
        listOffsets = new ListOffsetsHandler(fx.partitions, fx.cluster);
        writeMarkers = new WriteTxnMarkersHandler(new LocalTransactionMarkerWriter(fx.partitions,
                (partition, pid, epoch, coordinatorEpoch, commit) -> {
                    offsetsCompleted.add(partition + ":" + pid + ":" + epoch + ":" + coordinatorEpoch + ":" + commit);
                    return CompletableFuture.completedFuture(offsetsAnswer);
                }));
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    // ------------------------------------------------------------------ fetch

    @Test
    void readCommittedStopsAtAnOpenTransactionThenReadsItWithTheAbortedListAfterTheAbort() {
        fx.append("orders", 0, T0, "before");                        // 0
        appendTxn(PID, 0, "t1", "t2");                               // 1-2, open
        fx.append("orders", 0, T0, "after");                         // 3

        Struct committed = fetch(READ_COMMITTED, 0L);
        assertThat(content(committed)).containsExactly("0:before");
        assertThat(committed.get(PartitionData.LAST_STABLE_OFFSET)).isEqualTo(1L);
        assertThat(committed.get(PartitionData.HIGH_WATERMARK)).isEqualTo(4L);
        assertThat(aborted(committed)).isEmpty();

        writeMarker(PID, EPOCH, false);                              // 4: abort

        Struct afterAbort = fetch(READ_COMMITTED, 0L);
        assertThat(content(afterAbort)).containsExactly("0:before", "1:t1", "2:t2", "3:after", "4:ABORT");
        assertThat(afterAbort.get(PartitionData.LAST_STABLE_OFFSET)).isEqualTo(5L);
        assertThat(aborted(afterAbort)).containsExactly(PID + "@1");
        // From the offset after the transaction's marker it is no longer in range.
        assertThat(aborted(fetch(READ_COMMITTED, 5L))).isEmpty();
    }

    @Test
    void readUncommittedSeesTheOpenTransactionAndTheRealLastStableOffsetWithoutAnAbortedList() {
        appendTxn(PID, 0, "t1");                                     // 0, open
        fx.append("orders", 0, T0, "plain");                         // 1

        Struct uncommitted = fetch((byte) 0, 0L);
        assertThat(content(uncommitted)).containsExactly("0:t1", "1:plain");
        assertThat(uncommitted.get(PartitionData.LAST_STABLE_OFFSET)).isZero();
        assertThat(uncommitted.get(PartitionData.HIGH_WATERMARK)).isEqualTo(2L);
        assertThat(uncommitted.get(PartitionData.ABORTED_TRANSACTIONS)).isNull();
    }

    @Test
    void aCommittedTransactionIsReadWithNoAbortedEntries() {
        appendTxn(PID, 0, "t1", "t2");
        writeMarker(PID, EPOCH, true);

        Struct committed = fetch(READ_COMMITTED, 0L);
        assertThat(content(committed)).containsExactly("0:t1", "1:t2", "2:COMMIT");
        assertThat(committed.get(PartitionData.LAST_STABLE_OFFSET)).isEqualTo(3L);
        assertThat(aborted(committed)).isEmpty();
    }

    @Test
    void theAbortedListCoversOnlyTheRangeReturned() {
        appendTxn(PID, 0, "a1", "a2");                               // 0-1
        writeMarker(PID, EPOCH, false);                              // 2
        appendTxn(OTHER_PID, 0, "b1", "b2");                         // 3-4
        writeMarker(OTHER_PID, EPOCH, false);                        // 5

        assertThat(aborted(fetch(READ_COMMITTED, 0L))).containsExactly(PID + "@0", OTHER_PID + "@3");
        // partition_max_bytes 1: only the first batch comes (whole), and only its transaction is listed.
        Struct firstBatchOnly = fetch(READ_COMMITTED, 0L, 1);
        assertThat(content(firstBatchOnly)).containsExactly("0:a1", "1:a2");
        assertThat(aborted(firstBatchOnly)).containsExactly(PID + "@0");
        assertThat(aborted(fetch(READ_COMMITTED, 3L))).containsExactly(OTHER_PID + "@3");
    }

    @Test
    void aParkedReadCommittedFetchIgnoresOpenTransactionDataAndWakesOnTheMarker() {
        appendTxn(PID, 0, "t1");                                     // 0, open
        CompletableFuture<Struct> parked = fx.call(fetch, 12,
                fetchRequest(30_000, 1, "orders", 0, 0L).set(Request.ISOLATION_LEVEL, READ_COMMITTED));
        appendTxn(PID, 1, "t2");                                     // 1, still open: nothing below the LSO
        waitForLoop();
        assertThat(parked).isNotDone();

        writeMarker(PID, EPOCH, true);                               // 2: the LSO moves to 3

        Struct response = FetchHandlerTest.partition(parked.orTimeout(5, TimeUnit.SECONDS).join(), 0, 0);
        assertThat(content(response)).containsExactly("0:t1", "1:t2", "2:COMMIT");
        assertThat(response.get(PartitionData.LAST_STABLE_OFFSET)).isEqualTo(3L);
        assertThat(fx.waiting.watchedKeys()).isZero();
    }

    // ------------------------------------------------------------------ list offsets

    @Test
    void listOffsetsLatestUnderReadCommittedIsTheLastStableOffset() {
        fx.append("orders", 0, T0, "plain");                     // 0
        appendTxn(PID, 0, "t1");                                     // 1, open (timestamp TXN_TS)

        assertThat(listOffset((byte) 1, -1L)).isEqualTo(1L);
        assertThat(listOffset((byte) 0, -1L)).isEqualTo(2L);
        // A timestamp found only at or past the LSO has no offset for read_committed, as in Kafka.
        assertThat(listOffset((byte) 0, TXN_TS)).isEqualTo(1L);
        assertThat(listOffset((byte) 1, TXN_TS)).isEqualTo(-1L);
        assertThat(listOffset((byte) 1, 0L)).isZero();

        writeMarker(PID, EPOCH, true);
        assertThat(listOffset((byte) 1, -1L)).isEqualTo(3L);
        assertThat(listOffset((byte) 1, TXN_TS)).isEqualTo(1L);
    }

    // ------------------------------------------------------------------ write txn markers

    @Test
    void writeTxnMarkersWritesAnAbortMarkerVisibleInTheLog() {
        appendTxn(PID, 0, "t1");                                     // 0, open

        Struct response = fx.callAndWait(writeMarkers, 1, markers(marker(PID, EPOCH, false, 5, "orders", 0)));

        assertThat(results(response)).containsExactly(PID + ":orders-0=NONE");
        FileSlice slice = fx.log("orders", 0).read(0, 1 << 20);
        List<RecordBatch> batches = batches(slice);
        assertThat(batches).hasSize(2);
        RecordBatch marker = batches.get(1);
        assertThat(marker.isControlBatch()).isTrue();
        assertThat(marker.isTransactional()).isTrue();
        assertThat(marker.producerId()).isEqualTo(PID);
        assertThat(marker.producerEpoch()).isEqualTo(EPOCH);
        assertThat(marker.baseOffset()).isEqualTo(1L);
        EndTransactionMarker end = EndTransactionMarker.deserialize(marker.iterator().next());
        assertThat(end.controlType()).isEqualTo(ControlRecordType.ABORT);
        assertThat(end.coordinatorEpoch()).isEqualTo(5);
        assertThat(fx.partition("orders", 0).lastStableOffset()).isEqualTo(2L);
    }

    @Test
    void writeTxnMarkersAnswersPerPartitionAndPerProducer() {
        appendTxn(PID, 0, "t1");
        Struct request = markers(marker(PID, EPOCH, true, 0, "orders", 0, 9),
                marker(OTHER_PID, EPOCH, false, 0, "nope", 0));
        request.get(WriteTxnMarkersApi.Request.MARKERS).get(0).add(WritableTxnMarker.TOPICS)
                .set(WritableTxnMarkerTopic.NAME, "__consumer_offsets").set(WritableTxnMarkerTopic.PARTITION_INDEXES, List.of(4));
        offsetsAnswer = ErrorCode.NOT_COORDINATOR;

        Struct response = fx.callAndWait(writeMarkers, 2, request);

        assertThat(results(response)).containsExactly(
                PID + ":__consumer_offsets-4=NOT_LEADER_OR_FOLLOWER", PID + ":orders-0=NONE",
                PID + ":orders-9=UNKNOWN_TOPIC_OR_PARTITION",
                OTHER_PID + ":nope-0=UNKNOWN_TOPIC_OR_PARTITION");
        assertThat(offsetsCompleted).containsExactly("4:" + PID + ":" + EPOCH + ":0:true");
    }

    @Test
    void writeTxnMarkersWithAnOlderProducerEpochIsRefused() {
        appendTxn(PID, 0, "t1");
        Struct response = fx.callAndWait(writeMarkers, 1,
                markers(marker(PID, (short) (EPOCH - 1), false, 0, "orders", 0)));

        assertThat(results(response)).containsExactly(PID + ":orders-0=INVALID_PRODUCER_EPOCH");
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(1L);
    }

    @Test
    void aV0MarkerFromAPre24CoordinatorIsWrittenAndAnsweredInV0Bytes() {
        appendTxn(PID, 0, "t1");                                     // 0, open
        // v0 (dropped by Kafka 4): not flexible, no transaction version.
        byte[] body = new WireRoundTrip.Body().int32(1)
                .int64(PID).int16(EPOCH).bool(true)
                .int32(1).string("orders").int32s(0, 9)
                .int32(5)
                .toArray();
        Struct request = WireRoundTrip.decodeRequest(WriteTxnMarkersApi.SPEC, 0, body);

        ByteBuffer in = WireRoundTrip.responseBody(WriteTxnMarkersApi.SPEC, 0, fx.callAndWait(writeMarkers, 0, request));

        List<String> answered = new ArrayList<>();
        for (int m = in.getInt(); m > 0; m--) {
            long pid = in.getLong();
            for (int t = in.getInt(); t > 0; t--) {
                String topic = WireRoundTrip.string(in);
                for (int p = in.getInt(); p > 0; p--) {
                    answered.add(pid + ":" + topic + "-" + in.getInt() + "=" + ErrorCode.forCode(in.getShort()));
                }
            }
        }
        assertThat(in.remaining()).isZero();
        assertThat(answered).containsExactly(PID + ":orders-0=NONE", PID + ":orders-9=UNKNOWN_TOPIC_OR_PARTITION");
        RecordBatch marker = batches(fx.log("orders", 0).read(0, 1 << 20)).get(1);
        assertThat(marker.isControlBatch()).isTrue();
        assertThat(marker.baseOffset()).isEqualTo(1L);
        EndTransactionMarker end = EndTransactionMarker.deserialize(marker.iterator().next());
        assertThat(end.controlType()).isEqualTo(ControlRecordType.COMMIT);
        assertThat(end.coordinatorEpoch()).isEqualTo(5);
        assertThat(fx.partition("orders", 0).lastStableOffset()).isEqualTo(2L);
    }

    @Test
    void theCoordinatorsMarkerWriterSkipsPartitionsOfDeletedTopicsButRetriesOnesNotServedYet() {
        appendTxn(PID, 0, "t1");
        // The catalog knows "orders" with 3 partitions (orders-2 has no log here yet); "gone" was deleted.
        LocalTransactionMarkerWriter writer = new LocalTransactionMarkerWriter(fx.partitions,
                (partition, pid, epoch, coordinatorEpoch, commit) -> CompletableFuture.completedFuture(ErrorCode.NONE),
                topic -> topic.equals("orders") ? OptionalInt.of(3) : OptionalInt.empty());

        Map<TopicPartition, ErrorCode> errors = writer.writeMarkers(PID, EPOCH, 0, true, List.of(
                new TopicPartition("orders", 0), new TopicPartition("orders", 2), new TopicPartition("orders", 5),
                new TopicPartition("gone", 0))).orTimeout(10, TimeUnit.SECONDS).join();

        assertThat(errors).isEqualTo(Map.of(
                new TopicPartition("orders", 0), ErrorCode.NONE,
                new TopicPartition("orders", 2), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                new TopicPartition("orders", 5), ErrorCode.NONE,
                new TopicPartition("gone", 0), ErrorCode.NONE));
        // Only the live partition got a marker: the transaction's record then its commit.
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(2L);
        assertThat(fx.log("orders", 1).logEndOffset()).isZero();
    }

    // ------------------------------------------------------------------ describe producers

    @Test
    void describeProducersListsTheOpenTransactionOfEachProducer() {
        fx.append("orders", 0, T0, "plain");                         // 0
        appendTxn(PID, 0, "t1", "t2");                               // 1-2, open

        Struct response = fx.callAndWait(new DescribeProducersHandler(fx.partitions, fx.cluster), 0,
                describeProducers("orders", 0, 1));
        List<Struct> parts = response.get(DescribeProducersApi.Response.TOPICS).get(0).get(TopicResponse.PARTITIONS);

        assertThat(parts.get(0).get(PartitionResponse.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(parts.get(0).get(PartitionResponse.ACTIVE_PRODUCERS)).extracting(p -> new ActiveProducer(
                p.get(ProducerState.PRODUCER_ID), (short) (int) p.get(ProducerState.PRODUCER_EPOCH),
                p.get(ProducerState.LAST_SEQUENCE), p.get(ProducerState.LAST_TIMESTAMP),
                p.get(ProducerState.COORDINATOR_EPOCH), p.get(ProducerState.CURRENT_TXN_START_OFFSET)))
                .containsExactly(new ActiveProducer(PID, EPOCH, 1, TXN_TS, -1, 1L));
        assertThat(parts.get(1).get(PartitionResponse.ACTIVE_PRODUCERS)).isEmpty();

        Struct unknown = fx.callAndWait(new DescribeProducersHandler(fx.partitions, fx.cluster), 0, describeProducers("nope", 0));
        assertThat(unknown.get(DescribeProducersApi.Response.TOPICS).get(0).get(TopicResponse.PARTITIONS).get(0)
                .get(PartitionResponse.ERROR_CODE)).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
    }

    // ------------------------------------------------------------------ helpers

    /** A transactional batch of {@code pid} (epoch 3, timestamp TXN_TS), appended as a producer would. */
    private void appendTxn(long pid, int baseSequence, String... values) {
        fx.partition("orders", 0).appendAsLeader(transactionalBatch(pid, EPOCH, baseSequence, TXN_TS, values), (short) 1)
                .orTimeout(10, TimeUnit.SECONDS).join();
    }

    private void writeMarker(long pid, short epoch, boolean commit) {
        fx.partition("orders", 0).appendMarker(pid, epoch, 0, commit).orTimeout(10, TimeUnit.SECONDS).join();
    }

    private Struct fetch(byte isolation, long offset) {
        return fetch(isolation, offset, 1024 * 1024);
    }

    private Struct fetch(byte isolation, long offset, int partitionMaxBytes) {
        Struct request = fetchRequest(0, 1, "orders", 0, offset).set(Request.ISOLATION_LEVEL, isolation);
        request.get(Request.TOPICS).get(0).get(Request.FetchTopic.PARTITIONS).get(0)
                .set(Request.FetchTopic.FetchPartition.PARTITION_MAX_BYTES, partitionMaxBytes);
        Struct p = partition(fx.callAndWait(fetch, 12, request), 0, 0);
        assertThat(p.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        return p;
    }

    /** "producerId@firstOffset" of each aborted transaction in a partition's fetch response. */
    private static List<String> aborted(Struct partition) {
        List<String> out = new ArrayList<>();
        for (Struct t : partition.<List<Struct>>get(PartitionData.ABORTED_TRANSACTIONS)) {
            out.add(t.get(AbortedTransaction.PRODUCER_ID) + "@" + t.get(AbortedTransaction.FIRST_OFFSET));
        }
        return out;
    }

    /** "offset:value" per data record, "offset:COMMIT"/"ABORT" per marker, as Kafka's reader sees them. */
    private static List<String> content(Struct partition) {
        Records records = partition.get(PartitionData.RECORDS);
        List<String> out = new ArrayList<>();
        for (RecordBatch batch : MemoryRecords.readableRecords(DataPathFixture.bytesOf(records)).batches()) {
            batch.ensureValid();
            for (Record r : batch) {
                out.add(r.offset() + ":" + (batch.isControlBatch() ? ControlRecordType.parse(r.key()).name()
                        : StandardCharsets.UTF_8.decode(r.value()).toString()));
            }
        }
        return out;
    }

    private static List<RecordBatch> batches(FileSlice slice) {
        ByteBuffer bytes = slice.readIntoHeap();
        List<RecordBatch> out = new ArrayList<>();
        MemoryRecords.readableRecords(bytes).batches().forEach(b -> {
            b.ensureValid();
            out.add(b);
        });
        return out;
    }

    private long listOffset(byte isolation, long timestamp) {
        Struct request = ListOffsetsApi.Request.SCHEMA.newStruct().set(ListOffsetsApi.Request.REPLICA_ID, -1)
                .set(ListOffsetsApi.Request.ISOLATION_LEVEL, isolation);
        request.add(ListOffsetsApi.Request.TOPICS).set(ListOffsetsTopic.NAME, "orders").add(ListOffsetsTopic.PARTITIONS)
                .set(ListOffsetsPartition.PARTITION_INDEX, 0).set(ListOffsetsPartition.TIMESTAMP, timestamp);
        Struct p = fx.callAndWait(listOffsets, 7, request).get(ListOffsetsApi.Response.TOPICS).get(0)
                .get(ListOffsetsTopicResponse.PARTITIONS).get(0);
        assertThat(p.get(ListOffsetsPartitionResponse.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        return p.get(ListOffsetsPartitionResponse.OFFSET);
    }

    private static Struct marker(long pid, short epoch, boolean commit, int coordinatorEpoch, String topic,
            Integer... partitions) {
        Struct marker = WritableTxnMarker.SCHEMA.newStruct().set(WritableTxnMarker.PRODUCER_ID, pid)
                .set(WritableTxnMarker.PRODUCER_EPOCH, epoch).set(WritableTxnMarker.TRANSACTION_RESULT, commit)
                .set(WritableTxnMarker.COORDINATOR_EPOCH, coordinatorEpoch)
                .set(WritableTxnMarker.TRANSACTION_VERSION, (byte) 0);
        marker.add(WritableTxnMarker.TOPICS).set(WritableTxnMarkerTopic.NAME, topic)
                .set(WritableTxnMarkerTopic.PARTITION_INDEXES, List.of(partitions));
        return marker;
    }

    private static Struct markers(Struct... markers) {
        return WriteTxnMarkersApi.Request.SCHEMA.newStruct().set(WriteTxnMarkersApi.Request.MARKERS,
                new ArrayList<>(List.of(markers)));
    }

    /** "producerId:topic-partition=ERROR" for every partition result, in response order. */
    private static List<String> results(Struct response) {
        List<String> out = new ArrayList<>();
        for (Struct m : response.get(WriteTxnMarkersApi.Response.MARKERS)) {
            for (Struct t : m.get(WritableTxnMarkerResult.TOPICS)) {
                for (Struct p : t.get(WritableTxnMarkerTopicResult.PARTITIONS)) {
                    out.add(m.get(WritableTxnMarkerResult.PRODUCER_ID) + ":" + t.get(WritableTxnMarkerTopicResult.NAME)
                            + "-" + p.get(WritableTxnMarkerPartitionResult.PARTITION_INDEX) + "="
                            + ErrorCode.forCode(p.get(WritableTxnMarkerPartitionResult.ERROR_CODE)));
                }
            }
        }
        return out;
    }

    private static Struct describeProducers(String topic, Integer... partitions) {
        Struct request = DescribeProducersApi.Request.SCHEMA.newStruct();
        request.add(DescribeProducersApi.Request.TOPICS).set(DescribeProducersApi.Request.TopicRequest.NAME, topic)
                .set(DescribeProducersApi.Request.TopicRequest.PARTITION_INDEXES, List.of(partitions));
        return request;
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
}
