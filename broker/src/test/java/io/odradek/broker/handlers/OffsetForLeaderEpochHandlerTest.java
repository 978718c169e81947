package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Request;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Request.OffsetForLeaderTopic;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Request.OffsetForLeaderTopic.OffsetForLeaderPartition;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Response;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Response.OffsetForLeaderTopicResult;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Response.OffsetForLeaderTopicResult.EpochEndOffset;
import io.odradek.wire.schema.Struct;
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

    // ------------------------------------------------------------------ helpers

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
