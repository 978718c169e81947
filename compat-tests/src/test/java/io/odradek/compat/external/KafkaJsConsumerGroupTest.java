package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.odradek.compat.OdradekBroker;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * KafkaJS 2.2.4 consumer groups: two members split a topic's partitions (JoinGroup v5, SyncGroup v3,
 * Heartbeat v3), each message reaches exactly one of them, and their commits (OffsetCommit v5) let a later
 * member of the group carry on where they stopped (OffsetFetch v4).
 */
@ExtendWith(ExternalClients.class)
class KafkaJsConsumerGroupTest {
    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withConfig(Map.of("group.initial.rebalance.delay.ms", "0"));

    private final KafkaJs kafkajs = new KafkaJs(broker);

    @Test
    void twoMembersSplitTheTopicAndALaterMemberResumesFromTheirCommits() throws Exception {
        broker.createTopic("js-group", 4);

        // Messages are sent only once both members hold their share, so no rebalance splits a delivery.
        KafkaJs.Run shared = kafkajs.consume(Map.of("topic", "js-group", "groupId", "js-group-1", "members", 2,
                "partitions", 4, "expect", 40, "produce", messages(0, 40)));

        Map<Integer, Integer> owner = owners(shared.events("ready").get(0).get("assignments"));
        assertThat(owner).as(shared.describe()).hasSize(4);
        assertThat(owner.values()).as("each member holds two partitions").containsOnly(0, 1)
                .filteredOn(m -> m == 0).hasSize(2);
        List<JsonNode> received = shared.events("message");
        assertThat(received).as(shared.describe())
                .extracting(m -> m.get("key").asText() + "=" + m.get("value").asText())
                .containsExactlyInAnyOrderElementsOf(pairs(0, 40));
        assertThat(received).as("each message went to the member that owns its partition")
                .allSatisfy(m -> assertThat(m.get("member").asInt()).isEqualTo(owner.get(m.get("partition").asInt())));
        Map<Integer, Long> nextOffset = nextOffsets(received);

        kafkajs.produce("js-group", "none", List.of(messages(40, 48)));
        KafkaJs.Run resumed = kafkajs.consume(Map.of("topic", "js-group", "groupId", "js-group-1", "expect", 8));

        List<JsonNode> later = resumed.events("message");
        assertThat(later).as(resumed.describe())
                .extracting(m -> m.get("key").asText() + "=" + m.get("value").asText())
                .containsExactlyInAnyOrderElementsOf(pairs(40, 48));
        Map<Integer, Long> firstLater = new HashMap<>();
        later.forEach(m -> firstLater.merge(m.get("partition").asInt(), m.get("offset").asLong(), Math::min));
        assertThat(firstLater).as("the new member starts at each partition's committed offset")
                .allSatisfy((p, offset) -> assertThat(offset).isEqualTo(nextOffset.getOrDefault(p, 0L)));
    }

    private static List<Map<String, Object>> messages(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(i -> KafkaJs.message("key-" + i, "value-" + i, Map.of("n", Integer.toString(i))))
                .toList();
    }

    private static List<String> pairs(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "key-" + i + "=value-" + i).toList();
    }

    /** partition -> member index, from the "ready" event's {member: [partitions]}. */
    private static Map<Integer, Integer> owners(JsonNode assignments) {
        Map<Integer, Integer> owner = new HashMap<>();
        assignments.properties().forEach(e -> e.getValue()
                .forEach(p -> owner.put(p.asInt(), Integer.parseInt(e.getKey()))));
        return owner;
    }

    /** For each partition, one past the highest offset consumed: where its committed offset should be. */
    private static Map<Integer, Long> nextOffsets(List<JsonNode> messages) {
        Map<Integer, Long> next = new HashMap<>();
        for (JsonNode m : messages) {
            next.merge(m.get("partition").asInt(), m.get("offset").asLong() + 1, Math::max);
        }
        return next;
    }
}
