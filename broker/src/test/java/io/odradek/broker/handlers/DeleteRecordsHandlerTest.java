package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.LogConfig;
import io.odradek.log.OffsetOutOfRangeException;
import io.odradek.replication.partition.FetchIsolation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DeleteRecordsApi.Request;
import io.odradek.wire.api.DeleteRecordsApi.Request.DeleteRecordsTopic;
import io.odradek.wire.api.DeleteRecordsApi.Request.DeleteRecordsTopic.DeleteRecordsPartition;
import io.odradek.wire.api.DeleteRecordsApi.Response;
import io.odradek.wire.api.DeleteRecordsApi.Response.DeleteRecordsTopicResult;
import io.odradek.wire.api.DeleteRecordsApi.Response.DeleteRecordsTopicResult.DeleteRecordsPartitionResult;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeleteRecordsHandlerTest {
    @TempDir
    Path dir;
    DataPathFixture fx;
    DeleteRecordsHandler handler;
    ListOffsetsHandler listOffsets;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        handler = new DeleteRecordsHandler(fx.partitions, fx.cluster);
        listOffsets = new ListOffsetsHandler(fx.partitions, fx.cluster);
        fx.createTopic("events", 2);
        fx.append("events", 0, 1_000L, "a", "b");   // offsets 0-1
        fx.append("events", 0, 2_000L, "c");        // offset 2
        fx.append("events", 0, 3_000L, "d", "e");   // offsets 3-4
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    record Answer(String topic, int partition, ErrorCode error, long lowWatermark) {
    }

    @Test
    void theLogStartMovesToTheOffsetAndIsTheLowWatermarkAndTheEarliestOffset() {
        for (int version = 0; version <= 2; version++) {
            long offset = 1 + version;
            assertThat(delete(version, 5_000, Map.of(0, offset)))
                    .containsExactly(new Answer("events", 0, ErrorCode.NONE, offset));
            assertThat(fx.partition("events", 0).logStartOffset()).isEqualTo(offset);
        }
        assertThat(earliest("events", 0)).isEqualTo(3L);
        Assertions.assertThatThrownBy(() -> fx.partition("events", 0).read(2L, 1000, FetchIsolation.HIGH_WATERMARK))
                .isInstanceOf(OffsetOutOfRangeException.class);
        assertThat(DataPathFixture.records(fx.partition("events", 0).read(3L, 1000, FetchIsolation.HIGH_WATERMARK)
                .readIntoHeap())).containsExactly("3:k-d=d", "4:k-e=e");
    }

    @Test
    void minusOneDeletesUpToTheHighWatermark() {
        assertThat(delete(2, 5_000, Map.of(0, -1L, 1, -1L))).containsExactly(
                new Answer("events", 0, ErrorCode.NONE, 5L), new Answer("events", 1, ErrorCode.NONE, 0L));
        assertThat(earliest("events", 0)).isEqualTo(5L);
    }

    @Test
    void anOffsetBelowTheLogStartChangesNothingAndAnswersTheLogStart() {
        delete(2, 5_000, Map.of(0, 3L));

        assertThat(delete(2, 5_000, Map.of(0, 1L))).containsExactly(new Answer("events", 0, ErrorCode.NONE, 3L));
        assertThat(earliest("events", 0)).isEqualTo(3L);
    }

    @Test
    void offsetsPastTheHighWatermarkOrBelowMinusOneAreOutOfRange() {
        assertThat(delete(2, 5_000, Map.of(0, 6L, 1, -2L))).containsExactly(
                new Answer("events", 0, ErrorCode.OFFSET_OUT_OF_RANGE, -1L),
                new Answer("events", 1, ErrorCode.OFFSET_OUT_OF_RANGE, -1L));
        assertThat(earliest("events", 0)).isZero();
    }

    @Test
    void unknownInternalAndCompactedPartitionsAreRefused() {
        fx.createTopic("__consumer_offsets", 1);
        fx.createTopic("compacted", 1, Map.of(LogConfig.CLEANUP_POLICY, "compact"));

        Struct request = request(2_000, "events", Map.of(7, 0L));
        addTopic(request, "nope", Map.of(0, 0L));
        addTopic(request, "__consumer_offsets", Map.of(0, 0L));
        addTopic(request, "compacted", Map.of(0, 0L));

        assertThat(answers(fx.callAndWait(handler, 2, request))).containsExactly(
                new Answer("events", 7, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, -1L),
                new Answer("nope", 0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, -1L),
                new Answer("__consumer_offsets", 0, ErrorCode.INVALID_TOPIC_EXCEPTION, -1L),
                new Answer("compacted", 0, ErrorCode.POLICY_VIOLATION, -1L));
    }

    @Test
    void withAFollowerTheAnswerWaitsUntilItsLogStartReachesTheOffset() {
        fx.createTopicWithLaggingFollower("replicated", 1);
        fx.append("replicated", 0, 1_000L, "a", "b", "c");
        fx.partition("replicated", 0).recordFollowerFetch(2, 3L, 0L); // the follower has it all: HWM 3

        CompletableFuture<Struct> pending = fx.call(handler, 2, request(10_000, "replicated", Map.of(0, 2L)));
        DataPathFixture.await(() -> fx.partition("replicated", 0).logStartOffset() == 2L);
        assertThat(pending).isNotDone();

        fx.partition("replicated", 0).recordFollowerFetch(2, 3L, 2L); // its next fetch: it followed

        assertThat(answers(pending.orTimeout(5, TimeUnit.SECONDS).join()))
                .containsExactly(new Answer("replicated", 0, ErrorCode.NONE, 2L));
    }

    @Test
    void aFollowerThatDoesNotFollowInTimeMakesTheAnswerTimeOut() {
        fx.createTopicWithLaggingFollower("replicated", 1);
        fx.append("replicated", 0, 1_000L, "a", "b", "c");
        fx.partition("replicated", 0).recordFollowerFetch(2, 3L, 0L);

        assertThat(delete("replicated", 200, Map.of(0, 2L)))
                .containsExactly(new Answer("replicated", 0, ErrorCode.REQUEST_TIMED_OUT, 0L));
        assertThat(fx.partition("replicated", 0).logStartOffset()).isEqualTo(2L); // deleted all the same
    }

    private List<Answer> delete(int version, int timeoutMs, Map<Integer, Long> offsets) {
        return answers(fx.callAndWait(handler, version, request(timeoutMs, "events", offsets)));
    }

    private List<Answer> delete(String topic, int timeoutMs, Map<Integer, Long> offsets) {
        return answers(fx.callAndWait(handler, 2, request(timeoutMs, topic, offsets)));
    }

    private long earliest(String topic, int partition) {
        Struct request = io.odradek.wire.api.ListOffsetsApi.Request.SCHEMA.newStruct()
                .set(io.odradek.wire.api.ListOffsetsApi.Request.REPLICA_ID, -1);
        request.add(io.odradek.wire.api.ListOffsetsApi.Request.TOPICS)
                .set(io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic.NAME, topic)
                .add(io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic.PARTITIONS)
                .set(io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition.PARTITION_INDEX, partition)
                .set(io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition.TIMESTAMP, -2L);
        Struct response = fx.callAndWait(listOffsets, 7, request);
        return response.get(io.odradek.wire.api.ListOffsetsApi.Response.TOPICS).get(0)
                .get(io.odradek.wire.api.ListOffsetsApi.Response.ListOffsetsTopicResponse.PARTITIONS).get(0)
                .get(io.odradek.wire.api.ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse.OFFSET);
    }

    private static Struct request(int timeoutMs, String topic, Map<Integer, Long> offsets) {
        Struct request = Request.SCHEMA.newStruct().set(Request.TIMEOUT_MS, timeoutMs);
        addTopic(request, topic, offsets);
        return request;
    }

    private static void addTopic(Struct request, String topic, Map<Integer, Long> offsets) {
        Struct t = request.add(Request.TOPICS).set(DeleteRecordsTopic.NAME, topic);
        offsets.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> t.add(DeleteRecordsTopic.PARTITIONS)
                .set(DeleteRecordsPartition.PARTITION_INDEX, e.getKey()).set(DeleteRecordsPartition.OFFSET, e.getValue()));
    }

    private static List<Answer> answers(Struct response) {
        assertThat(response.get(Response.THROTTLE_TIME_MS)).isZero();
        return response.get(Response.TOPICS).stream().flatMap(t -> t.get(DeleteRecordsTopicResult.PARTITIONS).stream()
                .map(p -> new Answer(t.get(DeleteRecordsTopicResult.NAME), p.get(DeleteRecordsPartitionResult.PARTITION_INDEX),
                        ErrorCode.forCode(p.get(DeleteRecordsPartitionResult.ERROR_CODE)),
                        p.get(DeleteRecordsPartitionResult.LOW_WATERMARK)))).toList();
    }
}
