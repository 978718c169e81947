package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.OffsetForLeaderEpochApi;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Request;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Request.OffsetForLeaderTopic;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Request.OffsetForLeaderTopic.OffsetForLeaderPartition;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Response;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Response.OffsetForLeaderTopicResult;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Response.OffsetForLeaderTopicResult.EpochEndOffset;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OffsetForLeaderEpoch on a single node: every batch carries leader epoch 0, this broker leads everything. */
class OffsetForLeaderEpochHandlerTest {
    @TempDir
    Path dir;
    DataPathFixture fx;
    OffsetForLeaderEpochHandler handler;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        handler = new OffsetForLeaderEpochHandler(fx.partitions, fx.cluster);
        fx.createTopic("events", 2);
        fx.append("events", 0, 1_000L, "a", "b");
        fx.append("events", 0, 2_000L, "c");
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void epochZeroEndsAtTheLogEndOnOneNode() {
        Struct response = fx.callAndWait(handler, 4, request(-1, "events", 0, 0, 0));

        assertThat(answers(response)).containsExactly("events-0 NONE epoch 0 end 3");
    }

    @Test
    void aFollowerAsksTheSameWayWithItsReplicaId() {
        Struct request = request(2, "events", 0, 0, 0);
        addTopic(request, "events", 1, 0, 0);

        Struct response = fx.callAndWait(handler, 3, request);

        // Partition 1 has no batches: no epoch history, so Kafka answers no error and undefined epoch and offset.
        assertThat(answers(response)).containsExactly("events-0 NONE epoch 0 end 3", "events-1 NONE epoch -1 end -1");
    }

    @Test
    void aConsumerWithANewerLeaderEpochThanOursGetsUnknownLeaderEpoch() {
        Struct response = fx.callAndWait(handler, 4, request(-1, "events", 0, 5, 0));

        assertThat(answers(response)).containsExactly("events-0 UNKNOWN_LEADER_EPOCH epoch -1 end -1");
    }

    @Test
    void anUnknownTopicOrPartitionIsUnknownTopicOrPartition() {
        Struct request = request(-1, "nope", 0, -1, 0);
        addTopic(request, "events", 7, -1, 0);

        Struct response = fx.callAndWait(handler, 2, request);

        assertThat(answers(response)).containsExactly("nope-0 UNKNOWN_TOPIC_OR_PARTITION epoch -1 end -1",
                "events-7 UNKNOWN_TOPIC_OR_PARTITION epoch -1 end -1");
        assertThat(response.get(Response.THROTTLE_TIME_MS)).isZero();
    }

    @Test
    void oldClientsAskWithoutCurrentEpochAndV0AnswersWithoutTheLeaderEpoch() {
        // v0-1 (Kafka 3.9's minimum, dropped by Kafka 4): no replica id, no current leader epoch, no throttle
        // time; v0 answers error, partition and end offset only.
        assertThat(oldClientAnswers(0, "events", 0, 0)).containsExactly("events-0 NONE end 3");
        assertThat(oldClientAnswers(1, "events", 0, 0)).containsExactly("events-0 NONE epoch 0 end 3");
        assertThat(oldClientAnswers(0, "events", 1, 0)).containsExactly("events-1 NONE end -1");
        assertThat(oldClientAnswers(1, "nope", 0, 0)).containsExactly("nope-0 UNKNOWN_TOPIC_OR_PARTITION epoch -1 end -1");
    }

    // ------------------------------------------------------------------ helpers

    /** One partition asked at v0 or v1 in the bytes such a client writes; the answers read from the response bytes. */
    private List<String> oldClientAnswers(int version, String topic, int partition, int leaderEpoch) {
        byte[] body = new WireRoundTrip.Body().int32(1).string(topic).int32(1).int32(partition).int32(leaderEpoch)
                .toArray();
        Struct request = WireRoundTrip.decodeRequest(OffsetForLeaderEpochApi.SPEC, version, body);
        ByteBuffer in = WireRoundTrip.responseBody(OffsetForLeaderEpochApi.SPEC, version,
                fx.callAndWait(handler, version, request));
        List<String> out = new ArrayList<>();
        for (int t = in.getInt(); t > 0; t--) {
            String name = WireRoundTrip.string(in);
            for (int p = in.getInt(); p > 0; p--) {
                ErrorCode error = ErrorCode.forCode(in.getShort());
                int index = in.getInt();
                String epoch = version >= 1 ? " epoch " + in.getInt() : "";
                out.add(name + "-" + index + " " + error + epoch + " end " + in.getLong());
            }
        }
        assertThat(in.remaining()).as("bytes after the v%d body", version).isZero();
        return out;
    }

    static Struct request(int replicaId, String topic, int partition, int currentLeaderEpoch, int leaderEpoch) {
        Struct request = Request.SCHEMA.newStruct().set(Request.REPLICA_ID, replicaId);
        addTopic(request, topic, partition, currentLeaderEpoch, leaderEpoch);
        return request;
    }

    static void addTopic(Struct request, String topic, int partition, int currentLeaderEpoch, int leaderEpoch) {
        request.add(Request.TOPICS).set(OffsetForLeaderTopic.TOPIC, topic)
                .add(OffsetForLeaderTopic.PARTITIONS)
                .set(OffsetForLeaderPartition.PARTITION, partition)
                .set(OffsetForLeaderPartition.CURRENT_LEADER_EPOCH, currentLeaderEpoch)
                .set(OffsetForLeaderPartition.LEADER_EPOCH, leaderEpoch);
    }

    /** "topic-partition ERROR epoch E end O" per answered partition, in response order. */
    static List<String> answers(Struct response) {
        List<String> out = new ArrayList<>();
        for (Struct topic : response.get(Response.TOPICS)) {
            for (Struct p : topic.get(OffsetForLeaderTopicResult.PARTITIONS)) {
                out.add(topic.get(OffsetForLeaderTopicResult.TOPIC) + "-" + p.get(EpochEndOffset.PARTITION) + " "
                        + ErrorCode.forCode(p.get(EpochEndOffset.ERROR_CODE)) + " epoch "
                        + p.get(EpochEndOffset.LEADER_EPOCH) + " end " + p.get(EpochEndOffset.END_OFFSET));
            }
        }
        return out;
    }

}
