package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.odradek.broker.cluster.TestClusterView;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DescribeTopicPartitionsApi.Request;
import io.odradek.wire.api.DescribeTopicPartitionsApi.Response;
import io.odradek.wire.api.DescribeTopicPartitionsApi.Response.DescribeTopicPartitionsResponseTopic;
import io.odradek.wire.api.DescribeTopicPartitionsApi.Response.DescribeTopicPartitionsResponseTopic.DescribeTopicPartitionsResponsePartition;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DescribeTopicPartitionsHandlerTest {
    @TempDir
    Path dir;
    AdminFixture fx;

    @BeforeEach
    void open() {
        fx = new AdminFixture(dir);
    }

    @AfterEach
    void close() {
        fx.close();
    }

    private Struct call(ClusterImage image, Struct request) {
        return fx.call(new DescribeTopicPartitionsHandler(TestClusterView.of(image, 1, null)), 0, request);
    }

    private static Struct request(int limit, String cursorTopic, int cursorPartition, String... topics) {
        Struct r = Request.SCHEMA.newStruct().set(Request.RESPONSE_PARTITION_LIMIT, limit);
        for (String t : topics) {
            r.add(Request.TOPICS).set(Request.TopicRequest.NAME, t);
        }
        if (cursorTopic != null) {
            r.set(Request.CURSOR, Request.Cursor.SCHEMA.newStruct().set(Request.Cursor.TOPIC_NAME, cursorTopic)
                    .set(Request.Cursor.PARTITION_INDEX, cursorPartition));
        }
        return r;
    }

    /** "topic-partition" of every partition in the response, in order. */
    private static List<String> partitions(Struct response) {
        List<String> all = new ArrayList<>();
        for (Struct t : response.get(Response.TOPICS)) {
            for (Struct p : t.get(DescribeTopicPartitionsResponseTopic.PARTITIONS)) {
                all.add(t.get(DescribeTopicPartitionsResponseTopic.NAME) + "-"
                        + p.get(DescribeTopicPartitionsResponsePartition.PARTITION_INDEX));
            }
        }
        return all;
    }

    private static String cursor(Struct response) {
        Struct c = response.get(Response.NEXT_CURSOR);
        return c == null ? null : c.get(Response.Cursor.TOPIC_NAME) + "-" + c.get(Response.Cursor.PARTITION_INDEX);
    }

    @Test
    void describesLeaderEpochReplicasIsrAndOfflineReplicasHidingFencedLeaders() {
        Struct r = call(ClusterImages.threeBrokers(), request(2000, null, 0, "orders"));

        assertThat(r.get(Response.NEXT_CURSOR)).isNull();
        assertThat(r.get(Response.TOPICS)).singleElement().satisfies(t -> {
            assertThat(t.get(DescribeTopicPartitionsResponseTopic.ERROR_CODE)).isZero();
            assertThat(t.get(DescribeTopicPartitionsResponseTopic.TOPIC_ID)).isEqualTo(ClusterImages.ORDERS_ID);
            assertThat(t.get(DescribeTopicPartitionsResponseTopic.IS_INTERNAL)).isFalse();
            assertThat(t.get(DescribeTopicPartitionsResponseTopic.TOPIC_AUTHORIZED_OPERATIONS))
                    .isEqualTo(MetadataHandler.ALL_TOPIC_OPERATIONS);
            assertThat(t.get(DescribeTopicPartitionsResponseTopic.PARTITIONS)).extracting(
                            p -> p.get(DescribeTopicPartitionsResponsePartition.ERROR_CODE),
                            p -> p.get(DescribeTopicPartitionsResponsePartition.LEADER_ID),
                            p -> p.get(DescribeTopicPartitionsResponsePartition.LEADER_EPOCH),
                            p -> p.get(DescribeTopicPartitionsResponsePartition.REPLICA_NODES),
                            p -> p.get(DescribeTopicPartitionsResponsePartition.ISR_NODES),
                            p -> p.get(DescribeTopicPartitionsResponsePartition.OFFLINE_REPLICAS),
                            p -> p.get(DescribeTopicPartitionsResponsePartition.ELIGIBLE_LEADER_REPLICAS))
                    .containsExactly(
                            tuple((short) 0, 1, 4, List.of(1, 2, 3), List.of(1, 2), List.of(3), List.of()),
                            tuple((short) 0, 2, 2, List.of(2, 3, 1), List.of(2, 1), List.of(3), List.of()),
                            tuple((short) 0, -1, 7, List.of(3, 2), List.of(3), List.of(3), List.of()));
        });
    }

    @Test
    void pagesThroughEveryTopicInNameOrderWithTheCursor() {
        Map<String, Integer> counts = new TreeMap<>(Map.of("b", 2, "a", 3, "c", 1));
        ClusterImage image = ClusterImages.withTopics(counts);

        Struct page1 = call(image, request(2, null, 0));
        assertThat(partitions(page1)).containsExactly("a-0", "a-1");
        assertThat(cursor(page1)).isEqualTo("a-2");

        Struct page2 = call(image, request(2, "a", 2));
        assertThat(partitions(page2)).containsExactly("a-2", "b-0");
        assertThat(cursor(page2)).isEqualTo("b-1");

        Struct page3 = call(image, request(2, "b", 1));
        assertThat(partitions(page3)).containsExactly("b-1", "c-0");
        assertThat(cursor(page3)).isNull();
    }

    @Test
    void aLimitReachedAtTheEndOfATopicPointsTheCursorAtTheNextTopic() {
        ClusterImage image = ClusterImages.withTopics(new TreeMap<>(Map.of("a", 2, "b", 2)));

        Struct r = call(image, request(2, null, 0, "b", "a", "a"));

        assertThat(partitions(r)).containsExactly("a-0", "a-1");
        assertThat(cursor(r)).isEqualTo("b-0");
        // A limit of 0 still describes one partition; above 2000 it is capped.
        assertThat(partitions(call(image, request(0, null, 0)))).containsExactly("a-0");
    }

    @Test
    void theLimitIsCappedAt2000Partitions() {
        ClusterImage image = ClusterImages.withTopics(Map.of("big", 2500));

        Struct r = call(image, request(Integer.MAX_VALUE, null, 0));

        assertThat(partitions(r)).hasSize(2000).endsWith("big-1999");
        assertThat(cursor(r)).isEqualTo("big-2000");
    }

    @Test
    void unknownAndIllegalTopicsAreErrorsWhenNamedAndNeverCreated() {
        Struct r = call(ClusterImages.threeBrokers(), request(2000, null, 0, "nope", "bad/name", "__consumer_offsets"));

        assertThat(r.get(Response.TOPICS)).extracting(t -> t.get(DescribeTopicPartitionsResponseTopic.NAME),
                        t -> t.get(DescribeTopicPartitionsResponseTopic.ERROR_CODE),
                        t -> t.get(DescribeTopicPartitionsResponseTopic.TOPIC_ID),
                        t -> t.get(DescribeTopicPartitionsResponseTopic.IS_INTERNAL),
                        t -> t.get(DescribeTopicPartitionsResponseTopic.PARTITIONS))
                .containsExactly(
                        tuple("__consumer_offsets", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code(), new UUID(0, 0), true, List.of()),
                        tuple("bad/name", ErrorCode.INVALID_TOPIC_EXCEPTION.code(), new UUID(0, 0), false, List.of()),
                        tuple("nope", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code(), new UUID(0, 0), false, List.of()));
        assertThat(fx.topics.topics()).isEmpty();
    }

    @Test
    void aCursorOutsideTheRequestedTopicsIsAnInvalidRequest() {
        Struct r = call(ClusterImages.threeBrokers(), request(2000, "audit", 0, "orders"));
        Struct negative = call(ClusterImages.threeBrokers(), request(2000, "orders", -1, "orders"));

        assertThat(r.get(Response.TOPICS)).extracting(t -> t.get(DescribeTopicPartitionsResponseTopic.NAME),
                        t -> t.get(DescribeTopicPartitionsResponseTopic.ERROR_CODE))
                .containsExactly(tuple("orders", ErrorCode.INVALID_REQUEST.code()));
        assertThat(negative.get(Response.TOPICS)).extracting(t -> t.get(DescribeTopicPartitionsResponseTopic.ERROR_CODE))
                .containsExactly(ErrorCode.INVALID_REQUEST.code());
    }

    @Test
    void aSingleNodeDescribesItselfLeadingEveryPartition() {
        fx.topics.createTopic("orders", 2, Map.of(), false);

        Struct r = fx.call(new DescribeTopicPartitionsHandler(fx.cluster), 0, request(2000, null, 0));

        assertThat(r.get(Response.TOPICS)).singleElement().satisfies(t -> assertThat(
                t.get(DescribeTopicPartitionsResponseTopic.PARTITIONS)).extracting(
                        p -> p.get(DescribeTopicPartitionsResponsePartition.LEADER_ID),
                        p -> p.get(DescribeTopicPartitionsResponsePartition.LEADER_EPOCH),
                        p -> p.get(DescribeTopicPartitionsResponsePartition.REPLICA_NODES),
                        p -> p.get(DescribeTopicPartitionsResponsePartition.OFFLINE_REPLICAS))
                .containsExactly(tuple(1, 0, List.of(1), List.of()), tuple(1, 0, List.of(1), List.of())));
    }
}
