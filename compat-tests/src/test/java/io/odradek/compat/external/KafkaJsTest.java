package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.odradek.compat.OdradekBroker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * KafkaJS 2.2.4 producing and consuming: it speaks Produce v7, Fetch v11, Metadata v6, ListOffsets v3 and
 * the group APIs at JoinGroup v5 / SyncGroup v3 / OffsetCommit v5 / OffsetFetch v4 (its consumer always
 * belongs to a group).
 */
@ExtendWith(ExternalClients.class)
class KafkaJsTest {
    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withConfig(Map.of("group.initial.rebalance.delay.ms", "0"));

    private final KafkaJs kafkajs = new KafkaJs(broker);

    @Test
    void keyedMessagesWithHeadersComeBackWithTheirPartitionsAndOffsets() throws Exception {
        broker.createTopic("js-keyed", 3);
        // Two sends, so each partition gets two batches and offsets continue across them.
        List<Map<String, Object>> first = messages(0, 9);
        List<Map<String, Object>> second = messages(9, 15);

        KafkaJs.Run produced = kafkajs.produce("js-keyed", "none", List.of(first, second));

        assertThat(produced.events("sent")).allSatisfy(e -> assertThat(e.get("errorCode").asInt()).isZero());
        KafkaJs.Run consumed = kafkajs.consume(Map.of("topic", "js-keyed", "groupId", "js-keyed-reader",
                "expect", 15));
        // KafkaJS's default partitioner is Java's murmur2 one, so partitions are known in advance.
        assertThat(received(consumed)).as(consumed.describe())
                .containsExactlyInAnyOrderElementsOf(expected(0, 15, key -> KcatTest.murmur2(key, 3)));
    }

    @Test
    void gzipBatchesAreStoredCompressedAndReadBack() throws Exception {
        broker.createTopic("js-gzip", 1);
        List<Map<String, Object>> batch = messages(0, 10);

        kafkajs.produce("js-gzip", "gzip", List.of(batch));

        KafkaJs.Run consumed = kafkajs.consume(Map.of("topic", "js-gzip", "groupId", "js-gzip-reader", "expect", 10));
        assertThat(received(consumed)).as(consumed.describe())
                .containsExactlyElementsOf(expected(0, 10, key -> 0));
        assertThat(StoredBatches.codecs(broker.partitionDir("js-gzip", 0))).containsExactly("gzip");
    }

    static List<Map<String, Object>> messages(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(i -> KafkaJs.message("key-" + (i % 6), "value-" + i,
                        Map.of("trace", "t-" + i, "source", "kafkajs")))
                .toList();
    }

    /** "key=value partition offset {headers}" for messages from..to, offsets counted per partition. */
    static List<String> expected(int from, int to, ToIntFunction<String> partitionOf) {
        Map<Integer, Integer> next = new HashMap<>();
        List<String> lines = new ArrayList<>();
        for (int i = from; i < to; i++) {
            String key = "key-" + (i % 6);
            int p = partitionOf.applyAsInt(key);
            int offset = next.merge(p, 1, Integer::sum) - 1;
            lines.add(key + "=value-" + i + " " + p + " " + offset + " {source=kafkajs, trace=t-" + i + "}");
        }
        return lines;
    }

    static List<String> received(KafkaJs.Run run) {
        return run.events("message").stream().map(KafkaJsTest::line).toList();
    }

    static String line(JsonNode m) {
        Map<String, String> headers = new TreeMap<>();
        m.get("headers").properties().forEach(h -> headers.put(h.getKey(), h.getValue().asText()));
        return m.get("key").asText() + "=" + m.get("value").asText() + " " + m.get("partition").asInt() + " "
                + m.get("offset").asLong() + " " + headers;
    }
}
