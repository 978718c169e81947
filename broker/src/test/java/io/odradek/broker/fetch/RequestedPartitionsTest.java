package io.odradek.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.api.FetchApi.Request;
import io.odradek.wire.api.FetchApi.Request.FetchTopic;
import io.odradek.wire.api.FetchApi.Request.FetchTopic.FetchPartition;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RequestedPartitionsTest {
    final Struct request = Request.SCHEMA.newStruct();

    Struct topic(String name) {
        return request.add(Request.TOPICS).set(FetchTopic.TOPIC, name);
    }

    static Struct partition(Struct topic, int index, long offset) {
        return topic.add(FetchTopic.PARTITIONS).set(FetchPartition.PARTITION, index).set(FetchPartition.FETCH_OFFSET, offset);
    }

    /** "topic-partition@offset" per partition visited. */
    List<String> visited(boolean byId) {
        List<String> out = new ArrayList<>();
        RequestedPartitions.forEach(request.get(Request.TOPICS), byId, id -> "named-" + id,
                (id, name, part) -> out.add(name + "-" + part.get(FetchPartition.PARTITION) + "@"
                        + part.get(FetchPartition.FETCH_OFFSET)));
        return out;
    }

    @Test
    void aRequestNamingEachPartitionOnceIsVisitedAsItIs() {
        Struct orders = topic("orders");
        for (int p = 0; p < 200; p += 3) {
            partition(orders, p, p);
        }
        partition(topic("audit"), 0, 9L);

        assertThat(RequestedPartitions.namesAPartitionTwice(request.get(Request.TOPICS), false)).isFalse();
        assertThat(visited(false)).hasSize(68).startsWith("orders-0@0", "orders-3@3").endsWith("audit-0@9");
    }

    @Test
    void aPartitionNamedTwiceInOneTopicIsVisitedOnceAtItsFirstPlaceWithItsLastOffset() {
        Struct orders = topic("orders");
        partition(orders, 1, 5L);
        partition(orders, 2, 0L);
        partition(orders, 1, 7L);

        assertThat(visited(false)).containsExactly("orders-1@7", "orders-2@0");
    }

    @Test
    void duplicatesAboveTheBitMaskAndAcrossTopicEntriesAreFound() {
        Struct first = topic("orders");
        partition(first, 100, 1L);
        partition(first, 5000, 1L);
        partition(first, 100, 2L);
        assertThat(visited(false)).containsExactly("orders-100@2", "orders-5000@1");

        Struct second = topic("orders");
        partition(second, 5000, 3L);
        assertThat(visited(false)).containsExactly("orders-100@2", "orders-5000@3");
    }

    @Test
    void manyTopicEntriesNamingOneTopicTwiceAreFoundThroughTheSet() {
        for (int t = 0; t < 40; t++) {
            partition(topic("t" + t), 0, 0L);
        }
        partition(topic("t7"), 0, 4L);

        List<String> visited = visited(false);
        assertThat(visited).hasSize(40).contains("t7-0@4").doesNotContain("t7-0@0");
        assertThat(visited.get(7)).isEqualTo("t7-0@4");
    }

    @Test
    void byIdTheTopicIdIsTheKeyAndNamesAreResolvedOncePerEntry() {
        UUID id = UUID.randomUUID();
        Struct a = request.add(Request.TOPICS).set(FetchTopic.TOPIC_ID, id);
        partition(a, 0, 1L);
        Struct b = request.add(Request.TOPICS).set(FetchTopic.TOPIC_ID, id);
        partition(b, 0, 2L);
        partition(b, 1, 2L);

        assertThat(visited(true)).containsExactly("named-" + id + "-0@2", "named-" + id + "-1@2");
    }
}
