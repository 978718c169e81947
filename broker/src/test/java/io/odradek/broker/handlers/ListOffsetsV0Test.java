package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.segment.Segment;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ListOffsetsApi;
import io.odradek.wire.schema.Struct;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ListOffsets v0 as a pre-0.10.1 client sees it: request bytes written as such a client writes them, decoded
 * and answered through our codec, and the v0 response (offsets arrays, no throttle time) read back by hand.
 */
class ListOffsetsV0Test {
    /** Last-modified times of the three segments, fixed so that timestamps between them are exact. */
    private static final long T0 = 1_000_000_000_000L;
    private static final long T2 = T0 + 60_000;
    private static final long T3 = T0 + 120_000;
    private static final int CONSUMER = -1;

    @TempDir
    Path dir;
    DataPathFixture fx;
    ListOffsetsHandler handler;

    @BeforeEach
    void setUp() throws IOException {
        fx = new DataPathFixture(dir);
        handler = new ListOffsetsHandler(fx.partitions, fx.cluster);
        // Every batch is bigger than the segment size: one segment per batch.
        fx.createTopic("events", 2, Map.of("segment.bytes", "61"));
        long now = System.currentTimeMillis();
        fx.append("events", 0, now, "a", "b");   // offsets 0-1, segment 0
        fx.append("events", 0, now, "c");        // offset 2, segment 2
        fx.append("events", 0, now, "d", "e");   // offsets 3-4, segment 3 (active)
        assertThat(fx.log("events", 0).segmentBaseOffsets()).containsExactly(0L, 2L, 3L);
        touch("events", 0L, T0);
        touch("events", 2L, T2);
        touch("events", 3L, T3);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void latestAndEarliestAskingOneOffsetAreTheLogEndAndTheLogStart() {
        assertThat(list(CONSUMER, "events", 0, -1L, 1)).containsExactly("events-0 NONE [5]");
        assertThat(list(CONSUMER, "events", 0, -2L, 1)).containsExactly("events-0 NONE [0]");
    }

    @Test
    void moreOffsetsListTheSegmentStartsBelowNewestFirst() {
        assertThat(list(CONSUMER, "events", 0, -1L, 10)).containsExactly("events-0 NONE [5, 3, 2, 0]");
        assertThat(list(CONSUMER, "events", 0, -1L, 2)).containsExactly("events-0 NONE [5, 3]");
        assertThat(list(CONSUMER, "events", 0, -2L, 10)).containsExactly("events-0 NONE [0]");
        assertThat(list(CONSUMER, "events", 0, -1L, 0)).containsExactly("events-0 NONE []");
    }

    @Test
    void aTimestampStartsFromTheLastSegmentModifiedAtOrBeforeIt() {
        assertThat(list(CONSUMER, "events", 0, T2, 10)).containsExactly("events-0 NONE [2, 0]");
        assertThat(list(CONSUMER, "events", 0, T3 - 1, 10)).containsExactly("events-0 NONE [2, 0]");
        assertThat(list(CONSUMER, "events", 0, T2 - 1, 10)).containsExactly("events-0 NONE [0]");
        assertThat(list(CONSUMER, "events", 0, T0 - 1, 10)).containsExactly("events-0 NONE []");
        // Later than now: the log end (stamped now) counts too.
        assertThat(list(CONSUMER, "events", 0, Long.MAX_VALUE, 3)).containsExactly("events-0 NONE [5, 3, 2]");
    }

    @Test
    void anEmptyPartitionAnswersItsOnlyOffsetForBothLatestAndEarliest() {
        assertThat(list(CONSUMER, "events", 1, -1L, 5)).containsExactly("events-1 NONE [0]");
        assertThat(list(CONSUMER, "events", 1, -2L, 5)).containsExactly("events-1 NONE [0]");
    }

    @Test
    void newerSentinelsUnknownPartitionsAndANegativeCountAreErrorsWithNoOffsets() {
        assertThat(list(CONSUMER, "events", 0, -3L, 1)).containsExactly("events-0 UNSUPPORTED_VERSION []");
        assertThat(list(CONSUMER, "nope", 0, -1L, 1)).containsExactly("nope-0 UNKNOWN_TOPIC_OR_PARTITION []");
        assertThat(list(CONSUMER, "events", 9, -1L, 1)).containsExactly("events-9 UNKNOWN_TOPIC_OR_PARTITION []");
        assertThat(list(CONSUMER, "events", 0, -1L, -1)).containsExactly("events-0 UNKNOWN_SERVER_ERROR []");
    }

    @Test
    void aConsumerSeesTheHighWatermarkInPlaceOfOffsetsAboveItAndAReplicaTheLogEnd() {
        fx.createTopicWithLaggingFollower("lagging", 1);
        fx.log("lagging", 0).append(DataPathFixture.batch(1_000L, "a", "b"), 0); // log end 2, high watermark 0

        // Kafka 3.9's consumer view: the high watermark first, then the offsets at or below it.
        assertThat(list(CONSUMER, "lagging", 0, -1L, 3)).containsExactly("lagging-0 NONE [0, 0]");
        assertThat(list(2, "lagging", 0, -1L, 3)).containsExactly("lagging-0 NONE [2, 0]");
        assertThat(list(-2, "lagging", 0, -1L, 1)).containsExactly("lagging-0 NONE [2]");
    }

    @Test
    void offsetsBelowTheLogStartAreRaisedToIt() {
        List<ListOffsetsV0.SegmentTime> segments = List.of(new ListOffsetsV0.SegmentTime(0, T0),
                new ListOffsetsV0.SegmentTime(2, T2), new ListOffsetsV0.SegmentTime(3, T3));

        assertThat(ListOffsetsV0.offsetsBefore(segments, true, 1, 5, T3 + 1, -2L, 4)).containsExactly(1L);
        assertThat(ListOffsetsV0.offsetsBefore(segments, true, 1, 5, T3 + 1, -1L, 4)).containsExactly(5L, 3L, 2L, 1L);
        // An empty active segment adds no log-end candidate.
        assertThat(ListOffsetsV0.offsetsBefore(segments, false, 0, 3, T3 + 1, -1L, 4)).containsExactly(3L, 2L, 0L);
    }

    // ------------------------------------------------------------------ helpers

    /** "topic-partition ERROR [offsets]" per answered partition, from the v0 response bytes. */
    private List<String> list(int replicaId, String topic, int partition, long timestamp, int maxNumOffsets) {
        byte[] body = new WireRoundTrip.Body().int32(replicaId)
                .int32(1).string(topic)
                .int32(1).int32(partition).int64(timestamp).int32(maxNumOffsets)
                .toArray();
        Struct request = WireRoundTrip.decodeRequest(ListOffsetsApi.SPEC, 0, body);
        Struct response = fx.callAndWait(handler, 0, request);
        ByteBuffer in = WireRoundTrip.responseBody(ListOffsetsApi.SPEC, 0, response);

        List<String> out = new ArrayList<>();
        for (int t = in.getInt(); t > 0; t--) {
            String name = WireRoundTrip.string(in);
            for (int p = in.getInt(); p > 0; p--) {
                int index = in.getInt();
                ErrorCode error = ErrorCode.forCode(in.getShort());
                out.add(name + "-" + index + " " + error + " " + WireRoundTrip.int64s(in));
            }
        }
        assertThat(in.remaining()).as("bytes after the v0 body (v0 has no throttle time)").isZero();
        return out;
    }

    private void touch(String topic, long baseOffset, long millis) throws IOException {
        Path file = fx.log(topic, 0).dir().resolve(Segment.fileName(baseOffset) + Segment.LOG_SUFFIX);
        Files.setLastModifiedTime(file, FileTime.fromMillis(millis));
    }
}
