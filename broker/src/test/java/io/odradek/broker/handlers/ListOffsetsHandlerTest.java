package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ListOffsetsApi.Request;
import io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic;
import io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition;
import io.odradek.wire.api.ListOffsetsApi.Response;
import io.odradek.wire.api.ListOffsetsApi.Response.ListOffsetsTopicResponse;
import io.odradek.wire.api.ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListOffsetsHandlerTest {
    @TempDir
    Path dir;
    DataPathFixture fx;
    ListOffsetsHandler handler;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        handler = new ListOffsetsHandler(fx.partitions, fx.cluster);
        fx.createTopic("events", 2);
        fx.append("events", 0, 1_000L, "a", "b");   // offsets 0-1
        fx.append("events", 0, 5_000L, "c");        // offset 2, the max timestamp
        fx.append("events", 0, 3_000L, "d", "e");   // offsets 3-4
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void latestIsTheHighWatermarkAndEarliestTheLogStart() {
        assertThat(list(11, -1L)).isEqualTo(new Answer(ErrorCode.NONE, -1L, 5L, 0));
        assertThat(list(11, -2L)).isEqualTo(new Answer(ErrorCode.NONE, -1L, 0L, 0));
        assertThat(list(8, -4L)).isEqualTo(new Answer(ErrorCode.NONE, -1L, 0L, 0));
        assertThat(list(1, -1L)).isEqualTo(new Answer(ErrorCode.NONE, -1L, 5L, -1)); // v1 has no leader epoch
    }

    @Test
    void anEmptyPartitionHasNoEarliestEpoch() {
        assertThat(list(11, "events", 1, -2L)).isEqualTo(new Answer(ErrorCode.NONE, -1L, 0L, -1));
        assertThat(list(11, "events", 1, -1L)).isEqualTo(new Answer(ErrorCode.NONE, -1L, 0L, 0));
        assertThat(list(11, "events", 1, -3L)).isEqualTo(new Answer(ErrorCode.NONE, -1L, -1L, -1));
        assertThat(list(11, "events", 1, 0L)).isEqualTo(new Answer(ErrorCode.NONE, -1L, -1L, -1));
    }

    @Test
    void maxTimestampFindsTheBatchWithTheLargestTimestamp() {
        assertThat(list(7, -3L)).isEqualTo(new Answer(ErrorCode.NONE, 5_000L, 2L, 0));
    }

    @Test
    void byTimestampFindsTheFirstBatchAtOrAfterIt() {
        assertThat(list(11, 0L)).isEqualTo(new Answer(ErrorCode.NONE, 1_000L, 0L, 0));
        assertThat(list(11, 1_001L)).isEqualTo(new Answer(ErrorCode.NONE, 5_000L, 2L, 0));
        assertThat(list(11, 5_000L)).isEqualTo(new Answer(ErrorCode.NONE, 5_000L, 2L, 0));
        assertThat(list(11, 5_001L)).isEqualTo(new Answer(ErrorCode.NONE, -1L, -1L, -1));
    }

    @Test
    void tieredSentinelsHaveNoOffsetWithoutRemoteStorage() {
        assertThat(list(9, -5L)).isEqualTo(new Answer(ErrorCode.NONE, -1L, -1L, -1));
        assertThat(list(11, -6L)).isEqualTo(new Answer(ErrorCode.NONE, -1L, -1L, -1));
    }

    @Test
    void sentinelsNewerThanTheRequestVersionAreUnsupported() {
        assertThat(list(6, -3L).error()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION);
        assertThat(list(7, -4L).error()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION);
        assertThat(list(8, -5L).error()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION);
        assertThat(list(10, -6L).error()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION);
        assertThat(list(11, -7L).error()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION);
    }

    @Test
    void unknownTopicOrPartitionAndDuplicatesAreErrors() {
        assertThat(list(11, "nope", 0, -1L).error()).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(list(11, "events", 5, -1L).error()).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);

        Struct request = request(-1L, "events", 0);
        request.get(Request.TOPICS).get(0).add(ListOffsetsTopic.PARTITIONS)
                .set(ListOffsetsPartition.PARTITION_INDEX, 0).set(ListOffsetsPartition.TIMESTAMP, -2L);
        Struct response = fx.callAndWait(handler, 11, request);
        assertThat(response.get(Response.TOPICS).get(0).get(ListOffsetsTopicResponse.PARTITIONS))
                .extracting(p -> ErrorCode.forCode(p.get(ListOffsetsPartitionResponse.ERROR_CODE)))
                .containsExactly(ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_REQUEST);
    }

    @Test
    void readCommittedWithoutOpenTransactionsAnswersTheHighWatermark() {
        Struct request = request(-1L, "events", 0).set(Request.ISOLATION_LEVEL, (byte) 1);
        assertThat(answer(fx.callAndWait(handler, 5, request))).isEqualTo(new Answer(ErrorCode.NONE, -1L, 5L, 0));
    }

    record Answer(ErrorCode error, long timestamp, long offset, int leaderEpoch) {
    }

    private Answer list(int version, long timestamp) {
        return list(version, "events", 0, timestamp);
    }

    private Answer list(int version, String topic, int partition, long timestamp) {
        Struct response = fx.callAndWait(handler, version, request(timestamp, topic, partition));
        Answer answer = answer(response);
        // Fields a version lacks are not sent: report them as the client would read them.
        return version < 4 ? new Answer(answer.error(), answer.timestamp(), answer.offset(), -1) : answer;
    }

    private static Answer answer(Struct response) {
        Struct p = response.get(Response.TOPICS).get(0).get(ListOffsetsTopicResponse.PARTITIONS).get(0);
        return new Answer(ErrorCode.forCode(p.get(ListOffsetsPartitionResponse.ERROR_CODE)),
                p.get(ListOffsetsPartitionResponse.TIMESTAMP), p.get(ListOffsetsPartitionResponse.OFFSET),
                p.get(ListOffsetsPartitionResponse.LEADER_EPOCH));
    }

    private static Struct request(long timestamp, String topic, int partition) {
        Struct request = Request.SCHEMA.newStruct().set(Request.REPLICA_ID, -1).set(Request.ISOLATION_LEVEL, (byte) 0);
        request.add(Request.TOPICS).set(ListOffsetsTopic.NAME, topic).add(ListOffsetsTopic.PARTITIONS)
                .set(ListOffsetsPartition.PARTITION_INDEX, partition).set(ListOffsetsPartition.TIMESTAMP, timestamp);
        return request;
    }
}
